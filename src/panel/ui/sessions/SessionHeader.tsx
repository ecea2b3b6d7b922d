import { sessionTitle } from '../../../core/presentation-eras';
import { visible, visibleLine } from '../common/text';
import { useSelection } from '../navigation/NavigationProvider';
import { useViewModel } from '../store/StoreContext';
import { SessionEraHeader } from './SessionEra';
import { useCopy } from '../common/copy';
import { probeCommandFor } from './probe-command';

export function SessionHeader() {
  const snap = useViewModel().snap;
  const s = useSelection().view?.session;
  const copy = useCopy();
  if (!s) return null;
  const probe = probeCommandFor(snap, s);
  const streams = s.streamIds.map((id) => snap.streams[id]).filter(Boolean);
  const resumes = streams.filter((x) => x!.kind === 'resume').length;
  return (
    <div className="shead" data-testid="session-header">
      <span className="shead-title mono">{visibleLine(sessionTitle(s), 80)}</span>
      <span className="shead-kv">{visibleLine(s.endpoint, 120)}</span>
      <SessionEraHeader snap={snap} session={s} />
      {s.protocolVersion && (
        <span className="shead-kv">
          {'rev '}
          <b>{visibleLine(s.protocolVersion, 30)}</b>
        </span>
      )}
      <span className="shead-kv">
        {'ids: '}
        <b>{`${s.idScheme.kind}${s.idScheme.scope ? ` (${s.idScheme.scope})` : ''}${s.idScheme.override ? ' (override)' : ''}`}</b>
      </span>
      <span className="shead-kv">{`${streams.length} streams${resumes ? ` (${resumes} resumed)` : ''} · ${s.requestIds.length} requests`}</span>
      <span className="shead-kv wrap" data-testid="session-lossless" data-lossless={String(s.lossless)} title={s.lossless ? undefined : visible(s.losslessReasons.join('; '))}>
        {'lossless: '}
        {s.lossless ? <span className="lossless-yes">yes</span> : <span className="lossless-no">NO</span>}
        {!s.lossless && s.losslessReasons.length > 0 && <span className="shead-why">{visible(` — ${s.losslessReasons.join('; ')}`)}</span>}
      </span>
      {(s.chains ?? []).map((c) => (
        <span key={c.rootStreamId} className="shead-kv wrap shead-chain" data-testid="reconnect-chain">
          {visibleLine(
            `reconnect chain${c.requestIds.length ? ` (request ${c.requestIds.join(', ')})` : ''}: ` +
              c.segments
                .map(
                  (g, i) =>
                    `${i ? `→ Last-Event-ID ${g.resumedFrom ?? '(none)'} ` : ''}${g.status !== undefined ? `[${g.status}] ` : ''}${g.events ? `ids ${g.firstId ?? '?'}…${g.lastId ?? '?'}` : 'no events'} (${g.state})`,
                )
                .join(' '),
            400,
          )}
        </span>
      ))}
      {probe && (
        <button
          type="button"
          className="linkbtn small shead-probe"
          data-testid="probe-server"
          title={`Copies a command that probes this server's resumption from a terminal (the panel sends nothing):\n${probe}`}
          onClick={() => copy(probe, 'probe command')}
        >
          Probe this server
        </button>
      )}
      <span className="shead-kv faint shead-evidence" style={{ whiteSpace: 'normal' }}>{visibleLine(`id evidence: ${s.idScheme.evidence}`, 300)}</span>
    </div>
  );
}

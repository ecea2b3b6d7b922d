// The era of a session and its server (issue 12), in the sessions list and the session header:
// a badge (2025 / 2026-07-28 / dual), the evidence, a 2026-07-28 conversation's client, its
// re-issue and MRTR links and its subscriptions with their outage windows. The words are the
// core's (core/presentation-eras.ts), shared with audit and the exports.
import type { AnalysisSnapshot, Session } from '../../../core/model';
import type { ServerInfo } from '../../../core/model-eras';
import { ERA_BADGE, ERA_LABEL, clientText, linkText, serverOf, subscriptionText } from '../../../core/presentation-eras';
import { visible, visibleLine } from '../common/text';

/** "2026-07-28" / "2025"; "dual" when the session's server serves both eras. */
export function EraBadge({ server: srv, session }: { server: ServerInfo | undefined; session: Session }) {
  const dual = srv?.era === 'dual';
  const title = `${ERA_LABEL[session.era]}: ${session.eraEvidence}${srv ? `\nserver: ${ERA_LABEL[srv.era]}${srv.evidence.length ? ` (${srv.evidence.join('; ')})` : ''}` : ''}`;
  return (
    <span className={`pill era era-${session.era}`} data-testid="era-badge" data-era={session.era} data-server-era={srv?.era ?? 'unknown'} title={visible(title)}>
      {dual ? `${ERA_BADGE[session.era]} · dual` : ERA_BADGE[session.era]}
    </span>
  );
}

/** The header's era part: era and evidence, the server's era, the client, links and subscriptions. */
export function SessionEraHeader({ snap, session: s }: { snap: AnalysisSnapshot; session: Session }) {
  const srv = serverOf(snap, s);
  return (
    <>
      <span className="shead-kv wrap" data-testid="session-era" data-era={s.era} data-server-era={srv?.era ?? 'unknown'}>
        {'era: '}
        <b>{ERA_LABEL[s.era]}</b>
        <span className="shead-why">{visibleLine(` — ${s.eraEvidence}`, 300)}</span>
        {srv && <span className="shead-why" title={visible(srv.evidence.join('\n'))}>{visibleLine(`; server ${ERA_LABEL[srv.era]}${srv.evidence.length ? ` (${srv.evidence[0]}${srv.evidence.length > 1 ? ` +${srv.evidence.length - 1}` : ''})` : ''}`, 200)}</span>}
      </span>
      {s.era === 'modern' && (
        <span className="shead-kv">
          {'client: '}
          <b>{visibleLine(clientText(s.client), 80)}</b>
        </span>
      )}
      {(s.links ?? []).map((l) => (
        <span key={`${l.kind}:${l.from}:${l.to}`} className={`shead-kv wrap shead-chain${l.stateAltered ? ' lossless-no' : ''}`} data-testid="request-link" data-kind={l.kind} data-from={l.from} data-to={l.to}>
          {visibleLine(`${l.kind === 'reissue' ? 're-issue' : l.kind === 'carried' ? 'carried forward' : 'MRTR'}: ${linkText(l)}`, 300)}
        </span>
      ))}
      {(s.subscriptions ?? []).map((x) => (
        <span key={x.requestId} className={`shead-kv wrap shead-chain${x.state === 'dropped' && x.coveredBy === undefined ? ' era-dropped' : ''}`} data-testid="subscription" data-state={x.state} data-request-id={x.requestId}>
          {visibleLine(`subscription: ${subscriptionText(x)}`, 300)}
        </span>
      ))}
    </>
  );
}

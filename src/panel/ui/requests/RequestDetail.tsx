import type { FindingCode, RequestInfo } from '../../../core/model';
import { ADVICE_LOSSY, adviceFor, lossDetail, VERDICT_TEXT } from '../../../core/presentation';
import { toolName } from '../common/labels';
import { visible, visibleLine } from '../common/text';
import { JsonTree } from '../events/JsonTree';
import { useNavActions, useSelection } from '../navigation/NavigationProvider';
import { useViewModel } from '../store/StoreContext';
import { missingBetween, notificationSummary } from './notifications';
import { useRequestActions } from './request-actions';
import { responseEvent, VERDICT_CLASS } from './verdicts';
import { RequestLinks } from './RequestLinks';

export function RequestDetail({ req }: { req: RequestInfo }) {
  const vm = useViewModel();
  const snap = vm.snap;
  const { view } = useSelection();
  const act = useNavActions();
  const { requestItems } = useRequestActions();
  const sessionKey = view!.session.key;
  const lane = (id: string | undefined) => (id === undefined ? '?' : (view!.lanes.labels.get(id) ?? 'a stream not in the capture'));
  const d = req.verdict === 'lossy' ? lossDetail(snap, sessionKey, req) : undefined;
  const resp = responseEvent(snap, req);
  const copies = requestItems(snap, req).filter((x) => x !== 'separator');
  return (
    <div className="hsplit" data-testid="request-detail">
      <div>
        <div className="section-h">{visible(`Request ${req.id} · ${req.method}${toolName(req.params)}`)}</div>
        <dl className="kv">
          <dt>verdict</dt>
          <dd className={`prose ${VERDICT_CLASS[req.verdict]}`}>{`${req.verdict} — ${VERDICT_TEXT[req.verdict]}`}</dd>
          {d && (
            <>
              <dt>missing ids</dt>
              <dd className="sev-error">{visible(d.missing ?? 'unknown')}</dd>
              <dt>cumulative</dt>
              <dd>{`${d.accumulated} notifications accumulated${d.implied !== undefined ? `; the ids imply up to ${d.implied}` : ''}`}</dd>
              <dt>what to do</dt>
              <dd className="prose" style={{ fontWeight: 600 }}>{ADVICE_LOSSY}</dd>
            </>
          )}
          {!d && clientAdvice(req.findings) && (
            <>
              <dt>what to do</dt>
              <dd className="prose" style={{ fontWeight: 600 }} data-testid="request-advice">{clientAdvice(req.findings)}</dd>
            </>
          )}
          <dt>findings</dt>
          <dd>{req.findings.join(', ') || '—'}</dd>
          <RequestLinks req={req} />
          <dt>progress token</dt>
          <dd>{req.progressToken !== undefined ? visible(req.progressToken) : '—'}</dd>
          <dt>request stream</dt>
          <dd>
            <button type="button" className="linkbtn inline" onClick={() => act.showStreamInTimeline(req.streamId)}>
              {visibleLine(lane(req.streamId), 120)}
            </button>
          </dd>
          <dt>terminal response</dt>
          <dd>
            {req.response ? `${req.response} on ${visibleLine(lane(req.responseStreamId), 120)}` : 'none'}
            {resp && (
              <>
                {' '}
                <button type="button" className="linkbtn" onClick={() => act.showEvent(resp)}>
                  Show event
                </button>
              </>
            )}
          </dd>
        </dl>
        <div className="actions-row">
          {copies.map((it) => (
            <button key={it.label} type="button" className="linkbtn" disabled={it.disabled} onClick={it.onSelect} data-testid={it.testId ? `detail-${it.testId.replace(/^menu-/, '')}` : undefined}>
              {it.label}
            </button>
          ))}
        </div>
        {req.params !== undefined && (
          <>
            <div className="section-h">Params</div>
            <JsonTree value={req.params} />
          </>
        )}
      </div>
      <div>
        <div className="section-h">{`Notifications (${req.notifications.length})`}</div>
        <div role="list" aria-label="Notifications">
          {req.notifications.slice(0, 1000).map(([sid, idx], i, all) => {
            const e = snap.streams[sid]?.events.at(idx);
            if (!e) return null;
            const prev = i > 0 ? snap.streams[all[i - 1]![0]]?.events.at(all[i - 1]![1]) : undefined;
            const hole = d?.missing && prev ? missingBetween(d.missing, prev.id, e.id) : undefined;
            return (
              <div key={`${sid}:${idx}`} style={{ display: 'contents' }}>
                {hole && (
                  <div role="listitem" className="grid-row row-error" style={{ display: 'block' }} data-testid="notification-gap">
                    <div style={{ border: 0 }}>{visible(`⋯ ids ${hole} never delivered ⋯`)}</div>
                  </div>
                )}
                <div role="listitem" className="grid-row" style={{ gridTemplateColumns: '60px 1fr', display: 'grid' }} onClick={() => act.showEvent({ streamId: sid, index: idx })}>
                  <div className="mono">{e.id !== undefined ? visibleLine(e.id, 20) : '—'}</div>
                  <div>{visibleLine(notificationSummary(e.data), 200)}</div>
                </div>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

/** The advice of the request's first finding that has one (the client findings of issue 19, duplicated output). */
function clientAdvice(codes: readonly FindingCode[]): string | undefined {
  for (const c of codes) {
    const a = c === 'lossy-result-accepted' ? undefined : adviceFor(c);
    if (a) return a;
  }
  return undefined;
}

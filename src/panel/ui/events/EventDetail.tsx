import { memo } from 'react';
import { useCopy } from '../common/copy';
import { eventMethods, eventRpcIds } from '../common/labels';
import { codeSeverity } from '../common/severity';
import { formatClock, visible, visibleLine } from '../common/text';
import { useNavActions } from '../navigation/NavigationProvider';
import type { EventRef } from '../navigation/state';
import { useViewModel } from '../store/StoreContext';
import { jsonText, rawText } from './event-copy';
import { findingMessage } from '../findings/finding-target';
import { JsonTree } from './JsonTree';

const CAP = 256 * 1024;
/** Very large events: show the start (the export has everything). */
function capped(s: string): string {
  return s.length > CAP ? `${s.slice(0, CAP)}\n… ${s.length - CAP} more characters (export the capture to see all)` : s;
}

// Memoized: the events table re-renders on every scroll frame, the selected event's detail does not change.
export const EventDetail = memo(function EventDetail({ ev }: { ev: EventRef }) {
  const vm = useViewModel();
  const act = useNavActions();
  const copy = useCopy();
  const snap = vm.snap;
  const { streamId, index } = ev;
  const s = snap.streams[streamId];
  const e = s?.events.at(index);
  if (!s || !e) return <div className="empty">Select an event to see its raw SSE text and decoded JSON.</div>;
  let json: unknown;
  let jsonOk = false;
  if (e.data.length <= 4_000_000) {
    try {
      json = JSON.parse(e.data);
      jsonOk = true;
    } catch {
      /* not JSON */
    }
  }
  const lane = vm.session(s.sessionKey)?.lanes.labels.get(s.id) ?? s.method;
  return (
    <div className="hsplit" data-testid="event-detail">
      <div>
        <div className="section-h">Event</div>
        <dl className="kv">
          <dt>id</dt>
          <dd>{e.id !== undefined ? visible(e.id) : '(none)'}</dd>
          <dt>event</dt>
          <dd>{visible(e.event)}</dd>
          <dt>stream</dt>
          <dd>
            <button type="button" className="linkbtn inline" onClick={() => act.showEventInTimeline(ev)} title="Show in timeline">
              {visibleLine(lane, 120)}
            </button>
          </dd>
          <dt>JSON-RPC</dt>
          <dd>{visible([eventMethods(e), eventRpcIds(e) && `id ${eventRpcIds(e)}`].filter(Boolean).join(' · ') || '—')}</dd>
          <dt>time</dt>
          <dd>{formatClock(e.t)}</dd>
          {e.findings.length > 0 && (
            <>
              <dt>findings</dt>
              <dd className="prose" data-testid="event-findings">
                {e.findings.map((code) => {
                  const f = snap.findings.find((x) => x.code === code && x.streamId === s.id && x.eventIndex === index) ?? snap.findings.find((x) => x.code === code && x.streamId === s.id);
                  return (
                    <div key={code}>
                      <span className={`mono sev-${f?.severity ?? codeSeverity(code)}`}>{code}</span>
                      {f ? <span>{visible(` — ${findingMessage(vm, f)}`)}</span> : null}
                    </div>
                  );
                })}
              </dd>
            </>
          )}
          {e.duplicate && (
            <>
              <dt>duplicate</dt>
              <dd className="sev-warning">this id was received before in the session</dd>
            </>
          )}
          {e.jsonError && (
            <>
              <dt>data</dt>
              <dd className="sev-warning">{visible(`not JSON: ${e.jsonError}`)}</dd>
            </>
          )}
        </dl>
        <div className="section-h">
          Raw SSE
          <button type="button" className="linkbtn small" onClick={() => copy(rawText(e), 'the raw SSE text')} data-testid="copy-raw">
            Copy
          </button>
        </div>
        <pre className="raw" data-testid="event-raw">{visible(capped(e.raw))}</pre>
      </div>
      <div>
        <div className="section-h">
          Decoded data
          <button type="button" className="linkbtn small" onClick={() => copy(jsonText(e), 'the data as JSON')} data-testid="copy-json">
            Copy
          </button>
        </div>
        {jsonOk ? <JsonTree value={json} /> : <pre className="raw">{visible(capped(e.data))}</pre>}
      </div>
    </div>
  );
});

import type { AnalysisSnapshot, Verdict } from '../../core/model';
import { SevIcon } from './SevIcon';
import { visibleLine } from './text';

const CLS: Record<Verdict, string> = { complete: 'ok', 'complete-unverified': 'sev-warning', lossy: 'sev-error', incomplete: 'sev-error', pending: 'dim' };
const MAX = 200;
const COLS = '70px minmax(160px,1.2fr) 170px 70px minmax(200px,2fr)';

/** Compact requests list under the timeline (the first screen); a row opens the Requests view. */
export function RequestsSummary({ snap, sessionKey, onOpen }: { snap: AnalysisSnapshot; sessionKey: string; onOpen(id: string): void }) {
  const reqs = snap.requests[sessionKey] ?? [];
  if (!reqs.length) return null;
  return (
    <div className="tl-reqs grid" role="grid" aria-label="Requests summary" data-testid="requests-summary">
      <div className="grid-head" role="row" style={{ gridTemplateColumns: COLS }}>
        <div role="columnheader">Request</div>
        <div role="columnheader">Method</div>
        <div role="columnheader">Verdict</div>
        <div role="columnheader" className="num">Events</div>
        <div role="columnheader">Findings</div>
      </div>
      <div role="rowgroup">
        {reqs.slice(0, MAX).map((r, i) => {
          const tool = (r.params as { name?: unknown } | undefined)?.name;
          return (
            <div
              key={r.id}
              role="row"
              tabIndex={0}
              className={`grid-row${i % 2 ? ' odd' : ''}${r.verdict === 'lossy' || r.verdict === 'incomplete' ? ' row-error' : ''}`}
              style={{ gridTemplateColumns: COLS }}
              onClick={() => onOpen(r.id)}
              onKeyDown={(e) => e.key === 'Enter' && onOpen(r.id)}
              data-testid="summary-request-row"
              data-request-id={r.id}
            >
              <div role="gridcell" className="mono">{visibleLine(r.id, 30)}</div>
              <div role="gridcell">{visibleLine(`${r.method}${typeof tool === 'string' ? ` ${tool}` : ''}`, 80)}</div>
              <div role="gridcell" className={CLS[r.verdict]} data-verdict={r.verdict}>
                {r.verdict === 'lossy' || r.verdict === 'incomplete' ? <SevIcon sev="error" /> : r.verdict === 'complete' ? '✓' : r.verdict === 'complete-unverified' ? '≈' : '…'} {r.verdict}
              </div>
              <div role="gridcell" className="num">{r.notifications.length + (r.response ? 1 : 0)}</div>
              <div role="gridcell">{r.findings.join(', ')}</div>
            </div>
          );
        })}
        {reqs.length > MAX && (
          <div role="row" className="grid-row" style={{ display: 'block' }}>
            <div role="gridcell" className="dim" style={{ border: 0 }}>{`… ${reqs.length - MAX} more requests in the Requests view`}</div>
          </div>
        )}
      </div>
    </div>
  );
}

import type { AnalysisSnapshot, Verdict } from '../../../core/model';
import { useGridColumns, type Column } from '../common/grid';
import { SevIcon } from '../common/SevIcon';
import { visibleLine } from '../common/text';

const CLS: Record<Verdict, string> = { complete: 'ok', 'complete-unverified': 'sev-warning', lossy: 'sev-error', incomplete: 'sev-error', pending: 'dim' };
const MAX = 200;
const COLUMNS: readonly Column[] = [
  { label: 'Request', width: 70 },
  { label: 'Method', width: 160, flex: 1.2 },
  { label: 'Verdict', width: 170 },
  { label: 'Events', width: 70, className: 'num' },
  { label: 'Findings', width: 200, flex: 2 },
];

/** Compact requests list under the timeline (the first screen); a row opens the Requests view. */
export function RequestsSummary({ snap, sessionKey, onOpen }: { snap: AnalysisSnapshot; sessionKey: string; onOpen(id: string): void }) {
  const reqs = snap.requests[sessionKey] ?? [];
  const cols = useGridColumns(COLUMNS);
  if (!reqs.length) return null;
  return (
    <div className="tl-reqs" role="grid" aria-label="Requests summary" aria-rowcount={reqs.length + 1} data-testid="requests-summary" style={cols.style}>
      <div className="grid-canvas" role="presentation">
      {cols.header}
      <div role="rowgroup">
        {reqs.slice(0, MAX).map((r, i) => {
          const tool = (r.params as { name?: unknown } | undefined)?.name;
          return (
            <div
              key={r.id}
              role="row"
              tabIndex={0}
              className={`grid-row${i % 2 ? ' odd' : ''}${r.verdict === 'lossy' || r.verdict === 'incomplete' ? ' row-error' : ''}`}
              aria-rowindex={i + 2}
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
          <div role="row" className="grid-row" style={{ display: 'block' }} aria-rowindex={MAX + 2}>
            <div role="gridcell" className="dim" style={{ border: 0 }}>{`… ${reqs.length - MAX} more requests in the Requests view`}</div>
          </div>
        )}
      </div>
      </div>
    </div>
  );
}

import { useGridColumns, type Column } from '../common/grid';
import { toolName } from '../common/labels';
import { SevIcon } from '../common/SevIcon';
import { visibleLine } from '../common/text';
import { useNavActions, useSelection } from '../navigation/NavigationProvider';
import { isErrorVerdict, VERDICT_CLASS as CLS } from './verdicts';

const MAX = 200;
const COLUMNS: readonly Column[] = [
  { label: 'Request', width: 70 },
  { label: 'Method', width: 160, flex: 1.2 },
  { label: 'Verdict', width: 170 },
  { label: 'Events', width: 70, className: 'num' },
  { label: 'Findings', width: 200, flex: 2 },
];

/** Compact requests list under the timeline (the first screen); a row opens the Requests view. */
export function RequestsSummary() {
  const { view } = useSelection();
  const act = useNavActions();
  const cols = useGridColumns('requests-summary', COLUMNS);
  const reqs = view?.requests ?? [];
  if (!view || !reqs.length) return null;
  const open = (id: string) => act.openRequest(view.session.key, id);
  return (
    <div className="tl-reqs" role="grid" aria-label="Requests summary" aria-rowcount={reqs.length + 1} data-testid="requests-summary" style={cols.style}>
      <div className="grid-canvas" role="presentation">
        {cols.header}
        <div role="rowgroup">
          {reqs.slice(0, MAX).map((r, i) => (
            <div
              key={r.id}
              role="row"
              tabIndex={0}
              className={`grid-row${i % 2 ? ' odd' : ''}${isErrorVerdict(r.verdict) ? ' row-error' : ''}`}
              aria-rowindex={i + 2}
              onClick={() => open(r.id)}
              onKeyDown={(e) => e.key === 'Enter' && open(r.id)}
              data-testid="summary-request-row"
              data-request-id={r.id}
            >
              <div role="gridcell" className="mono">{visibleLine(r.id, 30)}</div>
              <div role="gridcell">{visibleLine(`${r.method}${toolName(r.params)}`, 80)}</div>
              <div role="gridcell" className={CLS[r.verdict]} data-verdict={r.verdict}>
                {isErrorVerdict(r.verdict) ? <SevIcon sev="error" /> : r.verdict === 'complete' ? '✓' : r.verdict === 'complete-unverified' ? '≈' : '…'} {r.verdict}
              </div>
              <div role="gridcell" className="num">{r.notifications.length + (r.response ? 1 : 0)}</div>
              <div role="gridcell">{r.findings.join(', ')}</div>
            </div>
          ))}
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

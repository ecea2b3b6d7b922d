import { memo, useCallback } from 'react';
import type { RequestInfo } from '../../../core/model';
import { useGridColumns, type Column } from '../common/grid';
import { toolName } from '../common/labels';
import { useRenderProbe } from '../common/render-probe';
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

/**
 * What a row shows of its request. Each published snapshot brings new RequestInfo objects for
 * every request of the session, most of them unchanged: a live session of a thousand tool calls
 * would otherwise reconcile its 200 rows with every snapshot.
 */
function sameShown(a: RequestInfo, b: RequestInfo): boolean {
  if (a === b) return true;
  if (a.id !== b.id || a.method !== b.method || a.params !== b.params || a.verdict !== b.verdict) return false;
  if (a.notifications.length !== b.notifications.length || !a.response !== !b.response) return false;
  if (a.findings.length !== b.findings.length) return false;
  for (let i = 0; i < a.findings.length; i++) if (a.findings[i] !== b.findings[i]) return false;
  return true;
}

interface RowProps {
  r: RequestInfo;
  i: number;
  open: (id: string) => void;
}

const SummaryRow = memo(
  function SummaryRow({ r, i, open }: RowProps) {
    useRenderProbe('summary-row');
    return (
      <div
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
    );
  },
  (a, b) => a.i === b.i && a.open === b.open && sameShown(a.r, b.r),
);

/** Compact requests list under the timeline (the first screen); a row opens the Requests view. */
export function RequestsSummary() {
  const { view } = useSelection();
  const act = useNavActions();
  const cols = useGridColumns('requests-summary', COLUMNS);
  const key = view?.session.key;
  const open = useCallback(
    (id: string) => {
      if (key !== undefined) act.openRequest(key, id);
    },
    [act, key],
  );
  const reqs = view?.requests ?? [];
  if (!view || !reqs.length) return null;
  return (
    <div className="tl-reqs" role="grid" aria-label="Requests summary" aria-rowcount={reqs.length + 1} data-testid="requests-summary" style={cols.style}>
      <div className="grid-canvas" role="presentation">
        {cols.header}
        <div role="rowgroup">
          {reqs.slice(0, MAX).map((r, i) => (
            <SummaryRow key={r.id} r={r} i={i} open={open} />
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

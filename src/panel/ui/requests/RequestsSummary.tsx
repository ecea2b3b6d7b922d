import { memo, useCallback, useState, type KeyboardEvent } from 'react';
import type { RequestInfo } from '../../../core/model';
import { useGridColumns, type Column } from '../common/grid';
import { onRowKeys } from '../common/row-keys';
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
  /** The row the list's one Tab stop is on (roving tabindex: ↑/↓ move it, as in the other grids). */
  current: boolean;
  open: (id: string) => void;
  onFocus: (i: number) => void;
}

const SummaryRow = memo(
  function SummaryRow({ r, i, current, open, onFocus }: RowProps) {
    useRenderProbe('summary-row');
    return (
      <div
        role="row"
        id={`summary-row-${i}`}
        tabIndex={current ? 0 : -1}
        className={`grid-row${i % 2 ? ' odd' : ''}${isErrorVerdict(r.verdict) ? ' row-error' : ''}`}
        aria-rowindex={i + 2}
        onClick={() => open(r.id)}
        onFocus={() => onFocus(i)}
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
  (a, b) => a.i === b.i && a.current === b.current && a.open === b.open && a.onFocus === b.onFocus && sameShown(a.r, b.r),
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
  const [current, setCurrent] = useState(0);
  const reqs = view?.requests ?? [];
  const shown = Math.min(reqs.length, MAX);
  if (!view || !reqs.length) return null;
  const at = Math.min(current, shown - 1);
  const onKey = (e: KeyboardEvent) =>
    // (the keys of a row: a column resizer in the header has its own)
    (e.target as HTMLElement).closest?.('[data-testid=summary-request-row]') &&
    onRowKeys(e, {
      index: at,
      count: shown,
      move(to) {
        setCurrent(to);
        document.getElementById(`summary-row-${to}`)?.focus();
      },
      open: () => open(reqs[at]!.id),
    });
  return (
    <div className="tl-reqs" role="grid" aria-label="Requests summary" aria-rowcount={reqs.length + 1} data-testid="requests-summary" style={cols.style} onKeyDown={onKey}>
      <div className="grid-canvas" role="presentation">
        {cols.header}
        <div role="rowgroup">
          {reqs.slice(0, MAX).map((r, i) => (
            <SummaryRow key={r.id} r={r} i={i} current={i === at} open={open} onFocus={setCurrent} />
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

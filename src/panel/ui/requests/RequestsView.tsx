import { useRef, type KeyboardEvent } from 'react';
import { useContextMenu } from '../common/ContextMenu';
import { onRowKeys } from '../common/row-keys';
import { useGridColumns, type Column } from '../common/grid';
import { toolName } from '../common/labels';
import { SevIcon } from '../common/SevIcon';
import { formatRel, visibleLine } from '../common/text';
import { useRows } from '../common/virtual';
import { useNavActions, useSelection } from '../navigation/NavigationProvider';
import { useViewModel } from '../store/StoreContext';
import { RequestDetail } from './RequestDetail';
import { isErrorVerdict, responseEvent, VERDICT_CLASS, VERDICT_ICON } from './verdicts';
import { useRequestActions } from './request-actions';

const COLUMNS: readonly Column[] = [
  { label: 'Id', width: 70 },
  { label: 'Method', width: 140, flex: 1.3 },
  { label: 'Verdict', width: 150 },
  { label: 'Notif.', width: 64, className: 'num' },
  { label: 'Cumul.', width: 70, className: 'num' },
  { label: 'Response', width: 84 },
  { label: 'Duration', width: 74, className: 'num' },
  { label: 'Findings', width: 160, flex: 1.4 },
];
export function RequestsView() {
  const vm = useViewModel();
  const { view, requestId } = useSelection();
  const act = useNavActions();
  const menu = useContextMenu();
  const { copyStream, requestItems } = useRequestActions();
  const reqs = view?.requests ?? [];
  const selIdx = reqs.findIndex((r) => r.id === requestId);
  const sel = selIdx >= 0 ? reqs[selIdx] : undefined;
  const bodyRef = useRef<HTMLDivElement>(null);
  const cols = useGridColumns('requests', COLUMNS);
  const v = useRows(reqs.length, bodyRef);
  const onKey = (e: KeyboardEvent) =>
    onRowKeys(e, {
      index: selIdx,
      count: reqs.length,
      move(to) {
        act.selectRequest(reqs[to]!.id);
        v.scrollToIndex(to, { align: 'auto' });
      },
      // Enter: the terminal response in the events table.
      open() {
        const ev = sel && responseEvent(vm.snap, sel);
        if (ev) act.showEvent(ev);
      },
      copy() {
        const s = sel && vm.snap.streams[sel.streamId];
        if (s) copyStream(s);
      },
      menu() {
        const row = document.getElementById(`req-row-${selIdx}`);
        if (row && sel) menu(row, requestItems(vm.snap, sel));
      },
    });
  return (
    <div className={`vsplit${sel && view ? '' : ' idle'}`}>
      <div className="top">
        <div className="grid" data-testid="requests-grid" style={cols.style}>
          <div className="grid-body" ref={bodyRef} tabIndex={0} onKeyDown={onKey} aria-activedescendant={selIdx >= 0 ? `req-row-${selIdx}` : undefined} role="grid" aria-label="Requests" aria-rowcount={reqs.length + 1}>
            <div className="grid-canvas" role="presentation" style={{ height: v.getTotalSize() }}>
              {cols.header}
              <div role="rowgroup">
                {v.getVirtualItems().map(({ index: i, start }) => {
                  const r = reqs[i]!;
                  return (
                    <div
                      key={r.id}
                      id={`req-row-${i}`}
                      role="row"
                      aria-rowindex={i + 2}
                      aria-selected={r.id === requestId}
                      className={`grid-row vrow${i % 2 ? ' odd' : ''}${isErrorVerdict(r.verdict) ? ' row-error' : ''}`}
                      style={{ transform: `translateY(${start}px)` }}
                      data-testid="request-row"
                      data-request-id={r.id}
                      onClick={() => act.selectRequest(r.id)}
                      onContextMenu={(e) => {
                        act.selectRequest(r.id);
                        menu(e, requestItems(vm.snap, r));
                      }}
                    >
                      <div role="gridcell" className="mono">{visibleLine(r.id, 30)}</div>
                      <div role="gridcell">{visibleLine(`${r.method}${toolName(r.params)}`, 80)}</div>
                      <div role="gridcell" className={VERDICT_CLASS[r.verdict]} data-testid={`verdict-${r.id}`} data-verdict={r.verdict}>
                        {r.verdict === 'lossy' || r.verdict === 'duplicated' ? <SevIcon sev="error" /> : VERDICT_ICON[r.verdict]} {r.verdict}
                      </div>
                      <div role="gridcell" className="num">{r.notifications.length}</div>
                      <div role="gridcell" className="num">{r.cumulativeCount}</div>
                      <div role="gridcell">{r.response ?? '—'}</div>
                      <div role="gridcell" className="num">{r.end !== undefined ? formatRel(r.end - r.start) : '—'}</div>
                      <div role="gridcell" className="codes">{r.findings.join(', ')}</div>
                    </div>
                  );
                })}
              </div>
            </div>
            {reqs.length === 0 && <div className="empty">No JSON-RPC requests in this session.</div>}
          </div>
        </div>
      </div>
      <div className="bottom">{sel && view ? <RequestDetail req={sel} /> : <div className="empty">Select a request to see its verdict, notifications and terminal response.</div>}</div>
    </div>
  );
}

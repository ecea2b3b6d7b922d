import { useMemo, useRef, type KeyboardEvent } from 'react';
import { useContextMenu } from '../common/ContextMenu';
import { onRowKeys } from '../common/row-keys';
import { useGridColumns, type Column } from '../common/grid';
import { SevIcon } from '../common/SevIcon';
import { visibleLine } from '../common/text';
import { useRows } from '../common/virtual';
import { FilterNote } from '../common/FilterNote';
import { findingMatches, findingTokens, parseFilter } from '../events/filter';
import { useNav, useNavActions, useNavDispatch, useSelection } from '../navigation/NavigationProvider';
import { findingKey, findingMessage } from './finding-target';
import { useViewModel } from '../store/StoreContext';
import { FindingDetail } from './FindingDetail';
import { useFindingActions } from './use-finding-menu';

// Least widths that fit the side dock's default width (554 px in a 1280 px window): the
// explanation is read whole in the detail pane below.
const COLUMNS: readonly Column[] = [
  { label: 'Severity', width: 76 },
  { label: 'Code', width: 160, flex: 0.6 },
  { label: 'Request', width: 64 },
  { label: 'Event ids', width: 80, flex: 0.4 },
  { label: 'Explanation', width: 160, flex: 2 },
];

export function FindingsView() {
  const { view, finding, sessionKey } = useSelection();
  const filterText = useNav().filter;
  const vm = useViewModel();
  const act = useNavActions();
  const menu = useContextMenu();
  const { copyMarkdown, items } = useFindingActions();
  const dispatch = useNavDispatch();
  const parsed = useMemo(() => parseFilter(filterText), [filterText]);
  // Only `method:` / `event:` tokens (what events carry): findings are not narrowed, and no line
  // says they are.
  const filter = useMemo(() => (findingTokens(parsed) ? parsed : { ...parsed, empty: true }), [parsed]);
  const all = view?.findings;
  const list = useMemo(() => (all ? (filter.empty ? all : all.filter((f) => findingMatches(filter, f, () => findingMessage(vm, f)))) : []), [all, filter, vm]);
  const selKey = finding ? findingKey(finding) : undefined;
  const selIdx = useMemo(() => (selKey === undefined ? -1 : list.findIndex((f) => findingKey(f) === selKey)), [list, selKey]);
  const bodyRef = useRef<HTMLDivElement>(null);
  const cols = useGridColumns('findings', COLUMNS);
  const v = useRows(list.length, bodyRef);
  const sel = selIdx >= 0 ? list[selIdx] : undefined;
  const onKey = (e: KeyboardEvent) =>
    onRowKeys(e, {
      index: selIdx,
      count: list.length,
      move(to) {
        act.selectFinding(list[to]!);
        v.scrollToIndex(to, { align: 'auto' });
      },
      open: () => sel && act.showFindingInTimeline(sel),
      copy: () => sel && copyMarkdown(sel),
      menu() {
        const row = document.getElementById(`finding-row-${selIdx}`);
        if (row && sel) menu(row, items(sel));
      },
    });
  const total = all?.length ?? 0;
  const clear = () => dispatch({ type: 'set-filter', text: '' });
  return (
    <div className={`vsplit${sel ? '' : ' idle'}`}>
      <div className="top">
        {!filter.empty && <FilterNote shown={list.length} total={total} what="findings" one="finding" selectionHidden={!!finding && selIdx < 0} onClear={clear} />}
        <div className="grid" data-testid="findings-grid" style={cols.style}>
          <div className="grid-body" ref={bodyRef} tabIndex={0} onKeyDown={onKey} aria-activedescendant={selIdx >= 0 ? `finding-row-${selIdx}` : undefined} role="grid" aria-label="Findings" aria-rowcount={list.length + 1}>
            <div className="grid-canvas" role="presentation" style={{ height: v.getTotalSize() }}>
              {cols.header}
              <div role="rowgroup">
                {v.getVirtualItems().map(({ index: i, start }) => {
                  const f = list[i]!;
                  return (
                    <div
                      key={i}
                      id={`finding-row-${i}`}
                      role="row"
                      aria-rowindex={i + 2}
                      aria-selected={i === selIdx}
                      className={`grid-row vrow${i % 2 ? ' odd' : ''}${f.severity === 'error' ? ' row-error' : ''}`}
                      style={{ transform: `translateY(${start}px)` }}
                      data-testid="finding-row"
                      data-code={f.code}
                      data-severity={f.severity}
                      onClick={() => act.selectFinding(f)}
                      onDoubleClick={() => act.showFindingInTimeline(f)}
                      onContextMenu={(e) => {
                        act.selectFinding(f);
                        menu(e, items(f));
                      }}
                    >
                      <div role="gridcell" className={`sev-${f.severity}`}><SevIcon sev={f.severity} /> {f.severity}</div>
                      <div role="gridcell" className="mono">{f.code}</div>
                      <div role="gridcell" className="mono">{f.requestId !== undefined ? visibleLine(f.requestId, 20) : '—'}</div>
                      <div role="gridcell" className="mono">{visibleLine(f.missing ? `missing ${f.missing}` : f.eventIds.slice(0, 8).join(', '), 80)}</div>
                      <div role="gridcell">{visibleLine(`${f.pending ? '(pending — may still change while streams are open) ' : ''}${findingMessage(vm, f)}`, 300)}</div>
                    </div>
                  );
                })}
              </div>
            </div>
            {list.length === 0 && <div className="empty">{total > 0 ? `No findings match the filter (${total} hidden).` : `No findings${sessionKey ? ' in this session' : ''}.`}</div>}
          </div>
        </div>
      </div>
      <div className="bottom">{sel ? <FindingDetail finding={sel} /> : <div className="empty">Select a finding to see its explanation; Enter or double-click shows it in the timeline.</div>}</div>
    </div>
  );
}

import { useRenderProbe } from '../common/render-probe';
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import type { SseEvent } from '../../../core/model';
import { useContextMenu } from '../common/ContextMenu';
import { onRowKeys } from '../common/row-keys';
import { HEAD_H, useGridColumns, type Column } from '../common/grid';
import { visibleLine } from '../common/text';
import { ROW_H, useRows } from '../common/virtual';
import { useNav, useNavActions, useNavDispatch, useSelection } from '../navigation/NavigationProvider';
import { useViewModel } from '../store/StoreContext';
import { FilterNote } from '../common/FilterNote';
import { EventDetail } from './EventDetail';
import { EventRow, rowText, type RowText } from './EventRow';
import { filterRows, parseFilter } from './filter';
import { useEventActions } from './use-event-actions';

// One definition for the header and the cells (see grid.tsx).
const COLUMNS: readonly Column[] = [
  { label: '#', width: 52, className: 'num' },
  { label: 'Id', width: 64 },
  { label: 'Stream', width: 120, flex: 1.2 },
  { label: 'Type', width: 70 },
  { label: 'JSON-RPC method', width: 120, flex: 1 },
  { label: 'RPC id', width: 56 },
  { label: 'Size', width: 64, className: 'num' },
  { label: 'Time', width: 74, className: 'num' },
  { label: 'Findings', width: 110, flex: 1 },
];

export function EventsTable() {
  useRenderProbe('events');
  const vm = useViewModel();
  const { view, event: selected } = useSelection();
  const nav = useNav();
  const dispatch = useNavDispatch();
  const act = useNavActions();
  const menu = useContextMenu();
  const { items, copyRaw } = useEventActions();
  const snap = vm.snap;
  const all = view?.rows;
  const filter = useMemo(() => parseFilter(nav.filter), [nav.filter]);
  // Filtering makes a new list of positions; nothing is cached across snapshots here.
  const positions = useMemo(() => (all && !filter.empty ? filterRows(snap, view!.session.key, all, filter) : undefined), [all, filter, filter.empty ? undefined : snap, view]);
  const count = positions ? positions.length : (all?.count ?? 0);
  const rowAt = (i: number) => (positions ? positions[i]! : i);
  const parentRef = useRef<HTMLDivElement>(null);
  // A short table is rendered whole (cheap, and every row is in the DOM for find-in-page and tests);
  // a long one keeps a small overscan, since a jump re-fills every rendered row.
  const v = useRows(count, parentRef, count <= 200 ? 200 : 4);
  const cols = useGridColumns('events', COLUMNS);
  const virtual = v.getVirtualItems();
  const slots = Math.max(1, virtual.length);
  const selIdx = useMemo(() => {
    if (!selected || !all) return -1;
    const r = all.find(selected.streamId, selected.index);
    if (r < 0 || !positions) return r;
    for (let i = 0; i < positions.length; i++) if (positions[i] === r) return i;
    return -1;
  }, [all, positions, selected]);
  // Row texts per event object, for this table's life (a memo of a pure function of the event).
  const [texts] = useState(() => new WeakMap<SseEvent, RowText>());
  const textOf = (e: SseEvent) => {
    let t = texts.get(e);
    if (!t) texts.set(e, (t = rowText(e)));
    return t;
  };
  // Lane labels as shown in the rows, once per session view (not per row and scroll frame).
  const streamTexts = useMemo(() => new Map<string, string>(), [view]);
  const streamText = (id: string) => {
    let t = streamTexts.get(id);
    if (t === undefined) streamTexts.set(id, (t = visibleLine(view!.lanes.labels.get(id) ?? id, 80)));
    return t;
  };
  const actRef = useRef(act);
  actRef.current = act;
  const itemsRef = useRef(items);
  itemsRef.current = items;
  // Stable callbacks: the memoized rows do not re-render on every snapshot.
  const onRowSelect = useCallback((streamId: string, index: number) => actRef.current.selectEvent({ streamId, index }), []);
  const onRowMenu = useCallback(
    (e: MouseEvent, streamId: string, index: number) => {
      actRef.current.selectEvent({ streamId, index });
      menu(e, itemsRef.current({ streamId, index }, 'events'));
    },
    [menu],
  );

  // "Show in events", a search result, a restored selection: scroll it into view once it is a row.
  const reveal = nav.reveal;
  useEffect(() => {
    if (reveal === undefined || selIdx < 0) return;
    v.scrollToIndex(selIdx, { align: 'center' });
    // "Show in events" from the keyboard (Enter on a request, the timeline, the callout's button):
    // the arrow keys go on in this table, as Enter on a finding goes on in the timeline.
    if (nav.revealFocus) parentRef.current?.focus({ preventScroll: true });
    dispatch({ type: 'reveal-done', seq: reveal });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [reveal, selIdx]);

  const onKey = (e: KeyboardEvent<HTMLDivElement>) =>
    onRowKeys(e, {
      index: selIdx,
      count,
      page: Math.max(1, Math.floor(((parentRef.current?.clientHeight || 600) - HEAD_H) / ROW_H) - 1),
      move(i) {
        if (!all) return;
        act.selectEvent({ streamId: all.streamAt(rowAt(i)), index: all.indexAt(rowAt(i)) });
        v.scrollToIndex(i, { align: 'auto' });
      },
      open: () => selected && act.showEventInTimeline(selected),
      copy: () => selected && copyRaw(selected),
      menu() {
        const row = document.getElementById(`ev-row-${selIdx}`);
        if (row && selected) menu(row, items(selected, 'events'));
      },
    });
  const t0 = view?.lanes.t0 ?? 0;
  const hidden = !!selected && selIdx < 0 && !!positions;

  return (
    <div className={`vsplit${selected ? '' : ' idle'}`}>
      <div className="top">
        {positions && <FilterNote shown={count} total={all?.count ?? 0} what="events" one="event" selectionHidden={hidden} onClear={() => dispatch({ type: 'set-filter', text: '' })} />}
        {/* The scroller is the grid (focus, active row); the header scrolls with the rows. */}
        <div className="grid" data-testid="events-grid" style={cols.style}>
          <div className="grid-body" ref={parentRef} tabIndex={0} role="grid" aria-label="Events" aria-rowcount={count + 1} onKeyDown={onKey} aria-activedescendant={selIdx >= 0 ? `ev-row-${selIdx}` : undefined}>
            <div className="grid-canvas" role="presentation" style={{ height: v.getTotalSize() }}>
              {cols.header}
              <div role="rowgroup">
                {all &&
                  virtual.map((vi) => {
                    const r = rowAt(vi.index);
                    const streamId = all.streamAt(r);
                    const index = all.indexAt(r);
                    const e = snap.streams[streamId]!.events.at(index)!;
                    return (
                      <EventRow
                        // Keyed by index modulo the window's size: k consecutive indexes have k
                        // distinct keys, so a row that stays in view keeps its key (and its memoized
                        // render), and a row that comes into view takes over the DOM row of one that
                        // left — a scroll or a jump updates text in place and never creates or
                        // removes DOM rows (the profile of a jump showed removeChild/createElement and
                        // their layout as its largest costs).
                        key={vi.index % slots}
                        vindex={vi.index}
                        start={vi.start}
                        e={e}
                        text={textOf(e)}
                        streamText={streamText(streamId)}
                        t0={t0}
                        sev={e.findings.length ? vm.severity.eventAt(streamId, index, e) : undefined}
                        selected={vi.index === selIdx}
                        streamId={streamId}
                        index={index}
                        onSelect={onRowSelect}
                        onMenu={onRowMenu}
                      />
                    );
                  })}
              </div>
            </div>
            {count === 0 && <div className="empty">{all?.count ? 'No events match the filter.' : 'No events in this session.'}</div>}
          </div>
        </div>
      </div>
      <div className="bottom">{selected ? <EventDetail ev={selected} /> : <div className="empty">Select an event to see its raw SSE text and decoded JSON.</div>}</div>
    </div>
  );
}

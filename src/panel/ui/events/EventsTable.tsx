import { memo, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { AnalysisSnapshot, Severity, SseEvent } from '../../../core/model';
import { EventDetail } from './EventDetail';
import { createEventRowsMerger, eventMatches, requestLinkedEvents, type EventRow, type ParsedFilter } from './filter';
import { eventMethods, eventRpcIds, eventSeverity, requestsById, streamLabel } from '../common/labels';
import { formatBytes, formatRel, utf8Length, visibleLine } from '../common/text';
import { HEAD_H, useGridColumns, type Column } from '../common/grid';
import { ROW_H, useRows } from '../common/virtual';
import { SevIcon } from '../common/SevIcon';

export interface EventRef {
  streamId: string;
  index: number;
}

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

/** A row's text, computed once per event object (an event that changes is a new object). */
interface RowText {
  id: string;
  type: string;
  methods: string;
  rpcIds: string;
  size: string;
  sev: Severity | undefined;
  codes: string;
  /** Time relative to `t0` (the session's start), kept with the t0 it was computed for. */
  t0: number;
  time: string;
}
const rowTextCache = new WeakMap<SseEvent, RowText>();
/** Row texts computed (tests count work with it). */
export const rowTextStats = { computed: 0 };
function rowText(e: SseEvent, t0: number, sevOf: () => Severity | undefined): RowText {
  let x = rowTextCache.get(e);
  if (x && x.t0 !== t0) {
    x.t0 = t0;
    x.time = formatRel(e.t - t0);
  }
  if (!x) {
    rowTextStats.computed++;
    const sev = sevOf();
    x = {
      id: e.id !== undefined ? visibleLine(e.id, 40) : '—',
      type: `${e.synthetic === 'json-body' ? '(JSON body)' : visibleLine(e.event, 40)}${e.truncated ? ' ✂ truncated' : ''}${e.idOnly ? ' (id only)' : ''}`,
      methods: visibleLine(eventMethods(e), 80),
      rpcIds: visibleLine(eventRpcIds(e), 30),
      size: formatBytes(utf8Length(e.data)),
      sev,
      codes: `${e.duplicate && !e.findings.includes('replay-duplicate') ? 'duplicate ' : ''}`,
      t0,
      time: formatRel(e.t - t0),
    };
    rowTextCache.set(e, x);
  }
  return x;
}

const EventRowView = memo(function EventRowView(props: {
  vindex: number;
  start: number;
  e: SseEvent;
  streamText: string;
  t0: number;
  selected: boolean;
  streamId: string;
  index: number;
  sevOf(streamId: string, index: number, e: SseEvent): Severity | undefined;
  onSelect(streamId: string, index: number): void;
}) {
  const { vindex, start, e, selected } = props;
  const x = rowText(e, props.t0, () => props.sevOf(props.streamId, props.index, e));
  const sev = x.sev;
  return (
    <div
      id={`ev-row-${vindex}`}
      role="row"
      aria-rowindex={vindex + 2}
      aria-selected={selected}
      data-testid="event-row"
      data-event-id={e.id ?? ''}
      className={`grid-row vrow${vindex % 2 ? ' odd' : ''}${sev === 'error' ? ' row-error' : sev === 'warning' ? ' row-warning' : ''}`}
      style={{ transform: `translateY(${start}px)` }}
      onClick={() => props.onSelect(props.streamId, props.index)}
    >
      <div role="gridcell" className="num faint">{vindex + 1}</div>
      <div role="gridcell" className="mono">{x.id}</div>
      <div role="gridcell">{props.streamText}</div>
      <div role="gridcell">{x.type}</div>
      <div role="gridcell">{x.methods}</div>
      <div role="gridcell" className="mono">{x.rpcIds}</div>
      <div role="gridcell" className="num">{x.size}</div>
      <div role="gridcell" className="num">{x.time}</div>
      <div role="gridcell" className="codes">
        {x.codes}
        {e.findings.length ? <><SevIcon sev={sev ?? 'warning'} /> {e.findings.join(', ')}</> : ''}
      </div>
    </div>
  );
});

export function EventsTable(props: {
  snap: AnalysisSnapshot;
  sessionKey: string | undefined;
  filter: ParsedFilter;
  selected: EventRef | undefined;
  onSelect(ref: EventRef | undefined): void;
  /** Changes when the table should scroll the selection into view (e.g. "Show in events"). */
  revealToken: number;
}) {
  const { snap, sessionKey, filter, selected, onSelect, revealToken } = props;
  // Rows kept incrementally: a snapshot that appends events merges only the new ones. The array
  // is shared and grows, so its length is part of every memo key below.
  const [merge] = useState(createEventRowsMerger);
  const all = useMemo(() => merge(snap, sessionKey), [merge, snap, sessionKey]);
  const allLen = all.length;
  const rows = useMemo(() => {
    if (filter.empty) return all;
    const linked = requestLinkedEvents(snap, sessionKey, filter);
    return all.filter((r) => eventMatches(filter, snap.streams[r.streamId]!, snap.streams[r.streamId]!.events[r.index]!, linked));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [all, allLen, filter, filter.empty ? undefined : snap, sessionKey]);
  const rowCount = rows.length;
  // Read through a ref: a stable callback keeps the memoized rows from re-rendering on every
  // snapshot (each has a new findings array); a row's severity is computed once per event.
  const findingsRef = useRef(snap.findings);
  findingsRef.current = snap.findings;
  const sevOf = useCallback((streamId: string, index: number, e: SseEvent) => eventSeverity(findingsRef.current, streamId, index, e), []);
  const reqs = useMemo(() => (sessionKey ? requestsById(snap, sessionKey) : new Map()), [snap, sessionKey]);
  const t0 = useMemo(() => {
    const session = snap.sessions.find((s) => s.key === sessionKey);
    let t = Infinity;
    for (const id of session?.streamIds ?? []) t = Math.min(t, snap.streams[id]?.start ?? Infinity);
    return Number.isFinite(t) ? t : 0;
  }, [snap, sessionKey]);
  const parentRef = useRef<HTMLDivElement>(null);
  // A short table is rendered whole (cheap, and every row is in the DOM for find-in-page and tests);
  // a long one keeps a small overscan, since a jump re-fills every rendered row.
  const v = useRows(rows.length, parentRef, rows.length <= 200 ? 200 : 4);
  const cols = useGridColumns(COLUMNS);
  const items = v.getVirtualItems();
  const slots = Math.max(1, items.length);
  const selIdx = useMemo(
    () => (selected ? rows.findIndex((r) => r.streamId === selected.streamId && r.index === selected.index) : -1),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [rows, rowCount, selected],
  );
  const onSelectRef = useRef(onSelect);
  onSelectRef.current = onSelect;
  const onRowSelect = useCallback((streamId: string, index: number) => onSelectRef.current({ streamId, index }), []);
  // Stream labels once per stream and snapshot, not per row.
  const streamTexts = useMemo(() => new Map<string, string>(), [snap, reqs]);
  const streamText = (id: string) => {
    let x = streamTexts.get(id);
    if (x === undefined) streamTexts.set(id, (x = visibleLine(streamLabel(snap.streams[id]!, reqs), 80)));
    return x;
  };
  useEffect(() => {
    if (selIdx >= 0) v.scrollToIndex(selIdx, { align: 'center' });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [revealToken]);

  const move = (to: number) => {
    if (!rows.length) return;
    const i = Math.max(0, Math.min(rows.length - 1, to));
    const r = rows[i]!;
    onSelect({ streamId: r.streamId, index: r.index });
    v.scrollToIndex(i, { align: 'auto' });
  };
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const page = Math.max(1, Math.floor(((parentRef.current?.clientHeight || 600) - HEAD_H) / ROW_H) - 1);
    const cur = selIdx < 0 ? -1 : selIdx;
    let to: number | undefined;
    if (e.key === 'ArrowDown') to = cur + 1;
    else if (e.key === 'ArrowUp') to = cur < 0 ? 0 : cur - 1;
    else if (e.key === 'PageDown') to = cur + page;
    else if (e.key === 'PageUp') to = cur - page;
    else if (e.key === 'Home') to = 0;
    else if (e.key === 'End') to = rows.length - 1;
    if (to !== undefined) {
      e.preventDefault();
      move(to);
    }
  };

  return (
    <div className="vsplit">
      <div className="top">
        {/* The scroller is the grid (focus, active row); the header scrolls with the rows. */}
        <div className="grid" data-testid="events-grid" style={cols.style}>
          <div
            className="grid-body"
            ref={parentRef}
            tabIndex={0}
            role="grid"
            aria-label="Events"
            aria-rowcount={rows.length + 1}
            onKeyDown={onKey}
            aria-activedescendant={selIdx >= 0 ? `ev-row-${selIdx}` : undefined}
          >
            <div className="grid-canvas" role="presentation" style={{ height: v.getTotalSize() }}>
              {cols.header}
              <div role="rowgroup">
                {items.map((vi) => {
                  const r: EventRow = rows[vi.index]!;
                  const e = snap.streams[r.streamId]!.events[r.index]!;
                  return (
                    <EventRowView
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
                      streamText={streamText(r.streamId)}
                      t0={t0}
                      selected={vi.index === selIdx}
                      streamId={r.streamId}
                      index={r.index}
                      sevOf={sevOf}
                      onSelect={onRowSelect}
                    />
                  );
                })}
              </div>
            </div>
            {rows.length === 0 && <div className="empty">{all.length ? 'No events match the filter.' : 'No events in this session.'}</div>}
          </div>
        </div>
      </div>
      <div className="bottom">{selected ? <EventDetail snap={snap} streamId={selected.streamId} index={selected.index} /> : <div className="empty">Select an event to see its raw SSE text and decoded JSON.</div>}</div>
    </div>
  );
}

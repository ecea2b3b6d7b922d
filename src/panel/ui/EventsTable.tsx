import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, type KeyboardEvent } from 'react';
import type { AnalysisSnapshot } from '../../core/model';
import { EventDetail } from './EventDetail';
import { eventMatches, requestLinkedEvents, sessionEventRows, type EventRow, type ParsedFilter } from './filter';
import { eventMethods, eventRpcIds, requestsById, streamLabel, worstSeverity } from './labels';
import { formatBytes, formatRel, utf8Length, visibleLine } from './text';
import { observeRectWithFallback } from './virtual';
import { SevIcon } from './SevIcon';

export interface EventRef {
  streamId: string;
  index: number;
}

const COLS = '52px 64px minmax(120px,1.2fr) 70px minmax(120px,1fr) 56px 64px 74px minmax(110px,1fr)';
const ROW_H = 21;

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
  const all = useMemo(() => sessionEventRows(snap, sessionKey), [snap, sessionKey]);
  const rows = useMemo(() => {
    if (filter.empty) return all;
    const linked = requestLinkedEvents(snap, sessionKey, filter);
    return all.filter((r) => eventMatches(filter, snap.streams[r.streamId]!, snap.streams[r.streamId]!.events[r.index]!, linked));
  }, [all, filter, snap, sessionKey]);
  const reqs = useMemo(() => (sessionKey ? requestsById(snap, sessionKey) : new Map()), [snap, sessionKey]);
  const t0 = useMemo(() => {
    const session = snap.sessions.find((s) => s.key === sessionKey);
    let t = Infinity;
    for (const id of session?.streamIds ?? []) t = Math.min(t, snap.streams[id]?.start ?? Infinity);
    return Number.isFinite(t) ? t : 0;
  }, [snap, sessionKey]);
  const parentRef = useRef<HTMLDivElement>(null);
  const v = useVirtualizer({
    count: rows.length,
    getScrollElement: () => parentRef.current,
    estimateSize: () => ROW_H,
    overscan: 12,
    observeElementRect: observeRectWithFallback,
    initialRect: { width: 800, height: 600 },
  });
  const selIdx = useMemo(() => (selected ? rows.findIndex((r) => r.streamId === selected.streamId && r.index === selected.index) : -1), [rows, selected]);
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
    const page = Math.max(1, Math.floor((parentRef.current?.clientHeight || 600) / ROW_H) - 1);
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
        <div className="grid" role="grid" aria-label="Events" aria-rowcount={rows.length + 1} data-testid="events-grid">
          <div className="grid-head" role="row" style={{ gridTemplateColumns: COLS }}>
            <div role="columnheader">#</div>
            <div role="columnheader">Id</div>
            <div role="columnheader">Stream</div>
            <div role="columnheader">Type</div>
            <div role="columnheader">JSON-RPC method</div>
            <div role="columnheader">RPC id</div>
            <div role="columnheader" className="num">Size</div>
            <div role="columnheader" className="num">Time</div>
            <div role="columnheader">Findings</div>
          </div>
          <div
            className="grid-body"
            ref={parentRef}
            tabIndex={0}
            role="rowgroup"
            onKeyDown={onKey}
            aria-activedescendant={selIdx >= 0 ? `ev-row-${selIdx}` : undefined}
          >
            {rows.length === 0 && <div className="empty">{all.length ? 'No events match the filter.' : 'No events in this session.'}</div>}
            <div role="presentation" style={{ height: v.getTotalSize(), position: 'relative' }}>
              {v.getVirtualItems().map((vi) => {
                const r: EventRow = rows[vi.index]!;
                const s = snap.streams[r.streamId]!;
                const e = s.events[r.index]!;
                const sev = worstSeverity(e.findings);
                const isSel = vi.index === selIdx;
                return (
                  <div
                    key={vi.key}
                    id={`ev-row-${vi.index}`}
                    role="row"
                    aria-rowindex={vi.index + 2}
                    aria-selected={isSel}
                    data-testid="event-row"
                    data-event-id={e.id ?? ''}
                    className={`grid-row${vi.index % 2 ? ' odd' : ''}${sev === 'error' ? ' row-error' : sev === 'warning' ? ' row-warning' : ''}`}
                    style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${vi.start}px)`, gridTemplateColumns: COLS }}
                    onClick={() => onSelect({ streamId: r.streamId, index: r.index })}
                  >
                    <div role="gridcell" className="num faint">{vi.index + 1}</div>
                    <div role="gridcell" className="mono">{e.id !== undefined ? visibleLine(e.id, 40) : '—'}</div>
                    <div role="gridcell">{visibleLine(streamLabel(s, reqs), 80)}</div>
                    <div role="gridcell">
                      {e.synthetic === 'json-body' ? '(JSON body)' : visibleLine(e.event, 40)}
                      {e.truncated ? ' ✂ truncated' : ''}
                      {e.idOnly ? ' (id only)' : ''}
                    </div>
                    <div role="gridcell">{visibleLine(eventMethods(e), 80)}</div>
                    <div role="gridcell" className="mono">{visibleLine(eventRpcIds(e), 30)}</div>
                    <div role="gridcell" className="num">{formatBytes(utf8Length(e.data))}</div>
                    <div role="gridcell" className="num">{formatRel(e.t - t0)}</div>
                    <div role="gridcell" className="codes">
                      {e.duplicate && !e.findings.includes('replay-duplicate') ? 'duplicate ' : ''}
                      {e.findings.length ? <><SevIcon sev={sev ?? 'warning'} /> {e.findings.join(', ')}</> : ''}
                    </div>
                  </div>
                );
              })}
            </div>
          </div>
        </div>
      </div>
      <div className="bottom">{selected ? <EventDetail snap={snap} streamId={selected.streamId} index={selected.index} /> : <div className="empty">Select an event to see its raw SSE text and decoded JSON.</div>}</div>
    </div>
  );
}

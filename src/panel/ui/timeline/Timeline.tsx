import { useRenderProbe } from '../common/render-probe';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent, type PointerEvent, type WheelEvent } from 'react';
import type { Stream } from '../../../core/model';
import { isMenuKey, useContextMenu } from '../common/ContextMenu';
import { isCopyKey } from '../common/copy';
import { eventMethods } from '../common/labels';
import { useMeasured } from '../common/use-measured';
import { observeRectWithFallback } from '../common/virtual';
import { formatCount, formatRel, visibleLine } from '../common/text';
import { useEventActions } from '../events/use-event-actions';
import { useNavActions, useSelection } from '../navigation/NavigationProvider';
import type { EventRef } from '../navigation/state';
import { useViewModel } from '../store/StoreContext';
import { specialsOf, type Special } from './density';
import { isGap } from './draw-overlays';
import { findingSteps, nextStep } from './finding-steps';
import { AXIS_H, LANES_COMPACT, LANES_FULL, makeFrame } from './geometry';
import { drawTimeline } from './timeline-draw';
import { modernTargetStream } from './draw-modern';
import { awaitingResponse } from './lanes';
import { TimelineBar } from './TimelineBar';
import { lowerBound, panView, zoomView, type View } from './timeline-geom';
import { TimelineSelected } from './TimelineSelected';
import { useTimelineView } from './use-timeline-view';

export function Timeline() {
  useRenderProbe('timeline');
  const vm = useViewModel();
  const { view: sv, event: selected, finding } = useSelection();
  const act = useNavActions();
  const menu = useContextMenu();
  const { items, copyRaw } = useEventActions();
  const snap = vm.snap;
  const lanes = sv?.lanes.streams ?? [];
  const laneOf = sv?.lanes.laneOf ?? new Map<string, number>();
  const findings = sv?.findings ?? [];
  const t0 = sv?.lanes.t0 ?? 0;
  const wrapRef = useRef<HTMLDivElement>(null);
  const tv = useTimelineView(vm, sv, (take) => take && wrapRef.current?.focus({ preventScroll: true }));
  const view = tv.view;
  const gapId = `msi-tl-gaps-${useId().replace(/:/g, '')}`;
  // Per stream object: the events drawn as marks even in density (recomputed when the stream changes).
  const [specials] = useState(() => new WeakMap<Stream, Special[]>());
  const specialsFor = (s: Stream) => {
    let x = specials.get(s);
    if (!x) specials.set(s, (x = specialsOf(s)));
    return x;
  };
  const steps = useMemo(() => findingSteps(snap, findings), [snap, findings]);

  const bodyRef = useRef<HTMLDivElement>(null);
  const remeasure = [sv === undefined, lanes.length === 0];
  // Room for the timeline in its tab: when full-height lanes would not fit, they are drawn compact.
  const rootRef = useRef<HTMLDivElement>(null);
  const [room, setRoom] = useState(Infinity);
  useMeasured(() => rootRef.current?.parentElement, (el) => setRoom(el.clientHeight || Infinity), remeasure);
  const geom = room - 200 < lanes.length * LANES_FULL.h ? LANES_COMPACT : LANES_FULL;
  // Virtualized lanes: only the lanes in view of the (scrolling) body, and a few either side, are
  // drawn (their labels and their marks); the rest is empty room of the lanes' height.
  const lanesV = useVirtualizer({
    count: lanes.length,
    getScrollElement: () => bodyRef.current,
    estimateSize: () => geom.h,
    overscan: 4,
    paddingStart: AXIS_H,
    observeElementRect: observeRectWithFallback,
    initialRect: { width: 900, height: 800 },
  });
  useLayoutEffect(() => lanesV.measure(), [lanesV, geom.h]);
  const shownLanes = lanesV.getVirtualItems();
  const firstLane = shownLanes[0]?.index ?? 0;
  const lastLane = shownLanes.at(-1)?.index ?? -1;
  const [width, setWidth] = useState(900);
  useMeasured(() => wrapRef.current, (el) => setWidth(Math.max(300, el.clientWidth || 900)), remeasure);

  // The lane the user opened the panel to see: the first gap, else the first stream with an error
  // finding, else a 2026-07-28 conversation's re-issue or dropped subscription. When the lanes do
  // not all fit, the body is scrolled once (per session and lane shape) so that this lane is on
  // the first screen.
  const targetLane = useMemo(() => {
    const f = findings.find((x) => isGap(x) && x.streamId && laneOf.has(x.streamId)) ?? findings.find((x) => x.severity === 'error' && x.streamId && laneOf.has(x.streamId));
    const id = f?.streamId ?? modernTargetStream(sv?.session);
    return id !== undefined ? laneOf.get(id) : undefined;
  }, [findings, laneOf, sv?.session]);
  const autoScrolled = useRef<string | undefined>(undefined);
  useLayoutEffect(() => {
    const body = bodyRef.current;
    if (!body || targetLane === undefined) return;
    const key = `${sv?.session.key}\u0000${targetLane}\u0000${geom.h}`;
    if (autoScrolled.current === key) return;
    autoScrolled.current = key;
    const top = targetLane * geom.h;
    const bottom = AXIS_H + top + geom.h + 4;
    // What of the body the window shows: in a short panel the body can reach below the viewport.
    const shown = Math.max(geom.h, Math.min(body.clientHeight, (body.ownerDocument.defaultView?.innerHeight ?? Infinity) - body.getBoundingClientRect().top));
    // already in view (below the sticky axis): leave the scroll alone
    if (top >= body.scrollTop && bottom <= body.scrollTop + shown) return;
    // The least scroll that shows the whole lane: the lanes above it stay in view as far as room allows.
    body.scrollTop = Math.max(0, Math.min(bottom - shown, top));
  });

  const laneVisible = (i: number) => i >= firstLane && i <= lastLane;
  const f = makeFrame(view, width, t0, geom, laneVisible);
  const tOf = (r: EventRef | undefined) => (r ? snap.streams[r.streamId]?.events.at(r.index)?.t : undefined);
  const mid = (view.start + view.end) / 2;

  /** Select an event and bring it into view (lane scrolled to, time panned to). */
  const select = (lane: number, idx: number) => {
    const s = lanes[lane];
    if (!s || !s.events.length) return;
    const i = Math.max(0, Math.min(s.events.length - 1, idx));
    act.selectEvent({ streamId: s.id, index: i });
    reveal(lane, s.events.at(i)!.t);
  };
  const reveal = (lane: number, t: number) => {
    const body = bodyRef.current;
    const top = AXIS_H + lane * geom.h;
    if (body && (top < body.scrollTop + AXIS_H || top + geom.h > body.scrollTop + body.clientHeight)) body.scrollTop = top - body.clientHeight / 2;
    if (t < view.start || t > view.end) tv.set((v) => panView(v, t - (v.start + v.end) / 2));
  };
  const stepFinding = (dir: 1 | -1) => {
    const st = nextStep(steps, tOf(selected) ?? mid, dir, finding);
    if (!st) return;
    act.selectFinding(st.finding);
    const lane = laneOf.get(st.at.streamId);
    if (lane !== undefined) reveal(lane, st.t);
  };
  const zoom = (factor: number) => tv.set((v) => zoomView(v, factor, tOf(selected) ?? (v.start + v.end) / 2));
  const bar = { zoomIn: () => zoom(0.7), zoomOut: () => zoom(1 / 0.7), reset: tv.reset, prevFinding: () => stepFinding(-1), nextFinding: () => stepFinding(1) };

  // Mouse: wheel zooms at the cursor (shift+wheel or a horizontal wheel pans), drag pans.
  const onWheel = (e: WheelEvent) => {
    const px = e.clientX - (e.currentTarget as HTMLElement).getBoundingClientRect().left;
    if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) tv.set((v) => panView(v, ((e.deltaX || e.deltaY) / width) * (v.end - v.start)));
    else tv.set((v) => zoomView(v, Math.exp(e.deltaY * 0.0015), f.t(px)));
  };
  const drag = useRef<{ x: number; v: View; moved: boolean } | null>(null);
  const onPointerDown = (e: PointerEvent) => {
    if (e.button !== 0) return;
    drag.current = { x: e.clientX, v: view, moved: false };
    (e.currentTarget as HTMLElement).setPointerCapture?.(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent) => {
    const d = drag.current;
    if (!d) return;
    const dx = e.clientX - d.x;
    if (Math.abs(dx) > 2) d.moved = true;
    if (d.moved) tv.set(panView(d.v, (-dx / width) * (d.v.end - d.v.start)));
  };
  /** The event under the pointer: a mark, or the nearest event of a density column. */
  const hit = (e: { target: EventTarget; clientX: number; currentTarget: EventTarget }): EventRef | undefined => {
    const el = (e.target as Element).closest?.('[data-ev], [data-lane]');
    const key = el?.getAttribute('data-ev');
    if (key) {
      const [lane, idx] = key.split(':').map(Number) as [number, number];
      const s = lanes[lane];
      return s ? { streamId: s.id, index: idx } : undefined;
    }
    const lane = el?.getAttribute('data-lane');
    const s = lane !== null && lane !== undefined ? lanes[Number(lane)] : undefined;
    if (!s || !s.events.length) return undefined;
    const px = e.clientX - (e.currentTarget as HTMLElement).getBoundingClientRect().left;
    return { streamId: s.id, index: Math.min(s.events.length - 1, lowerBound(s.events, f.t(px - 2))) };
  };
  const onPointerUp = (e: PointerEvent) => {
    const d = drag.current;
    drag.current = null;
    if (d && !d.moved) {
      const r = hit(e);
      if (r) act.selectEvent(r);
    }
  };
  const onContextMenu = (e: MouseEvent) => {
    const r = hit(e);
    if (!r) return;
    act.selectEvent(r);
    menu(e, items(r, 'timeline'));
  };

  // Keyboard: ←/→ event, ↑/↓ lane, Home/End first/last event, +/− zoom, Shift+←/→ pan, 0 whole
  // session, [ ] previous/next finding, Enter opens the event in the table, Ctrl/Cmd+C copies it.
  const onKey = (e: KeyboardEvent) => {
    const selLane = selected ? (laneOf.get(selected.streamId) ?? 0) : 0;
    let handled = true;
    if (e.key === '+' || e.key === '=') bar.zoomIn();
    else if (e.key === '-' || e.key === '_') bar.zoomOut();
    else if (e.key === '0') tv.reset();
    else if (e.key === ']') stepFinding(1);
    else if (e.key === '[') stepFinding(-1);
    else if (e.shiftKey && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) tv.set((v) => panView(v, (e.key === 'ArrowLeft' ? -0.2 : 0.2) * (v.end - v.start)));
    else if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
      const dir = e.key === 'ArrowRight' ? 1 : -1;
      const s = lanes[0];
      if (!selected) s && select(0, dir > 0 ? lowerBound(s.events, view.start) : lowerBound(s.events, view.end) - 1);
      else select(selLane, selected.index + dir);
    } else if (e.key === 'Home' || e.key === 'End') select(selLane, e.key === 'Home' ? 0 : Number.MAX_SAFE_INTEGER);
    else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      const to = Math.max(0, Math.min(lanes.length - 1, selLane + (e.key === 'ArrowDown' ? 1 : -1)));
      const s = lanes[to];
      if (s && s.events.length) select(to, Math.min(s.events.length - 1, lowerBound(s.events, tOf(selected) ?? mid)));
    } else if (e.key === 'Enter' && selected) act.showEvent(selected);
    else if (selected && isCopyKey(e)) copyRaw(selected);
    else if (selected && isMenuKey(e)) {
      const el = document.getElementById(`tl-ev-${laneOf.get(selected.streamId)}-${selected.index}`) ?? wrapRef.current;
      if (el) menu(el, items(selected, 'timeline'));
    } else handled = false;
    if (handled) e.preventDefault();
  };

  if (!sv) return <div className="empty">Select a session.</div>;
  if (!lanes.length) return <div className="empty">No streams in this session yet.</div>;

  const selKey = selected ? `${laneOf.get(selected.streamId)}:${selected.index}` : undefined;
  // The gaps drawn in the lanes, in words, for screen readers (the SVG marks carry no text of it).
  const gapText = findings
    .filter(isGap)
    .map((x) => visibleLine(`${x.code}: ids ${x.missing ?? x.eventIds.join(', ')} missing${x.streamId && sv.lanes.labels.has(x.streamId) ? ` on ${sv.lanes.labels.get(x.streamId)}` : ''}.`, 200))
    .join(' ');
  const { els, axisEls, labelEls, height } = drawTimeline({ f, snap, lanes, laneOf, findings, selKey, severity: vm.severity, specials: specialsFor, session: sv.session });
  const selEv = selected ? snap.streams[selected.streamId]?.events.at(selected.index) : undefined;
  return (
    <div className={`tl${geom.compact ? ' compact' : ''}`} data-testid="timeline" ref={rootRef}>
      <TimelineBar lanes={lanes.length} view={view} t0={t0} findings={steps.length} act={bar} />
      <div className="tl-body" ref={bodyRef}>
        <div className="tl-labels" aria-hidden="true">
          <div className="tl-axis-spacer" />
          {firstLane > 0 && <div className="tl-lanes-room" style={{ height: firstLane * geom.h }} />}
          {lanes.slice(firstLane, lastLane + 1).map((s) => (
            <div className="tl-label" key={s.id} style={{ height: geom.h }}>
              <div className="l1">{visibleLine(sv.lanes.labels.get(s.id) ?? s.method, 60)}</div>
              <div className="l2">
                <span className={s.status !== undefined && s.status >= 400 ? 'sev-error' : undefined}>{s.status ?? '—'}</span>
                {/* a 202/204 answer (to a notification or response) has no body: "open" would mislead;
                    a request sent whose response has not come is waiting, not streaming */}
                {visibleLine(
                  (s.status === 202 || s.status === 204) && s.events.length === 0 && s.state === 'open'
                    ? ' · accepted, no body'
                    : awaitingResponse(s)
                      ? ' · awaiting response'
                      : ` · ${formatCount(s.events.length)} events · ${s.state}${s.endReason ? ` (${s.endReason})` : ''}`,
                  80,
                )}
              </div>
            </div>
          ))}
          {lastLane < lanes.length - 1 && <div className="tl-lanes-room" style={{ height: (lanes.length - 1 - lastLane) * geom.h }} />}
        </div>
        <div
          className="tl-canvas"
          ref={wrapRef}
          tabIndex={0}
          // listbox, not list: a list cannot carry aria-activedescendant (the focused event)
          role="listbox"
          aria-label="Session timeline: streams as lanes, events as marks. Arrow keys move between events, plus and minus zoom, brackets move between findings."
          aria-describedby={gapText ? gapId : undefined}
          aria-activedescendant={selKey ? `tl-ev-${selKey.replace(':', '-')}` : undefined}
          onKeyDown={onKey}
          onWheel={onWheel}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onContextMenu={onContextMenu}
        >
          <svg className="tl-axis" width={width} height={AXIS_H} aria-hidden="true">
            {axisEls}
          </svg>
          <svg width={width} height={height} role="presentation">
            <defs>
              <pattern id="msi-hatch" width="5" height="5" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                <rect width="5" height="5" style={{ fill: 'var(--gap-fill)' }} />
                <line x1="0" y1="0" x2="0" y2="5" style={{ stroke: 'var(--error)', strokeWidth: 1.5 }} />
              </pattern>
              <marker id="msi-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
                <path d="M0,0 L10,5 L0,10 z" style={{ fill: 'var(--accent)' }} />
              </marker>
            </defs>
            {els}
            {labelEls}
          </svg>
          {gapText && (
            <div className="sr-only" id={gapId}>
              {gapText}
            </div>
          )}
          <div className="sr-only" aria-live="polite">
            {selEv ? visibleLine(`Event ${selEv.id ?? '(no id)'} ${eventMethods(selEv)} at ${formatRel(selEv.t - t0)} ${selEv.findings.join(' ')}`, 300) : ''}
          </div>
        </div>
      </div>
      {selEv && selected && <TimelineSelected ev={selected} />}
    </div>
  );
}

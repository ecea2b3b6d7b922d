import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent, type WheelEvent } from 'react';
import type { AnalysisSnapshot, Stream } from '../../../core/model';
import { eventMethods, requestsById, streamLabel } from '../common/labels';
import { formatRel, visibleLine } from '../common/text';
import { lowerBound, panView, zoomView, type View } from './timeline-geom';
import { AXIS_H, drawTimeline, LANES_COMPACT, LANES_FULL, streamEnd } from './timeline-draw';
import type { EventRef } from '../events/EventsTable';


export interface TimelineFocus {
  streamId?: string;
  index?: number;
  t?: number;
  token: number;
  /** Move keyboard focus to the timeline ("Show in timeline"); not for a selection made elsewhere. */
  takeFocus?: boolean;
}

/**
 * The last focus request applied. The timeline is remounted on every switch to its tab: a request
 * is applied once, not again on each later visit (which re-zoomed the view and pulled keyboard
 * focus out of the tab list).
 */
let appliedFocusToken: number | undefined;


export function Timeline(props: {
  snap: AnalysisSnapshot;
  sessionKey: string | undefined;
  selected: EventRef | undefined;
  onSelect(ref: EventRef): void;
  onOpenEvent(ref: EventRef): void;
  focus: TimelineFocus | undefined;
}) {
  const { snap, sessionKey, selected } = props;
  const session = snap.sessions.find((s) => s.key === sessionKey);
  const reqs = useMemo(() => (sessionKey ? requestsById(snap, sessionKey) : new Map()), [snap, sessionKey]);
  const lanes = useMemo(
    () =>
      (session?.streamIds ?? [])
        .map((id) => snap.streams[id])
        .filter((s): s is Stream => !!s)
        .sort((a, b) => a.start - b.start),
    [snap, session],
  );
  const laneOf = useMemo(() => new Map(lanes.map((s, i) => [s.id, i])), [lanes]);
  const findings = useMemo(() => snap.findings.filter((f) => f.sessionKey === sessionKey), [snap, sessionKey]);
  const range = useMemo((): View => {
    let a = Infinity;
    let b = -Infinity;
    for (const s of lanes) {
      a = Math.min(a, s.start);
      b = Math.max(b, streamEnd(s));
    }
    if (!Number.isFinite(a)) return { start: 0, end: 1000 };
    const pad = Math.max(20, (b - a) * 0.04);
    return { start: a - pad, end: b + pad * 2.5 };
  }, [lanes]);
  const t0 = lanes.length ? lanes[0]!.start : 0;
  const [view, setView] = useState<View>(range);
  const [userView, setUserView] = useState(false);
  useEffect(() => {
    if (!userView) setView(range);
  }, [range, userView]);
  useEffect(() => {
    setUserView(false);
  }, [sessionKey]);

  const wrapRef = useRef<HTMLDivElement>(null);
  const gapId = `msi-tl-gaps-${useId().replace(/:/g, '')}`;
  // Vertical culling: only lanes near the visible part of the (scrolling) body are drawn.
  const bodyRef = useRef<HTMLDivElement>(null);
  const [vScroll, setVScroll] = useState({ top: 0, height: 800 });
  // Re-run once the body exists (the first render may have had no session or no lanes yet).
  const remeasure = [session === undefined, lanes.length === 0];
  useMeasured(() => bodyRef.current, (el) => setVScroll({ top: el.scrollTop, height: el.clientHeight || 800 }), remeasure);
  // Room for the timeline in its tab (the panel's height less what sits above): when full-height
  // lanes would not fit, they are drawn compact, so that more of them show without scrolling.
  const rootRef = useRef<HTMLDivElement>(null);
  const [room, setRoom] = useState(Infinity);
  useMeasured(() => rootRef.current?.parentElement, (el) => setRoom(el.clientHeight || Infinity), remeasure);
  // bar, axis, selection line and the requests summary's three rows below
  const geom = room - 200 < lanes.length * LANES_FULL.h ? LANES_COMPACT : LANES_FULL;
  const LANE_H = geom.h;
  const laneY = (i: number) => i * geom.h;
  const [width, setWidth] = useState(900);
  useLayoutEffect(() => {
    const el = wrapRef.current;
    if (!el) return;
    const measure = () => setWidth(Math.max(300, el.clientWidth || 900));
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
    // re-run once the body exists (the first render may have had no session or no lanes yet)
  }, [session === undefined, lanes.length === 0]);

  // The lane the user opened the panel to see: the first gap, else the first stream with an error
  // finding. When the lanes do not all fit, the body is scrolled once (per session and lane) so that
  // this lane is in view on the first screen.
  const targetLane = useMemo(() => {
    const gap = findings.find((f) => (f.code === 'replay-gap' || f.code === 'live-gap') && f.streamId && laneOf.has(f.streamId));
    const f = gap ?? findings.find((x) => x.severity === 'error' && x.streamId && laneOf.has(x.streamId));
    return f?.streamId !== undefined ? laneOf.get(f.streamId) : undefined;
  }, [findings, laneOf]);
  const autoScrolled = useRef<string | undefined>(undefined);
  useLayoutEffect(() => {
    const body = bodyRef.current;
    if (!body || targetLane === undefined) return;
    const key = `${sessionKey}\u0000${targetLane}\u0000${LANE_H}`;
    if (autoScrolled.current === key) return;
    autoScrolled.current = key;
    const top = laneY(targetLane);
    const bottom = AXIS_H + top + LANE_H + 4;
    if (bottom <= body.scrollTop + body.clientHeight) return;
    // The least scroll that shows the whole lane: the lanes above it (the cut stream it resumes,
    // the reconnect link) stay in view as far as room allows.
    body.scrollTop = Math.max(0, Math.min(bottom - body.clientHeight, top));
  });

  const span = Math.max(1e-6, view.end - view.start);
  const tAt = (px: number) => view.start + (px / width) * span;
  // Lane tops are in the lanes SVG; the sticky axis SVG sits above it inside the scrolling body.
  const laneVisible = (i: number) => AXIS_H + laneY(i) + LANE_H >= vScroll.top - 4 * LANE_H && AXIS_H + laneY(i) <= vScroll.top + vScroll.height + 4 * LANE_H;

  // Center on a requested focus ("Show in timeline").
  useEffect(() => {
    const f = props.focus;
    if (!f || f.token === appliedFocusToken) return;
    appliedFocusToken = f.token;
    let t = f.t;
    if (t === undefined && f.streamId) {
      const s = snap.streams[f.streamId];
      t = s ? (f.index !== undefined ? s.events[f.index]?.t : undefined) ?? s.start : undefined;
    }
    if (t === undefined) return;
    const cur = view.end - view.start;
    const sp = Math.min(cur, Math.max(200, (range.end - range.start) / 1.2));
    setView({ start: t - sp / 2, end: t + sp / 2 });
    setUserView(true);
    if (f.takeFocus) wrapRef.current?.focus({ preventScroll: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.focus?.token]);

  // Mouse: wheel zooms at the cursor (shift+wheel or horizontal wheel pans), drag pans.
  const onWheel = (e: WheelEvent) => {
    const rect = (e.currentTarget as HTMLElement).getBoundingClientRect();
    const px = e.clientX - rect.left;
    if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
      setView((v) => panView(v, ((e.deltaX || e.deltaY) / width) * (v.end - v.start)));
    } else {
      setView((v) => zoomView(v, Math.exp(e.deltaY * 0.0015), tAt(px)));
    }
    setUserView(true);
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
    if (d.moved) {
      setView(panView(d.v, (-dx / width) * (d.v.end - d.v.start)));
      setUserView(true);
    }
  };
  const onPointerUp = (e: PointerEvent) => {
    const d = drag.current;
    drag.current = null;
    if (d && !d.moved) {
      const el = (e.target as Element).closest?.('[data-ev]');
      const key = el?.getAttribute('data-ev');
      if (key) {
        const [lane, idx] = key.split(':').map(Number) as [number, number];
        const s = lanes[lane];
        if (s) props.onSelect({ streamId: s.id, index: idx });
      }
    }
  };

  // Keyboard: ←/→ previous/next event in the lane, ↑/↓ lane, +/- zoom, Shift+←/→ pan, 0 reset, Enter open.
  const onKey = (e: KeyboardEvent) => {
    const mid = (view.start + view.end) / 2;
    const selLane = selected ? (laneOf.get(selected.streamId) ?? 0) : 0;
    const sel = (lane: number, idx: number) => {
      const s = lanes[lane];
      if (!s || !s.events.length) return;
      const i = Math.max(0, Math.min(s.events.length - 1, idx));
      props.onSelect({ streamId: s.id, index: i });
      const body = bodyRef.current;
      const top = AXIS_H + laneY(lane);
      if (body && (top < body.scrollTop + AXIS_H || top + LANE_H > body.scrollTop + body.clientHeight)) body.scrollTop = top - body.clientHeight / 2;
      const t = s.events[i]!.t;
      if (t < view.start || t > view.end) setView((v) => panView(v, t - (v.start + v.end) / 2));
    };
    let handled = true;
    if (e.key === '+' || e.key === '=') setView((v) => zoomView(v, 0.7, selected ? (snap.streams[selected.streamId]?.events[selected.index]?.t ?? mid) : mid));
    else if (e.key === '-' || e.key === '_') setView((v) => zoomView(v, 1 / 0.7, mid));
    else if (e.key === '0') {
      setView(range);
      setUserView(false);
    } else if (e.shiftKey && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) setView((v) => panView(v, (e.key === 'ArrowLeft' ? -0.2 : 0.2) * (v.end - v.start)));
    else if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
      const dir = e.key === 'ArrowRight' ? 1 : -1;
      if (!selected) {
        const s = lanes[0];
        if (s) sel(0, dir > 0 ? lowerBound(s.events, view.start) : lowerBound(s.events, view.end) - 1);
      } else sel(selLane, selected.index + dir);
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      const to = Math.max(0, Math.min(lanes.length - 1, selLane + (e.key === 'ArrowDown' ? 1 : -1)));
      const s = lanes[to];
      const t = selected ? (snap.streams[selected.streamId]?.events[selected.index]?.t ?? mid) : mid;
      if (s && s.events.length) sel(to, Math.min(s.events.length - 1, lowerBound(s.events, t)));
    } else if (e.key === 'Enter' && selected) props.onOpenEvent(selected);
    else handled = false;
    if (handled) {
      e.preventDefault();
      setUserView(true);
    }
  };

  if (!session) return <div className="empty">Select a session.</div>;
  if (!lanes.length) return <div className="empty">No streams in this session yet.</div>;

  const selKey = selected ? `${laneOf.get(selected.streamId)}:${selected.index}` : undefined;
  // The gaps drawn in the lanes, in words, for screen readers (the SVG marks carry no text of it).
  const gapText = findings
    .filter((f) => f.code === 'replay-gap' || f.code === 'live-gap')
    .map((f) => visibleLine(`${f.code}: ids ${f.missing ?? f.eventIds.join(', ')} missing${f.streamId && snap.streams[f.streamId] ? ` on ${streamLabel(snap.streams[f.streamId]!, reqs)}` : ''}.`, 200))
    .join(' ');
  const { els, axisEls, labelEls, height } = drawTimeline({ snap, lanes, laneOf, findings, view, width, t0, selKey, laneVisible, geom });
  const selEv = selected ? snap.streams[selected.streamId]?.events[selected.index] : undefined;
  return (
    <div className={`tl${geom.compact ? ' compact' : ''}`} data-testid="timeline" ref={rootRef}>
      <div className="tl-bar">
        <span>{`${lanes.length} stream${lanes.length > 1 ? 's' : ''} · ${formatRel(view.start - t0)} – ${formatRel(view.end - t0)}`}</span>
        <span className="faint tl-hint">wheel zoom · drag pan · arrows move · +/− · 0 reset · Enter open</span>
        <span className="tl-legend" aria-hidden="true">
          <span><span style={{ color: 'var(--mark-fill)' }}>●</span> event</span>
          <span><span className="ok">●</span> result</span>
          <span><span className="sev-error">●</span> finding</span>
          <span><span style={{ color: 'var(--named)' }}>◆</span> named event</span>
          <span><span className="sev-error">▨</span> server gap</span>
          <span style={{ color: 'var(--capture)' }}>┆ capture-gap (inspector)</span>
          <span style={{ color: 'var(--accent)' }}>⤷ reconnect</span>
        </span>
      </div>
      <div className="tl-body" ref={bodyRef} onScroll={(e) => setVScroll({ top: e.currentTarget.scrollTop, height: e.currentTarget.clientHeight || 800 })}>
        <div className="tl-labels" aria-hidden="true">
          <div className="tl-axis-spacer" />
          {lanes.map((s, li) => !laneVisible(li) ? <div className="tl-label" key={s.id} style={{ height: LANE_H }} /> : (
            <div className="tl-label" key={s.id} style={{ height: LANE_H }}>
              <div className="l1">{visibleLine(streamLabel(s, reqs), 60)}</div>
              <div className="l2">
                <span className={s.status !== undefined && s.status >= 400 ? 'sev-error' : undefined}>{s.status ?? '—'}</span>
                {/* a 202/204 answer (to a notification or response) has no body: "open" would mislead */}
                {visibleLine(
                  (s.status === 202 || s.status === 204) && s.events.length === 0 && s.state === 'open'
                    ? ' · accepted, no body'
                    : ` · ${s.events.length} events · ${s.state}${s.endReason ? ` (${s.endReason})` : ''}`,
                  80,
                )}
              </div>
            </div>
          ))}
        </div>
        <div
          className="tl-canvas"
          ref={wrapRef}
          tabIndex={0}
          // listbox, not list: a list cannot carry aria-activedescendant (the focused event)
          role="listbox"
          aria-label="Session timeline: streams as lanes, events as marks. Arrow keys move between events, plus and minus zoom."
          aria-describedby={gapText ? gapId : undefined}
          aria-activedescendant={selKey ? `tl-ev-${selKey.replace(":", "-")}` : undefined}
          onKeyDown={onKey}
          onWheel={onWheel}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
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
      {selEv && selected && (
        <div className="tl-selected" data-testid="timeline-selected">
          <span className="dim">Selected:</span>
          <span className="mono">{visibleLine(`id ${selEv.id ?? '(none)'}`, 60)}</span>
          <span>{visibleLine(eventMethods(selEv) || selEv.event, 80)}</span>
          <span className="dim">{visibleLine(`${streamLabel(snap.streams[selected.streamId]!, reqs)} · ${formatRel(selEv.t - t0)}`, 100)}</span>
          {selEv.findings.length > 0 && <span className="sev-error">{selEv.findings.join(', ')}</span>}
          {selEv.duplicate && <span className="sev-warning">duplicate id</span>}
          <button type="button" className="linkbtn" onClick={() => props.onOpenEvent(selected)}>
            Open in Events
          </button>
        </div>
      )}
    </div>
  );
}

/** Call `measure(el)` now and whenever the element resizes (ResizeObserver, where there is one). */
function useMeasured(get: () => HTMLElement | null | undefined, measure: (el: HTMLElement) => void, deps: unknown[]) {
  useLayoutEffect(() => {
    const el = get();
    if (!el) return;
    const run = () => measure(el);
    run();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(run);
    ro.observe(el);
    return () => ro.disconnect();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
}

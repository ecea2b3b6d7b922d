// What a snapshot shows of a stream: its model (a new Stream object per change, O(1) in its events)
// and the finding codes derivation puts on its events. The events are the stream's columns
// (event-store.ts), shared by every snapshot: each snapshot holds a view of the first events with
// the derived codes of that snapshot, so what a snapshot shows never changes afterwards.
import type { FindingCode, Stream } from '../model';
import { NO_SESSION, type StreamS } from './state';
import type { EventStore } from './event-store';

/** The snapshot stage's cache of one stream. */
export interface StreamView {
  cached?: Stream;
  /** The overlay `cached.events` shows. */
  overlay?: EventStore['overlay'];
}

function sameCodes(a: readonly FindingCode[] | undefined, b: readonly FindingCode[]): boolean {
  if (!a || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Show the codes derived at snapshot time on the stream's events (views handed out before keep
 * theirs). Cost: the size of the old and new overlays, never the number of events. Returns
 * whether an event changed.
 */
export function applyOverlay(st: StreamS, overlay: Map<number, FindingCode[]> | undefined): boolean {
  const store = st.events;
  const old = store.overlay;
  let changed = false;
  if (old) for (const i of old.keys()) if (!overlay?.has(i)) changed = true;
  if (overlay) {
    for (const [i, add] of overlay) {
      if (sameCodes(old?.get(i), add)) continue;
      if (i < store.length) changed = true;
    }
  }
  store.setOverlay(overlay);
  return changed;
}

/** Add one derived code to an event of the stream (see applyOverlay). */
export function addOverlayCode(st: StreamS, idx: number, code: FindingCode): boolean {
  const store = st.events;
  const shown = idx < store.length ? store.findings(idx) : undefined;
  store.addOverlayCode(idx, code);
  return shown !== undefined && !shown.includes(code);
}

/**
 * The stream's model for a snapshot. O(1) in the number of events: `events` is the stream's own
 * append-only array, shared by every snapshot (a new Stream object per change, so identity still
 * says "changed"); `eventCount` is its length at this snapshot.
 */
export function streamModel(st: StreamS, view: StreamView): Stream {
  if (!st.dirty && view.cached) return view.cached;
  // Events unchanged since the last model (a stream is dirty for its bytes, its end…): the same
  // view, so the panel's views of them see nothing new.
  const prev = view.cached?.events;
  const events = prev && prev.length === st.events.length && view.overlay === st.events.overlay ? prev : st.events.view();
  view.overlay = st.events.overlay;
  const m: Stream = {
    id: st.id,
    sessionKey: st.session?.key ?? NO_SESSION,
    kind: st.kind,
    method: st.method,
    url: st.url,
    requestHeaders: st.requestHeaders.map(([k, v]) => [k, v] as [string, string]),
    responseHeaders: st.responseHeaders.map(([k, v]) => [k, v] as [string, string]),
    requestIds: st.requestIds.slice(),
    resumedBy: st.resumedBy.slice(),
    start: st.start,
    state: st.state,
    events,
    eventCount: events.length,
    comments: st.comments,
    bytes: st.bytes,
    transport: st.transport,
    chainRoot: st.root.id,
  };
  if (st.status !== undefined) m.status = st.status;
  if (st.contentType !== undefined) m.contentType = st.contentType;
  if (st.lastEventIdSent !== undefined) m.lastEventIdSent = st.lastEventIdSent;
  if (st.resumes) m.resumes = st.resumes.id;
  if (st.end !== undefined) m.end = st.end;
  if (st.endReason !== undefined) m.endReason = st.endReason;
  if (st.captureIncomplete) m.captureIncomplete = true;
  if (st.cursor !== undefined) m.lastCursor = st.cursor;
  if (st.retry !== undefined) m.retry = st.retry;
  view.cached = m;
  st.dirty = false;
  return m;
}

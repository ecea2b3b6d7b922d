// What a snapshot shows of a stream: its model (a new Stream object per change, O(1) in its events)
// and the finding codes derivation puts on its events. The events array is shared by every
// snapshot: push appends to it, and only this module replaces an entry (an event that gains
// derived codes is replaced by a copy carrying them; one that loses them gets its pushed version
// back), so an event object, once in a snapshot, never changes.
import type { FindingCode, Stream } from '../model';
import { NO_SESSION, type StreamS } from './state';

/** The snapshot stage's cache of one stream. */
export interface StreamView {
  /** Finding codes derived at snapshot time, by event index (last derivation). */
  overlay?: Map<number, FindingCode[]>;
  cached?: Stream;
}

function sameCodes(a: readonly FindingCode[] | undefined, b: readonly FindingCode[]): boolean {
  if (!a || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Put the codes derived at snapshot time onto the stream's shared event array. Cost: the size of
 * the old and new overlays, never the number of events. Returns whether an event changed.
 */
export function applyOverlay(st: StreamS, view: StreamView, overlay: Map<number, FindingCode[]> | undefined): boolean {
  const old = view.overlay;
  let changed = false;
  if (old && st.base) {
    for (const i of old.keys()) {
      if (overlay?.has(i)) continue;
      const b = st.base.get(i);
      if (b) st.events[i] = b;
      st.base.delete(i);
      changed = true;
    }
  }
  if (overlay) {
    for (const [i, add] of overlay) {
      if (sameCodes(old?.get(i), add)) continue;
      st.base ??= new Map();
      let b = st.base.get(i);
      if (!b) {
        b = st.events[i];
        if (!b) continue;
        st.base.set(i, b);
      }
      const codes = b.findings.slice();
      for (const c of add) if (!codes.includes(c)) codes.push(c);
      st.events[i] = { ...b, findings: codes };
      changed = true;
    }
  }
  view.overlay = overlay;
  return changed;
}

/** Add one derived code to an event of the shared array (see applyOverlay). */
export function addOverlayCode(st: StreamS, view: StreamView, idx: number, code: FindingCode): boolean {
  view.overlay ??= new Map();
  const l = view.overlay.get(idx);
  if (l) l.push(code);
  else view.overlay.set(idx, [code]);
  st.base ??= new Map();
  let b = st.base.get(idx);
  if (!b) {
    b = st.events[idx];
    if (!b) return false;
    st.base.set(idx, b);
  }
  const shown = st.events[idx]!;
  if (shown.findings.includes(code)) return false;
  st.events[idx] = { ...b, findings: [...shown.findings, code] };
  return true;
}

/**
 * The stream's model for a snapshot. O(1) in the number of events: `events` is the stream's own
 * append-only array, shared by every snapshot (a new Stream object per change, so identity still
 * says "changed"); `eventCount` is its length at this snapshot.
 */
export function streamModel(st: StreamS, view: StreamView): Stream {
  if (!st.dirty && view.cached) return view.cached;
  const events = st.events;
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

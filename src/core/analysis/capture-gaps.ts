// Capture gaps: records the capture does not hold (lost by the inspector, not kept while recording
// was off, cut by a size cap, or a connection whose request is not in the capture). Principle:
// lose nothing, invent nothing. Each gap is a `capture-gap` finding; on a stream it hits, the SSE
// parser drops the partial event and resyncs at the next certain event boundary (the finding then
// says how much it dropped), the next id is not compared with the last one before the gap, and
// the cursor is unknown until a new id arrives. Streams of connections seen only after a gap are
// kept as streams of their own. Each stretch of lost records is also noted with what bounds the
// ids it could have carried (lost-ids.ts), so that a gap elsewhere those ids may explain is not
// reported as the server's fault.
import type { CaptureGapRecord, ChunkRecord, EsEventRecord } from '../record';
import type { Finding } from '../model';
import type { FindingInput } from '../findings';
import { createSseConnectionParser } from '../sse';
import { frozen, makeFinding, touch } from './findings-log';
import { newStream } from './streams';
import { attachSession, getSession } from './sessions';
import * as T from './texts';
import { type GapNote, type SessionState, type StreamS } from './state';
import { connKey, type AnalyzerState, type ConnState } from './analyzer-state';

/**
 * What the relay's gap record bounds: for these reasons it is written after the records it reports
 * (buffer-cap: the time of the last evicted record; not-recording: when recording began;
 * event-size-cap: when the event was cut), so they were read no later than its time. Otherwise
 * (reload, other, a file without a body) when they were read is unknown.
 */
function readBound(r: CaptureGapRecord): number {
  return r.reason === 'buffer-cap' || r.reason === 'not-recording' || r.reason === 'event-size-cap' ? r.t : Infinity;
}

function noteValue(n: GapNote): Finding {
  const f: Finding = { ...n.draft, eventIds: n.draft.eventIds.slice(), message: n.base + n.parts.join('') + T.gapMore(n.more) };
  if (n.draft.relatedStreamIds) f.relatedStreamIds = n.draft.relatedStreamIds.slice();
  return f;
}

/** Lists a capture-gap finding whose message is `base` plus what is learnt later. */
function addNote(A: AnalyzerState, s: SessionState | undefined, input: FindingInput, base: string, extra: Partial<GapNote> = {}): GapNote {
  const draft = makeFinding(s, 'capture-gap', input);
  const n: GapNote = { entry: { ord: ++A.ord, f: draft }, stale: false, make: () => noteValue(n), s, draft, base, parts: [], more: 0, benign: false, ...extra };
  n.entry.f = frozen(noteValue(n));
  (s ? s.findings : A.globalFindings).push(n.entry);
  if (s) s.dirty = true;
  return n;
}

/**
 * Records of `st` were lost (or not kept) at this point: nothing after it continues what came
 * before. The SSE parser drops the partial event and resyncs at the next blank line, the next
 * id is not compared with the last one before the loss, and the cursor is unknown until then.
 */
function lostAt(A: AnalyzerState, st: StreamS, note: GapNote, bodyLost = true): void {
  // Ids of the lost records are unknown: bounded by what the capture holds around them.
  if (bodyLost) A.lost.add(st, T.LOST.records(st.id, note.what), note.tHi ?? Infinity, st.orphan === true);
  st.captureIncomplete = true;
  // (half an ord: after every record so far, before the next; no ord is taken from the others)
  (st.lossOrds ??= []).push(A.ord + 0.5);
  if (note.benign) st.notRecorded = true;
  else st.inspectorLost = true;
  if (st.session) {
    if (note.benign) st.session.notRecorded = true;
    else st.session.captureGap = true;
    st.session.dirty = true;
  }
  st.dirty = true;
  st.afterGap = true;
  st.gaps = (st.gaps ?? 0) + 1;
  st.esUnknown = true;
  st.cursor = undefined;
  st.root.cursorUnknown = true;
  if (st.parser && st.state === 'open') startResync(A, st, note);
}

function startResync(A: AnalyzerState, st: StreamS, note: GapNote): void {
  // A second loss before the first resync ended: that one's count stops here.
  if (st.resyncNote) finishResync(A, st, false);
  const before = st.parser!.resync();
  st.lastBlock = undefined;
  st.lastEvIndex = undefined;
  st.resyncNote = { note, before };
}

/** After a feed (or at the end): reports what the resync dropped once it is over. */
export function finishResync(A: AnalyzerState, st: StreamS, ended: boolean): void {
  const r = st.resyncNote;
  if (!r) return;
  st.resyncNote = undefined;
  const after = st.parser!.resyncDropped;
  if (r.before === 0 && after === 0 && !ended) return;
  const n = r.note;
  if (n.parts.length >= 5) n.more++;
  else n.parts.push(T.resyncDropped(st.id, r.before, after, ended));
  touch(A, n, n.s);
}

/** A chunk of `st` the size cap cut (`droppedBytes`): its tail is lost, so the next chunk does not continue its text. */
export function cutChunk(A: AnalyzerState, st: StreamS, dropped: number): void {
  st.cutBytes = (st.cutBytes ?? 0) + dropped;
  st.cuts = (st.cuts ?? 0) + 1;
  const base = T.sizeCapCut(st.id, st.cuts, st.cutBytes);
  if (!st.cutNote) st.cutNote = addNote(A, st.session, { streamId: st.id, eventIds: [], message: '' }, base, { what: "cut by the inspector's size cap" });
  const n = st.cutNote;
  n.base = base;
  touch(A, n, n.s);
  lostAt(A, st, n);
}

/** A stream for records of a connection whose request record is not in this capture. */
export function orphanStream(A: AnalyzerState, r: ChunkRecord | EsEventRecord, key: string): StreamS {
  const c: ConnState = {};
  A.conns.set(key, c);
  const st = newStream(A, r.src, r.conn, undefined, r.t);
  c.stream = st;
  st.capture = 'sse';
  if (r.kind === 'es-event') {
    st.kind = 'eventsource';
    st.transport = 'eventsource';
  } else st.parser = createSseConnectionParser();
  attachSession(st, getSession(A, null, ''));
  noteOrphan(A, st, key, r.kind === 'chunk' ? T.ORPHAN_WHAT.chunk : T.ORPHAN_WHAT.esEvent, r.t);
  return st;
}

/** Names `st` in the finding of the gap that listed its connection (once). */
function nameIn(A: AnalyzerState, n: GapNote, st: StreamS, text: string): void {
  const d = n.draft;
  if (d.streamId === st.id || d.relatedStreamIds?.includes(st.id)) return;
  if (d.streamId === undefined) d.streamId = st.id;
  else (d.relatedStreamIds ??= []).push(st.id);
  n.base += text;
  touch(A, n, n.s);
}

/**
 * The response of a connection a gap listed arrived after the gap while its request is known:
 * only a relay that re-sends a connection's head when recording starts does that, so the body
 * that follows starts at an unknown point. The gap's finding names the stream; parse from the
 * body's first event boundary.
 */
export function resyncAfterGap(A: AnalyzerState, st: StreamS, key: string): void {
  const n = A.gapNotes.get(key);
  if (!n) return;
  nameIn(A, n, st, T.seenAfterGap(st.id));
  lostAt(A, st, n);
}

/**
 * A stream created without its request: says so, or joins the gap's finding. `t`: the time of
 * its first record when body records before it may be lost too (not when the stream begins at
 * its response, whose body is whole).
 */
export function noteOrphan(A: AnalyzerState, st: StreamS, key: string, what: string, t?: number): void {
  // Without its request (and no session id in its response) its session is a guess: the ids it
  // delivers may be another session's.
  if (st.session?.sessionId == null) A.lost.unknownSession(st);
  let n = A.gapNotes.get(key);
  if (n) {
    nameIn(A, n, st, T.cameAfterGap(st.id, what));
    // Lost with that gap, read before this first record of the connection.
    if (t !== undefined) A.lost.add(st, T.LOST.records(st.id, n.what), Math.min(n.tHi ?? Infinity, t), true);
  } else {
    n = addNote(A, st.session, { streamId: st.id, eventIds: [], message: '' }, T.withoutStart(st.id, what));
    A.gapNotes.set(key, n);
    if (t !== undefined) A.lost.add(st, T.LOST.beforeFirst(st.id), t, true);
  }
  lostAt(A, st, n, false);
}

/** An imported file (HAR) without the body of these responses: unknown, not empty. */
function bodiesAbsent(A: AnalyzerState, r: CaptureGapRecord, streams: StreamS[]): void {
  // Their capture-gap findings are decided at snapshot time (derive/absent.ts): a warning naming
  // what depends on the body (a request's result, missing ids, a resume cursor that may be on
  // it), info when nothing does — the file cannot show these events, the inspector did not lose them.
  for (const x of streams) {
    // A file holding only the first part of the body (har.ts: content.size larger): an event it
    // cut is the file's, not one the server left unfinished.
    if (x.parser && x.bytes > 0 && x.state === 'open') x.parser.resync();
    x.captureIncomplete = true;
    x.bodyAbsent = true;
    x.absentOrd = ++A.ord;
    x.dirty = true;
    if (x.session) x.session.dirty = true;
    // Its whole body is unknown, read before its end (a later record of the connection). A JSON
    // answer carries no event ids: it cannot hold ids missing elsewhere.
    if (x.capture !== 'json') A.lost.add(x, T.LOST.body(x.id), Infinity);
  }
  A.markers.push({ t: r.t, kind: 'capture-gap', text: T.absentMarker(streams.length) });
}

export function onCaptureGap(A: AnalyzerState, r: CaptureGapRecord): void {
  const streams: StreamS[] = [];
  const keys: string[] = [];
  for (const c of r.conns) {
    const k = connKey(r.src, c);
    A.gapConns.add(k);
    keys.push(k);
    const st = A.conns.get(k)?.stream;
    if (st) streams.push(st);
  }
  if (r.reason === 'import' && streams.length > 0) return bodiesAbsent(A, r, streams);
  const benign = r.reason === 'not-recording';
  const extra = { benign, what: T.lostHow(r), tHi: readBound(r) };
  // Connections the capture has not seen (their request was lost too, or none are named: the
  // panel's store, a reload) may have carried ids of any session. Before recording began, whole
  // connections that ended meanwhile were not kept either, and no gap record names them.
  // A loss of unknown size for an unknown reason ('other': messages of the page hook that never
  // reached the relay) may also hold whole connections that began and ended in it.
  if (keys.some((k) => !A.conns.get(k)?.stream) || r.conns.length === 0 || (r.lost === 0 && r.reason === 'other'))
    A.lost.add(undefined, T.LOST.unnamed(extra.what), extra.tHi);
  if (benign) A.lost.add(undefined, T.LOST.notKept, extra.tHi);
  A.markers.push({ t: r.t, kind: 'capture-gap', text: T.gapMarker(r) });
  if (benign && streams.length > 0) {
    // Like a file without a body: unknown, not lost, so a warning; one per stream, naming the
    // request whose verdict it caps at complete-unverified.
    for (const x of streams) {
      const req = x.root.requests.find((q) => q.response === undefined) ?? x.root.requests[0];
      const input: FindingInput = {
        severity: 'warning',
        streamId: x.id,
        eventIds: [],
        ...(req ? { requestId: req.id } : {}),
        ...(x.resumes ? { relatedStreamIds: [x.resumes.id] } : {}),
        message: '',
      };
      lostAt(A, x, addNote(A, x.session, input, T.notRecordedStream(x.id, x.method, x.url, req), extra));
    }
    const rest = keys.filter((k) => !A.conns.get(k)?.stream);
    if (rest.length > 0) {
      const n = addNote(A, undefined, { severity: 'warning', eventIds: [], message: '' }, T.gapOpenConnections(r), extra);
      for (const k of rest) A.gapNotes.set(k, n);
    }
    return;
  }
  const s = streams.find((x) => x.session)?.session;
  const input: FindingInput = { eventIds: [], message: '' };
  if (benign) input.severity = 'warning';
  if (streams[0]) input.streamId = streams[0].id;
  if (streams.length > 1) input.relatedStreamIds = streams.slice(1).map((x) => x.id);
  const n = addNote(A, s, input, T.gapStreams(r, streams.map((x) => x.id)), extra);
  for (const k of keys) A.gapNotes.set(k, n);
  for (const x of streams) lostAt(A, x, n);
}

/** `st` gets a body while its response was lost with a gap: parse it from its first boundary. */
export function lostResponse(A: AnalyzerState, st: StreamS, key: string): void {
  st.capture = 'sse';
  st.parser = createSseConnectionParser();
  const note = A.gapNotes.get(key);
  if (note) startResync(A, st, note);
  else st.parser.resync();
}

// Capture gaps: records the capture does not hold (lost by the inspector, not kept while recording
// was off, cut by a size cap, or a connection whose request is not in the capture). Principle:
// lose nothing, invent nothing. Each gap is a `capture-gap` finding; on a stream it hits, the SSE
// parser drops the partial event and resyncs at the next certain event boundary (the finding then
// says how much it dropped), the next id is not compared with the last one before the gap, and
// the cursor is unknown until a new id arrives. Streams of connections seen only after a gap are
// kept as streams of their own. Each stretch of lost records is also noted with what bounds the
// ids it could have carried (lost-ids.ts), so that a gap elsewhere those ids may explain is not
// reported as the server's fault.
import type { CaptureGapRecord, ChunkRecord, EsEventRecord, RequestRecord } from './record';
import type { AnalysisSnapshot, Finding, FindingCode } from './model';
import type { FindingInput } from './findings';
import { createSseConnectionParser } from './sse';
import type { ConnState, GapNote, SessionState, StreamS } from './state';
import type { LostIds } from './lost-ids';

/** What the gap handling needs of the analyzer. */
export interface GapContext {
  conns: Map<string, ConnState>;
  /** Connections some gap record listed. */
  gapConns: Set<string>;
  markers: AnalysisSnapshot['markers'];
  nextOrd(): number;
  connKey(src: string, conn: string): string;
  addFinding(s: SessionState | undefined, at: number, code: FindingCode, f: FindingInput): Finding;
  newStream(src: string, conn: string, req: RequestRecord | undefined, t: number): StreamS;
  attachSession(st: StreamS, s: SessionState): void;
  getSession(sessionId: string | null, url: string): SessionState;
  lost: LostIds;
}

export interface CaptureGaps {
  onCaptureGap(r: CaptureGapRecord): void;
  /** A stream for records of a connection whose request record is not in the capture. */
  orphanStream(r: ChunkRecord | EsEventRecord, key: string): StreamS;
  /**
   * A stream created without its request: says so, or joins the gap's finding. `t`: the time of
   * its first record when body records before it may be lost too (not when the stream begins at
   * its response, whose body is whole).
   */
  noteOrphan(st: StreamS, key: string, what: string, t?: number): void;
  /** `st` gets a body while its response was lost with a gap: parse it from its first boundary. */
  lostResponse(st: StreamS, key: string): void;
  /**
   * The response of a connection a gap listed arrived after the gap while its request is known:
   * only a relay that re-sends a connection's head when recording starts does that, so the body
   * that follows starts at an unknown point. The gap's finding names the stream; parse from the
   * body's first event boundary.
   */
  resyncAfterGap(st: StreamS, key: string): void;
  /** A chunk of `st` the size cap cut (`droppedBytes`). */
  cutChunk(st: StreamS, dropped: number): void;
  /** After a feed (or at the end): reports what the resync dropped once it is over. */
  finishResync(st: StreamS, ended: boolean): void;
}

/** What a capture-gap record says was lost, in words (a count of 0 means "unknown" or "cut"). */
function captureGapWhat(r: CaptureGapRecord): string {
  if (r.reason === 'not-recording')
    return `Recording began only when DevTools opened ("capture while DevTools is closed" is off): ${r.lost > 0 ? `${r.lost} earlier record(s) were` : 'earlier records were'} not kept — the user's setting, not a loss by the inspector`;
  if (r.reason === 'event-size-cap') return 'The inspector cut an event over its per-record size cap: its data is incomplete';
  if (r.lost > 0) return `The inspector itself lost ${r.lost} record(s), reason ${r.reason}`;
  if (r.reason === 'extension-reloaded') return 'The extension was reloaded while this page was open: what the old instance captured is gone (how much is unknown)';
  return `The inspector lost an unknown number of records, reason ${r.reason}`;
}

/**
 * What the relay's gap record bounds: for these reasons it is written after the records it reports
 * (buffer-cap: the time of the last evicted record; not-recording: when recording began;
 * event-size-cap: when the event was cut), so they were read no later than its time. Otherwise
 * (reload, other, a file without a body) when they were read is unknown.
 */
function readBound(r: CaptureGapRecord): number {
  return r.reason === 'buffer-cap' || r.reason === 'not-recording' || r.reason === 'event-size-cap' ? r.t : Infinity;
}

/** How the records of a gap were lost, after "records of <stream>". */
function lostHow(r: CaptureGapRecord): string {
  if (r.reason === 'not-recording') return 'not kept before recording began ("capture while DevTools is closed" is off)';
  if (r.reason === 'event-size-cap') return "cut by the inspector's size cap";
  return `lost by the inspector (${r.reason})`;
}

export function createCaptureGaps(ctx: GapContext): CaptureGaps {
  /** The capture-gap finding of each connection a gap record listed (for streams seen later). */
  const gapNotes = new Map<string, GapNote>();

  function renderNote(n: GapNote) {
    n.f.message = n.base + n.parts.join('') + (n.more > 0 ? ` The same on ${n.more} more stream(s) or cut(s).` : '');
    if (n.s) n.s.dirty = true;
  }

  /**
   * Records of `st` were lost (or not kept) at this point: nothing after it continues what came
   * before. The SSE parser drops the partial event and resyncs at the next blank line, the next
   * id is not compared with the last one before the loss, and the cursor is unknown until then.
   */
  function lostAt(st: StreamS, note: GapNote, bodyLost = true) {
    // Ids of the lost records are unknown: bounded by what the capture holds around them.
    if (bodyLost) ctx.lost.add(st, `records of ${st.id} ${note.what ?? 'lost by the inspector'}`, note.tHi ?? Infinity, st.orphan === true);
    st.captureIncomplete = true;
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
    if (st.parser && st.state === 'open') startResync(st, note);
  }

  function startResync(st: StreamS, note: GapNote) {
    // A second loss before the first resync ended: that one's count stops here.
    if (st.resyncNote) finishResync(st, false);
    const before = st.parser!.resync();
    st.lastBlock = undefined;
    st.lastEv = undefined;
    st.resyncNote = { note, before };
  }

  function finishResync(st: StreamS, ended: boolean) {
    const r = st.resyncNote;
    if (!r) return;
    st.resyncNote = undefined;
    const after = st.parser!.resyncDropped;
    if (r.before === 0 && after === 0 && !ended) return;
    const n = r.note;
    if (n.parts.length >= 5) n.more++;
    else
      n.parts.push(
        ` On ${st.id} the inspector dropped ${r.before > 0 ? `the ${r.before} character(s) of the event cut before the loss and ` : ''}${after} character(s) after it ${ended ? 'until the stream ended (no blank line came)' : 'up to the next blank line'}: no event is made of text from both sides.`,
      );
    renderNote(n);
  }

  /** A chunk the size cap cut: its tail is lost, so the next chunk does not continue its text. */
  function cutChunk(st: StreamS, dropped: number) {
    st.cutBytes = (st.cutBytes ?? 0) + dropped;
    st.cuts = (st.cuts ?? 0) + 1;
    const s = st.session;
    if (!st.cutNote) {
      const f = ctx.addFinding(s, ctx.nextOrd(), 'capture-gap', { streamId: st.id, eventIds: [], message: '' });
      st.cutNote = { f, s, base: '', parts: [], more: 0, benign: false, what: "cut by the inspector's size cap" };
    }
    const n = st.cutNote;
    n.base = `The inspector cut ${st.cuts} chunk(s) of ${st.id} over its per-record size cap (${st.cutBytes} byte(s) left out): events there are incomplete; what is missing is not the server's fault.`;
    renderNote(n);
    lostAt(st, n);
  }

  /** Records of a connection whose request record is not in this capture. */
  function orphanStream(r: ChunkRecord | EsEventRecord, key: string): StreamS {
    const c: ConnState = {};
    ctx.conns.set(key, c);
    const st = ctx.newStream(r.src, r.conn, undefined, r.t);
    c.stream = st;
    st.capture = 'sse';
    if (r.kind === 'es-event') {
      st.kind = 'eventsource';
      st.transport = 'eventsource';
    } else st.parser = createSseConnectionParser();
    ctx.attachSession(st, ctx.getSession(null, ''));
    noteOrphan(st, key, r.kind === 'chunk' ? 'its request, its response and possibly the start of its body' : 'its request and possibly earlier events', r.t);
    return st;
  }

  /** Names `st` in the finding of the gap that listed its connection (once). */
  function nameIn(n: GapNote, st: StreamS, text: string) {
    if (n.f.streamId === st.id || n.f.relatedStreamIds?.includes(st.id)) return;
    if (n.f.streamId === undefined) n.f.streamId = st.id;
    else (n.f.relatedStreamIds ??= []).push(st.id);
    n.base += text;
  }

  function resyncAfterGap(st: StreamS, key: string) {
    const n = gapNotes.get(key);
    if (!n) return;
    nameIn(n, st, ` ${st.id} was seen only after it: what it carried before is unknown.`);
    renderNote(n);
    lostAt(st, n);
  }

  function noteOrphan(st: StreamS, key: string, what: string, t?: number) {
    // Without its request (and no session id in its response) its session is a guess: the ids it
    // delivers may be another session's.
    if (st.session?.sessionId == null) ctx.lost.unknownSession(st);
    let n = gapNotes.get(key);
    if (n) {
      nameIn(n, st, ` Records of ${st.id} came after it without ${what}.`);
      if (t !== undefined) {
        // Lost with that gap, read before this first record of the connection.
        ctx.lost.add(st, `records of ${st.id} ${n.what ?? 'lost by the inspector'}`, Math.min(n.tHi ?? Infinity, t), true);
      }
    } else {
      const s = st.session;
      const f = ctx.addFinding(s, ctx.nextOrd(), 'capture-gap', {
        streamId: st.id,
        eventIds: [],
        message: '',
      });
      n = { f, s, base: `Records of ${st.id} arrived without ${what}: the capture does not hold the start of this connection, so what it carried before cannot be checked (not the server's fault).`, parts: [], more: 0, benign: false };
      gapNotes.set(key, n);
      if (t !== undefined) ctx.lost.add(st, `records of ${st.id} before the first one captured (its request is not in the capture)`, t, true);
    }
    renderNote(n);
    lostAt(st, n, false);
  }

  function onCaptureGap(r: CaptureGapRecord) {
    const streams: StreamS[] = [];
    const keys: string[] = [];
    for (const c of r.conns) {
      const k = ctx.connKey(r.src, c);
      ctx.gapConns.add(k);
      keys.push(k);
      const st = ctx.conns.get(k)?.stream;
      if (st) streams.push(st);
    }
    if (r.reason === 'import' && streams.length > 0) {
      // An imported file (HAR) without the body of these responses: unknown, not empty. Their
      // capture-gap findings are decided at snapshot time (derive.ts): a warning naming what depends
      // on the body (a request's result, missing ids, a resume cursor that may be on it), info when
      // nothing does — the file cannot show these events, the inspector did not lose them.
      for (const x of streams) {
        x.captureIncomplete = true;
        x.bodyAbsent = true;
        x.absentOrd = ctx.nextOrd();
        x.dirty = true;
        if (x.session) x.session.dirty = true;
        // Its whole body is unknown, read before its end (a later record of the connection). A JSON
        // answer carries no event ids: it cannot hold ids missing elsewhere.
        if (x.capture !== 'json') ctx.lost.add(x, `the body of ${x.id}, which the file does not hold`, Infinity);
      }
      ctx.markers.push({ t: r.t, kind: 'capture-gap', text: `no body in the file for ${streams.length} response(s)` });
      return;
    }
    const benign = r.reason === 'not-recording';
    const range = r.fromSeq !== undefined ? ` (records ${r.fromSeq}–${r.toSeq ?? r.fromSeq} of ${r.src})` : '';
    const what = lostHow(r);
    const tHi = readBound(r);
    /** The finding's note for this gap record, rendered into its message. */
    const note = (f: GapNote['f'], sess: GapNote['s'], base: string): GapNote => {
      const n: GapNote = { f, s: sess, base, parts: [], more: 0, benign, what, tHi };
      renderNote(n);
      return n;
    };
    // Connections the capture has not seen (their request was lost too, or none are named: the
    // panel's store, a reload) may have carried ids of any session. Before recording began, whole
    // connections that ended meanwhile were not kept either, and no gap record names them.
    if (keys.some((k) => !ctx.conns.get(k)?.stream) || r.conns.length === 0) ctx.lost.add(undefined, `records of connections the capture does not hold, ${what}`, tHi);
    if (benign) ctx.lost.add(undefined, `connections that ended before recording began (not kept)`, tHi);
    if (benign && streams.length > 0) {
      // Like a file without a body: unknown, not lost, so a warning; one per stream, naming the
      // request whose verdict it caps at complete-unverified.
      for (const x of streams) {
        const req = x.root.requests.find((q) => q.response === undefined) ?? x.root.requests[0];
        const f = ctx.addFinding(x.session, ctx.nextOrd(), 'capture-gap', {
          severity: 'warning',
          streamId: x.id,
          eventIds: [],
          ...(req ? { requestId: req.id } : {}),
          ...(x.resumes ? { relatedStreamIds: [x.resumes.id] } : {}),
          message: '',
        });
        const n = note(f, x.session, `Recording began only when DevTools opened ("capture while DevTools is closed" is off): the earlier records of ${x.id} (${x.method} ${x.url}) were not kept — the user's setting, not a loss by the inspector. Its events before that are unknown, so ${req ? `request ${req.id} (${req.method}) cannot be better than complete-unverified` : 'nothing before them can be checked'}.`);
        lostAt(x, n);
      }
      const rest = keys.filter((k) => !ctx.conns.get(k)?.stream);
      if (rest.length > 0) {
        const n = note(ctx.addFinding(undefined, ctx.nextOrd(), 'capture-gap', { severity: 'warning', eventIds: [], message: '' }), undefined, `${captureGapWhat(r)}${range}: events that connections open then carried before it are unknown.`);
        for (const k of rest) gapNotes.set(k, n);
      }
      ctx.markers.push({ t: r.t, kind: 'capture-gap', text: `not recording before DevTools opened${r.lost > 0 ? ` (${r.lost} record(s) not kept)` : ''}` });
      return;
    }
    const s = streams.find((x) => x.session)?.session;
    const f: FindingInput = {
      eventIds: [],
      message: '',
    };
    if (benign) f.severity = 'warning';
    if (streams[0]) f.streamId = streams[0].id;
    if (streams.length > 1) f.relatedStreamIds = streams.slice(1).map((x) => x.id);
    const n = note(ctx.addFinding(s, ctx.nextOrd(), 'capture-gap', f), s, `${captureGapWhat(r)}${range}${streams.length ? `; streams ${streams.map((x) => x.id).join(', ')} are incomplete` : ''}: what is missing there is not the server's fault.`);
    for (const k of keys) gapNotes.set(k, n);
    for (const x of streams) lostAt(x, n);
    ctx.markers.push({ t: r.t, kind: 'capture-gap', text: benign ? `not recording before DevTools opened${r.lost > 0 ? ` (${r.lost} record(s) not kept)` : ''}` : r.lost > 0 ? `${r.lost} record(s) lost (${r.reason})` : `capture incomplete (${r.reason})` });
  }

  function lostResponse(st: StreamS, key: string) {
    st.capture = 'sse';
    st.parser = createSseConnectionParser();
    const note = gapNotes.get(key);
    if (note) startResync(st, note);
    else st.parser.resync();
  }

  return { onCaptureGap, orphanStream, noteOrphan, lostResponse, resyncAfterGap, cutChunk, finishResync };
}

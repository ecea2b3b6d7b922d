// The relay's logic without chrome.* or DOM: accept hook batches (validated record by record),
// check each connection's lifecycle, cap record sizes, number them into the buffer, and deliver to
// a sink when attached (backfill from a cursor, then live). Unit-tested with a fake sink.
//
// Lifecycle check: the hook emits a connection's `request` first (emitter.ts Conn), so a record
// for a connection that never started, or a second `request` for one that did, did not come from
// the hook as written: it is dropped and reported once (notice `inconsistent-hook-record`). The
// conn table is bounded; a conn pushed out of it is no longer checked (accepted).
//
// Recording: the relay keeps records only while it records (its tab is inspected by DevTools, or
// "capture while DevTools is closed" is on; relay.ts decides). While not recording it still runs
// the lifecycle check, but keeps no body: fetch chunks are never decoded, chunk and es-event
// records are dropped and counted per connection. Of a connection still open it holds only its
// `request` and `response` (and `end`), un-numbered, outside the buffer, within a bound. When
// recording starts, each connection still held is numbered in order: request, response, one
// `capture-gap` (reason `not-recording`) counting what was dropped, then live records follow; a
// connection that ended entirely while not recording is forgotten and only counted, in one `notice`.
// Records without a connection (navigation, notices) are always kept: one or a few per document.

import type { CaptureRecord, HookRecord } from '../../core/record';
import { isHookBatch, isHookRecord, type Cursors } from '../shared/messages';
import { createRelayBuffer, DEFAULT_BUFFER_OPTIONS, estimateSize, type RelayBuffer, type RelayBufferOptions } from './buffer';
import { applySizeCap, DEFAULT_RECORD_MAX_CHARS } from './limits';

/** Records per message to the background (backfill of a full buffer is split). */
export const SEND_CHUNK = 1000;
/** Connections whose lifecycle is tracked (most recent). */
const MAX_TRACKED_CONNS = 20_000;
/**
 * Bounds on what is held while not recording for connections that started then (their request and
 * response, un-numbered): beyond them the oldest such connection is given up (counted as not kept,
 * its later records dropped), so a page opening connections forever with DevTools closed costs
 * at most this much.
 */
export const MAX_HELD_CONNS = 1000;
export const MAX_HELD_BYTES = 4 * 1024 * 1024;
/** Notice code said when recording starts after records were not kept. */
export const NOT_RECORDING_CODE = 'not-recording';

export interface RelaySink {
  send(records: CaptureRecord[], backfill: boolean): void;
}

export interface RelayOptions extends RelayBufferOptions {
  /** Per-record size cap in characters (chunk text, es-event data). */
  recordMaxChars: number;
  /** Keep records from the start (default true; see setRecording). */
  recording: boolean;
}

export interface RelayStats {
  src: string;
  /** Records numbered so far (= last seq). */
  lastSeq: number;
  oldestSeq: number;
  /** Records and estimated bytes held in the buffer now. */
  records: number;
  bytes: number;
  maxRecords: number;
  maxBytes: number;
  recordMaxChars: number;
  /** Records evicted from the buffer (backfill answers them with a capture gap). */
  evicted: number;
  /** Hook records accepted / dropped (malformed or inconsistent). */
  accepted: number;
  rejected: number;
  /** Records cut by the size cap. */
  cut: number;
  released: boolean;
  /** Whether records are kept now (see setRecording). */
  recording: boolean;
  /** Connections with records held while not recording, and their estimated bytes. */
  held: number;
  heldBytes: number;
  /** Body records (chunks, es-events) dropped because the relay was not recording. */
  notRecorded: number;
}

export interface RelayCore {
  readonly src: string;
  readonly buffer: RelayBuffer;
  /** A hook message arrived on the private port. Returns how many records were accepted. */
  onHookMessage(msg: unknown): number;
  /** A record made by the relay itself (navigation, notice). */
  add(rec: HookRecord): void;
  /** A panel wants records after its cursor for this src, then live ones, through `sink`. */
  attach(sink: RelaySink, cursors: Cursors): void;
  detach(): void;
  attached(): boolean;
  setOptions(opts: Partial<Omit<RelayOptions, 'recording'>>): void;
  /**
   * Start or stop keeping records. Stopping keeps the buffer as it is (a panel opened later
   * backfills it). Starting numbers what was held for still-open connections, each followed by a
   * `not-recording` capture gap counting its dropped records, and one notice of what was not kept.
   */
  setRecording(on: boolean): void;
  recording(): boolean;
  stats(): RelayStats;
  /** The extension context is gone (extension reloaded): drop the buffer, accept nothing more. */
  release(): void;
}

export function createRelayCore(src: string, opts: Partial<RelayOptions> = {}, now = () => Date.now()): RelayCore {
  const buffer = createRelayBuffer(src, opts);
  let maxChars = opts.recordMaxChars ?? DEFAULT_RECORD_MAX_CHARS;
  let bufferOpts: RelayBufferOptions = { maxRecords: opts.maxRecords ?? DEFAULT_BUFFER_OPTIONS.maxRecords, maxBytes: opts.maxBytes ?? DEFAULT_BUFFER_OPTIONS.maxBytes };
  let sink: RelaySink | null = null;
  let malformed = 0;
  let inconsistent = 0;
  let accepted = 0;
  let cut = 0;
  let released = false;
  // conn -> 'live' (started), or 'drop' (given up while not recording: its request was never
  // kept, so its later records are dropped, even once recording). Insertion-ordered: the oldest is
  // dropped beyond MAX_TRACKED_CONNS.
  const conns = new Map<string, 'live' | 'drop'>();
  let forgotten = false;
  let recording = opts.recording ?? true;
  /**
   * What is held for a connection while not recording. `numbered`: its request was kept (in the
   * buffer) before recording stopped; otherwise `request` is held here, un-numbered.
   */
  interface Held {
    numbered: boolean;
    request?: HookRecord;
    response?: HookRecord;
    end?: HookRecord;
    dropped: number;
    size: number;
  }
  const held = new Map<string, Held>();
  let heldBytes = 0;
  let heldUnnumbered = 0;
  /** Bytes of the entries the bound applies to (numbered ones hold no request: small, never given up). */
  let unnumberedBytes = 0;
  /** Connections started and ended while not recording (not kept), and those given up by the bound. */
  let unkept = 0;
  let givenUp = 0;
  let notRecorded = 0;

  const push = (rec: HookRecord): CaptureRecord => buffer.push(rec);
  // Fetch chunks arrive as bytes (HookChunkBytes). They are decoded only when a panel takes them
  // (sendAll): with DevTools closed nothing is decoded at all. To decode each chunk on its own,
  // exactly as one streaming TextDecoder per connection would, the relay keeps per connection
  // only what a streaming decoder carries across a chunk boundary: the <= 3 trailing bytes of an
  // incomplete UTF-8 sequence, and whether any character was produced yet (a BOM is stripped only
  // before the first one).
  interface ByteStream {
    carry: Uint8Array;
    started: boolean;
  }
  const streams = new Map<string, ByteStream>();
  /** Chunk records whose text is not decoded yet: the bytes to decode and the BOM rule. */
  const lazy = new WeakMap<CaptureRecord, { seg: Uint8Array; ignoreBOM: boolean }>();
  const stripBom = new TextDecoder('utf-8');
  const keepBom = new TextDecoder('utf-8', { ignoreBOM: true });
  const EMPTY = new Uint8Array(0);

  /** A fetch chunk as bytes: its fields when well-formed, null when malformed, undefined when not one. */
  function bytesChunk(x: unknown): { conn: string; t: number; data: Uint8Array } | null | undefined {
    if (typeof x !== 'object' || x === null) return undefined;
    const r = x as { kind?: unknown; conn?: unknown; t?: unknown; data?: unknown };
    if (r.kind !== 'chunk' || !('data' in r) || 'text' in r) return undefined;
    if (!(r.data instanceof Uint8Array) || typeof r.conn !== 'string' || typeof r.t !== 'number' || !Number.isFinite(r.t)) return null;
    if ('seq' in r || 'src' in r || 'bytes' in r) return null;
    return { conn: r.conn, t: r.t, data: r.data };
  }

  /** Bytes at the end of `b` that a streaming UTF-8 decoder would hold back (0..3). */
  function pendingLength(b: Uint8Array): number {
    const n = b.length;
    for (let t = 1; t <= 3 && t <= n; t++) {
      const lead = b[n - t]!;
      if (lead >= 0x80 && lead <= 0xbf) continue; // continuation: look further back
      const need = lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 1;
      if (t >= need) return 0; // complete (or an invalid byte): nothing held back
      if (t >= 2) {
        // the second byte's range depends on the lead (WHATWG UTF-8 decoder)
        const c = b[n - t + 1]!;
        const lo = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
        const hi = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
        if (c < lo || c > hi) return 0;
      }
      return t; // the bytes after the lead are continuations
    }
    return 0;
  }

  /** Take a fetch chunk's bytes: the part a streaming decoder would decode now, and the BOM rule. */
  function takeBytes(conn: string, data: Uint8Array): { seg: Uint8Array; ignoreBOM: boolean } {
    let st = streams.get(conn);
    if (!st) {
      streams.set(conn, (st = { carry: EMPTY, started: false }));
      if (streams.size > MAX_TRACKED_CONNS) streams.delete(streams.keys().next().value!);
    }
    let all = data;
    if (st.carry.length > 0) {
      all = new Uint8Array(st.carry.length + data.length);
      all.set(st.carry);
      all.set(data, st.carry.length);
    }
    const k = pendingLength(all);
    const seg = k === 0 ? all : all.subarray(0, all.length - k);
    st.carry = k === 0 ? EMPTY : all.slice(all.length - k);
    const ignoreBOM = st.started;
    if (seg.length > 0) st.started = true;
    return { seg, ignoreBOM };
  }

  /**
   * A fetch chunk dropped while not recording: keep the connection's decoder state exact without
   * decoding or copying the chunk (only its last <= 3 bytes matter), so that the first chunk kept
   * after recording starts decodes exactly as the page's streaming decoder did at that point.
   */
  function skipBytes(conn: string, data: Uint8Array) {
    let st = streams.get(conn);
    if (!st) {
      streams.set(conn, (st = { carry: EMPTY, started: false }));
      if (streams.size > MAX_TRACKED_CONNS) streams.delete(streams.keys().next().value!);
    }
    const c = st.carry;
    const total = c.length + data.length;
    if (data.length === 0) return;
    // pendingLength looks back at most 3 bytes: the tail of carry+data decides it.
    const n = Math.min(3, total);
    const tail = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const j = total - n + i;
      tail[i] = j < c.length ? c[j]! : data[j - c.length]!;
    }
    const k = pendingLength(tail);
    st.carry = k === 0 ? EMPTY : tail.slice(n - k);
    if (total - k > 0) st.started = true;
  }

  const decodeSeg = (l: { seg: Uint8Array; ignoreBOM: boolean }) => (l.ignoreBOM ? keepBom : stripBom).decode(l.seg);

  /** Decode chunk records still held as bytes (before they leave the relay). */
  function materialize(records: CaptureRecord[]) {
    for (const r of records) {
      if (r.kind !== 'chunk') continue;
      const l = lazy.get(r);
      if (!l) continue;
      (r as { text: string }).text = decodeSeg(l);
      lazy.delete(r);
    }
  }

  /** The decoder's tail at a complete end (as the hook did): bytes held back become U+FFFD. */
  function endOf(r: HookRecord): HookRecord | null {
    if (r.kind !== 'end') return null;
    const st = streams.get(r.conn);
    if (!st) return null;
    streams.delete(r.conn);
    if (r.how !== 'complete' || st.carry.length === 0) return null;
    return { kind: 'chunk', conn: r.conn, t: r.t, text: stripBom.decode(st.carry), bytes: 0 };
  }

  function sendAll(records: CaptureRecord[], backfill: boolean) {
    if (!sink || records.length === 0) return;
    materialize(records);
    for (let i = 0; i < records.length; i += SEND_CHUNK) sink.send(records.slice(i, i + SEND_CHUNK), backfill);
  }

  /** Lifecycle check; true when the record may be kept. */
  function consistent(r: HookRecord): boolean {
    if (!('conn' in r)) return true;
    if (r.kind === 'request') {
      if (conns.has(r.conn)) return false;
      conns.set(r.conn, 'live');
      if (conns.size > MAX_TRACKED_CONNS) {
        conns.delete(conns.keys().next().value!);
        forgotten = true;
      }
      return true;
    }
    return conns.has(r.conn) || forgotten;
  }

  function notice(code: string, message: string): CaptureRecord {
    return push({ kind: 'notice', t: now(), level: 'warning', code, message });
  }

  const heldOf = (conn: string): Held => {
    let e = held.get(conn);
    // No entry: the connection's request was kept before recording stopped (or it is unknown
    // after the lifecycle table overflowed).
    if (!e) held.set(conn, (e = { numbered: true, dropped: 0, size: 0 }));
    return e;
  };
  const hold = (e: Held, r: HookRecord) => {
    const n = estimateSize(r);
    e.size += n;
    heldBytes += n;
    if (!e.numbered) unnumberedBytes += n;
  };
  function forget(conn: string, e: Held) {
    held.delete(conn);
    heldBytes -= e.size;
    if (!e.numbered) {
      heldUnnumbered--;
      unnumberedBytes -= e.size;
    }
  }
  /** Give up the oldest connections held without a kept request until within the bounds. */
  function boundHeld() {
    if (heldUnnumbered <= MAX_HELD_CONNS && unnumberedBytes <= MAX_HELD_BYTES) return;
    for (const [conn, e] of held) {
      if (heldUnnumbered <= MAX_HELD_CONNS && unnumberedBytes <= MAX_HELD_BYTES) break;
      if (e.numbered) continue; // small (no request), bounded by the lifecycle table
      forget(conn, e);
      conns.set(conn, 'drop');
      streams.delete(conn);
      givenUp++;
    }
  }

  /** A record of a connection while not recording: hold its lifecycle records, drop its body. */
  function notRecordingConn(r: Extract<HookRecord, { conn: string }>) {
    switch (r.kind) {
      case 'request': {
        const e: Held = { numbered: false, request: r, dropped: 0, size: 0 };
        held.set(r.conn, e);
        heldUnnumbered++;
        hold(e, r);
        boundHeld();
        return;
      }
      case 'response': {
        const e = heldOf(r.conn);
        if (e.response) e.dropped++;
        else hold(e, (e.response = r));
        boundHeld();
        return;
      }
      case 'end': {
        const st = streams.get(r.conn);
        streams.delete(r.conn);
        const e = heldOf(r.conn);
        // The decoder's tail chunk at a complete end is a body record too.
        if (r.how === 'complete' && st && st.carry.length > 0) {
          e.dropped++;
          notRecorded++;
        }
        if (!e.numbered) {
          // Started and ended while not recording: nothing of it is kept.
          forget(r.conn, e);
          unkept++;
        } else hold(e, (e.end = r));
        return;
      }
      default:
        heldOf(r.conn).dropped++;
        notRecorded++;
    }
  }

  function startRecording() {
    recording = true;
    const out: CaptureRecord[] = [];
    let gaps = 0;
    for (const [conn, e] of held) {
      if (e.request) out.push(push(e.request));
      if (e.response) out.push(push(e.response));
      if (e.dropped > 0) {
        gaps++;
        out.push(push({ kind: 'capture-gap', t: now(), lost: e.dropped, conns: [conn], reason: 'not-recording' }));
      }
      if (e.end) out.push(push(e.end));
    }
    if (unkept > 0 || givenUp > 0 || gaps > 0) {
      const parts: string[] = [];
      if (unkept > 0) parts.push(`${unkept} connection(s) that ended before recording began were not kept and are not shown`);
      if (givenUp > 0) parts.push(`${givenUp} connection(s) started meanwhile were too many to hold and are not shown`);
      if (gaps > 0) parts.push(`${gaps} connection(s) still open lost the records read meanwhile (marked as capture gaps)`);
      out.push(
        push({
          kind: 'notice',
          t: now(),
          level: 'info',
          code: NOT_RECORDING_CODE,
          message: `This page was not recorded while no DevTools window inspected its tab: ${parts.join('; ')}. Turn on "Capture while DevTools is closed" in the MCP Streams settings to keep them.`,
        }),
      );
    }
    held.clear();
    heldBytes = 0;
    heldUnnumbered = 0;
    unnumberedBytes = 0;
    unkept = 0;
    givenUp = 0;
    sendAll(out, false);
  }

  return {
    src,
    buffer,
    onHookMessage(msg) {
      if (released || !isHookBatch(msg)) return 0;
      const out: CaptureRecord[] = [];
      let bad = 0;
      let odd = 0;
      for (const w of msg.records) {
        const b = bytesChunk(w);
        if (b === null) {
          bad++;
          continue;
        }
        if (b) {
          const state = conns.get(b.conn);
          if (!state && !forgotten) {
            odd++;
            continue;
          }
          if (state === 'drop' || !recording) {
            // Not decoded, not kept: only the decoder's carry is tracked.
            skipBytes(b.conn, b.data);
            if (state === 'drop') notRecorded++;
            else notRecordingConn({ kind: 'chunk', conn: b.conn, t: b.t, text: '', bytes: b.data.byteLength });
            continue;
          }
          const l = takeBytes(b.conn, b.data);
          const rec: HookRecord = { kind: 'chunk', conn: b.conn, t: b.t, text: '', bytes: b.data.byteLength };
          if (l.seg.length > maxChars) {
            // Possibly over the size cap (characters <= bytes): decode now and cap.
            const capped = applySizeCap({ ...rec, text: decodeSeg(l) }, maxChars, now());
            if (capped.cut) cut++;
            for (const x of capped.out) out.push(push(x));
          } else {
            // Decoded when a panel takes it; the size estimate counts 2 bytes per byte (>= 2 per character).
            const n = buffer.push(rec, 64 + l.seg.length * 2);
            lazy.set(n, l);
            out.push(n);
          }
          accepted++;
          continue;
        }
        const r = w;
        if (!isHookRecord(r)) bad++;
        else if (!consistent(r)) odd++;
        else if ('conn' in r && conns.get(r.conn) === 'drop') {
          if (r.kind === 'end') streams.delete(r.conn);
          else notRecorded++;
        } else if ('conn' in r && !recording) notRecordingConn(r);
        else {
          const tail = endOf(r);
          if (tail) for (const x of applySizeCap(tail, maxChars, now()).out) out.push(push(x));
          const capped = applySizeCap(r, maxChars, now());
          if (capped.cut) cut++;
          for (const x of capped.out) out.push(push(x));
          accepted++;
        }
      }
      // Report once per document and kind: it means the page interfered with the hook.
      if (bad > 0 && malformed === 0) out.push(notice('malformed-hook-record', `${bad} malformed record(s) from the page hook were dropped`));
      if (odd > 0 && inconsistent === 0)
        out.push(notice('inconsistent-hook-record', `${odd} record(s) for a connection the page hook never started were dropped (the page interfered with the hook)`));
      malformed += bad;
      inconsistent += odd;
      sendAll(out, false);
      return out.length;
    },
    add(rec) {
      if (released) return;
      const n = push(rec);
      sendAll([n], false);
    },
    attach(s, cursors) {
      if (released) return;
      sink = s;
      sendAll(buffer.since(cursors[src] ?? 0), true);
    },
    detach() {
      sink = null;
    },
    attached: () => sink !== null,
    setRecording(on) {
      if (released || on === recording) return;
      if (on) startRecording();
      else recording = false; // the buffer stays as it is
    },
    recording: () => recording,
    setOptions(o) {
      if (o.recordMaxChars !== undefined) maxChars = o.recordMaxChars;
      const b: Partial<RelayBufferOptions> = {};
      if (o.maxRecords !== undefined) b.maxRecords = o.maxRecords;
      if (o.maxBytes !== undefined) b.maxBytes = o.maxBytes;
      bufferOpts = { ...bufferOpts, ...b };
      buffer.setOptions(b);
    },
    stats() {
      const size = buffer.size();
      return {
        src,
        lastSeq: buffer.lastSeq(),
        oldestSeq: buffer.oldestSeq(),
        records: size.records,
        bytes: size.bytes,
        maxRecords: bufferOpts.maxRecords,
        maxBytes: bufferOpts.maxBytes,
        recordMaxChars: maxChars,
        evicted: buffer.oldestSeq() - 1,
        accepted,
        rejected: malformed + inconsistent,
        cut,
        released,
        recording,
        held: held.size,
        heldBytes,
        notRecorded,
      };
    },
    release() {
      released = true;
      sink = null;
      conns.clear();
      streams.clear();
      held.clear();
      heldBytes = 0;
      heldUnnumbered = 0;
      unnumberedBytes = 0;
      buffer.setOptions({ maxRecords: 1, maxBytes: 1 });
    },
  };
}

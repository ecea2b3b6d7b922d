// The relay's logic without chrome.* or DOM: accept hook batches (validated record by record),
// check each connection's lifecycle, cap record sizes, number them into the buffer, and deliver to
// a sink when attached (backfill from a cursor, then live). Unit-tested with a fake sink.
//
// Lifecycle check: the hook emits a connection's `request` first (emitter.ts Conn), so a record
// for a connection that never started, or a second `request` for one that did, did not come from
// the hook as written: it is dropped and reported once (notice `inconsistent-hook-record`). The
// conn table is bounded; a conn pushed out of it is no longer checked (accepted).

import type { CaptureRecord, HookRecord } from '../../core/record';
import { isHookBatch, isHookRecord, type Cursors } from '../shared/messages';
import { createRelayBuffer, DEFAULT_BUFFER_OPTIONS, type RelayBuffer, type RelayBufferOptions } from './buffer';
import { applySizeCap, DEFAULT_RECORD_MAX_CHARS } from './limits';

/** Records per message to the background (backfill of a full buffer is split). */
export const SEND_CHUNK = 1000;
/** Connections whose lifecycle is tracked (most recent). */
const MAX_TRACKED_CONNS = 20_000;

export interface RelaySink {
  send(records: CaptureRecord[], backfill: boolean): void;
}

export interface RelayOptions extends RelayBufferOptions {
  /** Per-record size cap in characters (chunk text, es-event data). */
  recordMaxChars: number;
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
  setOptions(opts: Partial<RelayOptions>): void;
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
  // conn -> started (true). Insertion-ordered: the oldest is dropped beyond MAX_TRACKED_CONNS.
  const conns = new Map<string, true>();
  let forgotten = false;

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
      conns.set(r.conn, true);
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
          if (!conns.has(b.conn) && !forgotten) {
            odd++;
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
      };
    },
    release() {
      released = true;
      sink = null;
      conns.clear();
      streams.clear();
      buffer.setOptions({ maxRecords: 1, maxBytes: 1 });
    },
  };
}

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
  // conn -> streaming decoder for chunks sent as bytes (fetch bodies). Deleted at the conn's end.
  const decoders = new Map<string, TextDecoder>();

  /**
   * A chunk sent as bytes (HookChunkBytes: conn, t, data: Uint8Array and nothing else) becomes a
   * text chunk record, decoded exactly as the hook's per-connection streaming decoder did.
   * Anything else is returned unchanged for isHookRecord to judge.
   */
  function fromWire(x: unknown): unknown {
    if (typeof x !== 'object' || x === null) return x;
    const r = x as { kind?: unknown; conn?: unknown; t?: unknown; data?: unknown; text?: unknown };
    if (r.kind !== 'chunk' || !(r.data instanceof Uint8Array) || 'text' in r) return x;
    if (typeof r.conn !== 'string' || typeof r.t !== 'number' || !Number.isFinite(r.t)) return null;
    if ('seq' in r || 'src' in r || 'bytes' in r) return null;
    // Not started: let the lifecycle check drop it (and report it), without decoding.
    if (!conns.has(r.conn) && !forgotten) return { kind: 'chunk', conn: r.conn, t: r.t, text: '', bytes: r.data.byteLength };
    let d = decoders.get(r.conn);
    if (!d) {
      decoders.set(r.conn, (d = new TextDecoder()));
      if (decoders.size > MAX_TRACKED_CONNS) decoders.delete(decoders.keys().next().value!);
    }
    return { kind: 'chunk', conn: r.conn, t: r.t, text: d.decode(r.data, { stream: true }), bytes: r.data.byteLength };
  }

  /** Records to insert before `r`: the decoder's tail at a complete end (as the hook did). */
  function endOf(r: HookRecord): HookRecord | null {
    if (r.kind !== 'end') return null;
    const d = decoders.get(r.conn);
    if (!d) return null;
    decoders.delete(r.conn);
    if (r.how !== 'complete') return null;
    const tail = d.decode();
    return tail ? { kind: 'chunk', conn: r.conn, t: r.t, text: tail, bytes: 0 } : null;
  }

  function sendAll(records: CaptureRecord[], backfill: boolean) {
    if (!sink || records.length === 0) return;
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
        const r = fromWire(w);
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
      decoders.clear();
      buffer.setOptions({ maxRecords: 1, maxBytes: 1 });
    },
  };
}

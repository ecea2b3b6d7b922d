// The relay's logic without chrome.* or DOM: what must stay in the page (docs/capture.md "Cost to
// the page"): take the hook's records (validated one by one: the page could forge them), check
// each connection's lifecycle, number them into the bounded buffer, batch them to the attached
// panel, and hold connections while not recording. It decodes nothing: fetch chunks stay bytes
// (with the decoding carry that lets the panel decode each on its own) and the panel makes their
// text (wire/decode.ts). Unit-tested with a fake sink; the jobs are in their own files:
//   connections.ts  lifecycle table          carry.ts     decoding carry per connection
//   holding.ts      holding while not recording    recording.ts  the switch, and the hook's copy mode
//   buffer.ts       numbering, bounded backfill buffer
//   delivery.ts     messages to the sink (bytes inline or in one Blob)
//   limits.ts       the size cap's settings; the es-event cut
//
// Recording: records are kept only while the relay records (its tab is inspected by DevTools, or
// "capture while DevTools is closed" is on; relay.ts decides), with the hook's copy mode switched
// to match (recording.ts). A skip that arrives while recording anyway (a hook that never answered
// within HOOK_ACK_MS, a record queued before the switch) gets a `not-recording` gap of its own.

import type { HookRecord } from '../../core/record';
import { isMessage } from '../wire/guards';
import type { Cursors } from '../wire/protocol';
import { isHookWireRecord, type HookWireRecord, type WireRecord } from '../wire/records';
import { createRelayBuffer, DEFAULT_BUFFER_OPTIONS, type RelayBuffer, type RelayBufferOptions, type StoredRecord, type Unnumbered } from './buffer';
import { createDecodingCarry } from './carry';
import { createConnectionTable, MAX_TRACKED_CONNS } from './connections';
import { createDelivery, type RelaySink } from './delivery';
import { createHolding } from './holding';
import { capEsEvent, DEFAULT_RECORD_MAX_CHARS } from './limits';
import type { FaultRecordBody } from './faults';
import { createRecordingSwitch } from './recording';

export { MAX_HELD_BYTES, MAX_HELD_CONNS, NOT_RECORDING_CODE } from './holding';
export { SEND_CHUNK, type RelayBatch, type RelaySink } from './delivery';
export { HOOK_ACK_MS } from './recording';

export interface RelayOptions extends RelayBufferOptions {
  /** Per-record size cap in characters (chunk text, es-event data). */
  recordMaxChars: number;
  /** Keep records from the start (default true; see setRecording). */
  recording: boolean;
  blobMinBytes?: number;
  makeBlob?: (parts: Uint8Array[]) => Blob;
  setTimer?: (fn: () => void, ms: number) => unknown;
  /** Pace live records to the panel (delivery.ts "Pacing"); the relay's clock in ms. */
  pace?: { now: () => number };
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
  /** es-events cut by the size cap (chunks are cut by the panel, which decodes them). */
  cut: number;
  released: boolean;
  /** Whether records are kept now (see setRecording). */
  recording: boolean;
  /** Whether the hook copies the bytes of reads (its last mode-ack). */
  hookCopies: boolean;
  /** Connections with records held while not recording, and their estimated bytes. */
  held: number;
  heldBytes: number;
  /** Body records (chunks, es-events) dropped because the relay was not recording. */
  notRecorded: number;
  /** Blobs made to send chunk bytes (one synchronous IPC each on the page's thread). */
  blobs: number;
  /** Large reads the hook sent as Blobs of the page's chunk while a panel took the records (kept). */
  hookBlobs: number;
}

export interface RelayCore {
  readonly src: string;
  readonly buffer: RelayBuffer;
  /** Records of a hook batch (untrusted). Returns how many records were numbered. */
  onHookRecords(records: readonly unknown[]): number;
  /** A whole hook message (`hook-batch`); anything else is ignored. */
  onHookMessage(msg: unknown): number;
  /**
   * The hook's private port is there: `mode` tells it whether to copy the bytes of reads, `panel`
   * whether a panel takes the records (large reads then come as Blobs).
   */
  connectHook(mode: (copy: boolean) => void, panel?: (on: boolean) => void): void;
  /** The hook says that its records from here on are made in `copy` mode. */
  onModeAck(copy: boolean): void;
  /** A record made by the relay itself (navigation, notice, an injected fault). */
  add(rec: HookRecord | FaultRecordBody): void;
  /**
   * Messages of the hook that never reach the relay (ordered-inbox.ts): `message` (a notice) says
   * how. With `gap`, this is their place in the order: their records are a capture gap over the
   * connections open there (a late one of a gap already given up adds only the notice: that gap
   * was already said; an unreadable one is said at once, its gap when its place comes).
   */
  hookLost(message: string | null, gap: boolean): void;
  /** A panel wants records after its cursor for this src, then live ones, through `sink`. */
  attach(sink: RelaySink, cursors: Cursors): void;
  detach(): void;
  attached(): boolean;
  setOptions(opts: Partial<Pick<RelayOptions, 'recordMaxChars' | 'maxRecords' | 'maxBytes'>>): void;
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
  /** The document is going away (`on`): send what waits and every later record at once; back (`!on`): paced again. */
  unpaced(on: boolean): void;
}

const tail3 = (b: Uint8Array) => (b.length > 3 ? b.subarray(b.length - 3) : b);

/**
 * A read that is not kept still moves the decoding carry (its last ≤ 3 bytes and length). A
 * function of the module, not a closure made for every hook record on the page's thread.
 */
function passOver(carry: ReturnType<typeof createDecodingCarry>, conn: string, r: HookWireRecord, bytes: Uint8Array | null, big: Extract<HookWireRecord, { blob: Blob }> | null): void {
  if (bytes) carry.skip(conn, tail3(bytes), bytes.length);
  else if (big) carry.skip(conn, big.tail, big.n);
  else if (r.kind === 'skip' && r.tail) carry.skip(conn, r.tail, r.n!);
}

export function createRelayCore(src: string, opts: Partial<RelayOptions> = {}, now = () => Date.now()): RelayCore {
  const buffer = createRelayBuffer(src, opts);
  const setTimer = opts.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  let maxChars = opts.recordMaxChars ?? DEFAULT_RECORD_MAX_CHARS;
  let bufferOpts: RelayBufferOptions = { maxRecords: opts.maxRecords ?? DEFAULT_BUFFER_OPTIONS.maxRecords, maxBytes: opts.maxBytes ?? DEFAULT_BUFFER_OPTIONS.maxBytes };
  const conns = createConnectionTable();
  const carry = createDecodingCarry(MAX_TRACKED_CONNS);
  const holding = createHolding(conns, carry);
  const delivery = createDelivery({
    ...(opts.blobMinBytes !== undefined ? { blobMinBytes: opts.blobMinBytes } : {}),
    ...(opts.makeBlob ? { makeBlob: opts.makeBlob } : {}),
    ...(opts.pace ? { pace: { now: opts.pace.now, setTimer } } : {}),
  });
  let malformed = 0;
  let inconsistent = 0;
  let accepted = 0;
  let cut = 0;
  let released = false;
  let lateSkips = 0;
  let hookBlobs = 0;
  let tellPanel: ((on: boolean) => void) | null = null;
  let panelTold = false;
  /** Tells the hook when a panel starts or stops taking the records. */
  const panelChanged = () => {
    const on = delivery.attached();
    if (!tellPanel || on === panelTold) return;
    panelTold = on;
    tellPanel(on);
  };

  const push = (rec: Unnumbered): WireRecord => buffer.push(rec);
  const notice = (code: string, message: string): WireRecord => push({ kind: 'notice', t: now(), level: 'warning', code, message });
  const onOff = createRecordingSwitch(opts.recording ?? true, () => delivery.send(holding.release(push, now()), false), setTimer);

  /** One hook record, validated; `out` collects what was numbered. */
  function take(r: HookWireRecord, out: WireRecord[]): 'ok' | 'odd' {
    if (!('conn' in r)) {
      out.push(push(r)); // a hook notice (hook-bypassed, hook-wrapped)
      accepted++;
      return 'ok';
    }
    const conn = r.conn;
    if (r.kind === 'request' ? !conns.start(conn) : !conns.known(conn)) return 'odd';
    if (r.kind === 'end') conns.end(conn);
    const bytes = r.kind === 'chunk' && 'data' in r ? r.data : null;
    const big = r.kind === 'chunk' && 'blob' in r ? r : null;
    if (conns.state(conn) === 'drop') {
      // Given up while not recording: its request was never kept; nothing of it is.
      passOver(carry, conn, r, bytes, big);
      if (r.kind === 'end') carry.forget(conn);
      else holding.count();
      return 'ok';
    }
    if (!onOff.recording()) {
      passOver(carry, conn, r, bytes, big);
      if (r.kind === 'request' || r.kind === 'response' || r.kind === 'end') holding.lifecycle(r);
      else holding.body(conn);
      return 'ok';
    }
    switch (r.kind) {
      case 'skip':
        // Made before the hook learnt that the relay records again: the read is not kept.
        passOver(carry, conn, r, bytes, big);
        lateSkips++;
        holding.count();
        out.push(push({ kind: 'capture-gap', t: r.t, lost: 1, conns: [conn], reason: 'not-recording' }));
        return 'ok';
      case 'chunk':
        if (bytes) out.push(push({ kind: 'chunk', conn, t: r.t, max: maxChars, data: bytes, ...carry.take(conn, tail3(bytes), bytes.length) }));
        else if (big) {
          // Kept as delivery.ts keeps a chunk it sent in a Blob: the reference and the range in it.
          const kept: StoredRecord = push({ kind: 'chunk', conn, t: r.t, max: maxChars, at: 0, len: big.n, ...carry.take(conn, big.tail, big.n) });
          kept.blob = big.blob;
          hookBlobs++;
          out.push(kept);
        } else out.push(push({ ...(r as Extract<HookWireRecord, { text: string }>), max: maxChars }));
        break;
      case 'end': {
        // The decoder's flush at a complete end (as a decoder in the page would): its tail chunk.
        const tail = carry.end(conn);
        if (r.how === 'complete' && tail) out.push(push({ kind: 'chunk', conn, t: r.t, max: maxChars, data: tail, flush: true }));
        out.push(push(r));
        break;
      }
      case 'es-event': {
        const capped = capEsEvent(r, maxChars, now());
        if (capped.cut) cut++;
        for (const x of capped.out) out.push(push(x));
        break;
      }
      default:
        out.push(push(r));
    }
    accepted++;
    return 'ok';
  }

  const core: RelayCore = {
    src,
    buffer,
    onHookRecords(records) {
      if (released) return 0;
      const out: WireRecord[] = [];
      let bad = 0;
      let odd = 0;
      for (const w of records) {
        if (!isHookWireRecord(w)) bad++;
        else if (take(w, out) === 'odd') odd++;
      }
      // Report once per document and kind: it means the page interfered with the hook.
      if (bad > 0 && malformed === 0) out.push(notice('malformed-hook-record', `${bad} malformed record(s) from the page hook were dropped`));
      if (odd > 0 && inconsistent === 0)
        out.push(notice('inconsistent-hook-record', `${odd} record(s) for a connection the page hook never started were dropped (the page interfered with the hook)`));
      malformed += bad;
      inconsistent += odd;
      delivery.send(out, false);
      return out.length;
    },
    onHookMessage: (msg) => (isMessage(msg, 'hook-batch') ? core.onHookRecords(msg.records) : 0),
    connectHook(mode, panel) {
      onOff.connectHook(mode);
      tellPanel = panel ?? null;
      panelChanged();
    },
    onModeAck: (copy) => onOff.onModeAck(copy),
    add(rec) {
      if (released) return;
      delivery.send([push(rec)], false);
    },
    hookLost(message, gap) {
      if (released) return;
      const out = message === null ? [] : [notice('hook-messages-lost', message)];
      if (gap) {
        // Any connection open may have had reads in them (their bytes never went through the
        // decoding carry: it starts again), and any connection may have started or ended in them.
        const open = conns.open();
        for (const c of open) carry.forget(c);
        conns.acceptUnknown();
        // (While not recording nothing of them would have been kept but what holding.ts keeps of
        // each connection, and the gap at recording's start names those connections.)
        if (onOff.recording()) out.push(push({ kind: 'capture-gap', t: now(), lost: 0, conns: open, reason: 'other' }));
      }
      if (out.length > 0) delivery.send(out, false);
    },
    attach(s, cursors) {
      if (released) return;
      delivery.attach(s);
      panelChanged();
      delivery.send(buffer.since(cursors[src] ?? 0), true);
    },
    detach() {
      delivery.detach();
      panelChanged();
    },
    attached: () => delivery.attached(),
    setRecording: (on) => onOff.set(on),
    recording: () => onOff.recording(),
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
        recording: onOff.recording(),
        hookCopies: onOff.hookCopies(),
        ...holding.size(),
        notRecorded: holding.notRecorded(),
        blobs: delivery.blobs(),
        hookBlobs,
        ...(lateSkips ? { lateSkips } : {}),
      };
    },
    unpaced: (on) => delivery.unpaced(on),
    release() {
      released = true;
      delivery.detach();
      panelChanged();
      // The page keeps its hook: tell it to stop copying what no one will read.
      onOff.release();
      conns.clear();
      carry.clear();
      holding.clear();
      buffer.setOptions({ maxRecords: 1, maxBytes: 1 });
    },
  };
  return core;
}

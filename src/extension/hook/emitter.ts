// Hands records to the relay over a private MessagePort, in batches, and takes the relay's word
// on whether to copy the bytes of reads.
//
// Handshake: the hook creates a MessageChannel and posts one end on `window` at document_start,
// before any page script exists. The relay (ISOLATED world, injected in the same step) listens in
// the capture phase, takes the first well-formed hello whose source is this window, and stops its
// propagation, so page listeners never see it. From then on records travel only over the port,
// read and written with natives captured at install (wire/message-port.ts); the hook never posts
// on `window` again. What comes back on the port is the relay's `mode` (wire/protocol.ts): only
// the relay holds the other end, so a page can neither forge it nor read it.
//
// Mode: while the relay does not record (DevTools closed, capture while closed off) it says
// `copy: false`, and a read then costs the page no copy at all: the hook sends a `skip` with the
// read's length and last ≤ 3 bytes (what a streaming UTF-8 decoder could carry across it). On a
// change the hook first posts the batch made in the old mode, then `mode-ack`.
//
// Panel: the relay also says whether a panel takes its records (`panel`). While one does, a large
// read goes to the relay as a Blob made from the page's chunk (fetch.ts recordChunk): the Blob is
// the one copy the bytes need on their way to the panel, where a copy here and a Blob of it in the
// relay were two on the page's thread.
//
// Batching: records are collected and posted at most every FLUSH_MS (or at MAX_BATCH records), so
// thousands of events per second cost tens of postMessages. `pagehide` flushes synchronously.
//
// Synchronous channel: a port's message is a task, and a page reading a fast stream starves tasks
// (its network's win), so the batches of a 50 MB read reached the relay, and the panel, only
// after the read (docs/benchmarks.md, row 1c). The hook also hands the relay, once at install
// (before any page script: no one else can listen), a private EventTarget; while a panel takes
// the records and no fault is armed, a batch that transfers nothing (its large reads are Blobs,
// which cross as handles) is dispatched there as a MessageEvent, and the relay reads it at once,
// in the page's read. There a batch goes at most once per FLUSH_MS, the first after a quiet spell
// at once; its age is checked as records come as well as by the timer, which the read starves too.
// Every message is numbered (`seq`) and the relay puts the two channels back in order
// (wire/ordered-inbox.ts).
//
// A read's bytes on the synchronous channel: a read from 4 KiB up to fetch.ts BLOB_READ_MIN whose
// chunk spans its whole buffer is not copied here at all (a smaller one is copied into the batch:
// fetch.ts SEND_READ_MIN; so is a view, since a clone copies its whole buffer). Its record holds
// the page's own chunk and is sent at once (`sendRead`), with the batch before it, before the
// chunk is handed to the page: the relay, reading the event in its world, gets a clone, and that
// clone is the one copy of the bytes (made before the page can touch them). Copied here into an
// ArrayBuffer, they would have to be transferred, so on the port, and a batch on the port holds
// every later synchronous one in the relay's inbox until the read ends: the tail of row 1c
// (docs/benchmarks.md). So while the channel is in use nothing goes on the port (flush): a batch
// holding copied bytes is cloned there too, and the relay paces what it sends on to the panel
// (relay/delivery.ts).

import type { HookRecord } from '../../core/record';
import { messagePortAdapter, type PortNatives } from '../wire/message-port';
import { CHANNEL, PROTOCOL_VERSION, SYNC_HELLO, SYNC_MESSAGE, type FaultOut, type FaultPlan, type HookBatch, type HookHello, type Mode, type ModeAck } from '../wire/protocol';
import type { HookBytesChunk, HookWireRecord } from '../wire/records';
import { call, G, N, ownIterable } from './natives';

const FLUSH_MS = 16;
const MAX_BATCH = 512;
/** Captured at install too: called for every batch, after page scripts ran. */
const setProto = Object.setPrototypeOf;

/**
 * Arrays the hook fills are made without a prototype and filled with the native push captured at
 * install: a page that later patches Array.prototype (push, or setters on indices) can neither add
 * records to a batch nor see it being filled. (Structured clone still sends them as arrays.)
 */
function list<T>(): T[] {
  const a: T[] = [];
  setProto(a, null);
  return a;
}
function add<T>(a: T[], x: T): number {
  return call<number>(N.arrayPush, a, x);
}
/** An object without a prototype: a dictionary the browser reads finds no page getter on it. */
function bare<T>(): T {
  return N.objectCreate(null) as T;
}
/** `msg.seq = n`, defined (not set: a setter the page put on Object.prototype is not called). */
function numbered(msg: object, n: number): void {
  const d = bare<PropertyDescriptor>();
  d.value = n;
  d.writable = true;
  d.enumerable = true;
  d.configurable = true;
  N.defineProperty(msg, 'seq', d);
}

export type WireRecord = HookWireRecord;

export interface Emitter {
  emit(rec: WireRecord): void;
  flush(): void;
  /**
   * Sends `rec` now on the synchronous channel, after the records before it: its `data` is the
   * page's own chunk (a whole buffer, not yet handed to the page), cloned by the relay as it reads
   * the event. False when the channel is not in use (then nothing was sent: copy the bytes).
   */
  sendRead(rec: HookBytesChunk): boolean;
  /** The synchronous channel is in use (a read may go uncopied through `sendRead`). */
  synchronous(): boolean;
  /** Copy the bytes of reads (the relay records), or only say that a read happened. */
  copying(): boolean;
  /** A panel takes the relay's records (the relay's `panel` message): large reads go as Blobs. */
  toPanel(): boolean;
  /** The relay says faults are armed in this tab (issue 14): responses are checked with it. */
  faultsOn(): boolean;
  /**
   * A question about connection `conn` to the relay's fault injector (a fault-query or a
   * fault-read): resolves with its answer, or with null when the relay does not answer within
   * FAULT_ANSWER_MS (released under the page): the page's fetch must never hang on the inspector.
   */
  ask(conn: string, msg: object, transfer?: ArrayBuffer[]): Promise<FaultPlan | FaultOut | null>;
  /** Told when faults are armed or disarmed (the fetch hook's live streams). */
  onFaultArm(fn: (on: boolean) => void): void;
}

const FAULT_ANSWER_MS = 3000;

/** The private port with natives only (a page may patch every prototype after install). */
const HOOK_PORT: PortNatives = {
  post: (port, msg, transfer) => (transfer && transfer.length ? call(N.portPost, port, msg, ownIterable(transfer)) : call(N.portPost, port, msg)),
  listen: (port, fn) => {
    call(N.addEventListener, port, 'message', (ev: MessageEvent) => fn(call(G.msgData, ev)));
    call(N.portStart, port);
  },
  close: (port) => call(N.portClose, port),
};

export function createEmitter(): Emitter {
  const channel = new N.MessageChannel();
  const port = messagePortAdapter(channel.port1, HOOK_PORT);
  const hello: HookHello = { ch: CHANNEL, v: PROTOCOL_VERSION, type: 'hook-hello' };
  N.windowPost(hello, '*', [channel.port2]);
  const syncTarget: EventTarget = new N.EventTarget();
  const helloInit = bare<FocusEventInit>();
  helloInit.relatedTarget = syncTarget;
  helloInit.cancelable = true;
  // The relay (listed before the hook) cancels it when it listens on the target.
  const syncOn = !call<boolean>(N.dispatchEvent, window, new N.FocusEvent(SYNC_HELLO, helloInit));
  /** The number of the next message (see the header). */
  let seq = 0;
  /** When the last message went on the synchronous channel (a batch waits FLUSH_MS from it). */
  let lastSent = -FLUSH_MS;
  /** The number of the batch timer last set: an earlier one, still pending, does nothing. */
  let timers = 0;

  let batch: WireRecord[] = list();
  let buffers: ArrayBuffer[] = list();
  let scheduled = false;
  let copy = true;
  let faults = false;
  let panel = false;
  let onArm: ((on: boolean) => void) | undefined;
  // Keyed by the hook's own connection ids, without a prototype (no page setter can see a write).
  const waiting = Object.create(null) as Record<string, ((m: FaultPlan | FaultOut | null) => void) | undefined>;
  const answer = (conn: string, m: FaultPlan | FaultOut | null) => {
    const fn = waiting[conn];
    if (!fn) return;
    waiting[conn] = undefined;
    fn(m);
  };

  const synchronous = () => syncOn && panel && !faults;

  /** Sends `msg` with the next number, on the synchronous channel when it may; false if it could not be sent (then it took no number). */
  function send(msg: object, transfer?: ArrayBuffer[]): boolean {
    numbered(msg, seq);
    if (synchronous() && (!transfer || transfer.length === 0)) {
      const init = bare<MessageEventInit>();
      init.data = msg;
      init.lastEventId = '' + seq;
      call(N.dispatchEvent, syncTarget, new N.MessageEvent(SYNC_MESSAGE, init));
      seq++;
      lastSent = N.perfNow();
      return true;
    }
    // A message that cannot be cloned is dropped (only if the page corrupted a prototype); nothing
    // is thrown into the page.
    if (!port.post(msg, transfer)) return false;
    seq++;
    return true;
  }

  /**
   * The batch timer. A flush clears `scheduled` and only the timer set last acts, so whatever
   * flushed in between, a batch has one timer, and a page that cancels every timeout holds a batch
   * back only until the next flush (by size, age, a mode change or pagehide) lets a timer be set
   * again. On the synchronous channel it waits until FLUSH_MS after the last message (a flush since
   * it was set moved that on); less than 1 ms early is on time (setTimeout truncates a fraction).
   */
  function due() {
    scheduled = false;
    if (batch.length === 0) return;
    if (synchronous()) {
      const wait = untilDue();
      if (wait >= 1) return schedule(wait);
    }
    flush();
  }
  /** On the synchronous channel: ms until a batch may go (under 1: now). */
  function untilDue(): number {
    return lastSent + FLUSH_MS - N.perfNow();
  }
  function schedule(ms: number) {
    scheduled = true;
    const me = ++timers;
    N.setTimeout(() => {
      if (me === timers) due();
    }, ms);
  }

  function flush() {
    scheduled = false;
    if (batch.length === 0) return;
    const msg: HookBatch = { ch: CHANNEL, v: PROTOCOL_VERSION, type: 'hook-batch', records: batch };
    // While the synchronous channel is in use a batch holding copied bytes goes there too, cloned
    // (a copy more): on the port it would hold every later message, one per read, in the relay's
    // inbox until the port's task ran, and a fast read starves it. Only reads under 4 KiB, the
    // pieces of a body over 64 KiB read whole, or the batch pending when a panel came, hold such
    // bytes then.
    const transfer = synchronous() ? undefined : buffers;
    batch = list();
    buffers = list();
    send(msg, transfer);
  }

  port.listen((data) => {
    // Checked without calling any global (a page may have replaced Array.isArray & co.); only the
    // relay holds the other end, so these are the relay's messages.
    const m = data as Partial<Mode> | null;
    if (typeof m !== 'object' || m === null || m.ch !== CHANNEL || m.v !== PROTOCOL_VERSION) return;
    const f = data as { type?: unknown; on?: unknown; conn?: unknown };
    if (f.type === 'panel') {
      panel = f.on === true;
      return;
    }
    if (f.type === 'fault-arm') {
      faults = f.on === true;
      onArm?.(faults);
      return;
    }
    if (f.type === 'fault-plan' || f.type === 'fault-out') {
      if (typeof f.conn === 'string') answer(f.conn, data as FaultPlan | FaultOut);
      return;
    }
    if (m.type !== 'mode' || typeof m.copy !== 'boolean') return;
    flush();
    copy = m.copy;
    const ack: ModeAck = { ch: CHANNEL, v: PROTOCOL_VERSION, type: 'mode-ack', copy };
    send(ack);
  });

  return {
    emit(rec) {
      // Own property: `in` would see a `data` the page put on Object.prototype, and a Blob read's
      // record would then throw here and be lost (hostile-page.test.ts).
      if (rec.kind === 'chunk' && N.hasOwn(rec, 'data')) add(buffers, call<ArrayBuffer>(N.typedArrayBuffer, (rec as { data: Uint8Array }).data));
      if (add(batch, rec) >= MAX_BATCH) return flush();
      // (the clock is read only while the synchronous channel is in use: this runs in every page)
      if (synchronous()) {
        // At most one message per FLUSH_MS, the first after a quiet spell at once: a JSON-RPC
        // answer and its end, and the next call's request, share a message (each is a task of the
        // relay's, on the page's thread: row 2c), and a lone event is not held back (row 8). Checked
        // here too, not only by the timer: a fast read starves timers.
        const wait = untilDue();
        if (wait < 1) return flush();
        if (!scheduled) schedule(wait);
        return;
      }
      if (!scheduled) schedule(FLUSH_MS);
    },
    sendRead(rec) {
      if (!synchronous()) return false;
      // with the records before it, in one message (flush: nothing of it is transferred now)
      add(batch, rec);
      flush();
      return true;
    },
    flush,
    synchronous,
    copying: () => copy,
    toPanel: () => panel,
    faultsOn: () => faults,
    onFaultArm(fn) {
      onArm = fn;
    },
    ask(conn, msg, transfer) {
      return new N.Promise<FaultPlan | FaultOut | null>((resolve) => {
        const me = (m: FaultPlan | FaultOut | null) => resolve(m);
        waiting[conn] = me;
        N.setTimeout(() => {
          if (waiting[conn] === me) answer(conn, null);
        }, FAULT_ANSWER_MS);
        send(msg, transfer);
      });
    },
  };
}

/** Per-connection ordering: nothing of a connection is emitted before its request record. */
export interface Conn {
  readonly id: string;
  started: boolean;
  ended: boolean;
  emit(rec: WireRecord): void;
  /** Emitter.sendRead, once the request record went (false: not sent, copy the bytes). */
  sendRead(rec: HookBytesChunk): boolean;
  start(rec: HookRecord): void;
  end(how: import('../../core/record').EndHow, reason?: string): void;
  /** No end record will follow (response not captured): stop tracking it as open. */
  untrack(): void;
}

let connCounter = 0;
const openConns = new Set<Conn>();

export function createConn(emitter: Emitter): Conn {
  const id = 'c' + (++connCounter).toString(36);
  let pending: WireRecord[] | null = list();
  const conn: Conn = {
    id,
    started: false,
    ended: false,
    emit(rec) {
      if (pending) add(pending, rec);
      else emitter.emit(rec);
    },
    sendRead(rec) {
      return !pending && emitter.sendRead(rec);
    },
    start(rec) {
      if (conn.started) return;
      conn.started = true;
      openConns.add(conn);
      emitter.emit(rec);
      const p = pending!;
      pending = null;
      for (let i = 0; i < p.length; i++) emitter.emit(p[i]!);
    },
    untrack() {
      openConns.delete(conn);
    },
    end(how, reason) {
      if (conn.ended) return;
      conn.ended = true;
      openConns.delete(conn);
      const rec: HookRecord = reason === undefined
        ? { kind: 'end', conn: id, t: N.timeOrigin + N.perfNow(), how }
        : { kind: 'end', conn: id, t: N.timeOrigin + N.perfNow(), how, reason };
      conn.emit(rec);
    },
  };
  return conn;
}

/** Connections still open when the document goes away. */
export function openConnections(): Iterable<Conn> {
  return openConns;
}

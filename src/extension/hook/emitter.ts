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
// Batching: records are collected and posted at most every FLUSH_MS (or at MAX_BATCH records), so
// thousands of events per second cost tens of postMessages. `pagehide` flushes synchronously.

import type { HookRecord } from '../../core/record';
import { messagePortAdapter, type PortNatives } from '../wire/message-port';
import { CHANNEL, PROTOCOL_VERSION, type HookBatch, type HookHello, type Mode, type ModeAck } from '../wire/protocol';
import type { HookWireRecord } from '../wire/records';
import { call, G, N } from './natives';

const FLUSH_MS = 16;
/** Captured at install: a page could replace the global `Symbol` later. */
const ITERATOR: typeof Symbol.iterator = Symbol.iterator;
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

export type WireRecord = HookWireRecord;

export interface Emitter {
  emit(rec: WireRecord): void;
  flush(): void;
  /** Copy the bytes of reads (the relay records), or only say that a read happened. */
  copying(): boolean;
}

/**
 * The transfer list of a batch as an iterable built only of own properties (no Array.prototype
 * or %ArrayIteratorPrototype% lookup that a page could patch to see or disturb the conversion of
 * postMessage's `transfer` argument).
 */
function transferList(buffers: readonly Transferable[]): Iterable<Transferable> {
  let i = 0;
  const n = buffers.length;
  return {
    [ITERATOR]: () => ({
      next: () => (i < n ? { value: buffers[i++]!, done: false } : { value: undefined, done: true }),
    }),
  } as unknown as Iterable<Transferable>;
}

/** The private port with natives only (a page may patch every prototype after install). */
const HOOK_PORT: PortNatives = {
  post: (port, msg, transfer) => (transfer && transfer.length ? call(N.portPost, port, msg, transferList(transfer)) : call(N.portPost, port, msg)),
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

  let batch: WireRecord[] = list();
  let buffers: ArrayBuffer[] = list();
  let scheduled = false;
  let copy = true;

  function flush() {
    scheduled = false;
    if (batch.length === 0) return;
    const msg: HookBatch = { ch: CHANNEL, v: PROTOCOL_VERSION, type: 'hook-batch', records: batch };
    const transfer = buffers;
    batch = list();
    buffers = list();
    // A record that cannot be cloned is dropped with its batch (only if the page corrupted a
    // prototype); nothing is thrown into the page.
    port.post(msg, transfer);
  }

  port.listen((data) => {
    // Checked without calling any global (a page may have replaced Array.isArray & co.); only the
    // relay holds the other end, so these are the relay's messages.
    const m = data as Partial<Mode> | null;
    if (typeof m !== 'object' || m === null || m.ch !== CHANNEL || m.v !== PROTOCOL_VERSION || m.type !== 'mode' || typeof m.copy !== 'boolean') return;
    flush();
    copy = m.copy;
    const ack: ModeAck = { ch: CHANNEL, v: PROTOCOL_VERSION, type: 'mode-ack', copy };
    port.post(ack);
  });

  return {
    emit(rec) {
      if (rec.kind === 'chunk' && 'data' in rec) add(buffers, call<ArrayBuffer>(N.typedArrayBuffer, rec.data));
      if (add(batch, rec) >= MAX_BATCH) flush();
      else if (!scheduled) {
        scheduled = true;
        N.setTimeout(flush, FLUSH_MS);
      }
    },
    flush,
    copying: () => copy,
  };
}

/** Per-connection ordering: nothing of a connection is emitted before its request record. */
export interface Conn {
  readonly id: string;
  started: boolean;
  ended: boolean;
  emit(rec: WireRecord): void;
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

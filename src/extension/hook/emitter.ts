// Hands records to the relay over a private MessagePort, in batches.
//
// Handshake: the hook creates a MessageChannel and posts one end on `window` at document_start,
// before any page script exists. The relay (ISOLATED world, injected in the same step) listens in
// the capture phase, takes the first well-formed hello whose source is this window, and stops its
// propagation, so page listeners never see it. From then on records travel only over the port;
// the hook never posts on `window` again and nothing flows back into the page.
//
// Batching: records are collected and posted at most every FLUSH_MS (or at MAX_BATCH records), so
// thousands of events per second cost tens of postMessages. `pagehide` flushes synchronously.

import type { HookRecord } from '../../core/record';
import { CHANNEL, PROTOCOL_VERSION, type HookBatch, type HookChunkBytes, type HookHello } from '../shared/messages';
import { call, N } from './natives';

const FLUSH_MS = 16;
/** Captured at install: a page could replace the global `Symbol` later. */
const ITERATOR: typeof Symbol.iterator = Symbol.iterator;
const MAX_BATCH = 512;

/**
 * Arrays the hook fills are made without a prototype and filled with the native push captured at
 * install: a page that later patches Array.prototype (push, or setters on indices) can neither add
 * records to a batch nor see it being filled. (Structured clone still sends them as arrays.)
 */
function list<T>(): T[] {
  const a: T[] = [];
  Object.setPrototypeOf(a, null);
  return a;
}
function add<T>(a: T[], x: T): number {
  return call<number>(N.arrayPush, a, x);
}

export type WireRecord = HookRecord | HookChunkBytes;

export interface Emitter {
  emit(rec: WireRecord): void;
  flush(): void;
}

/**
 * The transfer list of a batch as an iterable built only of own properties (no Array.prototype
 * or %ArrayIteratorPrototype% lookup that a page could patch to see or disturb the conversion of
 * postMessage's `transfer` argument).
 */
function transferList(buffers: ArrayBuffer[]): Iterable<ArrayBuffer> {
  let i = 0;
  const n = buffers.length;
  return {
    [ITERATOR]: () => ({
      next: () => (i < n ? { value: buffers[i++]!, done: false } : { value: undefined, done: true }),
    }),
  } as unknown as Iterable<ArrayBuffer>;
}

export function createEmitter(): Emitter {
  const channel = new N.MessageChannel();
  const port = channel.port1;
  const hello: HookHello = { ch: CHANNEL, v: PROTOCOL_VERSION, type: 'hook-hello' };
  N.windowPost(hello, '*', [channel.port2]);

  let batch: WireRecord[] = list();
  let buffers: ArrayBuffer[] = list();
  let scheduled = false;

  function flush() {
    scheduled = false;
    if (batch.length === 0) return;
    const msg: HookBatch = { ch: CHANNEL, v: PROTOCOL_VERSION, type: 'hook-batch', records: batch };
    const transfer = buffers;
    batch = list();
    buffers = list();
    try {
      if (transfer.length === 0) call(N.portPost, port, msg);
      else call(N.portPost, port, msg, transferList(transfer));
    } catch {
      // A record that cannot be cloned is dropped with its batch; records are plain data, so
      // this only happens if the page corrupted a prototype. Nothing is thrown into the page.
    }
  }

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

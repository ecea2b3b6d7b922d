// The fetch hook.
//
// `window.fetch` becomes a Proxy of the native function (name, length, properties stay native;
// toString is masked). Arguments go to the native fetch untouched; the returned promise settles
// with the *original* Response (url, redirected, type kept) or rejects with the original error.
//
// For captured responses (text/event-stream; JSON answers to JSON-RPC POSTs) the instance's body
// is answered, through a WeakMap-keyed patch of Response.prototype (no own properties on the
// instance), by a pull-driven byte stream with highWaterMark 0 over the real body: the real body is
// read only when the page reads, so the server sees exactly the page's pace (backpressure) and a
// chunk is recorded at the moment the page's read resolved. text()/json()/... consume that stream;
// clone() tees natively (as Chrome would) and both branches record into one connection, each chunk
// once, when the first branch read it. Other responses are not touched at all.

import { isEventStreamType, isJsonType, type Header, type HookRecord } from '../../core/record';
import { createConn, type Conn, type Emitter } from './emitter';
import type { HookBlobChunk, HookBytesChunk, HookSkip } from '../wire/records';
import { CHANNEL, PROTOCOL_VERSION, type FaultOut, type FaultPlan } from '../wire/protocol';
import { call, disguise, G, N, now, ownIterable, patchGetter, patchMethod } from './natives';
import { describeRequest, withHeadersRead, type RequestInfo } from './request-info';

interface ConnState {
  conn: Conn;
  emitter: Emitter;
  recorded: number;
  branches: number;
  /** Response objects of this connection (original + clones) not yet garbage-collected. */
  alive: number;
  signal: AbortSignal | null;
  /**
   * The bodies of this connection (original and clones), for an abort while none is being read;
   * held weakly: the signal's listener must not keep a response the page dropped alive (its
   * garbage collection is how an unread body's end is recorded).
   */
  states: WeakRef<BodyState>[];
  /** Removes the listener for the signal's abort (when the connection ends). */
  unlisten?: () => void;
  /** Faults armed from the panel apply to this body: its reads go through the relay (fault-read). */
  fault?: FaultPipe;
  /** An event stream: what a live fault needs to ask about it (issue 14: "or a live one"). */
  live?: { info: RequestInfo; status: number; contentType: string | null; asked: number };
  liveFaulted?: boolean;
}

/**
 * Faults were armed while event streams were open: each open stream asks the relay once, before
 * its next read, whether a fault applies to it from there on. `liveArmed` is the only thing a read
 * looks at when no fault is armed (one boolean).
 */
let liveArmed = false;
let armGeneration = 0;
/** Streams that became faulted while open and have not ended (their pull checks cs.fault). */
let liveFaulted = 0;
export function onFaultsArmed(on: boolean): void {
  liveArmed = on;
  if (on) armGeneration++;
}
/** What the relay said the page gets next of a faulted body. */
interface FaultPipe {
  parts: FaultOut['parts'];
  next: number;
  end?: 'reset' | 'close' | 'hold' | 'done';
  /** The relay stopped answering: the rest of the body goes to the page as the server sent it. */
  raw?: boolean;
}
interface BodyState {
  cs: ConnState;
  res: Response;
  /**
   * What the page gets as `body`: made on first use (`wrappedOf`), since a JSON answer read whole
   * never needs it. Its byte source has no start and a highWaterMark of 0, so nothing runs when it
   * is made: made later, it behaves as made at once.
   */
  wrapped: ReadableStream<Uint8Array> | null;
  source: UnderlyingByteSource;
  reader: ReadableStreamDefaultReader<Uint8Array> | null;
  disturbed: boolean;
  /** The page was handed `wrapped` (it read `body`): its consumers must go through it. */
  exposed: boolean;
  index: number;
  contentType: string | null;
  /** The wrapper's controller (kept by its start). */
  controller: ReadableByteStreamController | null;
  /** A pull is running (it reads the real body, and errors the wrapper when that read fails). */
  pulling: boolean;
  /** A read of the real body begun at an abort while no pull ran (abortIdle): the next pull takes it. */
  eager: Promise<ReadableStreamReadResult<Uint8Array>> | null;
}

const states = new WeakMap<Response, BodyState>();

/**
 * Reads of this many bytes or more go to a panel as a Blob of the page's chunk (recordChunk). A
 * Blob costs an IPC to register (~0.1-0.15 ms) where a copy costs ~3 ns a byte on the machines
 * measured, so a smaller read is copied (by the relay's clone on the synchronous channel, from
 * SEND_READ_MIN up; else here, and under SEND_READ_MIN cloned with its batch as well) and goes in
 * the relay's Blob of its message.
 */
const BLOB_READ_MIN = 256 * 1024;
/**
 * On the synchronous channel a read of this many bytes or more (and under BLOB_READ_MIN) goes
 * uncopied on a message of its own (emitter.ts sendRead); a smaller one is copied into the batch,
 * which waits up to FLUSH_MS: copying a few KiB costs the page less than the relay's task for a
 * message of its own, and a JSON-RPC answer then shares one with its end and the next request
 * (row 2c).
 */
const SEND_READ_MIN = 4 * 1024;

function headerList(h: Headers): Header[] {
  const out: Header[] = [];
  call(N.headersForEach, h, (v: string, k: string) => out.push([k, v]));
  return out;
}

function errText(e: unknown): string {
  if (e instanceof Error || e instanceof DOMException) return `${e.name}: ${e.message}`;
  return String(e);
}

function abortReason(signal: AbortSignal | null): string | null {
  if (!signal || !signal.aborted) return null;
  return errText(signal.reason);
}

function recordChunk(st: BodyState, chunk: Uint8Array) {
  const cs = st.cs;
  const i = st.index++;
  if (i < cs.recorded) return; // another clone branch read this chunk first
  cs.recorded++;
  const n = call<number>(N.typedArrayByteLength, chunk);
  const k = n < 3 ? n : 3;
  // The last <= 3 bytes: what a streaming UTF-8 decoder could carry into the next read (the
  // relay's decoding carry). Indexed reads of a typed array never reach a prototype the page
  // could patch.
  const tail = new N.Uint8Array(k);
  for (let j = 0; j < k; j++) tail[j] = chunk[n - k + j]!;
  if (!cs.emitter.copying()) {
    // The relay does not record: no copy, only the length and the tail.
    const skip: HookSkip = { kind: 'skip', conn: cs.conn.id, t: now(), n, tail };
    cs.conn.emit(skip);
    return;
  }
  // The page owns `chunk` (enqueueing it transfers its buffer to the page), so its bytes are
  // copied once (below: a Blob, the relay's clone, or a copy here), and nothing is decoded here:
  // the relay keeps them with the decoding carry (relay/carry.ts) and the panel decodes them
  // (wire/decode.ts), exactly as one streaming decoder here would have. While a panel takes the
  // records, a large read's copy is a Blob: the relay would put a copy in a Blob for the panel
  // anyway (relay/delivery.ts), and that was the second copy of the same bytes on the page's thread
  // (docs/benchmarks.md, "The relay's work after a fast read"). Otherwise a Uint8Array whose buffer
  // is transferred to the relay: a Blob costs an IPC to register, worth paying only for bytes that
  // go to a panel; with DevTools closed and capture while closed on, a Blob per read made the 50 MB
  // stream ~1.9x slower (bench row 1b').
  if (n >= BLOB_READ_MIN && cs.emitter.toPanel()) {
    const blob: Blob = new N.Blob(ownIterable([chunk]) as unknown as BlobPart[]);
    const big: HookBlobChunk = { kind: 'chunk', conn: cs.conn.id, t: now(), blob, n, tail };
    cs.conn.emit(big);
    return;
  }
  // On the synchronous channel a read from SEND_READ_MIN up is not copied here: the relay's clone
  // of the event is the one copy (emitter.ts, "A read's bytes on the synchronous channel"). Only a
  // chunk that is its whole buffer: a clone copies the whole buffer of a view (readWhole's pieces
  // are views). (the size and the channel asked first: with DevTools closed this runs for every
  // read, in every page)
  if (n >= SEND_READ_MIN && cs.emitter.synchronous() && wholeBuffer(chunk, n)) {
    const own: HookBytesChunk = { kind: 'chunk', conn: cs.conn.id, t: now(), data: chunk };
    if (cs.conn.sendRead(own)) return;
  }
  const data = new N.Uint8Array(chunk);
  const rec: HookBytesChunk = { kind: 'chunk', conn: cs.conn.id, t: now(), data };
  cs.conn.emit(rec);
}

/** `chunk` (of `n` bytes) spans its whole ArrayBuffer (a SharedArrayBuffer's getter throws: no). */
function wholeBuffer(chunk: Uint8Array, n: number): boolean {
  try {
    return call<number>(N.typedArrayByteOffset, chunk) === 0 && call<number>(N.arrayBufferByteLength, call<ArrayBuffer>(N.typedArrayBuffer, chunk)) === n;
  } catch {
    return false;
  }
}

function finish(cs: ConnState, how: 'complete' | 'network-error' | 'page-aborted' | 'page-cancelled' | 'unread', reason?: string) {
  if (cs.conn.ended) return;
  cs.unlisten?.();
  cs.unlisten = undefined;
  if (cs.liveFaulted) {
    cs.liveFaulted = false;
    liveFaulted--;
  }
  // The relay flushes its decoder for this connection at a `complete` end (the tail chunk).
  cs.conn.end(how, reason);
}

/** A read of the body rejected with `e`: the page aborted it (its signal fired), or the network failed. */
function failed(cs: ConnState, e: unknown) {
  const aborted = abortReason(cs.signal);
  if (aborted !== null) finish(cs, 'page-aborted', aborted);
  else finish(cs, 'network-error', errText(e));
}

const unreadRegistry = new FinalizationRegistry<ConnState>((cs) => {
  if (--cs.alive <= 0) finish(cs, 'unread', 'response garbage-collected before its body was fully read');
});

function wrappedOf(st: BodyState): ReadableStream<Uint8Array> {
  if (st.wrapped === null) st.wrapped = new N.ReadableStream<Uint8Array>(st.source as UnderlyingSource<Uint8Array>, { highWaterMark: 0 });
  return st.wrapped;
}

/**
 * The page's signal fired while the page held a body's wrapper and was not reading it: the real
 * body is errored by the abort (Fetch: "abort the fetch() call"), and a native body would show it
 * at once (the reader's closed rejects, a pipe stalled by backpressure fails). A read of the real
 * body gets the very error the browser gave it; if the body had ended before the abort, the read
 * gives data instead, which the next pull takes in order.
 */
function abortIdle(cs: ConnState): void {
  // A body faulted since it opened (a live fault) reads through the relay (faultPull), not here.
  if (cs.conn.ended || cs.fault) return;
  for (const ref of cs.states) {
    const st = ref.deref();
    if (!st || !st.exposed || st.wrapped === null || st.pulling || st.eager !== null || st.controller === null) continue;
    if (!st.reader) st.reader = call(N.streamGetReader, call(G.resBody, st.res));
    const p = call<Promise<ReadableStreamReadResult<Uint8Array>>>(N.readerRead, st.reader);
    st.eager = p;
    call(N.promiseThen, p, undefined, (e: unknown) => {
      if (st.eager !== p) return; // a pull took it, and handles its error
      st.eager = null;
      failed(cs, e);
      try {
        st.controller!.error(e);
      } catch {
        /* already closed or errored */
      }
    });
  }
}

function makeState(res: Response, cs: ConnState, contentType: string | null): BodyState {
  const st = {} as BodyState;
  st.cs = cs;
  st.res = res;
  st.reader = null;
  st.disturbed = false;
  st.exposed = false;
  st.index = 0;
  st.contentType = contentType;
  st.controller = null;
  st.pulling = false;
  st.eager = null;
  cs.states.push(new N.WeakRef(st));
  // The pull. `pulling` says a read of the real body is under way (abortIdle leaves such a body
  // be); it ends where the read's outcome is delivered (below), not when this promise settles:
  // the page's code after its read can run first, and may abort then. (No wrapper around the pull
  // for it: one more promise per read of every captured body.) A faulted body's reads go through
  // the relay, where abortIdle never looks.
  async function pull(c: ReadableByteStreamController): Promise<void> {
    const controller = c as unknown as ReadableByteStreamController;
    st.disturbed = true;
    if (!st.reader) st.reader = call(N.streamGetReader, call(G.resBody, res));
    if (liveArmed || liveFaulted !== 0) {
      // A stream faulted since it opened (a live fault) reads through the relay to its end.
      if (cs.fault) return faultPull(st, controller as unknown as ReadableStreamController<Uint8Array>);
      if (liveArmed && cs.live && cs.live.asked !== armGeneration && cs.branches === 1 && !cs.conn.ended) {
        cs.live.asked = armGeneration;
        st.pulling = true;
        const faulted = await askLive(cs);
        st.pulling = false;
        if (faulted) return faultPull(st, controller as unknown as ReadableStreamController<Uint8Array>);
      }
    }
    st.pulling = true;
    for (;;) {
      let r: ReadableStreamReadResult<Uint8Array>;
      try {
        // A read begun at an abort while no pull ran (abortIdle) comes first: it is the next one.
        const eager = st.eager;
        st.eager = null;
        r = await (eager ?? call<Promise<ReadableStreamReadResult<Uint8Array>>>(N.readerRead, st.reader));
      } catch (e) {
        st.pulling = false;
        failed(cs, e);
        controller.error(e);
        return;
      }
      if (r.done) {
        st.pulling = false;
        finish(cs, 'complete');
        controller.close();
        controller.byobRequest?.respond(0);
        return;
      }
      if (r.value.byteLength === 0) continue;
      try {
        recordChunk(st, r.value);
      } catch {
        // recording must never break the page's read
      }
      st.pulling = false;
      controller.enqueue(r.value as Uint8Array<ArrayBuffer>);
      return;
    }
  }
  const source: UnderlyingByteSource = {
      type: 'bytes',
      start(c) {
        st.controller = c;
      },
      pull,
      cancel(reason) {
        st.disturbed = true;
        if (--cs.branches <= 0) finish(cs, 'page-cancelled', reason === undefined ? undefined : errText(reason));
        if (st.reader) return call<Promise<void>>(N.readerCancel, st.reader, reason);
        return call<Promise<void>>(N.streamCancel, call(G.resBody, res), reason);
      },
  };
  // A faulted body reads through the relay; the others keep the pull above, untouched (nothing
  // is checked per read when no fault applies).
  if (cs.fault) {
    source.pull = (c) => {
      st.disturbed = true;
      if (!st.reader) st.reader = call(N.streamGetReader, call(G.resBody, res));
      return faultPull(st, c);
    };
  }
  st.source = source;
  st.wrapped = null;
  states.set(res, st);
  unreadRegistry.register(res, cs);
  return st;
}

/** A live stream asks whether a fault armed since it opened applies to it from its next read. */
async function askLive(cs: ConnState): Promise<boolean> {
  const l = cs.live!;
  const answer = await cs.emitter.ask(cs.conn.id, {
    ch: CHANNEL, v: PROTOCOL_VERSION, type: 'fault-query', conn: cs.conn.id, method: l.info.method, url: l.info.url, headers: l.info.headers,
    body: l.info.body, status: l.status, contentType: l.contentType, live: true,
  });
  if (!answer || answer.type !== 'fault-plan' || answer.plan !== 'stream') return false;
  const pipe: FaultPipe = { parts: [], next: 0 };
  if (answer.end === 'reset' || answer.end === 'close') pipe.end = answer.end;
  cs.fault = pipe;
  cs.liveFaulted = true;
  liveFaulted++;
  return true;
}

const sleep = (ms: number) => new N.Promise<void>((resolve) => void N.setTimeout(resolve, ms));
const ignore = (p: unknown) => {
  try {
    call(N.promiseThen, p, undefined, () => {});
  } catch {
    /* not a promise */
  }
};

/**
 * A faulted body (issue 14): each read of the server's body goes to the relay as it came, and the
 * page gets what the relay answers (events withheld, delayed; a cut). A cut is what Chrome gives a
 * reset connection: the page's next read rejects with TypeError "network error", and the server's
 * connection is closed (the real body is cancelled). The page's chunks are recorded as it read
 * them; what it did not get is in the relay's fault records. Without an answer from the relay
 * (released under the page) the body continues as the server sent it.
 */
async function faultPull(st: BodyState, c: ReadableStreamController<Uint8Array>): Promise<void> {
  const controller = c as unknown as ReadableByteStreamController;
  const cs = st.cs;
  const fp = cs.fault!;
  const reader = st.reader!;
  for (;;) {
    if (fp.next < fp.parts.length) {
      const part = fp.parts[fp.next++]!;
      if (part.delayMs > 0) await sleep(part.delayMs);
      if (call<number>(N.typedArrayByteLength, part.data) === 0) continue;
      try {
        recordChunk(st, part.data);
      } catch {
        // recording must never break the page's read
      }
      controller.enqueue(part.data as Uint8Array<ArrayBuffer>);
      return;
    }
    const end = fp.end;
    if (end === 'reset') {
      ignore(call(N.readerCancel, reader));
      finish(cs, 'network-error', 'TypeError: network error');
      controller.error(new N.TypeError('network error'));
      return;
    }
    if (end === 'close' || end === 'done') {
      if (end === 'close') ignore(call(N.readerCancel, reader));
      finish(cs, 'complete');
      controller.close();
      controller.byobRequest?.respond(0);
      return;
    }
    if (end === 'hold') return new N.Promise<void>(() => {}); // the stream stays open until the page cancels it
    let r: ReadableStreamReadResult<Uint8Array>;
    try {
      r = await call<Promise<ReadableStreamReadResult<Uint8Array>>>(N.readerRead, reader);
    } catch (e) {
      void cs.emitter.ask(cs.conn.id, { ch: CHANNEL, v: PROTOCOL_VERSION, type: 'fault-read', conn: cs.conn.id, error: errText(e) });
      failed(cs, e);
      controller.error(e);
      return;
    }
    let msg: object;
    let transfer: ArrayBuffer[] | undefined;
    if (r.done) msg = { ch: CHANNEL, v: PROTOCOL_VERSION, type: 'fault-read', conn: cs.conn.id, done: true };
    else {
      // A copy goes to the relay; the server's bytes stay here in case the relay never answers.
      const copy = new N.Uint8Array(r.value);
      msg = { ch: CHANNEL, v: PROTOCOL_VERSION, type: 'fault-read', conn: cs.conn.id, data: copy };
      transfer = [call<ArrayBuffer>(N.typedArrayBuffer, copy)];
    }
    const out = fp.raw ? null : ((await cs.emitter.ask(cs.conn.id, msg, transfer)) as FaultOut | null);
    if (!out || out.type !== 'fault-out' || !Array.isArray(out.parts)) {
      fp.raw = true;
      if (r.done) {
        finish(cs, 'complete');
        controller.close();
        controller.byobRequest?.respond(0);
        return;
      }
      recordChunk(st, r.value);
      controller.enqueue(r.value as Uint8Array<ArrayBuffer>);
      return;
    }
    fp.parts = out.parts;
    fp.next = 0;
    if (out.end === 'reset' || out.end === 'close' || out.end === 'hold') fp.end = out.end;
    else if (r.done) fp.end = 'done';
  }
}

/**
 * A Response in the state the page's body is in, to obtain Chrome's own error for it (a used
 * body is reported before a locked one, as Chrome does).
 */
function unusable(st: BodyState): Response {
  const r = new N.Response('x');
  const body = call<ReadableStream>(G.resBody, r);
  if (st.disturbed) call(N.streamCancel, body);
  else call(N.streamGetReader, body);
  return r;
}

/**
 * Read the whole wrapped body (each read recorded as the page's), then let the native method
 * decode the bytes. Not `new Response(wrapped).text()`: Chrome consumes a JS stream synchronously
 * inside controller.close(), which prefixes a JSON SyntaxError's message, and it maps stream errors
 * to "Failed to fetch" where a real body rejects with the AbortError/TypeError of the read.
 */
async function readAll(st: BodyState): Promise<Uint8Array<ArrayBuffer>> {
  const reader = call<ReadableStreamDefaultReader<Uint8Array>>(N.streamGetReader, wrappedOf(st));
  const parts: Uint8Array[] = [];
  let n = 0;
  for (;;) {
    let r: ReadableStreamReadResult<Uint8Array>;
    try {
      r = await call<Promise<ReadableStreamReadResult<Uint8Array>>>(N.readerRead, reader);
    } catch (e) {
      // Chrome's body consumers reject with the AbortError of an aborted fetch, and with
      // TypeError "Failed to fetch" for any other failure of the body (measured; see e2e).
      if (e instanceof DOMException && e.name === 'AbortError') throw e;
      throw new TypeError('Failed to fetch');
    }
    if (r.done) break;
    parts.push(r.value);
    n += r.value.byteLength;
  }
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.byteLength;
  }
  return out;
}

/** UTF-8, a leading BOM stripped: how the body consumers decode (Fetch, "UTF-8 decode"). */
const utf8 = new N.TextDecoder();

/** Bytes per chunk record of a body read whole (`readWhole`): about what one network read gives. */
const WHOLE_PIECE = 65536;

/**
 * A JSON answer the page reads whole (text(), json()…, the usual JSON-RPC POST) before touching
 * its body in any other way, with no clone and no fault in play: nothing the page can observe
 * depends on the reads in between (it gets the bytes at once), so the native consumer reads the
 * real body and the bytes are recorded when it resolves, instead of going read by read through the
 * pull-driven wrapper (its stream, reader and promises per read were most of what a JSON-RPC POST
 * cost the page's thread: docs/benchmarks.md, row 2c). Event streams keep the wrapper: their
 * events are timed by the reads.
 */
function wholeJson(st: BodyState): boolean {
  return !st.exposed && st.cs.branches === 1 && !st.cs.fault && isJsonType(st.contentType);
}

/**
 * The body of `res` read by the native `arrayBuffer` (which consumes it as the page's own call
 * would: same errors, same abort), recorded in pieces of WHOLE_PIECE bytes when it resolves. The
 * response is the native one from here on (body, bodyUsed, clone and the consumers answer as
 * Chrome does for a body being read).
 */
function readWhole(res: Response, st: BodyState, nativeArrayBuffer: () => Promise<ArrayBuffer>): Promise<ArrayBuffer> {
  const cs = st.cs;
  st.disturbed = true;
  states.delete(res);
  return call<Promise<ArrayBuffer>>(
    N.promiseThen,
    call<Promise<ArrayBuffer>>(nativeArrayBuffer, res),
    (buf: ArrayBuffer) => {
      try {
        const n = call<number>(N.arrayBufferByteLength, buf);
        for (let o = 0; o < n; o += WHOLE_PIECE) recordChunk(st, new N.Uint8Array(buf, o, n - o < WHOLE_PIECE ? n - o : WHOLE_PIECE));
        finish(cs, 'complete');
      } catch {
        // recording must never break the page's read
      }
      return buf;
    },
    (e: unknown) => {
      try {
        failed(cs, e);
      } catch {
        // never change the page's error
      }
      throw e;
    },
  );
}

function installResponsePatches() {
  const P = N.Response.prototype;
  const native = {
    text: P.text,
    json: P.json,
    arrayBuffer: P.arrayBuffer,
    blob: P.blob,
    formData: P.formData,
    bytes: (P as { bytes?: () => Promise<Uint8Array> }).bytes,
    clone: P.clone,
  };
  patchGetter(
    P,
    'body',
    Object.getOwnPropertyDescriptor(
      {
        get body() {
          const st = states.get(this as unknown as Response);
          if (!st) return call(G.resBody, this);
          st.exposed = true;
          return wrappedOf(st);
        },
      },
      'body',
    )!.get!,
  );
  patchGetter(
    P,
    'bodyUsed',
    Object.getOwnPropertyDescriptor(
      {
        get bodyUsed() {
          const st = states.get(this as unknown as Response);
          return st ? st.disturbed : call(G.resBodyUsed, this);
        },
      },
      'bodyUsed',
    )!.get!,
  );
  const consumer = (name: 'text' | 'json' | 'arrayBuffer' | 'blob' | 'formData' | 'bytes') => {
    const nativeFn = native[name];
    if (!nativeFn) return;
    const fn = {
      [name](this: Response) {
        const st = states.get(this);
        if (!st) return call(nativeFn, this);
        if (st.disturbed || (st.wrapped !== null && st.wrapped.locked)) return call(nativeFn, unusable(st));
        const headers: Header[] = st.contentType ? [['content-type', st.contentType]] : [];
        if (wholeJson(st)) {
          const whole = readWhole(this, st, native.arrayBuffer);
          // What the native consumers do with a body's bytes (Fetch: UTF-8 decode, BOM stripped, then
          // JSON.parse for json()), without a Response to hold them.
          if (name === 'json') return call(N.promiseThen, whole, (buf: ArrayBuffer) => N.jsonParse(call<string>(N.textDecode, utf8, buf)));
          if (name === 'text') return call(N.promiseThen, whole, (buf: ArrayBuffer) => call<string>(N.textDecode, utf8, buf));
          if (name === 'arrayBuffer') return whole;
          if (name === 'bytes') return call(N.promiseThen, whole, (buf: ArrayBuffer) => new N.Uint8Array(buf));
          return call(N.promiseThen, whole, (buf: ArrayBuffer) => call(nativeFn, new N.Response(buf, { headers })));
        }
        const all = readAll(st);
        st.disturbed = true;
        if (name === 'json') {
          // Parse here: Chrome prefixes a parse error with "Failed to execute 'json'..." when the
          // body is already in memory, which a network body's json() does not.
          return call(N.promiseThen, all, (bytes: Uint8Array<ArrayBuffer>) =>
            call(N.promiseThen, call(native.text, new N.Response(bytes, { headers })), (t: string) => N.jsonParse(t)),
          );
        }
        return call(N.promiseThen, all, (bytes: Uint8Array<ArrayBuffer>) => call(nativeFn, new N.Response(bytes, { headers })));
      },
    }[name]!;
    patchMethod(P, name, fn);
  };
  for (const n of ['text', 'json', 'arrayBuffer', 'blob', 'formData', 'bytes'] as const) consumer(n);
  patchMethod(P, 'clone', {
    clone(this: Response) {
      const st = states.get(this);
      if (!st) return call(native.clone, this);
      if (st.disturbed || (st.wrapped !== null && st.wrapped.locked)) return call(native.clone, unusable(st));
      if (st.cs.fault) {
        // A faulted body: both branches get what the page gets (a native clone would tee the
        // server's body, withheld events included).
        const branches = call<ReadableStream<Uint8Array>[]>(N.streamTee, wrappedOf(st));
        st.wrapped = branches[0]!;
        const h = call<Headers>(G.resHeaders, this);
        return new N.Response(branches[1]!, { status: call(G.resStatus, this), statusText: call(G.resStatusText, this), headers: h });
      }
      // The real body is untouched here (no read happened), so the native clone tees it exactly
      // as Chrome would without the hook; each branch gets its own pull-driven wrapper.
      const c = call<Response>(native.clone, this);
      // The page's earlier `res.body` is the stream the tee took (locked, for good) and `res.body`
      // is a new one from here on, as natively: the old wrapper is locked, never read, and the next
      // wrapper pulls from the branch the native clone left (the pull takes the real body lazily).
      if (st.wrapped !== null) {
        call(N.streamGetReader, st.wrapped);
        st.wrapped = null;
      }
      st.cs.branches++;
      st.cs.alive++;
      makeState(c, st.cs, st.contentType);
      return c;
    },
  }.clone);
}

function onResponse(res: Response, info: RequestInfo, conn: Conn, emitter: Emitter, fault?: FaultPipe): Response {
  const headers = call<Headers>(G.resHeaders, res);
  const ct = call<string | null>(N.headersGet, headers, 'content-type');
  // JSON is captured for JSON-RPC POSTs and for other MCP-looking requests (a 404 "Session not
  // found" answering a resume GET, for instance).
  const capture = isEventStreamType(ct) ? 'sse' : (info.jsonRpcPost || info.mcpish) && isJsonType(ct) ? 'json' : 'none';
  if (capture === 'none' && !info.mcpish) return res;
  if (!info.mcpish) startConn(conn, info, emitter); // an MCP request was recorded when sent
  conn.emit({
    kind: 'response',
    conn: conn.id,
    t: now(),
    status: call(G.resStatus, res),
    statusText: call(G.resStatusText, res),
    headers: headerList(headers),
    url: call(G.resUrl, res),
    redirected: call(G.resRedirected, res),
    type: call(G.resType, res),
    capture,
  });
  if (call(G.resBody, res) === null) {
    conn.end('complete'); // null-body status (204, 304...): nothing to read
    return res;
  }
  // Other MCP responses (a 405 to a GET, a text/plain error) are left untouched: no body records
  // and no end record follow a response record with capture 'none'.
  if (capture === 'none') {
    conn.untrack();
    return res;
  }
  const cs: ConnState = { conn, emitter, recorded: 0, branches: 1, alive: 1, signal: info.signal, states: [] };
  if (fault && capture === 'sse') cs.fault = fault;
  else if (capture === 'sse') cs.live = { info, status: call(G.resStatus, res), contentType: ct, asked: emitter.faultsOn() ? armGeneration : -1 };
  makeState(res, cs, ct);
  // An abort while the page holds the body and is not reading it (abortIdle): only for a stream
  // read through the wrapper (a faulted one reads through the relay), removed when it ends.
  const sig = info.signal;
  if (sig !== null && !cs.fault && !sig.aborted) {
    const onAbort = () => abortIdle(cs);
    call(N.addEventListener, sig, 'abort', onAbort, { once: true });
    cs.unlisten = () => call(N.removeEventListener, sig, 'abort', onAbort);
  }
  return res;
}

/**
 * Faults are armed in the tab: ask the relay whether one applies to this response, before the
 * page gets it (only then: with no fault armed nothing here runs).
 */
function faulted(res: Response, info: RequestInfo, conn: Conn, emitter: Emitter): Promise<Response> {
  const headers = call<Headers>(G.resHeaders, res);
  const ct = call<string | null>(N.headersGet, headers, 'content-type');
  const ask = (body: string | null) =>
    emitter.ask(conn.id, {
      ch: CHANNEL, v: PROTOCOL_VERSION, type: 'fault-query', conn: conn.id, method: info.method, url: info.url, headers: info.headers, body,
      status: call(G.resStatus, res), contentType: ct,
    });
  const asked = info.bodyAsync ? call<Promise<FaultPlan | FaultOut | null>>(N.promiseThen, info.bodyAsync, ask) : ask(info.body);
  return call<Promise<Response>>(N.promiseThen, asked, (answer: FaultPlan | FaultOut | null) => {
    try {
      const plan = answer && answer.type === 'fault-plan' ? answer : null;
      if (!plan || plan.plan === 'pass') return onResponse(res, info, conn, emitter);
      if (plan.plan === 'replace') {
        // The page gets the fault's answer; the server's is cancelled unread.
        const real = call<ReadableStream | null>(G.resBody, res);
        if (real) ignore(call(N.streamCancel, real));
        const type = typeof plan.contentType === 'string' ? plan.contentType : 'application/json';
        const body = plan.hold ? new N.ReadableStream<Uint8Array>({}) : typeof plan.body === 'string' ? plan.body : '';
        const status = typeof plan.status === 'number' ? plan.status : 404;
        const synthetic = new N.Response(body, { status, statusText: typeof plan.statusText === 'string' ? plan.statusText : '', headers: [['content-type', type]] });
        return onResponse(synthetic, info, conn, emitter);
      }
      const pipe: FaultPipe = { parts: [], next: 0 };
      if (plan.end === 'reset' || plan.end === 'close') pipe.end = plan.end;
      return onResponse(res, info, conn, emitter, pipe);
    } catch {
      return res;
    }
  });
}

/** The request record, timed when the page called fetch (info.t). */
function startConn(conn: Conn, info: RequestInfo, _emitter: Emitter) {
  const base = { kind: 'request' as const, conn: conn.id, transport: 'fetch' as const, method: info.method, url: info.url, headers: info.headers };
  const t = info.t;
  const start = (body: string | null) => {
    // Built in one literal (no assignment of a new property: a setter the page put on
    // Object.prototype would intercept it).
    const note = info.bodyNote && body === null ? info.bodyNote : info.bodyNote === 'truncated' ? 'truncated' : undefined;
    const rec: HookRecord = note ? { ...base, t, body, bodyNote: note } : { ...base, t, body };
    conn.start(rec);
  };
  if (info.bodyAsync) call(N.promiseThen, info.bodyAsync, (b: string | null) => start(b));
  else start(info.body);
}

export function installFetchHook(emitter: Emitter, onCall: () => void = () => {}): typeof fetch {
  installResponsePatches();
  emitter.onFaultArm(onFaultsArmed);
  const nativeFetch = N.fetch;
  const proxy = new Proxy(nativeFetch, {
    apply(target, thisArg, args: unknown[]) {
      try {
        onCall();
      } catch {
        /* diagnostics only */
      }
      let info: RequestInfo | null = null;
      let once: RequestInit | null;
      try {
        once = withHeadersRead(args[1]);
      } catch (e) {
        // What the native fetch does with an exception while it converts its arguments.
        return new N.Promise<Response>((_, reject) => reject(e));
      }
      if (once) args = [args[0], once, ...args.slice(2)];
      try {
        info = describeRequest(args[0], args[1] as RequestInit | undefined);
      } catch {
        info = null; // the native fetch will report whatever is wrong with the arguments
      }
      const p = N.apply(target, thisArg, args) as Promise<Response>;
      if (!info) return p;
      const i = info;
      const conn = createConn(emitter);
      // An MCP request is recorded when the page sends it, not when (if ever) its response comes:
      // a resume the server holds, a request the browser queues (Chrome's cache lock serialises GETs
      // to one URL while one of them waits for its headers) or a server that never answers is on
      // the timeline while it waits. Others are known to be worth recording only from the response.
      if (i.mcpish) startConn(conn, i, emitter);
      return call<Promise<Response>>(
        N.promiseThen,
        p,
        (res: Response) => {
          try {
            if (emitter.faultsOn() && (i.mcpish || i.jsonRpcPost)) return faulted(res, i, conn, emitter);
            return onResponse(res, i, conn, emitter);
          } catch {
            return res;
          }
        },
        (err: unknown) => {
          try {
            if (i.mcpish || i.jsonRpcPost) {
              if (!i.mcpish) startConn(conn, i, emitter);
              const aborted = abortReason(i.signal);
              if (aborted !== null) conn.end('page-aborted', aborted);
              else conn.end('network-error', errText(err));
            }
          } catch {
            // never change the page's error
          }
          throw err;
        },
      );
    },
  });
  disguise(proxy, nativeFetch);
  Object.defineProperty(window, 'fetch', { ...Object.getOwnPropertyDescriptor(window, 'fetch'), value: proxy });
  return proxy;
}

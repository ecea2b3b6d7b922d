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
import type { HookBytesChunk, HookSkip } from '../wire/records';
import { call, disguise, G, N, now, patchGetter, patchMethod } from './natives';
import { describeRequest, type RequestInfo } from './request-info';

interface ConnState {
  conn: Conn;
  emitter: Emitter;
  recorded: number;
  branches: number;
  /** Response objects of this connection (original + clones) not yet garbage-collected. */
  alive: number;
  signal: AbortSignal | null;
}
interface BodyState {
  cs: ConnState;
  res: Response;
  wrapped: ReadableStream<Uint8Array>;
  reader: ReadableStreamDefaultReader<Uint8Array> | null;
  disturbed: boolean;
  index: number;
  contentType: string | null;
}

const states = new WeakMap<Response, BodyState>();

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
  // copied once, into a Uint8Array whose buffer is transferred to the relay, and nothing is
  // decoded here: the relay keeps them with the decoding carry (relay/carry.ts) and the panel
  // decodes them (wire/decode.ts), exactly as one streaming decoder here would have. Not a Blob
  // here: a Blob costs a synchronous IPC and a second copy, worth paying only for bytes that go to
  // a panel (relay/delivery.ts); with DevTools closed and capture while closed on, a Blob per read
  // made the 50 MB stream ~1.9x slower (bench row 1b', docs/benchmarks.md).
  const data = new N.Uint8Array(chunk);
  const rec: HookBytesChunk = { kind: 'chunk', conn: cs.conn.id, t: now(), data };
  cs.conn.emit(rec);
}

function finish(cs: ConnState, how: 'complete' | 'network-error' | 'page-aborted' | 'page-cancelled' | 'unread', reason?: string) {
  if (cs.conn.ended) return;
  // The relay flushes its decoder for this connection at a `complete` end (the tail chunk).
  cs.conn.end(how, reason);
}

const unreadRegistry = new FinalizationRegistry<ConnState>((cs) => {
  if (--cs.alive <= 0) finish(cs, 'unread', 'response garbage-collected before its body was fully read');
});

function makeState(res: Response, cs: ConnState, contentType: string | null): BodyState {
  const st = {} as BodyState;
  st.cs = cs;
  st.res = res;
  st.reader = null;
  st.disturbed = false;
  st.index = 0;
  st.contentType = contentType;
  st.wrapped = new N.ReadableStream<Uint8Array>(
    {
      type: 'bytes',
      async pull(c) {
        const controller = c as unknown as ReadableByteStreamController;
        st.disturbed = true;
        if (!st.reader) st.reader = call(N.streamGetReader, call(G.resBody, res));
        for (;;) {
          let r: ReadableStreamReadResult<Uint8Array>;
          try {
            r = await call<Promise<ReadableStreamReadResult<Uint8Array>>>(N.readerRead, st.reader);
          } catch (e) {
            const aborted = abortReason(cs.signal);
            if (aborted !== null) finish(cs, 'page-aborted', aborted);
            else finish(cs, 'network-error', errText(e));
            controller.error(e);
            return;
          }
          if (r.done) {
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
          controller.enqueue(r.value as Uint8Array<ArrayBuffer>);
          return;
        }
      },
      cancel(reason) {
        st.disturbed = true;
        if (--cs.branches <= 0) finish(cs, 'page-cancelled', reason === undefined ? undefined : errText(reason));
        if (st.reader) return call<Promise<void>>(N.readerCancel, st.reader, reason);
        return call<Promise<void>>(N.streamCancel, call(G.resBody, res), reason);
      },
    },
    { highWaterMark: 0 },
  );
  states.set(res, st);
  unreadRegistry.register(res, cs);
  return st;
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
  const reader = call<ReadableStreamDefaultReader<Uint8Array>>(N.streamGetReader, st.wrapped);
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
          return st ? st.wrapped : call(G.resBody, this);
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
        if (st.wrapped.locked || st.disturbed) return call(nativeFn, unusable(st));
        const headers: Header[] = st.contentType ? [['content-type', st.contentType]] : [];
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
      if (st.wrapped.locked || st.disturbed) return call(native.clone, unusable(st));
      // The real body is untouched here (no read happened), so the native clone tees it exactly
      // as Chrome would without the hook; each branch gets its own pull-driven wrapper.
      const c = call<Response>(native.clone, this);
      st.cs.branches++;
      st.cs.alive++;
      makeState(c, st.cs, st.contentType);
      return c;
    },
  }.clone);
}

function onResponse(res: Response, info: RequestInfo, conn: Conn, emitter: Emitter): Response {
  const headers = call<Headers>(G.resHeaders, res);
  const ct = call<string | null>(N.headersGet, headers, 'content-type');
  // JSON is captured for JSON-RPC POSTs and for other MCP-looking requests (a 404 "Session not
  // found" answering a resume GET, for instance).
  const capture = isEventStreamType(ct) ? 'sse' : (info.jsonRpcPost || info.mcpish) && isJsonType(ct) ? 'json' : 'none';
  if (capture === 'none' && !info.mcpish) return res;
  startConn(conn, info, emitter);
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
  const cs: ConnState = { conn, emitter, recorded: 0, branches: 1, alive: 1, signal: info.signal };
  makeState(res, cs, ct);
  return res;
}

function startConn(conn: Conn, info: RequestInfo, _emitter: Emitter) {
  const base = { kind: 'request' as const, conn: conn.id, transport: 'fetch' as const, method: info.method, url: info.url, headers: info.headers };
  const t = now();
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
  const nativeFetch = N.fetch;
  const proxy = new Proxy(nativeFetch, {
    apply(target, thisArg, args: unknown[]) {
      try {
        onCall();
      } catch {
        /* diagnostics only */
      }
      let info: RequestInfo | null = null;
      try {
        info = describeRequest(args[0], args[1] as RequestInit | undefined);
      } catch {
        info = null; // the native fetch will report whatever is wrong with the arguments
      }
      const p = N.apply(target, thisArg, args) as Promise<Response>;
      if (!info) return p;
      const i = info;
      const conn = createConn(emitter);
      return call<Promise<Response>>(
        N.promiseThen,
        p,
        (res: Response) => {
          try {
            return onResponse(res, i, conn, emitter);
          } catch {
            return res;
          }
        },
        (err: unknown) => {
          try {
            if (i.mcpish || i.jsonRpcPost) {
              startConn(conn, i, emitter);
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

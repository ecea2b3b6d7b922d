// XMLHttpRequest: requests are described at send(); a response of type text/event-stream (with
// responseType '' or 'text') is recorded as the growth of responseText at each readystatechange,
// which is when the page can see it. Other XHRs are only recorded (request + response, no body)
// when the request looks like MCP.

import { isEventStreamType, type Header, type HookRecord } from '../../core/record';
import { noFragment } from '../../core/witness';
import { createConn, type Emitter } from './emitter';
import { textChunk } from './limits';
import { call, N, now, patchMethod } from './natives';
import { looksJsonRpc } from './request-info';

const ABORTED = 'XMLHttpRequest.abort() by the page';

interface XhrInfo {
  method: string;
  url: string;
  headers: Header[];
}

function parseHeaders(raw: string): Header[] {
  const out: Header[] = [];
  for (const line of raw.split('\r\n')) {
    const i = line.indexOf(':');
    if (i > 0) out.push([line.slice(0, i).trim(), line.slice(i + 1).trim()]);
  }
  return out;
}

export function installXhrHook(emitter: Emitter): void {
  const P = XMLHttpRequest.prototype;
  const nativeOpen = P.open;
  const nativeSetHeader = P.setRequestHeader;
  const nativeSend = P.send;
  const nativeAbort = P.abort;
  const nativeGetHeader = P.getResponseHeader;
  const nativeAllHeaders = P.getAllResponseHeaders;
  const get = (name: string) => Object.getOwnPropertyDescriptor(P, name)!.get!;
  const readyStateGet = get('readyState');
  const responseTextGet = get('responseText');
  const responseTypeGet = get('responseType');
  const statusGet = get('status');
  const statusTextGet = get('statusText');
  const responseUrlGet = get('responseURL');
  const infos = new WeakMap<XMLHttpRequest, XhrInfo>();

  patchMethod(P, 'open', {
    // Two declared parameters: the native open has length 2.
    open(this: XMLHttpRequest, method: string, url: string | URL) {
      try {
        // Opened again: open() ends the request before without an event, and the page may do it
        // from that request's own load (or error, abort) handler, before this hook's listener saw
        // the event: DONE is its end then (its text read now, before open clears it).
        const w = watches.get(this);
        if (w && !w.conn.ended) {
          if (call<number>(readyStateGet, this) !== 4) ended(this, w, 'closed', 'XMLHttpRequest opened again before it ended');
          else if (w.aborting) ended(this, w, 'closed', ABORTED);
          else if (call<number>(statusGet, this) > 0) ended(this, w, 'complete');
          else ended(this, w, 'network-error', 'XMLHttpRequest ended without a response');
        }
      } catch {
        /* best effort */
      }
      try {
        infos.set(this, { method: String(method).toUpperCase(), url: new URL(String(url), document.baseURI).href, headers: [] });
      } catch {
        infos.delete(this);
      }
      return N.apply(nativeOpen, this, arguments);
    },
  }.open);

  patchMethod(P, 'setRequestHeader', {
    setRequestHeader(this: XMLHttpRequest, name: string, value: string) {
      const r = N.apply(nativeSetHeader, this, arguments);
      infos.get(this)?.headers.push([String(name), String(value)]); // after: only accepted headers
      return r;
    },
  }.setRequestHeader);

  // abort() dispatches readystatechange (DONE, status 0) before its abort event: a page that opens
  // the XHR again from that handler ends the request there, and it was the page's abort, not a
  // network error (the two look alike in DONE).
  patchMethod(P, 'abort', {
    abort(this: XMLHttpRequest) {
      const w = watches.get(this);
      if (w) w.aborting = true;
      try {
        return N.apply(nativeAbort, this, arguments);
      } finally {
        if (w) w.aborting = false;
      }
    },
  }.abort);

  patchMethod(P, 'send', {
    send(this: XMLHttpRequest) {
      const r = N.apply(nativeSend, this, arguments);
      try {
        watch(this, arguments[0]);
      } catch {
        /* best effort */
      }
      return r;
    },
  }.send);

  /**
   * The request each XHR is on now. An XHR can be opened and sent again: its listeners are added
   * once (at its first send) and act for its current request only, or an earlier request's would
   * go on recording the later one's response into the earlier connection.
   */
  interface Watch {
    conn: ReturnType<typeof createConn>;
    request: HookRecord;
    mcpish: boolean;
    infoUrl: string;
    sse: boolean;
    seen: number;
    /** Inside the page's abort() of this request (its events are dispatched synchronously). */
    aborting: boolean;
  }
  const watches = new WeakMap<XMLHttpRequest, Watch>();

  function pushDelta(xhr: XMLHttpRequest, w: Watch) {
    if (!w.sse) return;
    const all = call<string>(responseTextGet, xhr);
    if (all.length > w.seen) {
      const delta = all.slice(w.seen);
      w.seen = all.length;
      w.conn.emit(emitter.copying() ? textChunk(w.conn.id, now(), delta) : { kind: 'skip', conn: w.conn.id, t: now() });
    }
  }

  function onState(this: XMLHttpRequest) {
    const w = watches.get(this);
    if (!w || w.conn.ended) return;
    const rs = call<number>(readyStateGet, this);
    if (rs === 2) {
      const ct = call<string | null>(nativeGetHeader, this, 'content-type');
      const rt = call<string>(responseTypeGet, this);
      w.sse = isEventStreamType(ct) && (rt === '' || rt === 'text');
      if (!w.sse && !w.mcpish) return;
      w.conn.start(w.request);
      // responseURL never has a fragment (XHR spec: "exclude fragment"); the URL opened may: `/mcp#x`
      // answered at `/mcp` is no redirect.
      const url = call<string>(responseUrlGet, this);
      w.conn.emit({
        kind: 'response', conn: w.conn.id, t: now(), status: call(statusGet, this), statusText: call(statusTextGet, this),
        headers: parseHeaders(call(nativeAllHeaders, this)), url, redirected: url !== noFragment(w.infoUrl), type: 'xhr',
        capture: w.sse ? 'sse' : 'none',
      });
    } else if (rs === 3 || rs === 4) pushDelta(this, w);
  }

  function ended(xhr: XMLHttpRequest, w: Watch, how: 'complete' | 'closed' | 'network-error', reason?: string) {
    if (w.conn.ended) return;
    if (!w.conn.started) {
      if (!w.mcpish) return;
      w.conn.start(w.request);
    }
    pushDelta(xhr, w);
    w.conn.end(how, reason);
  }

  // load, abort, error and timeout are dispatched in state DONE: in any other, the page opened the
  // XHR again from an earlier listener of the same event, and the event is not the current request's.
  const ender = (how: 'complete' | 'closed' | 'network-error', reason?: string) =>
    function (this: XMLHttpRequest) {
      const w = watches.get(this);
      if (w && call<number>(readyStateGet, this) === 4) ended(this, w, how, reason);
    };
  const onLoad = ender('complete');
  const onAbort = ender('closed', ABORTED);
  const onError = ender('network-error', 'XMLHttpRequest error');
  const onTimeout = ender('network-error', 'XMLHttpRequest timeout');

  function watch(xhr: XMLHttpRequest, body: unknown) {
    const info = infos.get(xhr);
    if (!info) return;
    const text = typeof body === 'string' ? body : body instanceof URLSearchParams ? body.toString() : null;
    const mcpish =
      looksJsonRpc(text) ||
      info.headers.some(([k, v]) => {
        const l = k.toLowerCase();
        return (l === 'accept' && v.includes('text/event-stream')) || l.startsWith('mcp-') || l === 'last-event-id';
      });
    const conn = createConn(emitter);
    const request: HookRecord = {
      kind: 'request', conn: conn.id, t: now(), transport: 'xhr', method: info.method, url: info.url,
      headers: info.headers.slice(), body: text, ...(text === null ? { bodyNote: body == null ? 'none' as const : 'binary' as const } : {}),
    };
    if (!watches.has(xhr)) {
      call(N.addEventListener, xhr, 'readystatechange', onState);
      call(N.addEventListener, xhr, 'load', onLoad);
      call(N.addEventListener, xhr, 'abort', onAbort);
      call(N.addEventListener, xhr, 'error', onError);
      call(N.addEventListener, xhr, 'timeout', onTimeout);
    }
    watches.set(xhr, { conn, request, mcpish, infoUrl: info.url, sse: false, seen: 0, aborting: false });
    // As fetch's (fetch.ts): an MCP request is on the timeline from the moment it is sent.
    if (mcpish) conn.start(request);
  }
}

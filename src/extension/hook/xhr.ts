// XMLHttpRequest: requests are described at send(); a response of type text/event-stream (with
// responseType '' or 'text') is recorded as the growth of responseText at each readystatechange,
// which is when the page can see it. Other XHRs are only recorded (request + response, no body)
// when the request looks like MCP.

import { isEventStreamType, type Header, type HookRecord } from '../../core/record';
import { createConn, type Emitter } from './emitter';
import { textChunk } from './limits';
import { call, N, now, patchMethod } from './natives';
import { looksJsonRpc } from './request-info';

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
    const t0 = now();
    let sse = false;
    let seen = 0;
    const request: HookRecord = {
      kind: 'request', conn: conn.id, t: t0, transport: 'xhr', method: info.method, url: info.url,
      headers: info.headers.slice(), body: text, ...(text === null ? { bodyNote: body == null ? 'none' as const : 'binary' as const } : {}),
    };
    // As fetch's (fetch.ts): an MCP request is on the timeline from the moment it is sent.
    if (mcpish) conn.start(request);
    const pushDelta = () => {
      if (!sse) return;
      const all = call<string>(responseTextGet, xhr);
      if (all.length > seen) {
        const delta = all.slice(seen);
        seen = all.length;
        conn.emit(emitter.copying() ? textChunk(conn.id, now(), delta) : { kind: 'skip', conn: conn.id, t: now() });
      }
    };
    call(N.addEventListener, xhr, 'readystatechange', () => {
      const rs = call<number>(readyStateGet, xhr);
      if (rs === 2) {
        const ct = call<string | null>(nativeGetHeader, xhr, 'content-type');
        const rt = call<string>(responseTypeGet, xhr);
        sse = isEventStreamType(ct) && (rt === '' || rt === 'text');
        if (!sse && !mcpish) return;
        conn.start(request);
        const url = call<string>(responseUrlGet, xhr);
        conn.emit({
          kind: 'response', conn: conn.id, t: now(), status: call(statusGet, xhr), statusText: call(statusTextGet, xhr),
          headers: parseHeaders(call(nativeAllHeaders, xhr)), url, redirected: url !== info.url, type: 'xhr',
          capture: sse ? 'sse' : 'none',
        });
      } else if (rs === 3 || rs === 4) pushDelta();
    });
    const end = (how: 'complete' | 'closed' | 'network-error', reason?: string) => () => {
      if (!conn.started) {
        if (!mcpish) return;
        conn.start(request);
      }
      pushDelta();
      conn.end(how, reason);
    };
    call(N.addEventListener, xhr, 'load', end('complete'));
    call(N.addEventListener, xhr, 'abort', end('closed', 'XMLHttpRequest.abort() by the page'));
    call(N.addEventListener, xhr, 'error', end('network-error', 'XMLHttpRequest error'));
    call(N.addEventListener, xhr, 'timeout', end('network-error', 'XMLHttpRequest timeout'));
  }
}

// What the hook learns about a fetch request from its arguments, without consuming or delaying the
// page's body: method, URL, every header, and the body as text when it is cheap to get.

import type { Header } from '../../core/record';
import { call, G, N, now } from './natives';

export interface RequestInfo {
  /** When the page called fetch (epoch ms): the request record's time, whenever it is made. */
  t: number;
  method: string;
  url: string;
  headers: Header[];
  /** Body text if known synchronously; `bodyAsync` otherwise. */
  body: string | null;
  bodyNote?: 'none' | 'stream' | 'binary' | 'truncated' | 'unreadable';
  bodyAsync?: Promise<string | null>;
  signal: AbortSignal | null;
  /** The request looks like MCP / JSON-RPC traffic (recorded even when the response is not captured). */
  mcpish: boolean;
  /** POST whose body is (or, for async bodies, declares itself as) JSON. */
  jsonRpcPost: boolean;
}

const MAX_BODY = 1024 * 1024;
const decoder = new N.TextDecoder();

function headersOf(h: unknown): Header[] {
  const out: Header[] = [];
  if (h == null) return out;
  if (h instanceof N.Headers) {
    call(N.headersForEach, h, (v: string, k: string) => out.push([k, v]));
  } else if (Array.isArray(h) || (typeof h === 'object' && Symbol.iterator in (h as object))) {
    for (const pair of h as Iterable<unknown>) {
      const p = Array.from(pair as Iterable<unknown>);
      if (p.length === 2) out.push([String(p[0]), String(p[1])]);
    }
  } else if (typeof h === 'object') {
    for (const k of Object.keys(h as object)) out.push([k, String((h as Record<string, unknown>)[k])]);
  }
  return out;
}

/**
 * `init` again when its `headers` is an iterator (a generator, `map.entries()`, `headers.entries()`:
 * its own iterable, so it can be read once): reading it for the record would leave the native
 * fetch an empty one, and the request would go out without those headers. Read once here into
 * pairs, which the record and the native fetch then both take (fetch reads the iterator once
 * into the same pairs); every other member is still read from the page's `init` (the copy
 * inherits from it). `null` when nothing needs doing; throws what the page's iterator throws.
 */
export function withHeadersRead(init: unknown): RequestInit | null {
  if (typeof init !== 'object' || init === null) return null;
  const h = (init as RequestInit).headers as unknown;
  if (typeof h !== 'object' || h === null || Array.isArray(h) || h instanceof N.Headers) return null;
  const next = (h as Iterator<unknown>).next;
  const iter = (h as Iterable<unknown>)[Symbol.iterator];
  if (typeof next !== 'function' || typeof iter !== 'function' || call(iter, h) !== h) return null;
  // Each pair as the iterator gave it: the native fetch converts (and refuses) it as it would have.
  const pairs: unknown[] = [];
  for (let r = call<IteratorResult<unknown>>(next, h); !r.done; r = call<IteratorResult<unknown>>(next, h)) pairs.push(r.value);
  return Object.create(init, { headers: { value: pairs, enumerable: true, configurable: true, writable: true } }) as RequestInit;
}

function merge(base: Header[], override: Header[]): Header[] {
  if (override.length === 0) return base;
  const names = new Set(override.map(([k]) => k.toLowerCase()));
  return [...base.filter(([k]) => !names.has(k.toLowerCase())), ...override];
}

function has(headers: Header[], name: string, test: (v: string) => boolean): boolean {
  for (const [k, v] of headers) if (k.toLowerCase() === name && test(v.toLowerCase())) return true;
  return false;
}

export function looksJsonRpc(text: string | null): boolean {
  if (!text) return false;
  const s = text.trimStart();
  return (s[0] === '{' || s[0] === '[') && s.includes('"jsonrpc"');
}

function cap(text: string): { body: string; truncated: boolean } {
  return text.length > MAX_BODY ? { body: text.slice(0, MAX_BODY), truncated: true } : { body: text, truncated: false };
}

function bodyOf(body: unknown, info: RequestInfo): void {
  if (body == null) {
    info.body = null;
    info.bodyNote = 'none';
  } else if (typeof body === 'string') {
    const c = cap(body);
    info.body = c.body;
    if (c.truncated) info.bodyNote = 'truncated';
  } else if (body instanceof URLSearchParams) {
    info.body = body.toString();
  } else if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) {
    try {
      const c = cap(call<string>(N.textDecode, decoder, body as ArrayBuffer));
      info.body = c.body;
      if (c.truncated) info.bodyNote = 'truncated';
    } catch {
      info.bodyNote = 'binary';
    }
  } else if (body instanceof Blob) {
    // Blobs are immutable: reading one does not touch what the page sends.
    info.body = null;
    info.bodyAsync = textOf(call<Promise<string>>(N.blobText, body));
  } else if (body instanceof ReadableStream) {
    info.body = null;
    info.bodyNote = 'stream';
  } else {
    info.body = null;
    info.bodyNote = 'binary'; // FormData and others: multipart, not JSON-RPC
  }
}

/**
 * A body's text as the record holds it (capped; null when it cannot be read). Chained with the
 * `then` captured at install: a page that replaced Promise.prototype.then would otherwise see,
 * and could rewrite, the body text the record gets.
 */
function textOf(p: Promise<string>): Promise<string | null> {
  return call<Promise<string | null>>(N.promiseThen, p, (t: string) => cap(t).body, () => null);
}

/**
 * Whether a Request's body is a stream the page made (`new Request(url, { body: stream })`: the
 * getter returns that very stream) rather than one Chromium made for a string, Blob or bytes. Ours
 * are byte streams; a page's is almost always a default stream, which refuses a BYOB reader without
 * being touched. Reading a clone of a page's stream would tee it and pull the page's source as fast
 * as we read, whatever pace the upload goes at (or before Chrome fails a streaming upload over
 * HTTP/1.1, which pulls nothing): that body is not read, as for `init.body` streams. A page's byte
 * stream passes as ours (read through the tee as before). The reader is released at once, with no
 * read: the stream is neither disturbed nor left locked (a locked or used body throws here and is
 * counted as the page's: left alone).
 */
function pageStream(body: ReadableStream): boolean {
  try {
    const reader = call<ReadableStreamBYOBReader>(N.streamGetReader, body, { mode: 'byob' });
    call(N.byobRelease, reader);
    return false;
  } catch {
    return true;
  }
}

/**
 * Describe a fetch call. For a Request with a body (and no init.body) the body is read from a
 * clone made *before* the page's fetch runs: Chromium clones a body built from a string/Blob by
 * sharing its blob data, so reading the clone neither consumes nor delays the page's upload.
 * Only done for POSTs that declare JSON or accept event streams, and not for a body that is the
 * page's own ReadableStream (pageStream; see docs/capture.md).
 */
export function describeRequest(input: unknown, init: RequestInit | undefined): RequestInfo {
  const t = now();
  const isReq = input instanceof Request;
  let method = 'GET';
  let url: string;
  let headers: Header[] = [];
  let signal: AbortSignal | null = null;
  if (isReq) {
    url = call<string>(G.reqUrl, input);
    method = call<string>(G.reqMethod, input);
    headers = headersOf(call(G.reqHeaders, input));
    signal = call<AbortSignal>(G.reqSignal, input);
  } else {
    url = new URL(input instanceof URL ? input.href : String(input), document.baseURI).href;
  }
  if (init) {
    if (init.method !== undefined) {
      method = String(init.method);
      const up = method.toUpperCase();
      if (['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH'].includes(up)) method = up;
    }
    if (init.headers !== undefined) headers = isReq ? merge(headers, headersOf(init.headers)) : headersOf(init.headers);
    if (init.signal !== undefined) signal = init.signal ?? null;
  }
  // Every field is an own property from the start: later assignments then never reach a setter
  // the page may have put on Object.prototype, and reads never reach its getters.
  const info: RequestInfo = { t, method, url, headers, body: null, bodyNote: undefined, bodyAsync: undefined, signal, mcpish: false, jsonRpcPost: false };
  const declaresJson = has(headers, 'content-type', (v) => v.includes('json'));
  const acceptsSse = has(headers, 'accept', (v) => v.includes('text/event-stream'));
  if (init && init.body !== undefined) bodyOf(init.body, info);
  else if (isReq && call(G.reqBody, input) !== null) {
    if (method === 'POST' && (declaresJson || acceptsSse) && !call(G.reqBodyUsed, input)) {
      if (pageStream(call<ReadableStream>(G.reqBody, input))) info.bodyNote = 'stream';
      else try {
        const copy = call<Request>(N.requestClone, input);
        info.bodyAsync = textOf(call<Promise<string>>(N.requestText, copy));
      } catch {
        info.bodyNote = 'unreadable';
      }
    } else info.bodyNote = 'unreadable';
  } else info.bodyNote = 'none';

  const isJsonRpc = looksJsonRpc(info.body);
  info.jsonRpcPost = method === 'POST' && (isJsonRpc || (info.body === null && declaresJson));
  info.mcpish =
    isJsonRpc ||
    acceptsSse ||
    has(headers, 'mcp-session-id', () => true) ||
    has(headers, 'mcp-protocol-version', () => true) ||
    has(headers, 'last-event-id', () => true);
  return info;
}

// The independent witness: what the browser's network view (chrome.devtools.network in the panel,
// or the entries of a HAR file DevTools saved) saw of the page's MCP traffic, checked against the
// capture. The network view does not depend on the page hook: it sees requests made by workers, by
// frames the hook does not run in and by pages that bypassed the hook; it sees CORS preflights;
// and it sees every response header, including those CORS hides from the page.
//
// Pure functions over HAR-like entries (HAR 1.2 plus Chrome's `_resourceType`, `_initiator`,
// `response._error`, as Chromium 156 reports them): which requests carry MCP markers, whether the
// capture holds a request, the likely reason when it does not, and the two CORS problems only the
// two views together show (findings `cors-preflight-rejected`, `session-id-not-exposed`).

import { headerValue, isEventStreamType, type Header } from './record';
import type { FindingCode } from './model';
import { urlOrigin } from './url-parts';
import { stackHas, type InitiatorStack } from './witness-initiator';

/** The request headers MCP Streamable HTTP clients send (lower case). */
export const MCP_REQUEST_HEADERS = ['mcp-session-id', 'mcp-protocol-version', 'last-event-id', 'mcp-method', 'mcp-name'] as const;

export interface NetHeader {
  name: string;
  value: string;
}

/** The parts of a HAR entry the witness reads. */
export interface NetEntry {
  startedDateTime: string;
  time: number;
  request: { method: string; url: string; headers: NetHeader[]; postData?: { text?: string } };
  response: { status: number; statusText?: string; headers: NetHeader[]; content?: { mimeType?: string }; _error?: string | null; /** Chrome: answered by the page's Service Worker. */ _fetchedViaServiceWorker?: boolean };
  /** Chrome: fetch, xhr, eventsource, preflight, document, script, ... */
  _resourceType?: string;
  /**
   * Chrome: who started it; a preflight names the request it was made for (`url`), a script's
   * request has its call stack (`stack`, async callers under `parent`).
   */
  _initiator?: { type?: string; url?: string; stack?: InitiatorStack };
  /** The page (HAR `pages[].id`) the request belongs to. Chrome leaves it out for workers' requests. */
  pageref?: string;
}

export const netHeaders = (hs: readonly NetHeader[] | undefined): Header[] => (hs ?? []).map((h) => [String(h.name), String(h.value)]);
/** headerValue over DevTools' headers without copying them: asked several times of every network entry. */
export function netHeader(hs: readonly NetHeader[] | undefined, name: string): string | undefined {
  if (!hs) return undefined;
  const lower = name.toLowerCase();
  for (const h of hs) {
    const n = String(h.name);
    // The length first, as headerValue (record.ts).
    if (n.length === lower.length && n.toLowerCase() === lower) return String(h.value);
  }
  return undefined;
}

export function isPreflight(e: NetEntry): boolean {
  return e._resourceType === 'preflight' || (e.request.method === 'OPTIONS' && netHeader(e.request.headers, 'access-control-request-method') !== undefined);
}

function looksJsonRpc(text: string | undefined): boolean {
  if (!text) return false;
  const s = text.trimStart();
  return (s[0] === '{' || s[0] === '[') && s.includes('"jsonrpc"');
}

/**
 * What marks an entry as MCP traffic (empty: not MCP): a `text/event-stream` response, an MCP
 * request header, an `Mcp-Session-Id` response header, a JSON-RPC request body. A preflight is
 * never an MCP request itself (it is checked for CORS with the request it was made for).
 */
export function mcpMarkers(e: NetEntry): string[] {
  if (isPreflight(e)) return [];
  const out: string[] = [];
  const ct = netHeader(e.response.headers, 'content-type') ?? e.response.content?.mimeType;
  if (isEventStreamType(ct)) out.push('text/event-stream');
  for (const h of MCP_REQUEST_HEADERS) if (netHeader(e.request.headers, h) !== undefined) out.push(h);
  if (!out.includes('mcp-session-id') && netHeader(e.response.headers, 'mcp-session-id') !== undefined) out.push('mcp-session-id (response)');
  if (looksJsonRpc(e.request.postData?.text)) out.push('JSON-RPC body');
  return out;
}

export function startedAt(e: NetEntry): number {
  const t = Date.parse(e.startedDateTime);
  return Number.isFinite(t) ? t : 0;
}

/** A URL without its #fragment (the hook keeps it; it never reaches the network). */
export const noFragment = (u: string) => {
  const i = u.indexOf('#');
  return i < 0 ? u : u.slice(0, i);
};

/** A request the capture holds (the hook's request records), as the matcher needs it. */
export interface CapturedRequest {
  method: string;
  url: string;
  t: number;
}

/** What tells a worker's network entry from a document's (isWorkerEntry). */
export interface EntrySource {
  /** Some entry of this log has a pageref. */
  pagerefs: boolean;
  /** This extension's URL (chrome-extension://<id>/): its page hook on a request's call stack. */
  ownCode?: string;
  /** URLs of the documents the relays reported (their navigation records). */
  documents?: readonly string[];
}

/**
 * A worker's request: Chrome gives it no pageref, where the page's own have one, but only once
 * DevTools has a page load for the page (it saw the page navigate: opened on an already loaded
 * page, none of its entries has a pageref until a reload). `pagerefs`: some entry of this log has
 * one, so an entry without may be a worker's. A worker's request is never one the page's hook
 * recorded (a page and a worker sending the same request at once took each other's place).
 * Chrome gives no pageref to the requests of a frame in another process either (a cross-site
 * iframe, and a sandboxed one: Chrome runs those in a process of their own; checked on Chromium
 * 156), and the hook runs there: such an entry's initiator names the document, not a worker's
 * script. Its call stack holds this extension's hook (a request the page made through it: no
 * content script runs in a worker) or a document a relay reported. (A page can name its scripts
 * anything, `//# sourceURL`: this decides only which entries may match a hook record, never that
 * one was captured.)
 */
export function isWorkerEntry(e: NetEntry, source: boolean | EntrySource): boolean {
  const s = typeof source === 'boolean' ? { pagerefs: source } : source;
  if (!s.pagerefs || (e.pageref !== undefined && e.pageref !== '')) return false;
  const own = s.ownCode;
  const docs = s.documents?.map(noFragment);
  return !stackHas(e._initiator?.stack, (url) => (own !== undefined && own !== '' && url.startsWith(own)) || (docs !== undefined && docs.includes(noFragment(url))));
}

/**
 * The captured request this entry is, if any: a page's request (not a worker's), same method and URL, recorded between 1 s before
 * the network saw it start and 2 s after it ended (the hook records a request when its response
 * headers arrive, or when it failed), the closest in time, each captured request used once.
 * `now` bounds an entry still in flight.
 */
export function matchCaptured<R extends CapturedRequest>(e: NetEntry, captured: Iterable<R>, used: Set<R>, now: number, source: boolean | EntrySource = false): R | undefined {
  if (isWorkerEntry(e, source)) return undefined;
  const start = startedAt(e);
  const end = e.time > 0 ? start + e.time : now;
  const url = noFragment(e.request.url);
  let best: R | undefined;
  let bestD = Infinity;
  for (const r of captured) {
    // (The hook keeps a URL's #fragment, which never reaches the network.)
    if (used.has(r) || r.method !== e.request.method || noFragment(r.url) !== url) continue;
    if (r.t < start - 1000 || r.t > Math.max(end, start) + 2000) continue;
    const d = Math.abs(r.t - start);
    if (d < bestD) {
      best = r;
      bestD = d;
    }
  }
  if (best) used.add(best);
  return best;
}

/**
 * Code of the witness's notice for a request the hook did not see whose events the network view
 * supplied (observed after completion): the analysis files it as a capture-gap warning.
 */
export const UNSEEN_NOTICE_CODE = 'not-seen-by-hook';

/** Why the capture does not hold a request the network saw (the likeliest cause, not a proof). */
export const UNSEEN_REASONS = ['worker', 'extension-reloaded', 'hook-missing', 'hook-bypassed', 'frame-without-hook', 'buffer-cap', 'unknown'] as const;
export type UnseenReason = (typeof UNSEEN_REASONS)[number];

export const UNSEEN_REASON_TEXT: Record<UnseenReason, string> = {
  worker: 'made by a worker (Web Worker or Service Worker): no content script runs there, so the hook cannot see it',
  'extension-reloaded': "the extension was reloaded or updated after this page loaded: the page's capture scripts belong to the old instance and deliver nothing (reload the page)",
  'hook-missing': 'the extension was installed after this page loaded: no capture script runs in it (reload the page)',
  'hook-bypassed': 'the page replaced the hooked fetch / XMLHttpRequest / EventSource after the hook was installed (see the hook-bypassed notice)',
  'frame-without-hook': 'made by a frame where the capture hook is not running',
  'buffer-cap': "evicted from the page's capture buffer before the panel read it (see the buffer-cap capture gap)",
  unknown: 'the capture hook did not see it; the cause is unknown',
};

export interface ReasonContext {
  /** Whether a relay of this extension instance answered in the tab (null: not known yet). */
  relays: boolean | null;
  /** Why this instance was installed ('update' after a reload), when known. */
  installReason?: string;
  /** A relay of the page reported `hook-bypassed`. */
  bypassed: boolean;
  /** URLs of the documents that have a relay (their navigation records). */
  documents: readonly string[];
  /** Time of the newest buffer-cap capture gap, if any (records before it may be evicted). */
  bufferCapAt?: number;
  /** Some network entry of the page has a pageref (isWorkerEntry). */
  pagerefs?: boolean;
  /** This extension's URL (isWorkerEntry). */
  ownCode?: string;
}

export function likelyReason(e: NetEntry, ctx: ReasonContext): UnseenReason {
  if (ctx.relays === false) return ctx.installReason === 'update' ? 'extension-reloaded' : 'hook-missing';
  // Chrome gives a worker's requests no pageref (checked on Chromium 156: a dedicated worker's
  // fetch has none, the page's own requests have "page_1" once DevTools saw the page load), nor
  // those of a frame in another process, told apart by their call stack.
  if (isWorkerEntry(e, { pagerefs: ctx.pagerefs === true, documents: ctx.documents, ...(ctx.ownCode !== undefined ? { ownCode: ctx.ownCode } : {}) })) return 'worker';
  if (ctx.bypassed) return 'hook-bypassed';
  if (ctx.bufferCapAt !== undefined && startedAt(e) <= ctx.bufferCapAt) return 'buffer-cap';
  // The Referer is the requesting document's URL (or its origin alone, cross-origin): a document
  // no relay reported is a frame the hook does not run in.
  const ref = netHeader(e.request.headers, 'referer');
  if (ref && ctx.documents.length > 0) {
    const o = urlOrigin(ref);
    const known = ctx.documents.some((d) => d === ref || (o !== null && urlOrigin(d) === o));
    if (!known) return 'frame-without-hook';
  }
  return 'unknown';
}

// ------------------------------------------------------------------------------- CORS findings

export const WITNESS_FINDING_CODES = ['cors-preflight-rejected', 'session-id-not-exposed'] as const satisfies readonly FindingCode[];
export type WitnessFindingCode = (typeof WITNESS_FINDING_CODES)[number];
export const isWitnessFindingCode = (c: unknown): c is WitnessFindingCode => (WITNESS_FINDING_CODES as readonly unknown[]).includes(c);

export interface CorsProblem {
  code: WitnessFindingCode;
  /** The MCP request concerned. */
  method: string;
  url: string;
  /** The request's session id (what the page sent), for the finding's session. */
  sessionId?: string;
  /** The header(s) the server must add to its CORS answer. */
  headers: string[];
  message: string;
}

const list = (v: string | undefined) =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);

/** Whether the request carried credentials (then `*` is not a wildcard in CORS answers). */
const credentialed = (e: NetEntry | undefined) => !!e && (netHeader(e.request.headers, 'cookie') !== undefined || netHeader(e.request.headers, 'authorization') !== undefined);

/**
 * The entry failed before the page's code saw an answer (Chrome: status 0, with `_error` such as
 * net::ERR_FAILED for a refused preflight). A stream that broke after its headers keeps its status
 * and has an `_error` too: that is not this.
 */
export const failedBeforeAnswer = (e: NetEntry) => e.response.status === 0;

/**
 * A CORS preflight for an MCP request that the browser refused: the server's answer does not
 * allow an MCP header the client asked for (the common case: the MCP reference servers rejected
 * `mcp-protocol-version`), or the preflight failed outright. A refused header decides it alone:
 * the browser then never sends the request. `actual` is the request it was made for, when known
 * (same URL, failed, close in time): a failed one is needed to claim the other causes, and one
 * that went through means the refusal was not what happened (a cached, different preflight).
 * `sessionId`: the session id the client sent, when known from elsewhere (the capture).
 */
export function preflightProblem(preflight: NetEntry, actual?: NetEntry, sessionIdHint?: string): CorsProblem | null {
  if (!isPreflight(preflight)) return null;
  if (actual && !failedBeforeAnswer(actual)) return null;
  const asked = list(netHeader(preflight.request.headers, 'access-control-request-headers'));
  const mcpAsked = asked.filter((h) => (MCP_REQUEST_HEADERS as readonly string[]).includes(h));
  const actualMcp = actual ? MCP_REQUEST_HEADERS.filter((h) => netHeader(actual.request.headers, h) !== undefined) : [];
  if (mcpAsked.length === 0 && (!actual || (actualMcp.length === 0 && mcpMarkers(actual).length === 0))) return null;
  const res = preflight.response;
  const allowed = list(netHeader(res.headers, 'access-control-allow-headers'));
  const wildcard = allowed.includes('*') && !credentialed(actual);
  const refused = wildcard ? [] : mcpAsked.filter((h) => !allowed.includes(h));
  const method = actual?.request.method ?? (netHeader(preflight.request.headers, 'access-control-request-method') ?? 'POST').toUpperCase();
  const url = actual?.request.url ?? preflight._initiator?.url ?? preflight.request.url;
  const sessionId = (actual && netHeader(actual.request.headers, 'mcp-session-id')) ?? sessionIdHint;
  const base = { code: 'cors-preflight-rejected' as const, method, url, ...(sessionId !== undefined ? { sessionId } : {}) };
  const origin = netHeader(preflight.request.headers, 'origin') ?? 'the page';
  if (refused.length > 0) {
    return {
      ...base,
      headers: refused,
      message:
        `The browser refused ${method} ${url} before sending it: its CORS preflight (OPTIONS) was answered with ` +
        `Access-Control-Allow-Headers: ${netHeader(res.headers, 'access-control-allow-headers') ?? '(none)'}, which does not allow ${refused.join(', ')} ` +
        `that the MCP client sends from ${origin}. The client saw only a network error ("Failed to fetch"), the server never saw the request. ` +
        `Add ${refused.join(', ')} to the server's Access-Control-Allow-Headers (with content-type, mcp-session-id, mcp-protocol-version and last-event-id, the headers MCP clients send).`,
    };
  }
  // Refused for another reason: the preflight's status or its Allow-Origin / Allow-Methods.
  const status = res.status;
  const allowOrigin = netHeader(res.headers, 'access-control-allow-origin');
  const methods = list(netHeader(res.headers, 'access-control-allow-methods'));
  const reqMethod = (netHeader(preflight.request.headers, 'access-control-request-method') ?? method).toLowerCase();
  let why: string;
  let add: string[];
  if (!actual || status === 0) return null; // no failed request to explain, or the preflight itself did not reach the server
  if (status < 200 || status > 299) {
    why = `was answered with HTTP ${status}`;
    add = ['a 2xx answer to OPTIONS'];
  } else if (!allowOrigin) {
    why = 'has no Access-Control-Allow-Origin';
    add = ['Access-Control-Allow-Origin'];
  } else if (methods.length > 0 && !methods.includes(reqMethod) && !(methods.includes('*') && !credentialed(actual))) {
    why = `allows the methods ${methods.join(', ')}, not ${reqMethod.toUpperCase()}`;
    add = [`${reqMethod.toUpperCase()} in Access-Control-Allow-Methods`];
  } else return null; // refused for a reason the headers do not show (e.g. credentials): not claimed
  return {
    ...base,
    headers: add,
    message:
      `The browser refused ${method} ${url} (an MCP request with ${[...new Set([...mcpAsked, ...actualMcp])].join(', ') || 'a JSON-RPC body'}) before sending it: its CORS preflight (OPTIONS) ${why}. ` +
      `The client saw only a network error ("Failed to fetch"). The server must answer the preflight with ${add.join(' and ')}.`,
  };
}

/**
 * A cross-origin MCP response whose `Mcp-Session-Id` the page cannot read: the server sets it but
 * `Access-Control-Expose-Headers` does not list it. The network view shows every header; the
 * page (and so the hook, which sees what the page sees) does not. `pageVisible`: the response
 * headers the capture holds for this request (when it holds it): when they include the session id,
 * nothing is wrong.
 */
export function exposeProblem(e: NetEntry, pageVisible?: readonly Header[]): CorsProblem | null {
  if (failedBeforeAnswer(e)) return null;
  const sid = netHeader(e.response.headers, 'mcp-session-id');
  if (sid === undefined) return null;
  const allowOrigin = netHeader(e.response.headers, 'access-control-allow-origin');
  const reqOrigin = netHeader(e.request.headers, 'origin');
  if (!allowOrigin && !reqOrigin) return null; // same-origin: every header is visible
  if (reqOrigin && urlOrigin(e.request.url) === reqOrigin) return null;
  if (pageVisible && headerValue(pageVisible, 'mcp-session-id') !== undefined) return null;
  const exposed = list(netHeader(e.response.headers, 'access-control-expose-headers'));
  if (exposed.includes('mcp-session-id')) return null;
  if (exposed.includes('*') && !credentialed(e)) return null;
  const method = e.request.method;
  return {
    code: 'session-id-not-exposed',
    method,
    url: e.request.url,
    headers: ['Mcp-Session-Id'],
    message:
      `The server answered ${method} ${e.request.url} with Mcp-Session-Id: ${sid}, but its Access-Control-Expose-Headers ` +
      `(${netHeader(e.response.headers, 'access-control-expose-headers') ?? 'none'}) does not list it, so the page's MCP client cannot read it from this cross-origin response` +
      `${pageVisible ? ' (the capture, which sees what the page sees, has no Mcp-Session-Id on it)' : ''}: its next requests go without the session id ` +
      `(the server then answers 400, or starts a new session each time). Add Mcp-Session-Id to the server's Access-Control-Expose-Headers.`,
  };
}

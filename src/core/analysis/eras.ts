// The two eras, at push time (issue 12). Which era a request speaks (2026-07-28 requests carry
// `_meta["io.modelcontextprotocol/protocolVersion"]`; server/discover is modern-only; a 2025
// request never carries either), what a server's answers show about the era(s) it serves (kept
// per origin + endpoint, the first occurrence of each kind of evidence in words), and what a
// modern request's headers and its answer say (header checks against the body, resultType,
// requestState, error codes, a subscription's acknowledgement and changes).
import type { Era } from '../model';
import type { Header } from '../record';
import { headerValue } from '../record';
import { getPath, type DecodedMessage } from '../jsonrpc';
import { paramsText } from '../canonical-json';
import type { EraEvidenceKind, ReqFacts, ServerState } from './modern-state';
import type { ReqState, SessionState, StreamS } from './state';
import type { AnalyzerState } from './analyzer-state';
import * as E from './texts-eras';

export const META_PV = 'io.modelcontextprotocol/protocolVersion';
export const META_CLIENT = 'io.modelcontextprotocol/clientInfo';
export const META_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
export const MODERN_FROM = '2026-07-28';

/** Error codes only a 2026-07-28 server answers (spec: basic/transports/streamable-http). */
export const HEADER_MISMATCH = -32020;
export const MISSING_CAPABILITY = -32021;
export const UNSUPPORTED_VERSION = -32022;
const MODERN_ERRORS = new Set([HEADER_MISMATCH, MISSING_CAPABILITY, UNSUPPORTED_VERSION]);

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A revision of the modern era: a date at or after 2026-07-28 (revisions are `YYYY-MM-DD`). */
export function isModernVersion(v: unknown): boolean {
  return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) && v >= MODERN_FROM;
}

function metaOf(m: DecodedMessage): Record<string, unknown> | undefined {
  const meta = getPath(m.msg, ['params', '_meta']);
  return isObj(meta) ? meta : undefined;
}

/**
 * The era a request speaks. Legacy-era requests never carry the `_meta` envelope and never call
 * server/discover; GET and DELETE exist only in the legacy era. Otherwise a 2026-07-28
 * MCP-Protocol-Version header without a session id says modern.
 */
export function requestEra(method: string, headers: readonly Header[], body: readonly DecodedMessage[]): Era {
  if (method === 'GET' || method === 'DELETE') return 'legacy';
  for (const m of body) {
    if (typeof metaOf(m)?.[META_PV] === 'string' || m.summary.method === 'server/discover') return 'modern';
  }
  const header = headerValue(headers, 'mcp-protocol-version');
  return headerValue(headers, 'mcp-session-id') === undefined && isModernVersion(header) ? 'modern' : 'legacy';
}

const clipName = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? (v.length > 120 ? v.slice(0, 119) + '…' : v) : undefined);

/** The client a modern request names in `_meta` (name and version), if any. */
export function clientOf(body: readonly DecodedMessage[]): { name: string; version?: string } | undefined {
  for (const m of body) {
    const c = metaOf(m)?.[META_CLIENT];
    const name = isObj(c) ? clipName(c.name) : undefined;
    if (name === undefined) continue;
    const version = clipName((c as Record<string, unknown>).version);
    return version !== undefined ? { name, version } : { name };
  }
  return undefined;
}

/** The protocol version a request's params `_meta` name. */
export function metaVersionOf(params: unknown): string | undefined {
  const v = getPath(params, ['_meta', META_PV]);
  return typeof v === 'string' ? v : undefined;
}

/** The protocol version a modern request's `_meta` names. */
export function metaVersion(body: readonly DecodedMessage[]): string | undefined {
  for (const m of body) {
    const v = metaOf(m)?.[META_PV];
    if (typeof v === 'string') return v;
  }
  return undefined;
}

// ---------------------------------------------------------------- servers

/** `s` joins its server's list (the server is made on its first session). */
export function joinServer(A: AnalyzerState, s: SessionState): void {
  let srv = A.servers.get(s.endpoint);
  if (!srv) A.servers.set(s.endpoint, (srv = { endpoint: s.endpoint, origin: s.origin, kinds: new Set(), evidence: [], sessionKeys: [] }));
  srv.sessionKeys.push(s.key);
  s.server = srv;
  A.serversRev++;
}

/** Notes evidence of `kind` (the first of each kind, in words); the server's sessions are derived again. */
export function evidence(A: AnalyzerState, s: SessionState | undefined, kind: EraEvidenceKind, text: () => string): void {
  const srv = s?.server;
  if (!srv || srv.kinds.has(kind)) return;
  srv.kinds.add(kind);
  srv.evidence.push(text());
  A.serversRev++;
  for (const k of srv.sessionKeys) {
    const x = A.sessions.get(k);
    if (x) x.dirty = true;
  }
}

const SERVED_MODERN: EraEvidenceKind[] = ['discover', 'modern-result'];
const SERVED_LEGACY: EraEvidenceKind[] = ['initialize', 'session', 'get-stream'];

export const servedModern = (srv: ServerState | undefined) => !!srv && SERVED_MODERN.some((k) => srv.kinds.has(k));
export const servedLegacy = (srv: ServerState | undefined) => !!srv && SERVED_LEGACY.some((k) => srv.kinds.has(k));
/** The server answered as a 2026-07-28 server only (served modern, refused 2025, or checked modern headers) and never served 2025 traffic. */
export const modernOnly = (srv: ServerState | undefined) => !!srv && !servedLegacy(srv) && (servedModern(srv) || srv.kinds.has('legacy-refused') || srv.kinds.has('modern-error'));
/** The server served 2025 traffic only, or refused a 2026-07-28 request the way a 2025 server does. */
export const legacyOnly = (srv: ServerState | undefined) => !!srv && !servedModern(srv) && (servedLegacy(srv) || srv.kinds.has('modern-refused'));

export function serverEra(srv: ServerState): 'legacy' | 'modern' | 'dual' | 'unknown' {
  if (servedModern(srv) && servedLegacy(srv)) return 'dual';
  if (modernOnly(srv)) return 'modern';
  if (legacyOnly(srv)) return 'legacy';
  return 'unknown';
}

// ---------------------------------------------------------------- requests and answers

/** Decodes a header value sent as `=?base64?…?=` (values outside header-safe ASCII). */
export function headerText(v: string): string | null {
  const m = /^=\?base64\?([A-Za-z0-9+/=]*)\?=$/.exec(v.trim());
  if (!m) return v;
  try {
    const bin = atob(m[1]!);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** The body field `Mcp-Name` mirrors for `method` (spec: streamable-http, standard headers). */
export function nameSource(method: string): 'name' | 'uri' | undefined {
  return method === 'tools/call' || method === 'prompts/get' ? 'name' : method === 'resources/read' ? 'uri' : undefined;
}

/** Where a modern request's headers disagree with its body or `_meta`, in words (visible in the capture). */
export function headerIssues(headers: readonly Header[], m: DecodedMessage): string[] {
  const out: string[] = [];
  const method = m.summary.method ?? '';
  const meta = metaOf(m);
  const pv = meta?.[META_PV];
  const hPv = headerValue(headers, 'mcp-protocol-version');
  if (typeof pv === 'string') {
    if (hPv === undefined) out.push(E.HDR.pvAbsent(pv));
    else if (hPv.trim() !== pv) out.push(E.HDR.pvDiffers(hPv, pv));
  }
  const hMethod = headerValue(headers, 'mcp-method');
  if (m.summary.kind === 'request' && hMethod === undefined) out.push(E.HDR.methodAbsent(method));
  else if (hMethod !== undefined && hMethod.trim() !== method) out.push(E.HDR.methodDiffers(hMethod, method));
  const src = nameSource(method);
  const value = src ? getPath(m.msg, ['params', src]) : undefined;
  if (src && typeof value === 'string') {
    const h = headerValue(headers, 'mcp-name');
    if (h === undefined) out.push(E.HDR.nameAbsent(src, value));
    else {
      const decoded = headerText(h);
      if (decoded === null) out.push(E.HDR.nameUndecodable(h));
      else if (decoded !== value) out.push(E.HDR.nameDiffers(decoded, src, value));
    }
  }
  return out;
}

/**
 * Method and params without `_meta` as one string (a re-issue has the same; progress tokens
 * differ), members in key order (a re-issue may list them in another: canonical-json.ts).
 */
export function paramsKey(method: string, params: unknown): string {
  try {
    return method + '\u0000' + paramsText(params);
  } catch {
    return '';
  }
}

/** The era facts of a new request carried by `st`'s body. */
export function requestFacts(st: StreamS, s: SessionState, m: DecodedMessage): ReqFacts {
  if (s.era !== 'modern') return { era: 'legacy' };
  const x: ReqFacts = { era: 'modern' };
  const issues = headerIssues(st.requestHeaders, m);
  if (issues.length > 0) x.headerIssues = issues;
  const sid = headerValue(st.requestHeaders, 'mcp-session-id');
  if (sid !== undefined) x.sessionHeader = sid;
  const key = paramsKey(m.summary.method ?? '', m.msg?.params);
  if (key !== '') x.key = key;
  return x;
}

/** x-mcp-header declarations of a tools/list result: per tool, [argument, header name]. */
function paramHeaders(result: unknown, into: Map<string, [string, string][]>): void {
  const tools = getPath(result, ['tools']);
  if (!Array.isArray(tools)) return;
  for (const t of tools.slice(0, 2000)) {
    const props = getPath(t, ['inputSchema', 'properties']);
    const name = getPath(t, ['name']);
    if (typeof name !== 'string' || !isObj(props)) continue;
    const decl: [string, string][] = [];
    for (const [arg, p] of Object.entries(props)) {
      const h = isObj(p) ? p['x-mcp-header'] : undefined;
      if (typeof h === 'string' && h !== '') decl.push([arg, h]);
    }
    if (decl.length > 0) into.set(name, decl);
  }
}

const versionsIn = (data: unknown): string[] => {
  const v = getPath(data, ['supported']);
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string').slice(0, 20) : [];
};

/** `req` was answered by `m` (its own id, or `id: null` on its own POST: `nullId`). */
export function onAnswer(A: AnalyzerState, s: SessionState, req: ReqState, m: DecodedMessage, nullId = false): void {
  const x = req.x;
  const result = getPath(m.msg, ['result']);
  if (m.summary.kind === 'result') {
    const rt = getPath(result, ['resultType']);
    if (typeof rt === 'string') x.resultType = rt;
    if (rt === 'input_required') {
      const rs = getPath(result, ['requestState']);
      if (typeof rs === 'string') x.requestState = rs;
      const ir = getPath(result, ['inputRequests']);
      x.inputRequests = isObj(ir) ? Object.keys(ir).slice(0, 50) : [];
    }
    if (req.method === 'initialize') evidence(A, s, 'initialize', () => E.EVIDENCE.initialize(getPath(result, ['protocolVersion'])));
    else if (x.era === 'modern' && req.method === 'server/discover') evidence(A, s, 'discover', () => E.EVIDENCE.discover(versionsIn({ supported: getPath(result, ['supportedVersions']) })));
    else if (x.era === 'modern') evidence(A, s, 'modern-result', () => E.EVIDENCE.modernResult(req.method, req.id));
    if (req.method === 'tools/list' && s.conv) paramHeaders(result, (s.conv.paramHeaders ??= new Map()));
    return;
  }
  if (m.summary.kind !== 'error') return;
  const err = getPath(m.msg, ['error']);
  const code = getPath(err, ['code']);
  const message = getPath(err, ['message']);
  x.error = {
    ...(typeof code === 'number' ? { code } : {}),
    ...(typeof message === 'string' ? { message: message.length > 500 ? message.slice(0, 499) + '…' : message } : {}),
    ...(getPath(err, ['data']) !== undefined ? { data: getPath(err, ['data']) } : {}),
    ...(nullId ? { nullId } : {}),
  };
  if (code === HEADER_MISMATCH || code === MISSING_CAPABILITY) evidence(A, s, 'modern-error', () => E.EVIDENCE.modernError(code, req.method, req.id));
  else if (code === UNSUPPORTED_VERSION && x.era === 'legacy') {
    const supported = versionsIn(getPath(err, ['data']));
    if (supported.every(isModernVersion)) evidence(A, s, 'legacy-refused', () => E.EVIDENCE.legacyRefused(req.method, supported));
  }
}

/**
 * A modern request's stream ended with HTTP 4xx (not 401/403: auth is no era evidence) and no
 * 2026-07-28 error: what a 2025 server answers (the SDK's legacy-fallback signal), unless the
 * server had already served the modern era (an established modern server is not demoted).
 */
export function modernEnded(A: AnalyzerState, st: StreamS): void {
  const s = st.session;
  const status = st.status;
  if (!s || s.era !== 'modern' || status === undefined || status < 400 || status >= 500 || status === 401 || status === 403) return;
  if (servedModern(s.server) || s.server?.kinds.has('modern-error')) return;
  for (const r of st.requests) {
    const code = r.x.error?.code;
    if (code !== undefined && MODERN_ERRORS.has(code)) continue;
    evidence(A, s, 'modern-refused', () => E.EVIDENCE.modernRefused(r.method, status, r.x.error));
    return;
  }
}

/** Response headers: a session id issued, a standalone GET stream served, GET / DELETE refused with 405. */
export function onHttpAnswer(A: AnalyzerState, st: StreamS, s: SessionState, sessionId: string | undefined): void {
  if (sessionId !== undefined && st.status !== undefined && st.status < 400) evidence(A, s, 'session', () => E.EVIDENCE.session());
  if (st.method === 'GET' && st.status === 200 && st.capture === 'sse') evidence(A, s, 'get-stream', () => E.EVIDENCE.getStream());
  if ((st.method === 'GET' || st.method === 'DELETE') && st.status === 405) evidence(A, s, 'get-405', () => E.EVIDENCE.get405(st.method));
}

// era-mismatch (issue 12): a client that speaks one era to a server of the other, named with what
// the client did next (the next request its document sent to the same endpoint, wherever it was
// grouped). 2025 traffic to a 2026-07-28-only server: an initialize refused with -32022, a GET or
// DELETE answered 405 by a server that serves only 2026-07-28, a modern request still carrying
// Mcp-Session-Id (the server ignores it). 2026-07-28 traffic to a 2025-only server: a 4xx without
// a 2026-07-28 error (the SDK's cue to fall back to initialize), while the server had not served
// the modern era. The server's evidence is read from its state (eras.ts), never guessed.
import { isModernVersion, legacyOnly, modernOnly, servedLegacy, UNSUPPORTED_VERSION } from '../eras';
import { getPath } from '../../jsonrpc';
import * as E from '../texts-eras';
import type { StreamS } from '../state';
import { add, type Derivation } from './context';
import { named } from './modern-verdicts';

/** What the client did after `st`: the next request stream of its document to the endpoint. */
function next(st: StreamS): string {
  const n = st.next;
  const s = n?.session;
  if (!n) return E.NEXT.nothing;
  const method = n.requests[0]?.method ?? n.method;
  if (s?.era === 'modern') return E.NEXT.modern(method);
  if (method === 'initialize') return E.NEXT.fellBack(s?.sessionId ?? null);
  const mine = st.requests[0]?.method ?? st.method;
  return method === mine ? E.NEXT.sameAgain(method) : E.NEXT.legacy(method);
}

export function eraMismatch(D: Derivation): void {
  const { s } = D;
  const srv = s.server;
  if (s.era === 'legacy') {
    for (const r of s.requests) {
      const err = r.x.error;
      if (err?.code !== UNSUPPORTED_VERSION) continue;
      const supported = getPath(err.data, ['supported']);
      const list = Array.isArray(supported) ? supported.filter((x): x is string => typeof x === 'string').slice(0, 10) : [];
      if (list.length > 0 && !list.every(isModernVersion)) continue;
      add(D, r.responseOrd ?? r.stream.endOrd ?? r.stream.ord, 'era-mismatch', {
        streamId: r.stream.id,
        requestId: r.id,
        eventIds: [],
        message: E.legacyToModern(named(r), E.LEGACY_WHY.refused(list), next(r.stream)),
      });
    }
    if (!modernOnly(srv)) return;
    for (const st of s.streams) {
      if ((st.method !== 'GET' && st.method !== 'DELETE') || st.status !== 405) continue;
      add(D, st.endOrd ?? st.ord, 'era-mismatch', { streamId: st.id, eventIds: [], message: E.legacyToModern(`the ${st.method}`, E.LEGACY_WHY.get405(st.method), next(st)) });
    }
    return;
  }
  for (const r of s.requests) {
    const st = r.stream;
    if (r.x.sessionHeader !== undefined && !servedLegacy(srv)) {
      add(D, st.ord, 'era-mismatch', { streamId: st.id, requestId: r.id, eventIds: [], message: E.legacyToModern(named(r), E.LEGACY_WHY.sessionHeader(r.x.sessionHeader), next(st)) });
    }
    const status = st.status;
    if (status === undefined || status < 400 || status >= 500 || status === 401 || status === 403 || r.response === 'result' || !legacyOnly(srv)) continue;
    const code = r.x.error?.code;
    if (code === -32020 || code === -32021 || code === -32022) continue;
    add(D, r.responseOrd ?? st.endOrd ?? st.ord, 'era-mismatch', { streamId: st.id, requestId: r.id, eventIds: [], message: E.modernToLegacy(named(r), status, r.x.error, next(st)) });
  }
}

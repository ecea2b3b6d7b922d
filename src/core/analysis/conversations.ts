// Grouping without sessions (issue 12): 2026-07-28 traffic has no Mcp-Session-Id, so its requests
// form conversations by endpoint, client (the `_meta` clientInfo every modern request carries)
// and the document that sent them (a capture source: a reload is a new client). A modern request
// that names no client joins the last conversation of its document at that endpoint. Each request
// stream also learns the next one its document sent to the same endpoint: what the client did
// after an answer (era-mismatch names it).
import type { DecodedMessage } from '../jsonrpc';
import { clientOf } from './eras';
import { newSession } from './sessions';
import { safeUrl } from '../url-parts';
import type { SessionState, StreamS } from './state';
import type { AnalyzerState } from './analyzer-state';

const docKey = (src: string, endpoint: string) => `${src}\u0000${endpoint}`;

/** The conversation a modern request of document `src` to `url` belongs to. */
export function getConversation(A: AnalyzerState, url: string, src: string, body: readonly DecodedMessage[]): SessionState {
  const { endpoint } = safeUrl(url);
  const client = clientOf(body);
  const k = docKey(src, endpoint);
  const last = A.lastConv.get(k);
  if (!client && last) return last;
  const who = client ? `${client.name}${client.version !== undefined ? `/${client.version}` : ''}` : '(client not named)';
  const key = `conversation:${endpoint} ${who} ${src}`;
  let s = A.sessions.get(key);
  if (!s) {
    s = newSession(A, key, null, url, 'modern');
    s.conv = client ? { src, client } : { src };
  }
  A.lastConv.set(k, s);
  return s;
}

/** `st` is the next request stream of its document to its endpoint after the last one. */
export function followOn(A: AnalyzerState, st: StreamS, src: string): void {
  if (!st.url) return;
  const k = docKey(src, safeUrl(st.url).endpoint);
  const prev = A.lastConn.get(k);
  A.lastConn.set(k, st);
  if (!prev) return;
  prev.next = st;
  st.prev = prev;
  if (prev.session) prev.session.dirty = true;
}

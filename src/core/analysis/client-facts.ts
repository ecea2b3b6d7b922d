// Push time, both eras (issue 19): what the page's client did with a request and what it got,
// kept on the request (ReqFacts.c) for the client findings decided at snapshot time
// (derive/client-*.ts): when it cancelled, the tools' annotations a tools/list answer declared, a
// response that came in an SSE event type the SDK clients do not read, and cumulative
// notifications delivered twice before the response (an id again, or the same data again under
// another id on a resumed stream).
import type { SseEvent } from '../model';
import { decodeJsonRpc, getPath } from '../jsonrpc';
import type { ClientFacts, ToolHints } from './modern-state';
import type { ReqState, SessionState, StreamS } from './state';

const facts = (r: ReqState): ClientFacts => (r.x.c ??= {});

/** The client sent notifications/cancelled for `r` on a POST that started at `t`. */
export function noteCancel(r: ReqState, t: number): void {
  const c = facts(r);
  if (c.cancelledAt === undefined || t < c.cancelledAt) c.cancelledAt = t;
}

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint'] as const;

/** A tools/list result: each tool's annotations (only booleans are kept; absent is "not declared"). */
export function noteTools(r: ReqState, msg: unknown): void {
  const tools = getPath(msg, ['result', 'tools']);
  if (!Array.isArray(tools)) return;
  const m = new Map<string, ToolHints>();
  for (const t of tools.slice(0, 2000)) {
    const name = getPath(t, ['name']);
    if (typeof name !== 'string') continue;
    const h: ToolHints = {};
    for (const k of HINTS) {
      const v = getPath(t, ['annotations', k]);
      if (typeof v === 'boolean') h[k] = v;
    }
    m.set(name, h);
  }
  facts(r).tools = m;
}

/**
 * An SSE event whose type is not `message` (and not the legacy transport's `endpoint`): the SDK
 * clients dispatch only unnamed / `message` events, so a response in it is delivered, not taken.
 */
export function onNamedEvent(s: SessionState, st: StreamS, ev: SseEvent, at: number): void {
  const d = ev.data;
  if (!d || d.length > 1 << 22 || !d.includes('"jsonrpc"')) return;
  for (const m of decodeJsonRpc(d).messages) {
    const sm = m.summary;
    if ((sm.kind !== 'result' && sm.kind !== 'error') || sm.id === undefined) continue;
    const r = st.root.requests.find((q) => q.id === sm.id && q.response === undefined) ?? s.requestById.get(sm.id);
    if (!r || r.response !== undefined) continue;
    const c = facts(r);
    c.untaken ??= { streamId: st.id, index: ev.index, ord: at, event: ev.event };
  }
}

/**
 * A cumulative notification for `r` (before its response) that is no duplicate id: on a resumed
 * stream, the same data a connection before it delivered for `r` is output delivered twice under
 * another id (a replay that mixes streams). Returns true when it is such a duplicate.
 */
export function sameDataAgain(r: ReqState, st: StreamS, ev: SseEvent): boolean {
  const c = facts(r);
  const seen = (c.seen ??= new Map());
  const first = seen.get(ev.data);
  if (first === undefined) {
    seen.set(ev.data, st.id);
    // A bounded window (a replay re-sends recent events): O(1) per event, no growth with a long call.
    if (seen.size > SEEN_WINDOW) seen.delete(seen.keys().next().value!);
    return false;
  }
  if (!st.isResume || first === st.id) return false;
  noteDup(r, st, ev);
  return true;
}

/** How many recent cumulative notifications of a request are compared with a resume's. */
const SEEN_WINDOW = 1024;

/** A cumulative notification of `r` delivered a second time before its response. */
export function noteDup(r: ReqState, st: StreamS, ev: SseEvent): void {
  const c = facts(r);
  (c.dups ??= []).push([st.id, ev.index, ev.id]);
}

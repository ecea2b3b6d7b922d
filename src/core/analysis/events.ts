// SSE events and the JSON-RPC messages they carry: each block a connection's parser completes
// becomes an event of its stream (built with its final shape: see the note in onBlock), its id
// goes to the id checks (event-ids.ts), and its messages to the requests they answer or report on
// (messages.ts). A plain JSON answer becomes one synthetic event.
import type { JsonRpcSummary, SseEvent } from '../model';
import type { SseBlock } from '../sse';
import { decodeJsonRpc, type DecodedMessage } from '../jsonrpc';
import { ShapedMessage } from '../progress-shape';
import { addCode, addFinding, NO_CODES } from './findings-log';
import { ensureSession } from './sessions';
import { onId } from './event-ids';
import { onMessage } from './messages';
import { onNamedEvent } from './client-facts';
import { truncatedEvent } from './texts';
import type { SessionState, StreamS } from './state';
import type { AnalyzerState } from './analyzer-state';

/** Shared by every event without messages (copy on write: never mutated). */
const NO_MESSAGES = Object.freeze([]) as unknown as JsonRpcSummary[];

function summaries(ms: DecodedMessage[]): JsonRpcSummary[] {
  if (ms.length === 1) return [ms[0]!.summary];
  return ms.map((m) => m.summary);
}

/** `src`, `at`: the block's raw text is the span of `src` starting at `at` (-1: it is not). */
export function onBlock(A: AnalyzerState, st: StreamS, b: SseBlock, t: number, src?: string, at = -1, dataAt = -1): void {
  const s = ensureSession(A, st);
  const ord = ++A.ord;
  // The event is built as an object for the stages below, then kept as columns (event-store.ts):
  // the object itself is garbage once the block is read. The common event (an id, data, no retry)
  // is built with all its properties at once (one allocation; the store knows its key order).
  const common = b.id !== undefined && b.id !== '' && !b.truncated && b.retry === undefined && b.data !== undefined;
  const ev: SseEvent = common
    ? { index: st.events.length, event: b.event ?? 'message', data: b.data!, t, raw: b.raw, messages: NO_MESSAGES, findings: NO_CODES, id: b.id, cursor: b.id }
    : { index: st.events.length, event: b.event ?? 'message', data: b.data ?? '', t, raw: b.raw, messages: NO_MESSAGES, findings: NO_CODES };
  if (!common) {
    if (b.id !== undefined && b.id !== '') ev.id = b.id;
    if (b.retry !== undefined) ev.retry = b.retry;
    if (b.data === undefined) ev.idOnly = true;
  }
  st.events.begin(ev, src, at, dataAt);
  if (st.parser) {
    st.lastBlock = b;
    st.lastEvIndex = ev.index;
  }
  s.dirty = true;
  eventStages(A, st, s, b, ev, ord);
  st.events.end(ev, common ? 'with-id' : 'plain');
}

function eventStages(A: AnalyzerState, st: StreamS, s: SessionState, b: SseBlock, ev: SseEvent, at: number): void {

  if (b.truncated) {
    ev.truncated = true;
    if (st.cursor !== undefined) ev.cursor = st.cursor;
    addCode(ev, 'truncated-event');
    if (b.data) ev.messages = summaries(decodeJsonRpc(b.data).messages);
    addFinding(A, s, at, 'truncated-event', {
      streamId: st.id,
      eventIds: ev.id !== undefined ? [ev.id] : [],
      eventIndex: ev.index,
      ...(st.root.requests[0] ? { requestId: st.root.requests[0].id } : {}),
      message: truncatedEvent(ev.id, ev.messages),
    });
    return;
  }

  if (b.id !== undefined) {
    st.cursor = b.id === '' ? undefined : b.id;
    st.root.chainCursor = st.cursor;
    st.root.cursorUnknown = false;
    if (b.id !== '') onId(A, st, s, ev, b.id, at, !b.data);
  }
  if (st.cursor !== undefined) ev.cursor = st.cursor;

  if (ev.event !== 'message') {
    if (ev.event === 'endpoint' && st.method === 'GET' && ev.data) {
      try {
        A.legacyAlias.set(new URL(ev.data.trim(), st.url).href, s);
        s.legacyStream = st;
      } catch {
        /* not a URL */
      }
    }
    if (A.resync.has(ev.event)) {
      if (st.root.requests.length > 0) st.root.resyncOrds.push(at);
      else s.resyncOrds.push(at);
    } else if (ev.event !== 'endpoint') onNamedEvent(s, st, ev, at);
    return;
  }
  if (!b.data) return; // priming event / id-only block: idempotent
  const shape = A.shapes.of(st);
  const sm = shape.read(b.data);
  if (sm !== undefined) {
    ev.messages = [sm];
    return onMessage(A, st, ev, new ShapedMessage(sm, b.data), at);
  }
  const d = shape.decode(b.data);
  if (d.error) ev.jsonError = d.error;
  ev.messages = summaries(d.messages);
  for (const m of d.messages) onMessage(A, st, ev, m, at);
}

/** CR + LF of a blank line split across reads: the LF completes the last event's raw text. */
export function extendLastRaw(st: StreamS, raw: string): void {
  st.events.setRaw(st.lastEvIndex!, raw);
}

/** A plain JSON answer (or a JSON body completed at finish): one synthetic event. */
export function onJsonBody(A: AnalyzerState, st: StreamS, t: number): void {
  const text = st.json.join('');
  st.json = [];
  if (!text.trim()) return;
  const d = decodeJsonRpc(text);
  const ev: SseEvent = {
    index: st.events.length,
    event: 'message',
    data: text,
    t,
    raw: text,
    messages: d.messages.map((m) => m.summary),
    findings: [],
    synthetic: 'json-body',
  };
  if (d.error) ev.jsonError = d.error;
  st.events.begin(ev);
  const at = ++A.ord;
  for (const m of d.messages) onMessage(A, st, ev, m, at);
  st.events.end(ev);
}

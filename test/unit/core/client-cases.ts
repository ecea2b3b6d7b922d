// Hand-built captures of issue 19's client findings that no fixture client produces (each says
// why), shared by client-findings.test.ts and the property tests (incremental, chunking).
import type { CaptureRecord } from '../../../src/core/record';
import { Capture, call, ev, initSession, message, result } from './helpers';

const tools = (annotations: Record<string, boolean> | undefined) => ({
  jsonrpc: '2.0',
  id: 1,
  result: { tools: [{ name: 'long_task', inputSchema: { type: 'object' }, ...(annotations ? { annotations } : {}) }] },
});
const listTools = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
const cancel = (id: number) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'timeout' } });

/**
 * A 2025-era application retry: tools/call 2 breaks and is not resumed (no id to resume from),
 * the client cancels it and sends the same call as request 3. The SDK clients resume instead, so
 * this is hand-built (an application's own retry, or a client without resumption).
 */
export function legacyRetry(annotations: Record<string, boolean> | undefined, list = true): CaptureRecord[] {
  const c = new Capture();
  initSession(c);
  if (list) {
    const l = c.request({ sessionId: 'sess-1', body: listTools });
    c.response(l);
    c.chunk(l, ev(undefined, tools(annotations)));
    c.end(l);
  }
  const p = c.request({ sessionId: 'sess-1', body: call(2) });
  c.response(p);
  c.chunk(p, ev(undefined, message('a')));
  c.end(p, 'network-error');
  const n = c.request({ sessionId: 'sess-1', body: cancel(2) });
  c.response(n, { status: 202 });
  c.end(n);
  const q = c.request({ sessionId: 'sess-1', body: call(3) });
  c.response(q);
  c.chunk(q, ev(undefined, message('a')) + ev(undefined, result(3)));
  c.end(q);
  return c.records;
}

/**
 * The server answers request 2 on the standalone GET (MCP Inspector #614 shape); the client times
 * out, cancels and re-issues. The SDK fixture servers never answer on the GET: hand-built.
 */
export function resultOnStandaloneGet(): CaptureRecord[] {
  const c = new Capture();
  initSession(c);
  const get = c.request({ sessionId: 'sess-1' });
  c.response(get);
  const p = c.request({ sessionId: 'sess-1', body: call(2) });
  c.response(p);
  c.chunk(p, ev('1', message('a')));
  c.chunk(get, ev('2', result(2)));
  c.end(p, 'page-aborted');
  const n = c.request({ sessionId: 'sess-1', body: cancel(2) });
  c.response(n, { status: 202 });
  c.end(n);
  const q = c.request({ sessionId: 'sess-1', body: call(3) });
  c.response(q);
  c.chunk(q, ev('3', message('a')) + ev('4', result(3)));
  c.end(q);
  c.end(get, 'page-aborted');
  return c.records;
}

/** The result comes after the client's cancellation (a too-short timeout). Hand-built: exact order. */
export function resultAfterCancel(): CaptureRecord[] {
  const c = new Capture();
  initSession(c);
  const p = c.request({ sessionId: 'sess-1', body: call(2) });
  c.response(p);
  c.chunk(p, ev('1', message('a')));
  const n = c.request({ sessionId: 'sess-1', body: cancel(2) });
  c.response(n, { status: 202 });
  c.end(n);
  c.chunk(p, ev('2', result(2)));
  c.end(p);
  return c.records;
}

/**
 * A replay that renumbers: it re-sends request 2's chunk-2 under a new id (5) before new events;
 * by ids the replay is whole, so before issue 19 the verdict was `complete`. No fixture store
 * renumbers events: hand-built.
 */
export function renamedDuplicate(): CaptureRecord[] {
  const c = new Capture();
  initSession(c);
  const b = c.request({ sessionId: 'sess-1', body: call(2) });
  c.response(b);
  c.chunk(b, ev('3', message('chunk-1')) + ev('4', message('chunk-2')));
  c.end(b, 'network-error');
  const g = c.request({ sessionId: 'sess-1', lastEventId: '4' });
  c.response(g);
  c.chunk(g, ev('5', message('chunk-2')) + ev('6', message('chunk-3')) + ev('7', result(2)));
  c.end(g);
  return c.records;
}

export const CLIENT_CASES: Record<string, () => CaptureRecord[]> = {
  'legacy retry, destructive': () => legacyRetry({ destructiveHint: true, idempotentHint: false }),
  'legacy retry, idempotent': () => legacyRetry({ idempotentHint: true }),
  'legacy retry, no tools/list': () => legacyRetry(undefined, false),
  'result on the standalone GET': resultOnStandaloneGet,
  'result after the cancellation': resultAfterCancel,
  'notification re-sent under a new id': renamedDuplicate,
};

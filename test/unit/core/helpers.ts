// Hand-built capture records for unit tests.
import type { CaptureRecord, Header } from '../../../src/core/record';

export const URL = 'http://127.0.0.1:3939/mcp';

export class Capture {
  records: CaptureRecord[] = [];
  private seq = 0;
  private connN = 0;
  t = 1_000;
  constructor(readonly src = 'tab1') {}

  private base() {
    this.t += 1;
    return { seq: ++this.seq, src: this.src, t: this.t };
  }

  request(opts: { method?: string; sessionId?: string; lastEventId?: string; body?: unknown; headers?: Header[]; url?: string; transport?: 'fetch' | 'xhr' | 'eventsource' | 'import'; reconnectOf?: string }): string {
    const conn = `c${++this.connN}`;
    const headers: Header[] = [...(opts.headers ?? [])];
    if (opts.sessionId !== undefined) headers.push(['mcp-session-id', opts.sessionId]);
    if (opts.lastEventId !== undefined) headers.push(['last-event-id', opts.lastEventId]);
    const method = opts.method ?? (opts.body !== undefined ? 'POST' : 'GET');
    if (method === 'POST') headers.push(['accept', 'application/json, text/event-stream']);
    else headers.push(['accept', 'text/event-stream']);
    this.records.push({
      ...this.base(),
      kind: 'request',
      conn,
      transport: opts.transport ?? 'fetch',
      method,
      url: opts.url ?? URL,
      headers,
      body: opts.body === undefined ? null : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body),
      ...(opts.reconnectOf ? { reconnectOf: opts.reconnectOf } : {}),
    });
    return conn;
  }

  response(conn: string, opts: { status?: number; sse?: boolean; json?: boolean; sessionId?: string; headers?: Header[] } = {}): void {
    const headers: Header[] = [...(opts.headers ?? [])];
    const sse = opts.sse ?? !opts.json;
    if (opts.status === undefined || opts.status < 300) headers.push(['content-type', sse ? 'text/event-stream' : 'application/json']);
    if (opts.sessionId !== undefined) headers.push(['mcp-session-id', opts.sessionId]);
    this.records.push({
      ...this.base(),
      kind: 'response',
      conn,
      status: opts.status ?? 200,
      statusText: '',
      headers,
      url: URL,
      redirected: false,
      type: 'basic',
      capture: opts.status !== undefined && opts.status >= 300 ? 'none' : sse ? 'sse' : 'json',
    });
  }

  chunk(conn: string, text: string): void {
    this.records.push({ ...this.base(), kind: 'chunk', conn, text, bytes: new TextEncoder().encode(text).length });
  }

  end(conn: string, how: 'complete' | 'network-error' | 'page-aborted' | 'unknown' = 'complete'): void {
    this.records.push({ ...this.base(), kind: 'end', conn, how });
  }

  gap(conns: string[], lost = 3): void {
    this.records.push({ ...this.base(), kind: 'capture-gap', lost, conns, reason: 'buffer-cap' });
  }
}

export function ev(id: string | undefined, data: unknown, event?: string): string {
  return (id !== undefined ? `id: ${id}\n` : '') + (event ? `event: ${event}\n` : '') + `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}

export const progress = (token: number | string, p: number, total?: number) => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: token, progress: p, ...(total !== undefined ? { total } : {}) },
});
export const message = (text: string) => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: text } });
export const result = (id: number | string, r: unknown = { content: [] }) => ({ jsonrpc: '2.0', id, result: r });
export const call = (id: number | string, name = 'long_task', token: number | string = id) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: {}, _meta: { progressToken: token } },
});
export const initialize = (id: number | string = 0, protocolVersion = '2025-11-25') => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 't', version: '1' } },
});
export const initResult = (id: number | string = 0, protocolVersion = '2025-11-25', capabilities: Record<string, unknown> = {}) =>
  result(id, { protocolVersion, capabilities, serverInfo: { name: 's', version: '1' } });

/** initialize exchange assigning session `sid`; returns the capture for chaining. */
export function initSession(c: Capture, sid = 'sess-1', opts: { gapless?: boolean; pv?: string } = {}): void {
  const pv = opts.pv ?? '2025-11-25';
  const conn = c.request({ body: initialize(0, pv) });
  c.response(conn, { sessionId: sid });
  c.chunk(conn, ev('0', initResult(0, pv, opts.gapless ? { experimental: { 'io.mcp-stream-inspector/gapless': true } } : {})));
  c.end(conn);
}

/**
 * The canonical lossy scenario: tools/call 2 with progress + message per step, events 1..n on the
 * POST stream, cut after `cutAt`, resumed with GET Last-Event-ID, replay starts at `replayFrom`.
 */
export function cutAndResume(c: Capture, o: { sid?: string; n?: number; cutAt?: number; replayFrom?: number; idOf?: (i: number) => string; withResult?: boolean } = {}) {
  const sid = o.sid ?? 'sess-1';
  const n = o.n ?? 20;
  const cutAt = o.cutAt ?? 11;
  const replayFrom = o.replayFrom ?? cutAt + 1;
  const idOf = o.idOf ?? ((i: number) => String(i));
  const post = c.request({ sessionId: sid, body: call(2), headers: [['mcp-protocol-version', '2025-11-25']] });
  c.response(post);
  const evFor = (i: number) => (i === n ? ev(idOf(i), result(2, { content: [{ type: 'text', text: 'done' }] })) : i % 2 ? ev(idOf(i), progress(2, i)) : ev(idOf(i), message(`part ${i}`)));
  let text = '';
  for (let i = 1; i <= cutAt; i++) text += evFor(i);
  c.chunk(post, text);
  c.end(post, 'network-error');
  const get = c.request({ sessionId: sid, lastEventId: idOf(cutAt) });
  c.response(get);
  text = '';
  for (let i = replayFrom; i <= n; i++) if (i < n || o.withResult !== false) text += evFor(i);
  c.chunk(get, text);
  c.end(get);
  return { post, get };
}

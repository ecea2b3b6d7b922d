// Captures made to measure for tests that need a size or a shape no fixture has (100k events, a
// DELETE that ends the session): records in the capture contract, analysed by the real analyzer.

import type { CaptureRecord, Header } from '../../../core/record';

export const GEN_URL = 'http://127.0.0.1:3939/mcp';

export class RecordWriter {
  records: CaptureRecord[] = [];
  private seq = 0;
  private n = 0;
  t = 1_700_000_000_000;
  constructor(readonly src = 'gen') {}
  private base(dt = 1) {
    this.t += dt;
    return { seq: ++this.seq, src: this.src, t: this.t };
  }
  request(method: string, headers: Header[], body: unknown = null, url = GEN_URL): string {
    const conn = `c${++this.n}`;
    this.records.push({ ...this.base(), kind: 'request', conn, transport: 'fetch', method, url, headers, body: body === null ? null : JSON.stringify(body) });
    return conn;
  }
  response(conn: string, status = 200, headers: Header[] = [['content-type', 'text/event-stream']], capture: 'sse' | 'json' | 'none' = 'sse'): void {
    this.records.push({ ...this.base(), kind: 'response', conn, status, statusText: '', headers, url: GEN_URL, redirected: false, type: 'basic', capture });
  }
  chunk(conn: string, text: string, dt = 1): void {
    this.records.push({ ...this.base(dt), kind: 'chunk', conn, text, bytes: new TextEncoder().encode(text).length });
  }
  end(conn: string, how: 'complete' | 'network-error' | 'page-aborted' = 'complete'): void {
    this.records.push({ ...this.base(), kind: 'end', conn, how });
  }
}

const sse = (id: number, data: unknown) => `id: ${id}\ndata: ${JSON.stringify(data)}\n\n`;
const note = (i: number) => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `chunk ${i}` } });

/** initialize with session `sid`; returns the writer's session headers. */
export function initSession(w: RecordWriter, sid: string): Header[] {
  const c = w.request('POST', [['accept', 'application/json, text/event-stream'], ['content-type', 'application/json']], { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
  w.response(c, 200, [['content-type', 'text/event-stream'], ['mcp-session-id', sid]]);
  w.chunk(c, sse(0, { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } } }));
  w.end(c);
  return [['mcp-session-id', sid], ['mcp-protocol-version', '2025-11-25']];
}

/**
 * A session whose GET stream carries `n` notifications in chunks of 50 events (50 ms apart), ids
 * 1..n with `gap` ids missing after `gapAt` (a live-gap the analyzer reports).
 */
export function bigSession(n: number, opts: { gapAt?: number; gap?: number; sid?: string } = {}): CaptureRecord[] {
  const w = new RecordWriter();
  const h = initSession(w, opts.sid ?? 'big-session');
  const get = w.request('GET', [['accept', 'text/event-stream'], ...h]);
  w.response(get);
  let text = '';
  let id = 1;
  for (let i = 0; i < n; i++, id++) {
    if (opts.gapAt !== undefined && i === opts.gapAt) id += opts.gap ?? 2;
    text += sse(id, note(i));
    if ((i + 1) % 50 === 0 || i === n - 1) {
      w.chunk(get, text, 50);
      text = '';
    }
  }
  w.end(get);
  return w.records;
}

/** A session the client ends with DELETE (200, empty answer) while its GET stream was left open. */
export function deletedSession(): CaptureRecord[] {
  const w = new RecordWriter();
  const h = initSession(w, 'ended-session');
  const get = w.request('GET', [['accept', 'text/event-stream'], ...h]);
  w.response(get);
  w.chunk(get, sse(1, note(1)));
  const del = w.request('DELETE', h);
  w.response(del, 200, [['content-type', 'application/json'], ['content-length', '0']], 'json');
  return w.records;
}

/**
 * An agent's session of `calls` tools/call requests, each answered on its own SSE stream with
 * `perCall` notifications then the result; ids count across the session, `gap` ids missing in the
 * middle call when `gap` is set. A HAR of it has one entry per call (what "Save all as HAR" gives).
 */
export function manyCalls(calls: number, perCall: number, opts: { gap?: number; sid?: string } = {}): CaptureRecord[] {
  const w = new RecordWriter();
  const h = initSession(w, opts.sid ?? 'calls-session');
  let id = 1;
  for (let c = 0; c < calls; c++) {
    const rpc = c + 1;
    const post = w.request('POST', [['accept', 'application/json, text/event-stream'], ['content-type', 'application/json'], ...h], { jsonrpc: '2.0', id: rpc, method: 'tools/call', params: { name: 'long_task', arguments: { c } } });
    w.response(post);
    let text = '';
    for (let i = 0; i < perCall; i++) {
      if (opts.gap && c === Math.floor(calls / 2) && i === Math.floor(perCall / 2)) id += opts.gap;
      text += sse(id++, note(c * perCall + i));
      if ((i + 1) % 50 === 0) {
        w.chunk(post, text, 5);
        text = '';
      }
    }
    w.chunk(post, text + sse(id++, { jsonrpc: '2.0', id: rpc, result: { content: [{ type: 'text', text: `call ${c} done` }] } }), 5);
    w.end(post);
  }
  return w.records;
}

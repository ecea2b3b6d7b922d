// Workloads shared by the page, core and panel benchmarks: MCP-looking SSE bodies (progress
// notifications ending with the tools/call result) and CaptureFiles built from them.

import type { CaptureFile, CaptureRecord } from '../../src/core/record';

export const SESSION_ID = 'bench-session-0001';
export const RPC_ID = 1;

/**
 * One SSE event of about `bytes` bytes (ASCII), id `i`. The last one (i === n) is the result.
 * `counting`: the progress message counts too (`step 41 of 100`), as many servers' do, so that
 * consecutive events differ in more than their progress value.
 */
export function sseEvent(i: number, n: number, bytes: number, counting = false): string {
  const head = `id: ${i}\nevent: message\ndata: `;
  const msg =
    i === n
      ? `{"jsonrpc":"2.0","id":${RPC_ID},"result":{"content":[{"type":"text","text":"done"}]},"pad":"`
      : `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"bench","progress":${i},"total":${n},"message":"${counting ? `step ${i} of ${n} ` : ''}`;
  const tailFull = i === n ? '"}\n\n' : '"}}\n\n';
  const pad = Math.max(0, bytes - head.length - msg.length - tailFull.length);
  return head + msg + 'x'.repeat(pad) + tailFull;
}

/** The whole body of a stream of `n` events, as one Buffer. */
export function sseBody(n: number, bytesPerEvent: number): Buffer {
  const parts: string[] = [];
  for (let i = 1; i <= n; i++) parts.push(sseEvent(i, n, bytesPerEvent));
  return Buffer.from(parts.join(''), 'utf8');
}

/** Split `text` into chunks of `size` characters (boundaries fall anywhere, as on the wire). */
export function chunkText(text: string, size: number): string[] {
  const out: string[] = [];
  for (let o = 0; o < text.length; o += size) out.push(text.slice(o, o + size));
  return out;
}

export interface Capture {
  records: CaptureRecord[];
  /** The chunk texts, in order (what the parser baseline is fed). */
  chunks: string[];
  events: number;
  bytes: number;
}

/**
 * A capture as the extension would record it: one page, one tools/call POST answered by an SSE
 * stream of `n` events read in `chunkSize`-character reads, then the end of the stream (`counting`:
 * see sseEvent).
 */
export function buildCapture(n: number, bytesPerEvent: number, chunkSize = 64 * 1024, origin = 'http://127.0.0.1:9', counting = false): Capture {
  const parts: string[] = [];
  for (let i = 1; i <= n; i++) parts.push(sseEvent(i, n, bytesPerEvent, counting));
  const text = parts.join('');
  const chunks = chunkText(text, chunkSize);
  const src = 'bench-src';
  let seq = 0;
  let t = 1_700_000_000_000;
  const url = `${origin}/mcp`;
  const records: CaptureRecord[] = [];
  records.push({ kind: 'navigation', seq: ++seq, src, t, url: `${origin}/`, top: true });
  records.push({
    kind: 'request', seq: ++seq, src, t: (t += 1), conn: 'c1', transport: 'fetch', method: 'POST', url,
    headers: [['content-type', 'application/json'], ['accept', 'application/json, text/event-stream'], ['mcp-session-id', SESSION_ID], ['mcp-protocol-version', '2025-06-18']],
    body: `{"jsonrpc":"2.0","id":${RPC_ID},"method":"tools/call","params":{"name":"long","arguments":{},"_meta":{"progressToken":"bench"}}}`,
  });
  records.push({
    kind: 'response', seq: ++seq, src, t: (t += 1), conn: 'c1', status: 200, statusText: 'OK',
    headers: [['content-type', 'text/event-stream'], ['mcp-session-id', SESSION_ID]], url, redirected: false, type: 'basic', capture: 'sse',
  });
  for (const c of chunks) records.push({ kind: 'chunk', seq: ++seq, src, t: (t += 0.5), conn: 'c1', text: c, bytes: c.length });
  records.push({ kind: 'end', seq: ++seq, src, t: (t += 1), conn: 'c1', how: 'complete' });
  return { records, chunks, events: n, bytes: text.length };
}

export function captureFile(c: Capture): CaptureFile {
  return { format: 'mcp-stream-inspector', version: 1, createdAt: new Date(0).toISOString(), source: 'bench', records: c.records };
}

/**
 * `total` events in tool calls of `perCall` events each (the last event of a call is its result),
 * one POST and one SSE stream per call, ids counting across the session.
 */
export function buildCallsCapture(total: number, perCall: number, eventBytes: number, origin: string): CaptureRecord[] {
  const src = 'bench-calls';
  const url = `${origin}/mcp`;
  const records: CaptureRecord[] = [];
  let seq = 0;
  let t = 1_700_000_000_000;
  let id = 0;
  const headers: [string, string][] = [['content-type', 'application/json'], ['accept', 'application/json, text/event-stream'], ['mcp-session-id', 'bench-calls-0001'], ['mcp-protocol-version', '2025-06-18']];
  for (let c = 0; id < total; c++) {
    const conn = `c${c + 1}`;
    const rpc = c + 1;
    records.push({ kind: 'request', seq: ++seq, src, t: (t += 1), conn, transport: 'fetch', method: 'POST', url, headers, body: `{"jsonrpc":"2.0","id":${rpc},"method":"tools/call","params":{"name":"long","arguments":{},"_meta":{"progressToken":${rpc}}}}` });
    records.push({ kind: 'response', seq: ++seq, src, t: (t += 1), conn, status: 200, statusText: 'OK', headers: [['content-type', 'text/event-stream']], url, redirected: false, type: 'basic', capture: 'sse' });
    const n = Math.min(perCall, total - id);
    let text = '';
    for (let k = 1; k <= n; k++) {
      id++;
      const msg = k === n ? `{"jsonrpc":"2.0","id":${rpc},"result":{"content":[{"type":"text","text":"done"}]},"pad":"` : `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":${rpc},"progress":${k},"total":${n},"message":"`;
      const head = `id: ${id}\nevent: message\ndata: ${msg}`;
      const tail = k === n ? '"}\n\n' : '"}}\n\n';
      text += head + 'x'.repeat(Math.max(0, eventBytes - head.length - tail.length)) + tail;
      if (text.length >= 64 * 1024 || k === n) {
        records.push({ kind: 'chunk', seq: ++seq, src, t: (t += 0.5), conn, text, bytes: text.length });
        text = '';
      }
    }
    records.push({ kind: 'end', seq: ++seq, src, t: (t += 1), conn, how: 'complete' });
  }
  return records;
}

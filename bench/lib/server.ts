// The loopback server for the page benchmarks (test/support/server.ts, 127.0.0.1, ephemeral port)
// with the bench routes: a pre-built SSE body written as fast as the socket drains, a paced SSE
// stream, small JSON GETs and JSON-RPC POSTs, and captures for the standalone viewer.

import { startTestServer, type TestServer } from '../../test/support/server';
import { sseBody, sseEvent, SESSION_ID } from './workload';

export const PAGE_HTML = `<!doctype html><meta charset="utf-8"><title>bench</title><body>bench page
<script>
// The page's own consumer: read the body, decode it, count event boundaries. Deliberately light, so
// that the inspector's share of the work is not hidden behind a heavy page.
window.consume = async (url) => {
  const t0 = performance.now();
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'long', arguments: {} } }) });
  const reader = res.body.getReader();
  const dec = new TextDecoder();
  let carry = '', events = 0, bytes = 0, reads = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    reads++;
    bytes += value.byteLength;
    const s = carry + dec.decode(value, { stream: true });
    let i = 0, j;
    while ((j = s.indexOf('\\n\\n', i)) !== -1) { events++; i = j + 2; }
    carry = s.slice(i);
  }
  return { ms: performance.now() - t0, bytes, events, reads };
};
// Resolves once the tasks queued when it is called have run: a timer past the hook's 16 ms flush,
// then a posted-message round trip, which queues behind the hook's last batch to the relay (both
// are MessagePort messages of this window: one FIFO task queue). A trace ended before them would
// miss the relay's work on the page's thread: a fast read starves the hook's timer and the relay's
// port until it ends (docs/benchmarks.md, "What a fast read starves").
window.drain = async () => {
  await new Promise((r) => setTimeout(r, 50));
  for (let i = 0; i < 2; i++) await new Promise((r) => { const c = new MessageChannel(); c.port1.onmessage = () => { c.port1.close(); r(); }; c.port2.postMessage(0); });
};
window.fetchMany = async (n) => {
  const t0 = performance.now();
  let sum = 0;
  for (let i = 0; i < n; i++) { const v = await (await fetch('/json?i=' + i)).json(); sum += v.i; }
  return { ms: performance.now() - t0, sum };
};
window.rpcMany = async (n) => {
  const t0 = performance.now();
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const r = await fetch('/rpc', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': '${SESSION_ID}' },
      body: JSON.stringify({ jsonrpc: '2.0', id: i + 10, method: 'tools/list', params: {} }) });
    const v = await r.json(); sum += v.id;
  }
  return { ms: performance.now() - t0, sum };
};
</script>`;

export interface BenchServer extends TestServer {
  bodyFor(n: number, b: number): Buffer;
  /** Let a stream asked for with `&gate=<token>` send its body (its headers went at once). */
  release(gate: string): void;
}

export async function startBenchServer(): Promise<BenchServer> {
  const server = await startTestServer();
  // Bodies waiting for their gate, and gates released before their request came.
  const held = new Map<string, () => void>();
  const open = new Set<string>();
  const release = (gate: string) => {
    const go = held.get(gate);
    if (go) {
      held.delete(gate);
      go();
    } else open.add(gate);
  };
  const bodies = new Map<string, Buffer>();
  const bodyFor = (n: number, b: number) => {
    const k = `${n}/${b}`;
    let body = bodies.get(k);
    if (!body) bodies.set(k, (body = sseBody(n, b)));
    return body;
  };
  server.page('/bench.html', PAGE_HTML);
  // The same bytes as /sse, as text/plain: a body the hook does not capture (row 3c: the page's
  // thread with and without capture, in one browser).
  const stream = (type: string) => (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
    const q = new URL(req.url!, 'http://x').searchParams;
    const body = bodyFor(Number(q.get('n')), Number(q.get('b')));
    res.writeHead(200, { 'content-type': type, 'cache-control': 'no-cache', 'mcp-session-id': SESSION_ID });
    const gate = q.get('gate');
    const SLICE = 64 * 1024;
    let o = 0;
    const pump = () => {
      while (o < body.length) {
        const end = Math.min(body.length, o + SLICE);
        const ok = res.write(body.subarray(o, end));
        o = end;
        if (!ok) {
          res.once('drain', pump);
          return;
        }
      }
      res.end();
    };
    if (!gate || open.delete(gate)) return pump();
    // The headers now, the body once released (page.ts: when DevTools' front end has the response).
    res.flushHeaders();
    held.set(gate, pump);
    res.on('close', () => held.delete(gate));
  };
  server.route('/sse', stream('text/event-stream'));
  server.route('/plain', stream('text/plain'));
  // One event every `ms` milliseconds (latency).
  server.route('/paced', (req, res) => {
    const q = new URL(req.url!, 'http://x').searchParams;
    const n = Number(q.get('n'));
    const ms = Number(q.get('ms'));
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'mcp-session-id': SESSION_ID });
    let i = 0;
    const timer = setInterval(() => {
      i++;
      res.write(sseEvent(i, n, 200));
      if (i >= n) {
        clearInterval(timer);
        res.end();
      }
    }, ms);
    res.on('close', () => clearInterval(timer));
  });
  server.route('/json', (req, res) => {
    const i = Number(new URL(req.url!, 'http://x').searchParams.get('i'));
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify({ ok: true, i, note: 'small JSON answer' }));
  });
  server.route('/rpc', (_req, res, body) => {
    const id = (JSON.parse(body) as { id: number }).id;
    res
      .writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': SESSION_ID })
      .end(JSON.stringify({ jsonrpc: '2.0', id, result: { tools: [{ name: 'long', inputSchema: { type: 'object' } }] } }));
  });
  return Object.assign(server, { bodyFor, release });
}

// A page running the official MCP SDK client (bundled for the browser) against the fixture
// server, which keeps its own account of what the client read: every fetch the transport makes
// goes through a wrapper that copies, per connection, the bytes the client's reader took from the
// (hooked) body. That account is the ground truth the panel's records are compared to: per
// connection the same text, so the same events in the same order.

import type { CaptureRecord } from '../../src/core/record';
import { buildSdkClientBundle } from './sdk-bundle';
import type { TestServer } from './server';
import { waitFor } from './wait';

/** One connection as the page's client read it (or as the panel holds it). */
export interface ReadConn {
  method: string;
  url: string;
  lastEventId: string | null;
  text: string;
}

/**
 * Serve /sdk.js and `path` on `pages`: a page whose `window.start(mcpUrl, { chunks, delayMs })`
 * runs one session (connect, one long_task tools/call, close) and sets `window.run` (a promise of
 * `{ text } | { error }`), `window.progress` (progress values seen) and `window.reads` (ReadConn[]).
 */
export async function serveAgentPage(pages: TestServer, path = '/agent.html'): Promise<void> {
  const sdk = await buildSdkClientBundle();
  pages.route('/sdk.js', (_q, res) => res.writeHead(200, { 'content-type': 'text/javascript' }).end(sdk));
  pages.page(
    path,
    `<!doctype html><html><head><script type="module">
      import { Client, StreamableHTTPClientTransport } from '/sdk.js';
      window.progress = []; window.reads = [];
      // What the client read, per connection. The body is piped through a TransformStream whose
      // transform() sees exactly the chunks taken from the hooked body, in order.
      const readingFetch = async (input, init) => {
        const res = await fetch(input, init);
        const ct = res.headers.get('content-type') || '';
        const entry = { method: (init && init.method) || 'GET', url: String(input), ct,
          lastEventId: new Headers(init && init.headers).get('last-event-id'), text: '' };
        window.reads.push(entry);
        if (!res.body) return res;
        const dec = new TextDecoder();
        const body = res.body.pipeThrough(new TransformStream({
          transform(c, ctl) { entry.text += dec.decode(c, { stream: true }); ctl.enqueue(c); },
          flush() { entry.text += dec.decode(); },
        }));
        return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
      };
      window.start = (url, opts = {}) => { window.progress = []; window.run = (async () => {
        const client = new Client({ name: 'layout-agent', version: '1.0.0' });
        const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: readingFetch,
          reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 500, reconnectionDelayGrowFactor: 1.5, maxRetries: 5 } });
        await client.connect(transport);
        const result = await client.callTool({ name: 'long_task', arguments: { chunks: opts.chunks ?? 8, delayMs: opts.delayMs ?? 100, tag: 'layout' } }, undefined, {
          onprogress: (p) => window.progress.push(p.progress), resetTimeoutOnProgress: true, timeout: 30000 });
        await client.close();
        return { text: result.content[0].text };
      })().catch((e) => ({ error: String(e && e.stack || e) })); return true; };
    </script></head><body>agent</body></html>`,
  );
}

type Eval = <T = any>(expression: string) => Promise<T>;

/** Start a session in the agent page (waits for the module to be ready). */
export async function startSession(evalPage: Eval, mcpUrl: string, opts: { chunks?: number; delayMs?: number } = {}): Promise<void> {
  await waitFor(() => evalPage('typeof window.start === "function"'), { message: 'agent page ready' });
  await evalPage(`window.start(${JSON.stringify(mcpUrl)}, ${JSON.stringify(opts)})`);
}

/** Wait for the session's end; returns what the client read (connections with an SSE or JSON body). */
export async function sessionReads(evalPage: Eval): Promise<{ result: { text?: string; error?: string }; reads: ReadConn[] }> {
  const result = await evalPage<{ text?: string; error?: string }>('window.run');
  const all = await evalPage<(ReadConn & { ct: string })[]>('window.reads');
  const reads = all
    .filter((r) => /text\/event-stream|json/i.test(r.ct))
    .map(({ method, url, lastEventId, text }) => ({ method, url, lastEventId, text }));
  return { result, reads: sortConns(reads) };
}

function sortConns(cs: ReadConn[]): ReadConn[] {
  const key = (c: ReadConn) => `${c.method} ${c.url} ${c.lastEventId ?? ''} ${c.text}`;
  return cs.slice().sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** The panel's connections to `urlPrefix` with an SSE or JSON body, each with its chunks' text. */
export function panelConns(records: CaptureRecord[], urlPrefix: string): ReadConn[] {
  const conns = new Map<string, ReadConn & { capture?: string }>();
  for (const r of records) {
    if (!('conn' in r)) continue;
    const k = `${r.src}/${r.conn}`;
    if (r.kind === 'request' && r.url.startsWith(urlPrefix)) {
      conns.set(k, { method: r.method, url: r.url, lastEventId: r.headers.find(([n]) => n.toLowerCase() === 'last-event-id')?.[1] ?? null, text: '' });
    } else if (r.kind === 'response') {
      const c = conns.get(k);
      if (c) c.capture = r.capture;
    } else if (r.kind === 'chunk') {
      const c = conns.get(k);
      if (c) c.text += r.text;
    }
  }
  return sortConns(
    [...conns.values()].filter((c) => c.capture === 'sse' || c.capture === 'json').map(({ method, url, lastEventId, text }) => ({ method, url, lastEventId, text })),
  );
}

/**
 * Serve `path`: a page whose MCP client (the same SDK bundle) runs in a module Web Worker, where no
 * content script runs: `window.startWorker(mcpUrl)` starts one session there and sets `window.run`
 * (a promise of `{ text } | { error }`) and `window.workerProgress`.
 */
export function serveWorkerAgentPage(pages: TestServer, path = '/worker-agent.html'): void {
  pages.route('/agent-worker.js', (_q, res) =>
    res.writeHead(200, { 'content-type': 'text/javascript' }).end(`
      import { Client, StreamableHTTPClientTransport } from '/sdk.js';
      onmessage = async (e) => {
        try {
          const { url, chunks, delayMs } = e.data;
          const client = new Client({ name: 'worker-agent', version: '1.0.0' });
          const transport = new StreamableHTTPClientTransport(new URL(url), {
            reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 500, reconnectionDelayGrowFactor: 1.5, maxRetries: 5 } });
          await client.connect(transport);
          const result = await client.callTool({ name: 'long_task', arguments: { chunks, delayMs, tag: 'worker' } }, undefined, {
            onprogress: (p) => postMessage({ progress: p.progress }), resetTimeoutOnProgress: true, timeout: 30000 });
          await client.close();
          postMessage({ done: { text: result.content[0].text } });
        } catch (err) { postMessage({ done: { error: String(err && err.stack || err) } }); }
      };`),
  );
  pages.page(
    path,
    `<!doctype html><html><head><script>
      window.workerProgress = [];
      window.startWorker = (url, opts = {}) => { window.run = new Promise((resolve) => {
        const w = new Worker('/agent-worker.js', { type: 'module' });
        w.onmessage = (e) => { if (e.data.progress !== undefined) window.workerProgress.push(e.data.progress); if (e.data.done) resolve(e.data.done); };
        w.onerror = (e) => resolve({ error: 'worker error: ' + (e.message || 'load failed') });
        w.postMessage({ url, chunks: opts.chunks ?? 4, delayMs: opts.delayMs ?? 100 });
      }); return true; };
    </script></head><body>worker agent</body></html>`,
  );
}

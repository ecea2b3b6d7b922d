// A page whose Service Worker passes its MCP requests through (`respondWith(fetch(e.request))`,
// as catch-all caching workers do): DevTools lists each request twice, the page's (answered by the
// worker, `_fetchedViaServiceWorker`) and the worker's own fetch (no pageref). The hook captured
// the page's; the witness must not call the worker's one a request the capture missed (it did:
// a capture-gap error per MCP request, which also kept the server's gaps from being reported).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openInspected, waitForRecords, type Harness } from '../support/extension';
import { startTestServer, type TestServer } from '../support/server';
import { waitFor } from '../support/wait';

let server: TestServer;
let h: Harness;

beforeAll(async () => {
  server = await startTestServer();
  server.route('/mcp', (_q, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 's1' });
    res.write('id: 1\ndata: {"jsonrpc":"2.0","id":"a","result":{}}\n\n');
    setTimeout(() => res.end(), 200);
  });
  server.route('/sw.js', (_q, res) =>
    void res.writeHead(200, { 'content-type': 'text/javascript' }).end(
      `self.addEventListener('install', () => self.skipWaiting());
       self.addEventListener('activate', (e) => e.waitUntil(clients.claim()));
       self.addEventListener('fetch', (e) => { if (new URL(e.request.url).pathname === '/mcp') e.respondWith(fetch(e.request)); });`,
    ),
  );
  server.page('/sw-page.html', '<!doctype html><html><body>service worker page</body></html>');
  h = await openInspected(server.url('/sw-page.html'));
}, 60_000);

afterAll(async () => {
  await h?.close();
  await server?.close();
});

describe('witness and a pass-through Service Worker', () => {
  it("the page's captured request is not reported again as the worker's", async () => {
    await h.evalPage(`(async () => { await navigator.serviceWorker.register('/sw.js'); await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true })); return true; })()`);
    const text = await h.evalPage<string>(`fetch('/mcp?tag=sw', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': 's1' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'a', method: 'tools/list' }) }).then((r) => r.text())`);
    expect(text).toContain('"result"');
    await waitForRecords(h.panel, (rs) => rs.some((r) => r.kind === 'end' && r.src !== 'network'), 'the page request captured');
    // DevTools holds both entries: the page's answered by the worker, and the worker's own
    const entries = await waitFor(
      async () => {
        const l = await h.panel.eval<{ pageref?: string; sw?: boolean }[]>(
          `new Promise((res) => chrome.devtools.network.getHAR((l) => res(l.entries.filter((e) => e.request.url.includes('/mcp?tag=sw')).map((e) => ({ pageref: e.pageref, sw: e.response._fetchedViaServiceWorker })))))`,
        );
        return l.length === 2 ? l : null;
      },
      { message: 'two network entries' },
    );
    expect(entries.map((e) => [!!e.pageref, !!e.sw]).sort()).toEqual([[false, false], [true, true]]);
    const w = await waitFor(
      async () => {
        const x = await h.panel.eval<{ seen: number; captured: number; checking: number; missing: { url: string; reason: string }[] }>('globalThis.__MSI_PANEL__.witness()');
        return x.seen === 2 && x.checking === 0 ? x : null;
      },
      { timeoutMs: 15_000, message: 'both entries judged' },
    );
    expect(w).toMatchObject({ seen: 2, captured: 2, missing: [] });
  });
});

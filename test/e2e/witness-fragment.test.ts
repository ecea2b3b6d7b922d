// The network witness and request URLs with a #fragment, in real DevTools (Chromium 156). The page
// passes `/mcp#x` to fetch and `/sse#y` to EventSource; the hook records the URL the page gave,
// fragment included. A fragment never goes on the wire, and DevTools' entry drops it: the witness
// must still take each request for the captured one it is (one told apart by its fragment would be
// reported "not captured" and its events added a second time, from the network). It did already
// (matching compares URLs without fragment): this test is a guard. An XHR's responseURL has no
// fragment either (XHR spec: the response URL, "exclude fragment"): its response record said
// `redirected: true` for `/mcp#z` answered at `/mcp` until the hook compared without fragment.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CaptureRecord } from '../../src/core/record';
import { witnessOf } from '../support/devtools';
import { openInspected, type Harness } from '../support/extension';
import { startTestServer, type TestServer } from '../support/server';
import { waitFor } from '../support/wait';

let server: TestServer;
const open: Harness[] = [];
const RPC = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize' });

beforeAll(async () => {
  server = await startTestServer();
  server.route('/mcp', (_q, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 's1' });
    res.end(`id: 1\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n`);
  });
  server.route('/sse', (_q, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(`id: 7\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{}}\n\n`);
  });
  server.page('/page.html', '<!doctype html><html><body>fragments</body></html>');
}, 60_000);

afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});

afterAll(async () => {
  await server?.close();
});

describe('witness and URL fragments', () => {
  it('a fetch and an EventSource whose URL has a #fragment are matched to the hook records; nothing is reported or added twice', async () => {
    const h = await openInspected(server.url('/page.html'));
    open.push(h);
    const text = await h.evalPage<string>(
      `fetch('/mcp#x', { method: 'POST', headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-06-18' }, body: ${JSON.stringify(RPC)} }).then((r) => r.text())`,
    );
    expect(text).toContain('"result"');
    const data = await h.evalPage<string>(`new Promise((ok, ko) => {
      const es = new EventSource('/sse#y');
      es.onmessage = (m) => { es.close(); ok(m.data); };
      setTimeout(() => { es.close(); ko(new Error('no event')); }, 5000);
    })`);
    expect(data).toContain('notifications/message');
    const xhr = await h.evalPage<string>(`new Promise((ok, ko) => {
      const x = new XMLHttpRequest();
      x.open('POST', '/mcp#z');
      x.setRequestHeader('content-type', 'application/json');
      x.onload = () => ok(x.responseText);
      x.onerror = () => ko(new Error('xhr failed'));
      x.send(${JSON.stringify(RPC)});
    })`);
    expect(xhr).toContain('"result"');
    const w = await waitFor(
      async () => {
        const x = await witnessOf(h.panel);
        return x.checking === 0 && x.seen >= 3 ? x : null;
      },
      { timeoutMs: 15_000, message: 'the witness judged the three requests' },
    );
    // The two sides differ: the hook keeps the fragments; Chromium 156's entries (getHAR and
    // onRequestFinished) are /mcp and /sse, without them (seen with this test, 2026-12-07).
    const records = await h.panel.eval<CaptureRecord[]>('__MSI_PANEL__.records()');
    const hooked = records.filter((r) => r.kind === 'request').map((r) => new URL((r as { url: string }).url).hash);
    expect(hooked.sort()).toEqual(['#x', '#y', '#z']);
    const responses = records.filter((r) => r.kind === 'response') as { url: string; redirected: boolean }[];
    expect(responses).toHaveLength(3);
    // answered at the URL asked for: no redirect, whatever the fragment
    expect(responses.map((r) => r.redirected)).toEqual([false, false, false]);
    expect(w.missing).toEqual([]);
    expect(w).toMatchObject({ seen: 3, captured: 3 });
    // Nothing from the network view: no gap, no request observed after completion.
    expect(records.filter((r) => r.src === 'network')).toEqual([]);
    expect(records.filter((r) => r.kind === 'request' && (r as { transport?: string }).transport === 'network')).toEqual([]);
  });
});

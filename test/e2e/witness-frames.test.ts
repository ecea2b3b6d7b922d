// The network witness and iframes in real DevTools (Chromium 156). The hook runs in every frame of
// a page, sandboxed ones included (srcdoc or src, with or without allow-same-origin:
// hostile-page.test.ts). Chrome runs a cross-site iframe and a sandboxed one in a process of their
// own, and DevTools gives their requests no `pageref`, as it gives a worker's: the witness took
// them for a worker's, refused the hook's records for them and reported each one "not captured,
// made by a worker" (with its events added a second time). Their call stack tells them apart: it
// starts in the page hook (chrome-extension://…/hook.js), in the frame's document.
// A worker beside them is still reported as one.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaptureRecord } from '../../src/core/record';
import { witnessOf } from '../support/devtools';
import { openInspected, waitForRecords, type Harness } from '../support/extension';
import { startTestServer, type TestServer } from '../support/server';
import { waitFor } from '../support/wait';

let server: TestServer;
let h: Harness;
const RPC = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize' });
const TAGS = ['xsite', 'sbx-src', 'sbx-doc', 'srcdoc'];

/**
 * A POST with MCP markers from the frame, a second after it loads: DevTools attaches to a frame's
 * new process after its document starts (a request made at once can be missing from its log).
 */
const mcpFetch = (tag: string) =>
  `setTimeout(() => fetch(${JSON.stringify(`__ORIGIN__/mcp?tag=${tag}`)}, { method: 'POST', headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-06-18' }, body: ${JSON.stringify(RPC)} }).then((r) => r.text()), 1000);`;

beforeAll(async () => {
  server = await startTestServer();
  const fetchFrom = (tag: string) => mcpFetch(tag).replace('__ORIGIN__', server.origin);
  // CORS: the frames are cross-site or opaque origins.
  const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*', 'access-control-expose-headers': 'mcp-session-id' };
  server.route('/mcp', (q, res) => {
    if (q.method === 'OPTIONS') return void res.writeHead(204, cors).end();
    res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 's1', ...cors });
    res.write(`id: 1\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n`);
    setTimeout(() => res.end(), 100);
  });
  server.route('/child.html', (q, res) => {
    const tag = new URL(q.url!, 'http://x').searchParams.get('tag')!;
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html><head><script>${fetchFrom(tag)}</script></head><body>${tag}</body></html>`);
  });
  server.route('/w.js', (_q, res) => void res.writeHead(200, { 'content-type': 'text/javascript' }).end(fetchFrom('worker')));
  const srcdoc = (tag: string) => `<script>${fetchFrom(tag)}</script>`.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  server.page(
    '/frames.html',
    `<!doctype html><html><body>
      <iframe src="${server.altUrl('/child.html?tag=xsite')}"></iframe>
      <iframe sandbox="allow-scripts" src="/child.html?tag=sbx-src"></iframe>
      <iframe sandbox="allow-scripts" srcdoc="${srcdoc('sbx-doc')}"></iframe>
      <iframe srcdoc="${srcdoc('srcdoc')}"></iframe>
    </body></html>`,
  );
  h = await openInspected(server.url('/frames.html'));
}, 60_000);

afterAll(async () => {
  await h?.close();
  await server?.close();
});

describe('witness and iframes', () => {
  it("a cross-site or sandboxed iframe's requests (no pageref) are matched to the hook's, not taken for a worker's", async () => {
    // Each frame's request as the hook captured it (and answered).
    const records = await waitForRecords(
      h.panel,
      (rs) => TAGS.every((t) => rs.some((r) => r.kind === 'request' && r.transport === 'fetch' && r.url.endsWith(`tag=${t}`))),
      'the frames captured by the hook',
    );
    expect(new Set(records.filter((r): r is Extract<CaptureRecord, { kind: 'request' }> => r.kind === 'request' && r.transport === 'fetch').map((r) => r.src)).size).toBe(4);
    await h.evalPage(`new Worker('/w.js'), true`);
    // DevTools lists the cross-site and sandboxed frames' requests without a pageref.
    const pagerefs = await waitFor(
      async () => {
        const l = await h.panel.eval<[string, string | null][]>(
          `new Promise((r) => chrome.devtools.network.getHAR((x) => r(x.entries.filter((e) => e.request.method === 'POST').map((e) => [e.request.url.split('tag=')[1], e.pageref ?? null]))))`,
        );
        return l.length === 5 ? Object.fromEntries(l) : null;
      },
      { message: 'five POSTs in the network log' },
    );
    console.log('pageref of each POST:', JSON.stringify(pagerefs));
    expect(pagerefs).toMatchObject({ xsite: null, 'sbx-src': null, worker: null, srcdoc: 'page_1' });
    const w = await waitFor(
      async () => {
        const x = await witnessOf(h.panel);
        return x.seen === 5 && x.checking === 0 ? x : null;
      },
      { timeoutMs: 15_000, message: 'the witness judged the five requests' },
    ).catch(async (e) => {
      console.log('witness', JSON.stringify(await h.panel.eval('__MSI_PANEL__.witness()')));
      throw e;
    });
    // before: the cross-site and sandboxed frames' requests were "not captured, made by a worker"
    expect(w.missing.map((m) => [m.url.split('tag=')[1], m.reason])).toEqual([['worker', 'worker']]);
    expect(w.captured).toBe(4);
    // The capture holds each frame's request once: the witness added none of them.
    const added = ((await h.panel.records()) as CaptureRecord[]).filter((r) => r.kind === 'request' && r.transport === 'network').map((r) => (r as { url: string }).url.split('tag=')[1]);
    expect(added).toEqual(['worker']);
  });
});

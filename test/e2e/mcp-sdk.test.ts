// A real MCP client (the official TypeScript SDK, bundled for the browser) in a page, talking
// Streamable HTTP to the real SDK fixture server (test/fixtures/mcp-server) in 'lossless' mode:
// the tools/call stream is cut after 7 events and the client resumes it with GET + Last-Event-ID.
// The extension's service worker is stopped while the call streams. Every SSE event the client
// read must be in the panel, per connection, in order, nothing extra, nothing duplicated.

import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaptureRecord } from '../../src/core/record';
import { startFixtureServer, type FixtureServer } from '../fixtures/mcp-server/index';
import { stopServiceWorker } from '../support/devtools';
import { duplicateKeys, openInspected, waitForRecords, type Harness } from '../support/extension';
import { buildSdkClientBundle } from '../support/sdk-bundle';
import { startTestServer, type TestServer } from '../support/server';
import { waitFor } from '../support/wait';

let pages: TestServer;
let mcp: FixtureServer;
let h: Harness;
let mcpUrl: string;

beforeAll(async () => {
  const sdk = await buildSdkClientBundle();
  mcp = await startFixtureServer({ mode: 'lossless', keepAliveMs: 0 });
  mcpUrl = mcp.url;
  pages = await startTestServer();
  pages.route('/sdk.js', (_q, res) => res.writeHead(200, { 'content-type': 'text/javascript' }).end(sdk));
  pages.page(
    '/agent.html',
    `<!doctype html><html><head><script type="module">
      import { Client, StreamableHTTPClientTransport } from '/sdk.js';
      window.progress = [];
      window.tokens = [];
      window.start = () => { window.run = (async () => {
        const client = new Client({ name: 'e2e-agent', version: '1.0.0' });
        const transport = new StreamableHTTPClientTransport(new URL(${JSON.stringify(mcpUrl)}), {
          reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 500, reconnectionDelayGrowFactor: 1.5, maxRetries: 5 },
        });
        await client.connect(transport);
        const result = await client.callTool({ name: 'long_task', arguments: { chunks: 8, delayMs: 150, tag: 'e2e' } }, undefined, {
          onprogress: (p) => window.progress.push(p.progress), resetTimeoutOnProgress: true, timeout: 30000,
          // The SDK reports every event id it read on this call's streams, the resumed one too.
          onresumptiontoken: (t) => window.tokens.push(t),
        });
        await client.close();
        return { text: result.content[0].text, progress: window.progress };
      })().catch((e) => ({ error: String(e && e.stack || e) })); return true; };
    </script></head><body>agent</body></html>`,
  );
  h = await openInspected(pages.url('/agent.html'));
}, 180_000);

afterAll(async () => {
  await h?.close();
  await pages?.close();
  await mcp?.close();
});

/** SSE event ids per connection, parsed from the panel's chunks (as the page read them). */
function panelStreams(records: CaptureRecord[]): Map<string, { method: string; lastEventId?: string; ids: string[]; events: number }> {
  const out = new Map<string, { method: string; lastEventId?: string; ids: string[]; events: number }>();
  const parsers = new Map<string, ReturnType<typeof createParser>>();
  for (const r of records) {
    if (!('conn' in r)) continue;
    const key = `${r.src}/${r.conn}`;
    if (r.kind === 'request' && r.url.startsWith(mcpUrl)) {
      const s = { method: r.method, lastEventId: r.headers.find(([k]) => k.toLowerCase() === 'last-event-id')?.[1], ids: [] as string[], events: 0 };
      out.set(key, s);
      parsers.set(key, createParser({ onEvent: (e) => { s.events++; if (e.id !== undefined) s.ids.push(e.id); } }));
    } else if (r.kind === 'chunk') parsers.get(key)?.feed(r.text);
  }
  return out;
}

describe('official MCP SDK client against the SDK fixture server', () => {
  it('every event the client read is in the panel, in order, after a cut, a resume and a service-worker stop', async () => {
    // stop the extension's service worker while the tools/call stream is being read
    await waitFor(() => h.evalPage('typeof window.start === "function"'), { message: 'agent page ready' });
    await h.evalPage('window.start()');
    await waitFor(() => h.evalPage('window.progress.length >= 2'), { timeoutMs: 20_000, message: 'second progress' });
    await stopServiceWorker(h.browser);
    expect(await h.evalPage<number>('window.progress.length')).toBeLessThan(8); // really mid-stream
    const run = await h.evalPage<any>('window.run');
    expect(run.error).toBeUndefined();
    expect(run.progress).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(run.text).toMatch(/^long_task finished: 8 chunks/);

    // Ground truth per connection. Connections that were not cut: what the server wrote. The cut
    // tools/call stream and its resume: what the client itself read (onresumptiontoken), because
    // bytes written just before the socket was destroyed may never reach the page (Chromium drops
    // data that arrives with an unexpected EOF), and the server's log cannot know that.
    const resume = mcp.log.find((e) => e.type === 'http' && e.httpMethod === 'GET' && e.lastEventId) as
      | Extract<(typeof mcp.log)[number], { type: 'http' }>
      | undefined;
    expect(resume).toBeTruthy(); // the stream really was cut and resumed
    const cut = mcp.log.find((e) => e.type === 'cut') as { conn: number } | undefined;
    expect(cut).toBeTruthy();
    const serverConns = new Map<number, string[]>();
    for (const e of mcp.log) if (e.type === 'sse' && e.id !== undefined) serverConns.set(e.conn, [...(serverConns.get(e.conn) ?? []), e.id]);
    const tokens = await h.evalPage<string[]>('window.tokens');
    expect(tokens.length).toBeGreaterThanOrEqual(17); // priming + 8 x (message, progress) + result, at least
    expect(tokens).toContain(resume!.lastEventId);
    const uncut = [...serverConns].filter(([conn]) => conn !== cut!.conn && conn !== resume!.conn).map(([, ids]) => ids.join(',')).sort();
    const expected = { uncut, callChain: tokens.join(',') };
    const observed = (rs: CaptureRecord[]) => {
      const streams = [...panelStreams(rs).values()].filter((s) => s.ids.length > 0);
      const resumed = streams.find((s) => s.method === 'GET' && s.lastEventId);
      const cutStream = resumed && streams.find((s) => s.ids.at(-1) === resumed.lastEventId && s !== resumed);
      return {
        uncut: streams.filter((s) => s !== resumed && s !== cutStream).map((s) => s.ids.join(',')).sort(),
        callChain: cutStream && resumed ? [...cutStream.ids, ...resumed.ids].join(',') : '',
      };
    };
    const records = await waitForRecords(
      h.panel,
      (rs) => JSON.stringify(observed(rs)) === JSON.stringify(expected),
      `panel SSE ids = ${JSON.stringify(expected)}`,
      20_000,
    );
    expect(duplicateKeys(records)).toEqual([]);
    const streams = [...panelStreams(records).values()];
    const resumed = streams.find((s) => s.method === 'GET' && s.lastEventId);
    expect(resumed?.lastEventId).toBe(resume!.lastEventId);
    // every request the client made to the server is in the panel, with its session header
    const httpToServer = mcp.log.filter((e) => e.type === 'http' && e.httpMethod !== 'OPTIONS').length;
    const reqs = records.filter((r) => r.kind === 'request' && r.url.startsWith(mcpUrl)) as Extract<CaptureRecord, { kind: 'request' }>[];
    expect(reqs.length).toBe(httpToServer);
    expect(reqs.slice(1).every((r) => r.headers.some(([k]) => k.toLowerCase() === 'mcp-session-id'))).toBe(true);
    const src = reqs[0]!.src;
    const seqs = records.filter((r) => r.src === src).map((r) => r.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
  });
});

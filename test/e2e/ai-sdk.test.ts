// A client users run in pages besides the official SDKs: the AI SDK's MCP client (`@ai-sdk/mcp`
// createMCPClient, its HTTP transport, bundled for the browser by Vite) in a page in Chromium with
// the real extension, against the v2 fixture server's `legacy-result-event-type` route (2025 era,
// long_task's result written as `event: result`; its CORS allows the Mcp-Method / Mcp-Name headers
// the AI SDK sends on its 2026-07-28 probe, which the v1 fixture server's does not). Like the SDKs, it reads only `message` events: its call times out
// although the result was delivered; the live panel says result-not-taken, never result-missing.

// @ai-sdk/mcp 1.x (the line that supports Node 20, which the project is tested on; 2.x requires
// Node >= 22) calls its fetch as a method of the transport (`this.fetchFn(...)`): in a browser the
// global fetch then throws "Illegal invocation", so a page passes a bound fetch, as users of 1.x in
// browsers must. 1.x has no call timeout of its own (2.x's `timeout` option is kept beside the
// page's AbortSignal.timeout), and on this route its call never settles, not even on that signal:
// the same in a browser without the extension (checked below), so it is the client's behaviour, not
// the hook's. The committed captures ai-sdk-result-event-type.* were recorded with 2.0.99 in Node,
// whose call times out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClientPage, type ClientPage } from '../support/client-page';
import type { Harness } from '../support/extension';
import { buildAiSdkMcpBundle } from '../support/sdk-bundle';
import { waitFor } from '../support/wait';

let cp: ClientPage;
let h: Harness;

beforeAll(async () => {
  cp = await startClientPage({
    bundlePath: '/ai-sdk-mcp.js',
    bundle: buildAiSdkMcpBundle(),
    pagePath: '/ai-sdk-agent.html',
    html: `<!doctype html><html><head><script type="module">
      import { createMCPClient } from '/ai-sdk-mcp.js';
      window.ready = true;
      // What the page saw: each response (method, status, content type) and how its call ended.
      window.seen = [];
      window.outcome = 'pending';
      window.start = (url) => { window.t0 = performance.now(); window.run = (async () => {
        let client;
        const f = (u, i) => fetch(u, i).then((r) => (window.seen.push(((i && i.method) || 'GET') + ' ' + r.status + ' ' + r.headers.get('content-type')), r));
        try {
          client = await createMCPClient({ transport: { type: 'http', url, fetch: f }, name: 'ai-sdk-page-agent' });
          const listed = (await client.listTools()).tools.length;
          await client.callTool({ name: 'long_task', arguments: { chunks: 6, delayMs: 40, tag: 'main' }, options: { timeout: 2000, signal: AbortSignal.timeout(2000) } });
          window.outcome = 'result';
          return { ok: true, listed };
        } catch (e) {
          window.outcome = 'error: ' + String((e && e.message) || e);
          return { ok: false, error: String((e && e.message) || e) };
        } finally {
          await client?.close().catch(() => {});
        }
      })(); return true; };
    </script></head><body>@ai-sdk/mcp agent</body></html>`,
  });
}, 180_000);

afterAll(() => cp?.close());

/** Start the agent in a page, then wait (on the page's own clock) until its call's AbortSignal is past. */
async function runAgent(evalPage: <T>(x: string) => Promise<T>): Promise<{ outcome: string; seen: string[] }> {
  await waitFor(() => evalPage<boolean>('window.ready === true'), { message: 'agent page ready' });
  await evalPage(`window.start(${JSON.stringify(cp.mcp.modeUrl('legacy-result-event-type'))})`);
  await waitFor(() => evalPage<boolean>(`performance.now() - window.t0 > 3000 && window.seen.length >= 5`), { timeoutMs: 20_000, message: 'the agent past its call timeout' });
  return { outcome: await evalPage<string>('window.outcome'), seen: (await evalPage<string[]>('window.seen')).sort() };
}

describe('@ai-sdk/mcp in a page', () => {
  it('legacy-result-event-type: the client never takes the result; the panel says result-not-taken (its result is in the capture), never result-missing; the page sees the same without the extension', async () => {
    h = await cp.inspected();
    await waitFor(() => h.panel.eval(`typeof globalThis.__MSI_UI__ === 'object'`), { message: 'inspector UI mounted in the panel' });
    const captured = await runAgent((x) => h.evalPage(x));
    // The client did not take the result: no outcome, or an error (2.x: "timed out").
    expect(captured.outcome).not.toBe('result');
    const snap = await waitFor(
      async () => {
        const s = await h.panel.eval<any>('globalThis.__MSI_UI__.snapshot()');
        return s.findings.some((f: any) => f.code === 'result-not-taken') ? s : null;
      },
      { timeoutMs: 20_000, message: 'result-not-taken in the live panel' },
    );
    const codes = snap.findings.map((f: any) => f.code);
    expect(codes).not.toContain('result-missing');
    const f = snap.findings.find((x: any) => x.code === 'result-not-taken');
    expect(f.severity).toBe('error');
    expect(f.message).toContain('SSE event of type "result"');

    // The same page in a browser without the extension: the same responses and the same outcome.
    const bare = await cp.bare();
    const plain = await runAgent(bare);
    expect(plain).toEqual(captured);
  });
});

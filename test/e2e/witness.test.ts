// The independent witness (issue 9) in real DevTools: chrome.devtools.network sees what the hook
// cannot, and the panel says so on its first screen.
// - The official SDK client in a Web Worker (no content script runs there): the panel counts and
//   names every MCP request the server received, with the reason, shows their bodies observed
//   after completion, and never says "Waiting for MCP traffic" while they flow.
// - The extension reloaded under an open page (its frame has no live hook): the requests the page
//   makes next are counted with that reason.
// - A cross-origin server whose CORS preflight refuses mcp-protocol-version, and one that does
//   not expose Mcp-Session-Id: each is a finding naming the header to add.
// Screenshots of the witness banner docked right and bottom go to test-artifacts/screenshots.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CaptureRecord } from '../../src/core/record';
import { startFixtureServer, type FixtureServer } from '../fixtures/mcp-server/index';
import { DIST } from '../support/browser';
import { devtoolsFrontends, setDockSide, type PanelHandle } from '../support/devtools';
import { openInspected, waitForRecords, type Harness } from '../support/extension';
import { screenshot } from '../support/panel-ui';
import { serveAgentPage, serveWorkerAgentPage, sessionReads, startSession } from '../support/sdk-agent';
import { startTestServer, type TestServer } from '../support/server';
import { waitFor } from '../support/wait';

let pages: TestServer;
let mcp: FixtureServer;
const open: Harness[] = [];

beforeAll(async () => {
  mcp = await startFixtureServer({ keepAliveMs: 0 });
  pages = await startTestServer();
  await serveAgentPage(pages);
  serveWorkerAgentPage(pages);
}, 180_000);

afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});

afterAll(async () => {
  await pages?.close();
  await mcp?.close();
});

const WAITING = 'Waiting for MCP traffic';
/** Requests the server received for a mode's endpoint (preflights left out). */
const serverRequests = (server: FixtureServer, path: string, since: number) =>
  server.log.filter((e) => e.type === 'http' && e.httpMethod !== 'OPTIONS' && e.path === path && e.t >= since).length;

/** What the panel's first screen shows of the capture's health and the witness. */
function firstScreen(panel: PanelHandle) {
  return panel.eval<{ banner: string | null; bannerOnScreen: boolean; unseen: number; health: string | null; healthText: string; empty: string | null }>(`(() => {
    const b = document.querySelector('[data-testid=witness-banner]');
    const r = b?.getBoundingClientRect();
    const p = document.querySelector('[data-testid=capture-health]');
    return { banner: b ? b.textContent : null, bannerOnScreen: !!r && r.height > 0 && r.top >= 0 && r.bottom <= innerHeight,
      unseen: b ? Number(b.dataset.unseen) : 0, health: p ? p.dataset.state : null, healthText: p ? p.textContent : '',
      empty: document.querySelector('[data-testid=empty-state]')?.textContent ?? null };
  })()`);
}

describe('the network witness', () => {
  it("an MCP client in a Web Worker: the first screen says how many MCP requests the network saw and the capture did not hold, and why", async () => {
    const h = await openInspected(pages.url('/worker-agent.html'), { extraArgs: ['--window-size=1280,800'] });
    open.push(h);
    const url = mcp.modeUrl('lossy');
    const since = Date.now();
    // The empty panel before any traffic: waiting, and recording.
    await waitFor(async () => (await firstScreen(h.panel)).health === 'recording', { message: 'health: recording' });
    expect((await firstScreen(h.panel)).empty).toContain(WAITING);
    await h.evalPage(`window.startWorker(${JSON.stringify(url)}, { chunks: 6, delayMs: 300 })`);
    // While the worker's session runs, the panel stops saying "waiting" within a few seconds of
    // the first request the network saw (getHAR is read every 2 s while the capture is empty).
    await waitFor(() => serverRequests(mcp, '/mcp/lossy', since) > 0, { message: 'server saw the worker' });
    await waitFor(
      async () => {
        const s = await firstScreen(h.panel);
        return s.empty === null || !s.empty.includes(WAITING);
      },
      { timeoutMs: 6000, message: 'panel stops saying "waiting" while the worker streams' },
    );
    expect((await h.evalPage<number[]>('window.workerProgress')).length).toBeLessThan(6); // still mid-call then
    const run = await h.evalPage<{ text?: string; error?: string }>('window.run');
    expect(run.error).toBeUndefined();
    expect(run.text).toMatch(/^long_task finished: 6 chunks/);
    const expected = serverRequests(mcp, '/mcp/lossy', since);
    expect(expected).toBeGreaterThanOrEqual(4); // initialize, initialized, GET stream, tools/call, DELETE...
    await waitFor(async () => (await h.panel.eval<{ missing: unknown[] }>('__MSI_PANEL__.witness()')).missing.length === expected, {
      timeoutMs: 20_000,
      message: async () => `witness missing = ${expected}; has ${JSON.stringify(await h.panel.eval('__MSI_PANEL__.witness()'))}`,
    } as never);
    const w = await h.panel.eval<{ seen: number; captured: number; missing: { reason: string; body: string; url: string; method: string }[] }>('__MSI_PANEL__.witness()');
    expect(w.captured).toBe(0);
    expect(new Set(w.missing.map((m) => m.reason))).toEqual(new Set(['worker']));
    expect(w.missing.every((m) => m.url === url)).toBe(true);
    // First screen: the banner with the count, on screen; the toolbar's health says so too.
    const s = await firstScreen(h.panel);
    expect(s.banner).toContain(`${expected} MCP requests seen by the network but not captured`);
    expect(s.banner).toContain('made by a worker');
    expect(s.bannerOnScreen).toBe(true);
    expect(s.health).toBe('blind');
    expect(s.healthText).toContain(`${expected} not captured`);
    // Records carry it into the analysis and the exports: one not-seen-by-hook gap per request,
    // and the bodies the network kept, observed after completion.
    const records = (await h.panel.records()) as CaptureRecord[];
    // Per request: a capture-gap when the capture lacks its events, a notice when the network view
    // supplied them (observed after completion).
    const unseenRecords = (rs: CaptureRecord[]) =>
      rs.filter((r) => (r.kind === 'capture-gap' && r.reason === 'not-seen-by-hook') || (r.kind === 'notice' && r.code === 'not-seen-by-hook'));
    expect(unseenRecords(records)).toHaveLength(expected);
    const network = records.filter((r) => r.kind === 'request' && r.transport === 'network');
    expect(network.length).toBe(w.missing.filter((m) => m.body === 'added' || m.body === 'rebuilt').length);
    console.log("bodies:", JSON.stringify(w.missing.map((m) => m.method + " " + m.body)));
    expect(network.length).toBeGreaterThanOrEqual(1); // the SSE answer to initialize at least
    const ends = records.filter((r) => r.kind === 'end' && r.src === 'network') as Extract<CaptureRecord, { kind: 'end' }>[];
    expect(ends.every((e) => e.reason?.includes('observed after completion'))).toBe(true);
    const json = JSON.parse(await h.panel.eval<string>(`__MSI_UI__.exportAs('json')`)) as { records: CaptureRecord[] };
    expect(unseenRecords(json.records)).toHaveLength(expected);
    const findings = await h.panel.eval<{ code: string; message: string }[]>(`__MSI_UI__.snapshot().findings.map((f) => ({ code: f.code, message: f.message }))`);
    expect(findings.filter((f) => f.code === 'capture-gap' && f.message.includes('made by a worker'))).toHaveLength(expected);
    // Screenshots, docked right (the default) and bottom.
    const fe = (await devtoolsFrontends(h.browser))[0]!.session;
    const size = () => h.panel.eval<string>('innerWidth + "x" + innerHeight');
    const shotRight = await screenshot(h.browser.cdp, fe, 'witness-worker-right');
    const right = await size();
    await setDockSide(h.browser, 'bottom');
    await waitFor(async () => (await size()) !== right && (await firstScreen(h.panel)).bannerOnScreen, { message: 'banner on screen docked bottom' });
    const shotBottom = await screenshot(h.browser.cdp, fe, 'witness-worker-bottom');
    console.log('screenshots:', shotRight, right, shotBottom, await size());
    // Details name every request.
    await h.panel.eval(`document.querySelector('[data-testid=witness-toggle]').click(), true`);
    await waitFor(async () => (await h.panel.eval<number>(`document.querySelectorAll('[data-testid=witness-request]').length`)) === expected, { message: 'witness details' });
    await screenshot(h.browser.cdp, fe, 'witness-worker-bottom-details');
    console.log('findings:', JSON.stringify(findings.map((f) => f.code)), JSON.stringify(await h.panel.eval(`Object.values(__MSI_UI__.snapshot().requests).flat().map((r) => r.method + ':' + r.verdict)`)));
  });
});

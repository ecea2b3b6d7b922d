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
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeRecords } from '../../src/core';
import { importText } from '../../src/core/import';
import type { CaptureRecord } from '../../src/core/record';
import { startFixtureServer, type FixtureServer } from '../fixtures/mcp-server/index';
import { DIST } from '../support/browser';
import { devtoolsFrontends, openAllPanels, setDockSide, type PanelHandle } from '../support/devtools';
import { openInspected, waitForRecords, type Harness } from '../support/extension';
import { screenshot } from '../support/panel-ui';
import { serveAgentPage, serveWorkerAgentPage, sessionReads, startSession } from '../support/sdk-agent';
import { startTestServer, type TestServer } from '../support/server';
import { waitFor } from '../support/wait';

let pages: TestServer;
let mcp: FixtureServer;
/** A server whose CORS preflight does not allow mcp-protocol-version (as the MCP reference servers once did). */
let noPv: FixtureServer;
/** A server that does not expose Mcp-Session-Id to cross-origin pages. */
let noExpose: FixtureServer;
const open: Harness[] = [];

beforeAll(async () => {
  mcp = await startFixtureServer({ keepAliveMs: 0 });
  noPv = await startFixtureServer({ keepAliveMs: 0, mode: 'baseline', cors: { allowHeaders: 'content-type, accept, authorization, mcp-session-id, last-event-id' } });
  noExpose = await startFixtureServer({ keepAliveMs: 0, mode: 'baseline', cors: { exposeHeaders: null } });
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
  await noPv?.close();
  await noExpose?.close();
});

const WAITING = 'Waiting for MCP traffic';

/**
 * The HAR DevTools itself holds for the tab (chrome.devtools.network.getHAR, what "Save all as
 * HAR" writes), run through the core as `audit` runs a file: the codes of its findings. Saved
 * under test-artifacts/har/ for a look.
 */
async function devtoolsHarFindings(panel: PanelHandle, name: string): Promise<{ code: string; message: string }[]> {
  const log = await panel.eval<unknown>(`new Promise((r) => chrome.devtools.network.getHAR((x) => r(x)))`);
  const text = JSON.stringify({ log });
  const dir = join(process.cwd(), 'test-artifacts', 'har');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.har`), text);
  return analyzeRecords(importText(text).records).findings.map(({ code, message }) => ({ code, message }));
}
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
    await h.evalPage(`window.startWorker(${JSON.stringify(url)}, { chunks: 6, delayMs: 600 })`);
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
      message: `witness missing = ${expected}`,
    });
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
    // Per request: a capture-gap when the capture lacks its events, a notice when the network view
    // supplied them (observed after completion; the notice follows the body, read asynchronously).
    const unseenRecords = (rs: CaptureRecord[]) =>
      rs.filter((r) => (r.kind === 'capture-gap' && r.reason === 'not-seen-by-hook') || (r.kind === 'notice' && r.code === 'not-seen-by-hook'));
    const records = await waitForRecords(h.panel, (rs) => unseenRecords(rs).length === expected, `${expected} not-seen-by-hook records`);
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

  it('the extension reloaded under an open page (its frames have no live hook): the requests the page makes next are counted, with that reason', async () => {
    const h = await openInspected(pages.url('/agent.html'));
    open.push(h);
    const { cdp } = h.browser;
    const oldPanel = h.panel.target.targetId;
    // Reload the unpacked extension, as chrome://extensions' Reload does; headless Chromium then
    // closes the DevTools window: open it again on the same, still running, page.
    await cdp.send('Extensions.loadUnpacked', { path: DIST });
    await waitFor(async () => !(await cdp.targets()).some((t) => t.url.startsWith('devtools://')), { message: 'DevTools closed by the reload' }).catch(() => {});
    const pageTarget = await h.browser.pageTarget('/agent.html');
    await cdp.send('Target.openDevTools', { targetId: pageTarget.targetId });
    const [panel] = await openAllPanels(h.browser, 1, new Set([oldPanel]));
    await waitFor(async () => (await firstScreen(panel!)).health === 'not-recording', { message: 'health: not recording (no relay of this instance)' });
    const url = mcp.modeUrl('lossless');
    const since = Date.now();
    await startSession(h.evalPage, url, { chunks: 3, delayMs: 50 });
    const { result } = await sessionReads(h.evalPage);
    expect(result.error).toBeUndefined(); // the page never noticed
    const expected = serverRequests(mcp, '/mcp/lossless', since);
    expect(expected).toBeGreaterThanOrEqual(4);
    await waitFor(async () => (await firstScreen(panel!)).unseen === expected, { timeoutMs: 20_000, message: `banner counts ${expected}` });
    const s = await firstScreen(panel!);
    expect(s.banner).toContain(`${expected} MCP requests seen by the network but not captured`);
    expect(s.banner).toContain('the extension was reloaded or updated after this page loaded');
    expect(s.bannerOnScreen).toBe(true);
    expect(s.health).toBe('not-recording');
    const records = (await panel!.records()) as CaptureRecord[];
    expect(records.some((r) => r.kind === 'notice' && r.code === 'extension-reloaded')).toBe(true);
    const why = records.filter((r) => r.kind === 'capture-gap' && r.reason === 'not-seen-by-hook').map((r) => (r as { why?: string }).why);
    expect(why.length).toBeGreaterThan(0);
    expect(new Set(why)).toEqual(new Set(['extension-reloaded']));
  });

  it('a CORS preflight that does not allow mcp-protocol-version: a cors-preflight-rejected finding naming the header to add', async () => {
    const h = await openInspected(pages.url('/agent.html'));
    open.push(h);
    await startSession(h.evalPage, noPv.url);
    const { result } = await sessionReads(h.evalPage);
    expect(result.error).toMatch(/Failed to fetch/); // what the client saw
    const f = await waitFor(
      async () =>
        (await h.panel.eval<{ code: string; message: string; sessionId: string | null; severity: string }[]>(`__MSI_UI__.snapshot().findings.map(({ code, message, sessionId, severity }) => ({ code, message, sessionId, severity }))`)).find(
          (x) => x.code === 'cors-preflight-rejected',
        ),
      { timeoutMs: 15_000, message: 'cors-preflight-rejected finding' },
    ).catch(async (e) => {
      console.log('witness', JSON.stringify(await h.panel.eval('__MSI_PANEL__.witness()')));
      console.log('har', JSON.stringify(await h.panel.eval(`new Promise((r) => chrome.devtools.network.getHAR((x) => r(x.entries.map((e) => [e.request.method, e.request.url, e.response.status, e.response._error, e._resourceType, e._initiator && e._initiator.url, e.request.headers.map((q) => q.name + '=' + q.value).join('|'), e.response.headers.map((q) => q.name + '=' + q.value).join('|')]))))`)));
      throw e;
    }
    );
    expect(f.severity).toBe('error');
    expect(f.message).toContain('does not allow mcp-protocol-version');
    expect(f.message).toContain("Add mcp-protocol-version to the server's Access-Control-Allow-Headers");
    expect(f.sessionId).not.toBeNull(); // filed under the session the capture shows the failed request in
    // The capture itself holds the failed request (the hook saw the page's fetch fail): the
    // witness does not count it as missing.
    const w = await h.panel.eval<{ missing: unknown[]; problems: { code: string }[] }>('__MSI_PANEL__.witness()');
    expect(w.missing).toEqual([]);
    const rows = await h.panel.eval<string[]>(`(() => { document.querySelector('[data-testid="tab-findings"]')?.click(); return [...document.querySelectorAll('[data-testid=finding-row]')].map((e) => e.dataset.code); })()`);
    await waitFor(async () => (await h.panel.eval<string[]>(`[...document.querySelectorAll('[data-testid=finding-row]')].map((e) => e.dataset.code)`)).includes('cors-preflight-rejected'), {
      message: `Findings view lists cors-preflight-rejected (had ${JSON.stringify(rows)})`,
    });
    // The HAR DevTools saved of the same traffic: `audit` finds it in the file alone.
    const har = (await devtoolsHarFindings(h.panel, 'cors-preflight-rejected')).filter((x) => x.code === 'cors-preflight-rejected');
    expect(har).toHaveLength(1);
    expect(har[0]!.message).toContain("Add mcp-protocol-version to the server's Access-Control-Allow-Headers");
  });

  it('Access-Control-Expose-Headers without Mcp-Session-Id: a session-id-not-exposed finding naming the header to add', async () => {
    const h = await openInspected(pages.url('/agent.html'), { extraArgs: ['--window-size=1280,800'] });
    open.push(h);
    await startSession(h.evalPage, noExpose.url);
    const { result } = await sessionReads(h.evalPage);
    expect(result.error).toBeTruthy(); // the client could not continue the session
    const page = await h.evalPage<string>('JSON.stringify(window.reads.map((r) => r.method))');
    const f = await waitFor(
      async () =>
        (await h.panel.eval<{ code: string; message: string }[]>(`__MSI_UI__.snapshot().findings.map(({ code, message }) => ({ code, message }))`)).find((x) => x.code === 'session-id-not-exposed'),
      { timeoutMs: 15_000, message: `session-id-not-exposed finding (page requests ${page})` },
    );
    expect(f.message).toContain("Add Mcp-Session-Id to the server's Access-Control-Expose-Headers");
    expect(f.message).toContain('the capture, which sees what the page sees, has no Mcp-Session-Id on it');
    await h.panel.eval(`document.querySelector('[data-testid="tab-findings"]')?.click(), true`);
    await waitFor(() => h.panel.eval(`!!document.querySelector('[data-testid=finding-row][data-code="session-id-not-exposed"]')`), { message: 'finding row' });
    // Docked right and narrow, the capture-notices label keeps one line (it wrapped to four beside the first notice).
    const labelLines = await waitFor(
      () =>
        h.panel.eval<number>(`(() => {
          const label = document.querySelector('[data-testid=capture-notices] .capture-notices-line > strong');
          if (!label) return 0;
          const r = document.createRange();
          r.selectNodeContents(label);
          return new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top))).size;
        })()`),
      { message: 'capture-notices strip' },
    );
    expect(labelLines).toBe(1);
    await screenshot(h.browser.cdp, (await devtoolsFrontends(h.browser))[0]!.session, 'witness-cors-expose-right');
    const har = (await devtoolsHarFindings(h.panel, 'session-id-not-exposed')).filter((x) => x.code === 'session-id-not-exposed');
    expect(har.length).toBeGreaterThan(0);
    expect(har[0]!.message).toContain("Add Mcp-Session-Id to the server's Access-Control-Expose-Headers");
  });
});

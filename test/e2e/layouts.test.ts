// Capture in every DevTools layout (issue 9): the official SDK client in a page runs a lossy
// session against the fixture server while DevTools is undocked, docked bottom, right or left,
// switched between layouts mid-call, closed and reopened, with the panel reloaded and the service
// worker stopped, and with two DevTools windows on two tabs. Each time, every connection the
// page's client read is in the panel with exactly the text the client read (so every event, in
// order), nothing duplicated, seq dense; and the analysis of the panel's records finds the lossy
// result the client accepted.
//
// The bug this guards (found on Chromium 156): an undocked DevTools' pages report a sender.tab,
// and the background refused their ports, so nothing was recorded once DevTools had been undocked.
// MSI_HEADED=1 under `xvfb-run -a` runs the same tests in headed windows.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { analyzeRecords } from '../../src/core/analyzer';
import type { CaptureRecord } from '../../src/core/record';
import { startFixtureServer, type FixtureServer } from '../fixtures/mcp-server/index';
import { launchBrowser } from '../support/browser';
import {
  devtoolsFrontends,
  openAllPanels,
  openPanel,
  setDockSide,
  stopServiceWorker,
  type DockSide,
  type PanelHandle,
} from '../support/devtools';
import { duplicateKeys, inspectedTabs, openInspected, waitForInspected, waitForRecords, type Harness } from '../support/extension';
import { panelConns, serveAgentPage, sessionReads, startSession, type ReadConn } from '../support/sdk-agent';
import { startTestServer, type TestServer } from '../support/server';
import { waitFor } from '../support/wait';

let pages: TestServer;
let mcp: FixtureServer;
let mcpUrl: string;
const open: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  mcp = await startFixtureServer({ keepAliveMs: 0 });
  mcpUrl = mcp.modeUrl('lossy');
  pages = await startTestServer();
  await serveAgentPage(pages);
}, 180_000);

afterEach(async () => {
  for (const b of open.splice(0)) await b.close();
});

afterAll(async () => {
  await pages?.close();
  await mcp?.close();
});

async function launch(opts: Parameters<typeof openInspected>[1] = {}): Promise<Harness & { openPanel(): Promise<PanelHandle> }> {
  const h = await openInspected(pages.url('/agent.html'), { openPanel: false, ...opts });
  open.push(h);
  return h;
}

const dock = (h: Harness, side: DockSide) => setDockSide(h.browser, side);
/** The first DevTools front-end's dock side (polled: a front-end just opened may not have started). */
const dockSideOf = (h: Harness) =>
  waitFor(async () => {
    const [fe] = await devtoolsFrontends(h.browser);
    return fe && h.browser.cdp.evaluate<string>(fe.session, `(async () => (await import('./ui/legacy/legacy.js')).DockController.DockController.instance().dockSide())()`);
  }, { timeoutMs: 20_000, message: 'DevTools dock side' });

/** The panel holds, per connection, exactly what the client read; no duplicate; seq dense. */
async function expectPanelHolds(panel: PanelHandle, reads: ReadConn[], what: string): Promise<CaptureRecord[]> {
  expect(reads.length).toBeGreaterThanOrEqual(4); // initialize, the cut call stream, its resume, the GET stream at least
  expect(reads.some((r) => r.lastEventId)).toBe(true); // the call really was cut and resumed
  const records = await waitForRecords(
    panel,
    (rs) => JSON.stringify(panelConns(rs, mcpUrl)) === JSON.stringify(reads),
    `${what}: panel connections = what the client read (${reads.length} connections)`,
    30_000,
  );
  expect(duplicateKeys(records)).toEqual([]);
  for (const src of new Set(records.filter((r) => r.src !== 'network' && r.src !== 'panel').map((r) => r.src))) {
    const seqs = records.filter((r) => r.src === src).map((r) => r.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
  }
  // What the user is shown: the lossy result the client accepted.
  const codes = analyzeRecords(records).findings.map((f) => f.code);
  expect(codes).toContain('lossy-result-accepted');
  // The network witness agrees: every MCP request DevTools' network view saw is in the capture
  // (no false "not captured"), once it has checked them all.
  const w = await waitFor(
    async () => {
      const x = await panel.eval<{ seen: number; captured: number; checking: number; missing: unknown[] }>('__MSI_PANEL__.witness()');
      return x.checking === 0 && x.seen > 0 ? x : null;
    },
    { timeoutMs: 20_000, message: `${what}: the witness checked every request` },
  );
  expect(w.missing).toEqual([]);
  expect(w.captured).toBe(w.seen);
  expect(codes).not.toContain('cors-preflight-rejected');
  expect(records.some((r) => r.src === 'network')).toBe(false);
  return records;
}

async function runSession(h: Harness, during?: () => Promise<void>, delayMs = 150): Promise<ReadConn[]> {
  await startSession(h.evalPage, mcpUrl, { chunks: 8, delayMs });
  if (during) await during();
  const { result, reads } = await sessionReads(h.evalPage);
  expect(result.error).toBeUndefined();
  expect(result.text).toMatch(/^long_task finished: 8 chunks/);
  return reads;
}

const progressAtLeast = (h: Harness, n: number) =>
  waitFor(() => h.evalPage(`window.progress.length >= ${n}`), { timeoutMs: 20_000, message: `client progress ${n}` });

/** Reload the panel page (as its context menu's Reload frame does) and attach to the new one. */
async function reloadPanel(h: Harness, panel: PanelHandle): Promise<PanelHandle> {
  await panel.eval('(window.__beforeReload = true, setTimeout(() => location.reload(), 0), true)');
  const { cdp } = h.browser;
  return waitFor(
    async () => {
      const t = (await cdp.targets()).find((x) => x.url.startsWith(panel.target.url.split('?')[0]!));
      if (!t) return null;
      const s = t.targetId === panel.target.targetId ? panel.sessionId : await cdp.attach(t.targetId);
      const fresh = await cdp.evaluate<boolean>(s, `typeof globalThis.__MSI_PANEL__ === 'object' && !window.__beforeReload`).catch(() => false);
      if (!fresh) return null;
      return { ...panel, sessionId: s, target: t, eval: (e: string) => cdp.evaluate(s, e), records: () => cdp.evaluate(s, 'globalThis.__MSI_PANEL__.records()') } as PanelHandle;
    },
    { timeoutMs: 20_000, message: 'panel reloaded' },
  );
}

describe('capture in every DevTools layout', () => {
  for (const side of ['undocked', 'bottom', 'right', 'left'] as const) {
    it(`DevTools ${side}: a panel opened after the call, then a second call live, hold everything the client read`, async () => {
      const h = await launch({ dock: side });
      expect(await dockSideOf(h)).toBe(side);
      const first = await runSession(h);
      const panel = await h.openPanel();
      expect(await panel.eval('__MSI_PANEL__.connected()')).toBe(true);
      await expectPanelHolds(panel, first, `${side}, panel opened after the call`);
      // The panel open in this layout while the next call streams (window.reads keeps both calls).
      const second = await runSession(h);
      expect(second.length).toBeGreaterThan(first.length);
      await expectPanelHolds(panel, second, `${side}, second call live`);
    });
  }

  it('switched bottom → undocked → bottom while the call streams (panel open), then the service worker stopped and the panel reloaded', async () => {
    const h = await launch({ dock: 'bottom' });
    const panel = await h.openPanel();
    const reads = await runSession(h, async () => {
      await progressAtLeast(h, 2);
      expect(await dock(h, 'undocked')).toBe('undocked');
      expect(await h.evalPage<number>('window.progress.length')).toBeLessThan(8); // really mid-call
      await progressAtLeast(h, 5);
      expect(await dock(h, 'bottom')).toBe('bottom');
      expect(await h.evalPage<number>('window.progress.length')).toBeLessThan(8);
    }, 300);
    await expectPanelHolds(panel, reads, 'after bottom → undocked → bottom mid-call');
    // Once undocked, the DevTools front-end's pages report a tab for good: a port opened now
    // (worker restarted, panel reloaded) must still be accepted.
    const connects = await panel.eval<number>('__MSI_PANEL__.connects()');
    await stopServiceWorker(h.browser);
    await waitFor(async () => (await panel.eval<number>('__MSI_PANEL__.connects()')) > connects && (await panel.eval<boolean>('__MSI_PANEL__.connected()')), {
      message: 'panel reconnected after the worker stopped',
    });
    // The restarted worker knows the tab as inspected again (panel and DevTools page reconnected;
    // polled: a port exists before the worker has read its hello).
    await waitForInspected(h.browser, 1);
    const reloaded = await reloadPanel(h, panel);
    await expectPanelHolds(reloaded, reads, 'reloaded panel (backfill from the relay)');
    expect(await reloaded.eval<number>('__MSI_PANEL__.connects()')).toBe(1);
  });

  it('undocked: the service worker stopped and the panel reloaded while the call streams lose and duplicate nothing', async () => {
    const h = await launch({ dock: 'undocked' });
    let panel = await h.openPanel();
    const reads = await runSession(h, async () => {
      await progressAtLeast(h, 2);
      await stopServiceWorker(h.browser);
      await progressAtLeast(h, 4);
      panel = await reloadPanel(h, panel);
      expect(await h.evalPage<number>('window.progress.length')).toBeLessThan(8);
    }, 300);
    await expectPanelHolds(panel, reads, 'undocked, worker stopped and panel reloaded mid-call');
  });

  it('DevTools saved as undocked: opens undocked, records; closed, then reopened undocked, records again', async () => {
    const h = await launch({ preferences: { devtools: { preferences: { currentDockState: '"undocked"' } } } });
    expect(await dockSideOf(h)).toBe('undocked');
    const first = await runSession(h);
    const panel = await h.openPanel();
    await expectPanelHolds(panel, first, 'saved undocked');
    // Close the DevTools window: the tab stops counting as inspected.
    const [fe] = await devtoolsFrontends(h.browser);
    await h.browser.cdp.send('Target.closeTarget', { targetId: fe!.target.targetId });
    await waitFor(async () => (await inspectedTabs(h.browser)).length === 0, { message: 'tab no longer inspected after DevTools closed' });
    // Reopened as F12 would: the saved layout (undocked) again.
    const pageTarget = await h.browser.pageTarget('/agent.html');
    await h.browser.cdp.send('Target.openDevTools', { targetId: pageTarget.targetId });
    await waitForInspected(h.browser, 1);
    expect(await dockSideOf(h)).toBe('undocked');
    const second = await runSession(h);
    const reopened = await openPanel(h.browser);
    // The relay kept its buffer while DevTools was closed: the reopened panel backfills the first
    // session and holds the second.
    expect(second.length).toBeGreaterThan(first.length); // window.reads holds both sessions
    await expectPanelHolds(reopened, second, 'reopened undocked');
  });

  it('two DevTools windows on two tabs, one undocked and one docked bottom: each panel holds exactly its own page', async () => {
    const browser = await launchBrowser({ extension: true, url: 'about:blank' });
    open.push(browser);
    await waitForInspected(browser, 1);
    await browser.cdp.send('Target.createTarget', { url: 'about:blank' });
    await waitForInspected(browser, 2);
    const fes = await waitFor(async () => {
      const f = await devtoolsFrontends(browser);
      return f.length === 2 ? f : null;
    });
    await setDockSide(browser, 'undocked', fes[0]!.session);
    await setDockSide(browser, 'bottom', fes[1]!.session);
    // Load the agent page in both tabs (a tag in the query tells them apart).
    const blanks = (await browser.cdp.targets()).filter((t) => t.type === 'page' && t.url === 'about:blank');
    expect(blanks.length).toBe(2);
    const sessions: string[] = [];
    for (const [i, t] of blanks.entries()) {
      const s = await browser.cdp.attach(t.targetId);
      await browser.cdp.send('Page.navigate', { url: pages.url(`/agent.html?tab=${i}`) }, s);
      sessions.push(s);
    }
    const evals = sessions.map((s) => <T = any>(e: string) => browser.cdp.evaluate<T>(s, e));
    await Promise.all(evals.map((ev) => startSession(ev, mcpUrl, { chunks: 8, delayMs: 150 })));
    const reads = await Promise.all(evals.map((ev) => sessionReads(ev)));
    for (const r of reads) expect(r.result.error).toBeUndefined();
    const panels = await openAllPanels(browser, 2);
    const pageTabs = await Promise.all(
      sessions.map(async (s) => {
        const href = await browser.cdp.evaluate<string>(s, 'location.href');
        return href;
      }),
    );
    const held: CaptureRecord[][] = [];
    for (const p of panels) {
      // Which tab's page this panel inspects: its own navigation record's URL.
      const rs = await waitForRecords(p, (x) => x.some((r) => r.kind === 'navigation' && r.top), 'navigation record');
      const nav = rs.find((r) => r.kind === 'navigation' && r.top) as Extract<CaptureRecord, { kind: 'navigation' }>;
      const i = pageTabs.indexOf(nav.url);
      expect(i).toBeGreaterThanOrEqual(0);
      held.push(await expectPanelHolds(p, reads[i]!.reads, `tab ${i}`));
    }
    const srcs = held.map((rs) => new Set(rs.map((r) => r.src)));
    expect([...srcs[0]!].some((s) => srcs[1]!.has(s))).toBe(false);
  });
});

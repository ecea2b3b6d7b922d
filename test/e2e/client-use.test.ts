// Issue 19, items 4-6, live in the real panel in real DevTools: the demo page's SDK v2 agent
// (@modelcontextprotocol/client 2.4 in Chromium) against the SDK v2 fixture server, in the
// scenarios of test/fixtures/v2/scenarios.ts that show them. The panel reports the findings live
// and from its own export; the carried output is linked in the timeline and in the Requests view;
// screenshots docked right and bottom (test-artifacts/screenshots/client-use-*.png).
// (Item 3, resume-cursor-lost, is shown in Chromium by captures/browser/evicted.playwright.har, a
// Playwright recording of the SDK v1 client: test/unit/fixtures/client-use-fixtures.test.ts.)

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoServer } from '../../demo/server';
import { analyzeRecords } from '../../src/core';
import { importText } from '../../src/core/import';
import type { V2ScenarioName } from '../fixtures/v2/scenarios';
import type { Harness } from '../support/extension';
import { devtoolsFrontend, setDockSide } from '../support/devtools';
import { clickTestId, screenshot, showTab, uiState } from '../support/panel-ui';
import { waitFor } from '../support/wait';
import { openDemoPanel } from './demo-panel';

let demo: DemoServer;
let h: Harness;

beforeAll(async () => {
  ({ demo, h } = await openDemoPanel({ sdk: 'v2', mode: 'modern-baseline' }, { sdk: 'v2', mode: 'modern-baseline', chunks: 6, delayMs: 40 }));
}, 180_000);

afterAll(async () => {
  await h?.close();
  await demo?.close();
});

/** Run the scenario in the page and wait until the panel's findings hold `codes`. */
/**
 * Runs a scenario in the page and waits for the panel to show `codes` (and `until`, when given:
 * the page's run returns before the relay and the panel have every record of it, so a finding the
 * test counts may come a publication after the first one of its code).
 */
async function run(name: V2ScenarioName, codes: string[], until: (s: any) => boolean = () => true) {
  await clickTestId(h.panel, 'tb-clear');
  await waitFor(() => h.panel.eval(`globalThis.__MSI_UI__.snapshot().sessions.length === 0`), { message: 'panel cleared' });
  const outcome = await h.evalPage<any>(`window.__demo.run(${JSON.stringify(name)})`);
  let last: string[] = [];
  const snap = await waitFor(
    async () => {
      const s = await h.panel.eval<any>('globalThis.__MSI_UI__.snapshot()');
      last = [...new Set<string>(s.findings.map((f: any) => f.code))].sort();
      return codes.every((c) => last.includes(c)) && until(s) ? s : null;
    },
    { timeoutMs: 20_000, message: () => `${name}: the panel's findings ${JSON.stringify(last)} hold ${JSON.stringify(codes)}` },
  );
  const fromFile = analyzeRecords(importText(await h.panel.eval<string>(`globalThis.__MSI_UI__.exportAs('json')`)).records);
  return { outcome, snap, fromFile };
}

async function shot(name: string) {
  await showTab(h.panel, 'timeline');
  const fe = await h.browser.cdp.attach((await devtoolsFrontend(h.browser)).targetId);
  await screenshot(h.browser.cdp, fe, name);
}

describe('findings about the client in the panel (issue 19)', () => {
  it('modern-reissue-fed-forward: the echo call carries the broken attempt\'s partial output, linked in the timeline and the Requests view', async () => {
    const { outcome, snap, fromFile } = await run('modern-reissue-fed-forward', ['lossy-output-carried']);
    // In the browser a cut may take the broken attempt's chunks with it: then there is nothing to carry.
    expect(outcome.v2.chunksPerAttempt[0]).toBeGreaterThan(0);
    const f = snap.findings.find((x: any) => x.code === 'lossy-output-carried');
    expect(f).toMatchObject({ severity: 'warning', requestId: '3', relatedRequestIds: ['1'] });
    expect(f.message).toMatch(/arguments carry \d+ characters of request 1 \(tools\/call long_task\)'s broken attempt's partial output/);
    expect(fromFile.findings.filter((x) => x.code === 'lossy-output-carried').map((x) => x.message)).toEqual([f.message]);
    // Timeline: the carried link drawn next to the re-issue link.
    await showTab(h.panel, 'timeline');
    await waitFor(() => h.panel.eval(`[...document.querySelectorAll('[data-testid=timeline-request-link]')].some((e) => e.dataset.kind === 'carried')`), { message: 'carried link in the timeline' });
    const header = await h.panel.eval<string[]>(`[...document.querySelectorAll('[data-testid=request-link]')].map((e) => e.dataset.kind)`);
    expect(header).toContain('carried');
    // Requests view: request 3 names the request whose output it carries, and opens it on a click.
    await showTab(h.panel, 'requests');
    await h.panel.eval(`document.querySelector('[data-testid=request-row][data-request-id="3"]').click()`);
    await waitFor(() => h.panel.eval(`!!document.querySelector('[data-testid=request-carriesFrom]')`), { message: 'request 3 detail: carries output of' });
    expect(await h.panel.eval<string>(`document.querySelector('[data-testid=request-carriesFrom]').textContent`)).toBe('request 1');
    await clickTestId(h.panel, 'request-carriesFrom');
    await waitFor(() => h.panel.eval(`document.querySelector('[data-testid=request-row][data-request-id="1"]')?.getAttribute('aria-selected') === 'true'`), { message: 'request 1 selected' });
    expect(await h.panel.eval<string>(`document.querySelector('[data-testid=request-carriedInto]')?.textContent ?? ''`)).toBe('request 3');
    {
      const fe = await h.browser.cdp.attach((await devtoolsFrontend(h.browser)).targetId);
      await screenshot(h.browser.cdp, fe, 'client-use-fed-forward-requests');
    }
    await shot('client-use-fed-forward-right');
    await setDockSide(h.browser, 'bottom');
    try {
      const s = await uiState(h.panel);
      expect(s.sessions.length).toBeGreaterThan(0);
      await shot('client-use-fed-forward-bottom');
    } finally {
      await setDockSide(h.browser, 'right');
    }
  });

  it('modern-reissue-loop: one client-retry-loop for the three attempts', async () => {
    const { snap } = await run('modern-reissue-loop', ['client-retry-loop']);
    const loops = snap.findings.filter((x: any) => x.code === 'client-retry-loop');
    expect(loops).toHaveLength(1);
    expect(loops[0].message).toMatch(/3 times in a row, re-issuing it after each broken attempt, without success; intervals between attempts: .* \(NO growing back-off\)/);
  });

  it('modern-listen-narrowed: the empty honoured set (error) and the narrowed one (warning), the worst on the first screen', async () => {
    const { snap, fromFile } = await run('modern-listen-narrowed', ['listen-narrowed'], (s) => s.findings.filter((x: any) => x.code === 'listen-narrowed').length >= 2);
    const f = snap.findings.filter((x: any) => x.code === 'listen-narrowed').map((x: any) => [x.requestId, x.severity]);
    expect(f).toEqual([
      ['"listen:0"', 'error'],
      ['"listen:1"', 'warning'],
    ]);
    expect(fromFile.findings.filter((x) => x.code === 'listen-narrowed')).toHaveLength(2);
    await showTab(h.panel, 'timeline');
    const s = await waitFor(async () => {
      const u = await uiState(h.panel);
      return u.worst?.code === 'listen-narrowed' ? u : null;
    }, { timeoutMs: 10_000, message: 'worst finding: listen-narrowed' });
    expect(s.worst!.onFirstScreen).toBe(true);
    await shot('client-use-listen-narrowed-right');
    await setDockSide(h.browser, 'bottom');
    try {
      await shot('client-use-listen-narrowed-bottom');
    } finally {
      await setDockSide(h.browser, 'right');
    }
  });
});

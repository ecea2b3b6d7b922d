// Issue 19 in the real panel in real DevTools: the SDK v2 client in the page (the demo page with
// ?sdk=v2, @modelcontextprotocol/client 2.4 bundled by vite) calls purge_task, which the SDK v2
// fixture server's tools/list declares destructiveHint: true, idempotentHint: false; the server
// cuts the call's 2026-07-28 stream after 2 chunks, the application re-issues the call under a new
// id and the tool runs again. The panel names it on its first screen (the worst-finding callout,
// with what to do), docked right and docked bottom; the Requests view lists the code on both
// requests; screenshots of both layouts (test-artifacts/screenshots/, copied to /tmp).

import { copyFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoServer } from '../../demo/server';
import { analyzeRecords } from '../../src/core';
import { importText } from '../../src/core/import';
import type { Harness } from '../support/extension';
import { devtoolsFrontend, setDockSide } from '../support/devtools';
import { clickTestId, screenshot, showTab, uiState, type UiState } from '../support/panel-ui';
import { waitFor } from '../support/wait';
import { openDemoPanel } from './demo-panel';

const NAME = 'modern-reissue-destructive';
let demo: DemoServer;
let h: Harness;

beforeAll(async () => {
  ({ demo, h } = await openDemoPanel({ sdk: 'v2', mode: NAME }, { sdk: 'v2', mode: NAME, chunks: 6, delayMs: 40 }));
}, 180_000);

afterAll(async () => {
  await h?.close();
  await demo?.close();
});

/** The first screen (timeline tab) until the worst finding is the destructive re-run, with its advice shown. */
async function firstScreen(what: string): Promise<UiState & { advice: string | null }> {
  let last: (UiState & { advice: string | null }) | undefined;
  await waitFor(
    async () => {
      await showTab(h.panel, 'timeline');
      const state = await uiState(h.panel);
      const advice = await h.panel.eval<string | null>(`document.querySelector('[data-testid=worst-finding] .callout-advice')?.textContent ?? null`);
      last = { ...state, advice };
      return state.worst?.code === 'destructive-tool-rerun' && state.worst.onFirstScreen;
    },
    { timeoutMs: 20_000, message: () => `${what}: destructive-tool-rerun on the first screen; the panel showed ${JSON.stringify(last).slice(0, 2000)}` },
  );
  return last!;
}

async function shoot(name: string): Promise<string> {
  const fe = await h.browser.cdp.attach((await devtoolsFrontend(h.browser)).targetId);
  const p = await screenshot(h.browser.cdp, fe, name);
  copyFileSync(p, `/tmp/${name}.png`);
  return p;
}

describe('the panel: a destructive tool re-issued after its stream broke (SDK v2 in the page)', () => {
  it('names destructive-tool-rerun on the first screen, docked right and bottom, and on both requests', async () => {
    await clickTestId(h.panel, 'tb-clear');
    await waitFor(() => h.panel.eval(`globalThis.__MSI_UI__.snapshot().sessions.length === 0`), { message: 'panel cleared' });
    const outcome = await h.evalPage<any>(`window.__demo.run(${JSON.stringify(NAME)})`);
    expect(outcome.sdk).toBe('v2');
    expect(outcome.era).toBe('modern');
    // the application re-issued the call: two attempts, the second one answered
    expect(outcome.v2?.attempts).toBe(2);
    const snap = await waitFor(
      async () => {
        const s = await h.panel.eval<any>('globalThis.__MSI_UI__.snapshot()');
        return s.findings.some((f: any) => f.code === 'destructive-tool-rerun') ? s : null;
      },
      { timeoutMs: 20_000, message: 'destructive-tool-rerun in the live panel' },
    );
    const f = snap.findings.find((x: any) => x.code === 'destructive-tool-rerun');
    expect(f).toMatchObject({ severity: 'error', requestId: '2', relatedRequestIds: ['1'] });
    expect(f.message).toContain('purge_task');
    expect(f.message).toContain('destructiveHint: true');
    // the panel's own export gives the same finding
    const file = analyzeRecords(importText(await h.panel.eval<string>(`globalThis.__MSI_UI__.exportAs('json')`)).records);
    expect(file.findings.filter((x) => x.code === 'destructive-tool-rerun').map((x) => x.message)).toEqual([f.message]);

    await setDockSide(h.browser, 'right');
    const right = await firstScreen('docked right');
    expect(right.advice).toContain('idempotency key');
    expect(right.worst!.text).toContain('sent again after request 1');
    await shoot('client-a-destructive-rerun-right');

    await setDockSide(h.browser, 'bottom');
    try {
      const bottom = await firstScreen('docked bottom');
      expect(bottom.worst!.onFirstScreen).toBe(true);
      expect(bottom.worst!.text).toContain('sent again after request 1');
      await shoot('client-a-destructive-rerun-bottom');
    } finally {
      await setDockSide(h.browser, 'right');
    }

    // The Requests view: both attempts carry the code; the re-issue's detail says what to do.
    await showTab(h.panel, 'requests');
    const rows = await waitFor(
      () =>
        h.panel.eval<{ id: string; codes: string }[]>(`[...document.querySelectorAll('[data-testid=request-row]')].map((r) => ({ id: r.dataset.requestId, codes: r.querySelector('.codes')?.textContent ?? '' }))`).then((rs) =>
          rs.filter((r) => r.codes.includes('destructive-tool-rerun')).length === 2 ? rs : null,
        ),
      { timeoutMs: 10_000, message: 'both tools/call rows list destructive-tool-rerun' },
    );
    expect(rows.filter((r) => r.codes.includes('destructive-tool-rerun')).map((r) => r.id)).toEqual(['1', '2']);
    await h.panel.eval(`document.querySelector('[data-testid=request-row][data-request-id="2"]').click()`);
    const advice = await waitFor(() => h.panel.eval<string | null>(`document.querySelector('[data-testid=request-advice]')?.textContent ?? null`), { timeoutMs: 10_000, message: 'request advice' });
    expect(advice).toContain('read the state it changes');
    await shoot('client-a-destructive-rerun-requests');
  });
});

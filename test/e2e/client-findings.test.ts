// Issue 19 in the real panel in real DevTools: the SDK v2 client in the page (the demo page with
// ?sdk=v2, @modelcontextprotocol/client 2.4 bundled by vite) calls purge_task, which the SDK v2
// fixture server's tools/list declares destructiveHint: true, idempotentHint: false; the server
// cuts the call's 2026-07-28 stream after 2 chunks, the application re-issues the call under a new
// id and the tool runs again. The panel names it on its first screen (the worst-finding callout,
// with what to do), docked right and docked bottom; the Requests view lists the code on both
// requests; screenshots of both layouts (test-artifacts/screenshots/, copied to /tmp).
// Then the results delivered and not taken (a result written as `event: result`) with the SDK v2
// client (2025 era) and, on the v1 page, the SDK v1 client; and duplicated output accepted (the v1
// client against a replay that starts early): the live panel's findings, the Findings view's
// advice, the Requests view's `duplicated` verdict.

import { copyFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoServer } from '../../demo/server';
import { analyzeRecords } from '../../src/core';
import { importText } from '../../src/core/import';
import { navigate, type Harness } from '../support/extension';
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
    // This harness's window is about 410 px high: a short panel shows the callout's header line
    // (code, request, the attempt it repeats) and leaves the advice to the finding's detail.
    if (right.advice !== null) expect(right.advice).toContain('idempotency key');
    expect(right.worst!.text).toContain('repeats request 1');
    await shoot('client-a-destructive-rerun-right');

    await setDockSide(h.browser, 'bottom');
    try {
      const bottom = await firstScreen('docked bottom');
      expect(bottom.worst!.onFirstScreen).toBe(true);
      expect(bottom.worst!.text).toContain('repeats request 1');
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
    expect(await selectFinding('destructive-tool-rerun')).toContain('idempotency key');
  });
});

/** Clear the panel, run `mode` on the page's agent, wait until the live panel has `code`. */
async function runUntil(mode: string, code: string): Promise<any> {
  // The previous run's client may still close or reconnect a stream after a clear (the v1 client's
  // resume after a timed-out call): clear again until the panel stays empty.
  await waitFor(
    async () => {
      await clickTestId(h.panel, 'tb-clear');
      return h.panel.eval<boolean>(`globalThis.__MSI_UI__.snapshot().sessions.length === 0`);
    },
    { timeoutMs: 20_000, message: 'panel cleared' },
  );
  const outcome = await h.evalPage<any>(`window.__demo.run(${JSON.stringify(mode)})`);
  const snap = await waitFor(
    async () => {
      const s = await h.panel.eval<any>('globalThis.__MSI_UI__.snapshot()');
      return s.findings.some((f: any) => f.code === code) ? s : null;
    },
    { timeoutMs: 20_000, message: `${mode}: ${code} in the live panel` },
  );
  return { outcome, snap };
}

async function selectFinding(code: string): Promise<string> {
  await showTab(h.panel, 'findings');
  await waitFor(() => h.panel.eval<boolean>(`!!document.querySelector('[data-testid=finding-row][data-code="${code}"]')`), { timeoutMs: 10_000, message: `${code} row in the Findings view` });
  await h.panel.eval(`document.querySelector('[data-testid=finding-row][data-code="${code}"]').click()`);
  return waitFor(() => h.panel.eval<string | null>(`document.querySelector('[data-testid=finding-advice]')?.textContent ?? null`), { timeoutMs: 10_000, message: `${code}: advice in the finding detail` });
}

describe('results delivered and not taken, duplicated output (SDK v1 and v2 clients in the page)', () => {
  it('SDK v2 client, 2025 era: the result in `event: result` is result-not-taken on the first screen, never result-missing', async () => {
    const { outcome, snap } = await runUntil('legacy-result-event-type', 'result-not-taken');
    expect(outcome.callSucceeded).toBe(false);
    const codes = snap.findings.map((f: any) => f.code);
    expect(codes).not.toContain('result-missing');
    expect(snap.findings.find((f: any) => f.code === 'result-not-taken').message).toContain('SSE event of type "result"');
    const screen = await waitFor(async () => {
      await showTab(h.panel, 'timeline');
      const st = await uiState(h.panel);
      return st.worst?.code === 'result-not-taken' && st.worst.onFirstScreen ? st : null;
    }, { timeoutMs: 10_000, message: 'result-not-taken is the worst finding, on the first screen' });
    expect(screen.worst!.onFirstScreen).toBe(true);
    expect(await selectFinding('result-not-taken')).toContain('"message" event');
    await shoot('client-a-result-not-taken-v2');
  });

  it('SDK v1 client: the same fault gives result-not-taken; a replay that starts early gives duplicate-output-accepted and the verdict duplicated', async () => {
    await navigate(h, `${demo.origin}/?sdk=v1&mode=result-event-type&timeoutMs=2000&chunks=6&delayMs=40`);
    await waitFor(() => h.evalPage('typeof window.__demo?.run === "function"'), { message: 'v1 demo page ready' });
    expect(await h.evalPage<string>('window.__demo.config.sdk')).toBe('v1');
    const a = await runUntil('result-event-type', 'result-not-taken');
    expect(a.outcome.callSucceeded).toBe(false);
    expect(a.snap.findings.map((f: any) => f.code)).not.toContain('result-missing');

    const b = await runUntil('duplicate-replay', 'duplicate-output-accepted');
    expect(b.outcome.callSucceeded).toBe(true);
    expect(b.outcome.hashMatches).toBe(false); // the agent accumulated a chunk twice
    const reqs = Object.values(b.snap.requests as Record<string, any[]>).flat();
    expect(reqs.find((r: any) => r.method === 'tools/call').verdict).toBe('duplicated');
    expect(b.snap.findings.map((f: any) => f.code)).toContain('replay-duplicate');
    await showTab(h.panel, 'requests');
    const verdicts = await waitFor(
      () => h.panel.eval<string[]>(`[...document.querySelectorAll('[data-testid=request-row] [data-verdict]')].map((e) => e.dataset.verdict)`).then((v) => (v.includes('duplicated') ? v : null)),
      { timeoutMs: 10_000, message: 'the Requests view shows the verdict duplicated' },
    );
    expect(verdicts).toContain('duplicated');
    expect(await selectFinding('duplicate-output-accepted')).toContain('de-duplicate what the request accumulated');
    await shoot('client-a-duplicate-output-v1');
  });
});

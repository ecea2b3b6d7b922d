// Faults from the panel in the 2026-07-28 era (issue 14 item 1): the official SDK v2 client in the
// demo page (modern-baseline: a correct modern server, nothing breaks on its own) and the real
// panel's "Does it re-issue after a broken stream (2026-07-28)?" preset. The tools/call stream
// breaks after its first event; there is no resumption in that revision, so the only correct
// answer is a re-issue. The SDK v2 client alone waits for its timeout: the preset says so, and the
// broken stream's record says it was the panel.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../demo/server';
import type { CaptureRecord, FaultRecord } from '../../src/core/record';
import { devtoolsFrontend } from '../support/devtools';
import { openInspected, waitForRecords, type Harness } from '../support/extension';
import { clickTestId, screenshot } from '../support/panel-ui';
import { waitFor } from '../support/wait';

let demo: DemoServer;
let h: Harness;

beforeAll(async () => {
  demo = await startDemoServer({ sdk: 'v2', mode: 'modern-baseline' });
  h = await openInspected(`${demo.pageUrl({ sdk: 'v2', mode: 'modern-baseline' })}&chunks=4&delayMs=60&timeoutMs=2500`);
  await waitFor(() => h.evalPage('typeof window.__demo?.run === "function"'), { message: 'demo page ready' });
  await waitFor(() => h.panel.eval(`typeof globalThis.__MSI_UI__ === 'object'`), { message: 'inspector UI mounted in the panel' });
}, 180_000);

afterAll(async () => {
  await h?.close();
  await demo?.close();
});

const faultsOf = (rs: CaptureRecord[]) => rs.filter((r): r is FaultRecord => r.kind === 'fault');

describe('faults from the panel, 2026-07-28 era, SDK v2 client', () => {
  it('a broken request stream: the fault is recorded on the modern tools/call, and the preset says the client did not re-issue', async () => {
    await clickTestId(h.panel, 'tb-faults');
    await clickTestId(h.panel, 'fault-arm-reissue-after-break');
    await waitFor(() => h.panel.eval(`document.querySelector('[data-testid=tb-faults]').dataset.armed === '2'`), { message: 'two faults armed' });
    const out = await h.evalPage<any>(`window.__demo.run('modern-baseline')`);
    expect(out.era ?? out.v2?.era).toBe('modern');
    expect(out.callSucceeded).toBe(false); // the stream broke; no re-issue, so the call timed out

    const records = await waitForRecords(h.panel, (rs) => faultsOf(rs).some((f) => f.fault === 'cut'), 'cut fault record');
    const cut = faultsOf(records).find((f) => f.fault === 'cut')!;
    expect(cut).toMatchObject({ origin: 'panel', afterEvents: 1, how: 'reset' });
    const req = records.find((r) => r.kind === 'request' && r.src === cut.src && r.conn === cut.conn) as Extract<CaptureRecord, { kind: 'request' }>;
    expect(req.body).toContain('"tools/call"');
    const end = records.find((r) => r.kind === 'end' && r.src === cut.src && r.conn === cut.conn);
    expect(end).toMatchObject({ how: 'network-error', reason: 'TypeError: network error' });
    // No GET + Last-Event-ID in this revision: nothing resumed it.
    expect(records.some((r) => r.kind === 'request' && r.headers.some(([k]) => k.toLowerCase() === 'last-event-id'))).toBe(false);

    await waitFor(() => h.panel.eval(`document.querySelector('[data-testid=fault-verdict-reissue-after-break]')?.dataset.outcome === 'fail'`), {
      timeoutMs: 20_000,
      message: 'reissue-after-break verdict: fail',
    });
    const verdict = await h.panel.eval<string>(`document.querySelector('[data-testid=fault-verdict-reissue-after-break]').textContent`);
    expect(verdict).toMatch(/did not re-issue tools\/call/);
    const fe = await h.browser.cdp.attach((await devtoolsFrontend(h.browser)).targetId);
    await screenshot(h.browser.cdp, fe, 'faults-modern-reissue-verdict');
    await clickTestId(h.panel, 'fault-disarm-all');
  });
});

// Backpressure: a page that reads an event stream slowly must look exactly as slow to the server
// with the extension as without it. The server writes a large SSE stream as fast as the socket
// accepts (waiting for 'drain'), and we count the bytes it could write in WINDOW_MS.
//
// Tolerance: with/without within a factor of TOLERANCE (1.3). What the server can write in the
// window is the page's consumption (a few chunks) plus what the loopback socket buffers and
// Chrome's network buffers hold (~65-75 MB here); those vary run to run by about 10-15 %
// (measured: 64-75 MB without the extension), so figures are compared by ratio with room for that
// noise but far below what read-ahead produces. A hook that reads ahead of the page (an eagerly
// read clone or tee) drains the socket at memory speed: the control does exactly that without the
// extension and lets the server write ~8-10x more (measured 524-691 MB vs 64-72 MB; 230 MB vs 64 MB
// with the machine loaded by other work), so a read-ahead hook could not pass. Measured with vs
// without: ratios 0.93-1.06 (1.16 once in an earlier configuration); a round disturbed by other
// processes (0.55 seen once at load average 12) is re-measured, see the test.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type Browser } from '../support/browser';
import { openInspected, waitForRecords, type Harness } from '../support/extension';
import { startTestServer, type TestServer } from '../support/server';
import { waitFor } from '../support/wait';

const WINDOW_MS = 3000;
const TOLERANCE = 1.3;
const EVENT = `data: ${'x'.repeat(16 * 1024)}\n\n`;
const READ_EVERY_MS = 1000;

let server: TestServer;
const written = new Map<string, number>();

function slowReader(run: string, eagerClone = false) {
  return `(() => { window.bpDone = (async () => {
    const r = await fetch('/bp?run=${run}', { headers: { accept: 'text/event-stream' } });
    ${eagerClone ? "r.clone().arrayBuffer().catch(() => {});" : ''}
    const rd = r.body.pipeThrough(new TextDecoderStream()).getReader(); let n = 0;
    try { for (;;) { const { done, value } = await rd.read(); if (done) break; n += value.length; await new Promise((f) => setTimeout(f, ${READ_EVERY_MS})); } } catch (e) {}
    return n; })(); return true; })()`;
}

async function measure(evalPage: (e: string) => Promise<unknown>, run: string, eagerClone = false): Promise<number> {
  await evalPage(slowReader(run, eagerClone));
  return waitFor(() => written.get(run), { timeoutMs: WINDOW_MS + 10_000, message: `server result for ${run}` });
}

beforeAll(async () => {
  server = await startTestServer();
  server.page('/bp.html', '<!doctype html><title>bp</title><body>backpressure</body>');
  server.route('/bp', (req, res) => {
    const run = new URL(req.url!, 'http://x').searchParams.get('run')!;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    let n = 0;
    let stopped = false;
    const pump = () => {
      while (!stopped) {
        n += EVENT.length;
        if (!res.write(EVENT)) {
          res.once('drain', pump);
          return;
        }
      }
    };
    setTimeout(() => {
      stopped = true;
      written.set(run, n);
      res.destroy();
    }, WINDOW_MS);
    pump();
  });
});

afterAll(async () => {
  await server?.close();
});

describe('backpressure', () => {

  it('the measurement detects read-ahead: an eagerly read clone lets the server write far more', async () => {
    // Without DevTools (DevTools' own per-chunk logging slows an eager reader down).
    const b: Browser = await launchBrowser({ extension: false, devtools: false, url: server.url('/bp.html') });
    let slow = 0;
    let eager = 0;
    try {
      const s = await b.attachPage('/bp.html');
      const ev = (e: string) => b.cdp.evaluate(s, e);
      slow = await measure(ev, 'control-slow');
      eager = await measure(ev, 'control-eager-clone', true);
    } finally {
      await b.close();
    }
    console.log(`backpressure control (no DevTools): slow page ${slow} B, slow page + eager clone ${eager} B in ${WINDOW_MS} ms`);
    // ~8-10x on an idle machine, >3x measured under heavy load from other processes
    expect(eager / slow).toBeGreaterThan(2);
  });

  it('with the extension the server is held back as much as without it (DevTools open in both)', async () => {
    // One round = the slow page without the extension, then with it (one browser at a time).
    // Other processes on a shared machine can slow one run of a round; when a round's ratio is
    // outside the tolerance, up to two more rounds are made and the median ratio decides. A hook
    // that reads ahead gives ~8-10x every round, so it cannot pass this way.
    const ratios: number[] = [];
    for (let round = 1; round <= 3; round++) {
      const b: Browser = await launchBrowser({ extension: false, devtools: true, url: server.url('/bp.html') });
      let baseline = 0;
      try {
        const s = await b.attachPage('/bp.html');
        baseline = await measure((e) => b.cdp.evaluate(s, e), `baseline-${round}`);
      } finally {
        await b.close();
      }
      const h: Harness = await openInspected(server.url('/bp.html'));
      let withExt = 0;
      try {
        withExt = await measure((e) => h.evalPage(e), `with-extension-${round}`);
        // the hook was really in the path: the stream was captured
        await waitForRecords(h.panel, (rs) => rs.some((r) => r.kind === 'chunk' && r.text.startsWith('data: xxx')), 'captured /bp chunks');
      } finally {
        await h.close();
      }
      const ratio = withExt / baseline;
      ratios.push(ratio);
      console.log(`backpressure round ${round}: without extension ${baseline} B, with extension ${withExt} B in ${WINDOW_MS} ms, ratio ${ratio.toFixed(2)}`);
      if (round === 1 && ratio < TOLERANCE && ratio > 1 / TOLERANCE) break;
    }
    const median = [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!;
    expect(median).toBeLessThan(TOLERANCE);
    expect(median).toBeGreaterThan(1 / TOLERANCE);
  });
});

// Backpressure: a page that reads an event stream slowly must look exactly as slow to the server
// with the extension as without it. The server writes 16 KB SSE events as fast as the socket
// accepts them (waiting for 'drain'); the page reads three chunks, one a second, then holds the
// stream without reading. Once every buffer between them is full the server can write no more:
// what it wrote by then is the page's consumption (a few chunks) plus what the loopback socket
// and Chrome hold (~64-71 MB here). A hook that read ahead of the page (an eagerly read clone or
// tee) drains the socket at memory speed and the server never stops: the control does exactly
// that without the extension.
//
// Why the count is taken when the server's writes have stopped, not after a fixed window: with
// DevTools open, DevTools' front end sometimes has the browser copy the stream's body to it
// (Network.streamResourceContent, then every chunk base64-encoded on the page's renderer thread).
// In those runs the renderer drains Chrome's buffers in bursts with pauses of up to ~3.8 s (page
// main-thread gaps measured by a 10 ms timer), so the server reached 40-49 MB instead of 64-69 MB
// in a 3 s window; it happened in about a third of the runs with the extension *and* without it
// when DevTools was ready before the page loaded (as the extension harness opens it), and failed
// CI once (median ratio 0.68). Measured to the stop, the same runs held 64-71 MB whichever way
// DevTools went: the buffers' size does not depend on how fast Chrome drains them.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type Browser } from '../support/browser';
import { openInspected, waitForRecords, type Harness } from '../support/extension';
import { startTestServer, type TestServer } from '../support/server';
import { waitFor } from '../support/wait';

const TOLERANCE = 1.3;
const EVENT = `data: ${'x'.repeat(16 * 1024)}\n\n`;
const READS = 3;
const READ_EVERY_MS = 1000;
/** The server's writes have stopped when none went through for this long (with the page answering in between). */
const STILL_MS = 2000;
/** An eager reader never lets the server stop: its count is taken here (or it reaches its `limit`). */
const MAX_MS = 12_000;

let server: TestServer;
interface Writer {
  written: number;
  lastWrite: number;
  stop(): void;
}
const writers = new Map<string, Writer>();
/** Bytes after which the server writes no more for a run (the eager control's cap). */
const limits = new Map<string, number>();

function slowReader(run: string, eagerClone = false) {
  return `(() => { window.bpDone = (async () => {
    const r = await fetch('/bp?run=${run}', { headers: { accept: 'text/event-stream' } });
    ${eagerClone ? 'r.clone().arrayBuffer().catch(() => {});' : ''}
    const rd = r.body.pipeThrough(new TextDecoderStream()).getReader(); let n = 0;
    for (let i = 0; i < ${READS}; i++) { const { done, value } = await rd.read(); if (done) break; n += value.length; await new Promise((f) => setTimeout(f, ${READ_EVERY_MS})); }
    window.bpReader = rd; // held, unread, until the browser closes
    return n; })(); return true; })()`;
}

/**
 * Bytes the server wrote once its writes stopped: none for STILL_MS, during which the page's
 * thread answered twice (a renderer busy for seconds, as DevTools' copy can make it, has not
 * drained what it will drain). Or at MAX_MS, for a reader that never stops. The server writes
 * no more than `limit` bytes (the eager control would otherwise put gigabytes in the browser).
 */
async function measure(evalPage: (e: string) => Promise<unknown>, run: string, eagerClone = false, limit = Infinity): Promise<number> {
  const t0 = Date.now();
  limits.set(run, limit);
  await evalPage(slowReader(run, eagerClone));
  const w = await waitFor(() => writers.get(run), { timeoutMs: 10_000, message: `request of ${run}` });
  await evalPage('window.bpDone'); // the page's reads (READS seconds)
  for (;;) {
    if (Date.now() - t0 > MAX_MS) break;
    const before = w.written;
    await evalPage('0');
    await new Promise((r) => setTimeout(r, STILL_MS / 2));
    await evalPage('0');
    if (w.written === before && Date.now() - w.lastWrite >= STILL_MS) break;
  }
  w.stop();
  return w.written;
}

beforeAll(async () => {
  server = await startTestServer();
  server.page('/bp.html', '<!doctype html><title>bp</title><body>backpressure</body>');
  server.route('/bp', (req, res) => {
    const run = new URL(req.url!, 'http://x').searchParams.get('run')!;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const limit = limits.get(run) ?? Infinity;
    let stopped = false;
    const w: Writer = {
      written: 0,
      lastWrite: Date.now(),
      stop() {
        stopped = true;
        res.destroy();
      },
    };
    writers.set(run, w);
    const pump = () => {
      while (!stopped && w.written < limit) {
        w.written += EVENT.length;
        w.lastWrite = Date.now();
        if (!res.write(EVENT)) {
          res.once('drain', pump);
          return;
        }
      }
    };
    pump();
  });
});

afterAll(async () => {
  for (const w of writers.values()) w.stop();
  await server?.close();
});

const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

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
      eager = await measure(ev, 'control-eager-clone', true, 10 * slow);
    } finally {
      await b.close();
    }
    console.log(`backpressure control (no DevTools): slow page ${mb(slow)}, slow page + eager clone ${mb(eager)} (the server stops at ${mb(10 * slow)})`);
    expect(eager / slow).toBeGreaterThan(5);
  });

  it('with the extension the server is held back as much as without it (DevTools open in both)', async () => {
    // One round = the slow page without the extension, then with it (one browser at a time).
    // Other processes on a shared machine can disturb one run of a round; when a round's ratio is
    // outside the tolerance, up to two more rounds are made and the median ratio decides. A hook
    // that reads ahead never lets the server stop, every round, so it cannot pass this way.
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
      console.log(`backpressure round ${round}: without extension ${mb(baseline)}, with extension ${mb(withExt)} when the server's writes stopped, ratio ${ratio.toFixed(2)}`);
      if (round === 1 && ratio < TOLERANCE && ratio > 1 / TOLERANCE) break;
    }
    const median = [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!;
    expect(median).toBeLessThan(TOLERANCE);
    expect(median).toBeGreaterThan(1 / TOLERANCE);
  });
});

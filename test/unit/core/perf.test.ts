// Incremental cost: pushing is amortized O(1) per event; a snapshot after every batch (as the
// panel does) copies only what changed, so the total stays far from quadratic.
import { expect, it } from 'vitest';
import { createAnalyzer } from '../../../src/core/analyzer';
import { Capture, call, ev, initSession, message, progress } from './helpers';

function build(n: number) {
  const c = new Capture();
  initSession(c);
  const p = c.request({ sessionId: 'sess-1', body: call(2) });
  c.response(p);
  for (let i = 1; i <= n; i++) c.chunk(p, ev(String(i), i % 2 ? progress(2, i) : message(`chunk ${i}`)));
  return c.records;
}

function time(n: number, snapshots: boolean): number {
  const records = build(n);
  let best = Infinity;
  for (let k = 0; k < 3; k++) {
    const a = createAnalyzer();
    const t0 = performance.now();
    for (let i = 0; i < records.length; i += 50) {
      a.pushAll(records.slice(i, i + 50));
      if (snapshots) a.snapshot();
    }
    a.snapshot();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

it('push is linear; push + snapshot per batch stays well below quadratic', () => {
  time(4000, true); // warm up
  const pushSmall = time(8000, false);
  const pushBig = time(32000, false);
  const snapSmall = time(8000, true);
  const snapBig = time(32000, true);
  console.log(`push: 8k ${pushSmall.toFixed(0)} ms, 32k ${pushBig.toFixed(0)} ms; with snapshots: 8k ${snapSmall.toFixed(0)} ms, 32k ${snapBig.toFixed(0)} ms`);
  // 4x the events: linear is 4x, quadratic 16x. Generous bounds for a loaded CI machine.
  expect(pushBig).toBeLessThan(Math.max(pushSmall * 8, 200));
  expect(snapBig).toBeLessThan(Math.max(snapSmall * 13, 300));
}, 120_000);

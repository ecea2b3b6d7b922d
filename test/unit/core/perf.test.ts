// Incremental cost: many events pushed in small batches with a snapshot after each batch (as the
// panel does) must stay roughly linear, not quadratic.
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

function time(n: number): number {
  const records = build(n);
  const a = createAnalyzer();
  const t0 = performance.now();
  for (let i = 0; i < records.length; i += 50) {
    a.pushAll(records.slice(i, i + 50));
    a.snapshot();
  }
  return performance.now() - t0;
}

it('push + snapshot per batch scales about linearly', () => {
  time(5000); // warm up
  time(5000);
  const small = time(8000);
  const big = time(32000);
  // 4x the events: allow up to 10x the time (quadratic would be 16x), plus noise for tiny runs
  console.log(`8k events: ${small.toFixed(0)} ms, 32k events: ${big.toFixed(0)} ms`);
  expect(big).toBeLessThan(Math.max(small * 10, 300));
}, 60_000);

// The analysis of a source: time-sliced, incremental, restarted on a clear or new settings.
import { describe, expect, it } from 'vitest';
import { createAnalyzer } from '../../../core';
import type { AnalysisSnapshot } from '../../../core/model';
import { normalizeSettings } from '../settings/settings';
import { createStaticSource } from '../sources/static-source';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importText } from '../../../core/import';
import { createMutableSource } from '../sources/static-source';
import { CAPTURES_DIR, captureRecords, coreAnalyzer } from '../test-support/fixtures';
import { createAnalysis, EMPTY_SNAPSHOT } from './analysis';
import type { Analyzer } from './types';

const lossyRecords = () => captureRecords('lossy').slice();

function busy(ms: number) {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    /* spin */
  }
}

describe('time-sliced analysis', () => {
  it('publishes a first snapshot after one slice, shows progress, feeds each record once, finishes last', () => {
    const log = { pushed: 0, finished: 0, snapshots: 0 };
    const factory = (): Analyzer => {
      let n = 0;
      return {
        push: () => {
          busy(1);
          log.pushed++;
          n++;
        },
        snapshot: () => {
          log.snapshots++;
          return { ...EMPTY_SNAPSHOT, recordCount: n, finished: log.finished > 0 };
        },
        finish: () => void log.finished++,
      };
    };
    const queue: (() => void)[] = [];
    const recs = lossyRecords();
    const total = Math.min(recs.length, 40);
    const m = createAnalysis({ source: createStaticSource(recs.slice(0, total)), analyzerFactory: factory, settings: normalizeSettings(undefined), throttleMs: 0, sliceMs: 5, yieldTo: (cb: () => void) => queue.push(cb) });
    const first = m.getSnapshot().recordCount;
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(total);
    expect(m.getProgress()).toEqual({ fed: first, total, importing: false });
    expect(log.finished).toBe(0);
    let published = 0;
    m.subscribe(() => published++);
    let slices = 0;
    while (queue.length) {
      queue.shift()!();
      slices++;
      expect(slices).toBeLessThan(100);
    }
    expect(slices).toBeGreaterThan(1);
    expect(published).toBeGreaterThan(0);
    expect(m.getSnapshot().recordCount).toBe(total);
    expect(m.getProgress()).toBeUndefined();
    expect(log.pushed).toBe(total);
    expect(log.finished).toBe(1);
    expect(m.getSnapshot().finished).toBe(true);
  });

  it('flush() completes a sliced analysis at once (exports, the test hook); a stale slice does nothing', () => {
    const queue: (() => void)[] = [];
    let pushed = 0;
    const factory = (): Analyzer => {
      let n = 0;
      return { push: () => (busy(1), pushed++, n++), snapshot: () => ({ ...EMPTY_SNAPSHOT, recordCount: n }), finish: () => {} };
    };
    const recs = lossyRecords();
    const n = recs.length;
    const m = createAnalysis({ source: createStaticSource(recs), analyzerFactory: factory, settings: normalizeSettings(undefined), throttleMs: 0, sliceMs: 3, yieldTo: (cb: () => void) => queue.push(cb) });
    expect(m.getProgress()).toBeDefined();
    expect(m.flush().recordCount).toBe(n);
    expect(m.getProgress()).toBeUndefined();
    for (const cb of queue.splice(0)) cb();
    expect(pushed).toBe(n);
    expect(m.getSnapshot().recordCount).toBe(n);
  });

  // Other servers' wire formats (Python SDK, Cloudflare agents, mcp-proxy, tmcp) and HARs exactly
  // as Playwright and DevTools write them (no body for a broken stream): a live source analysed as
  // its records arrive, in slices of one record that run between arrivals, publishes the snapshot
  // that analysing them all at once gives.
  it.each([
    'python-evicted.capture.json',
    'cloudflare-lossy.capture.json',
    'mcp-proxy-evicted.capture.json',
    'tmcp-cut.capture.json',
    'browser/lossy.playwright.har',
    'browser/cors-preflight-rejected.devtools.har',
  ])('a live source fed as its records arrive ends in the snapshot of the whole: %s', (file) => {
    const recs = importText(readFileSync(join(CAPTURES_DIR, file), 'utf8'), { src: 'live' }).records;
    expect(recs.length).toBeGreaterThan(3);
    const settings = normalizeSettings(undefined);
    const queue: (() => void)[] = [];
    const live = createMutableSource([]);
    const fedLive = createAnalysis({ source: live, analyzerFactory: coreAnalyzer, settings, throttleMs: 0, sliceMs: 0, yieldTo: (cb) => void queue.push(cb) });
    const off = fedLive.subscribe(() => {});
    recs.forEach((r, i) => {
      live.push(r);
      if (i % 3 === 2) while (queue.length) queue.shift()!();
    });
    while (queue.length) queue.shift()!();
    // every record was fed as it came, before any flush
    expect(fedLive.getProgress()).toBeUndefined();
    const whole = createAnalysis({ source: createMutableSource(recs), analyzerFactory: coreAnalyzer, settings, sliceMs: Infinity });
    const strip = (x: AnalysisSnapshot) => JSON.parse(JSON.stringify({ ...x, revision: 0 }));
    expect(strip(fedLive.flush())).toEqual(strip(whole.getSnapshot()));
    expect(whole.getSnapshot().recordCount).toBe(recs.length);
    off();
    fedLive.dispose();
  });

  it('a real analysis sliced record by record ends in the same snapshot as an unsliced one', () => {
    const recs = lossyRecords();
    const queue: (() => void)[] = [];
    const factory = () => createAnalyzer();
    const sliced = createAnalysis({ source: createStaticSource(recs), analyzerFactory: factory, settings: normalizeSettings(undefined), throttleMs: 0, sliceMs: 0, yieldTo: (cb: () => void) => queue.push(cb) });
    expect(sliced.getProgress()?.fed).toBe(1);
    while (queue.length) queue.shift()!();
    const whole = createAnalysis({ source: createStaticSource(recs), analyzerFactory: factory, settings: normalizeSettings(undefined), sliceMs: Infinity });
    const strip = (s: AnalysisSnapshot) => JSON.parse(JSON.stringify({ ...s, revision: 0 }));
    expect(strip(sliced.getSnapshot())).toEqual(strip(whole.getSnapshot()));
  });
});


import { describe, expect, it } from 'vitest';
import type { CaptureRecord, RequestRecord } from '../../core/record';
import { matchCaptured, type NetEntry } from '../../core/witness';
import { createCaptureIndex } from './witness-capture-index';
import { createLiveStore } from './store';

const T0 = Date.UTC(2026, 0, 1);
const URLS = ['http://a/mcp', 'http://a/mcp#x', 'http://b/mcp'];

/** A small deterministic generator (the sequences must be the same from run to run). */
function rng(seed: number) {
  let x = seed;
  return () => ((x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

describe('witness capture index: match()', () => {
  it('picks what matchCaptured picks among every unmatched hook request (same method, URL, window, ties by arrival)', () => {
    let hits = 0;
    let misses = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const rand = rng(seed);
      const store = createLiveStore();
      const index = createCaptureIndex(store);
      const all: RequestRecord[] = [];
      const used = new Set<RequestRecord>();
      let seq = 0;
      for (let step = 0; step < 60; step++) {
        // Hook requests arrive out of time order now and then, some at the same millisecond.
        const batch: CaptureRecord[] = [];
        for (let i = 0; i < 3; i++) {
          const r: RequestRecord = {
            kind: 'request', src: 'S', seq: ++seq, t: T0 + Math.floor(rand() * 40) * 250, conn: `c${seq}`, transport: 'fetch',
            method: rand() < 0.8 ? 'POST' : 'GET', url: URLS[Math.floor(rand() * URLS.length)]!, headers: [], body: null,
          };
          batch.push(r);
          all.push(r);
        }
        store.ingest(batch);
        index.update();
        const start = T0 + Math.floor(rand() * 40) * 250;
        const e = {
          startedDateTime: new Date(start).toISOString(),
          time: rand() < 0.2 ? -1 : Math.floor(rand() * 3000),
          request: { method: rand() < 0.8 ? 'POST' : 'GET', url: URLS[Math.floor(rand() * URLS.length)]!, headers: [] },
          response: { status: 200, headers: [] },
          // a worker's now and then: matched by neither
          ...(rand() < 0.1 ? {} : { pageref: 'page_1' }),
        } as unknown as NetEntry;
        const now = T0 + 5000;
        // (a log with page loads, where an entry without pageref is a worker's, or one without)
        const pagerefs = seed % 2 === 0;
        const expected = matchCaptured(e, all, used, now, pagerefs);
        const got = index.match(e, now, pagerefs);
        expect(got).toBe(expected);
        if (got) expect(index.used.has(got)).toBe(true);
        if (got) hits++;
        else misses++;
      }
    }
    // Both outcomes were exercised.
    expect(hits).toBeGreaterThan(100);
    expect(misses).toBeGreaterThan(100);
  });
});

import { describe, expect, it, vi } from 'vitest';
import { createAnalysis, EMPTY_SNAPSHOT } from './analysis';
import { createMutableSource, createStaticSource } from '../sources/static-source';
import { normalizeSettings } from '../settings/settings';
import type { Analyzer } from './types';
import { LONG_STREAM_BYTES } from './stream-ends';
import type { CaptureRecord } from '../../../core/record';
import { captureRecords } from '../test-support/fixtures';
const lossyRecords = () => captureRecords('lossy').slice();

function countingFactory() {
  const log = { created: 0, pushed: 0, finished: 0, snapshots: 0 };
  const factory = (): Analyzer => {
    log.created++;
    let n = 0;
    return {
      push: () => {
        log.pushed++;
        n++;
      },
      snapshot: () => {
        log.snapshots++;
        return { ...EMPTY_SNAPSHOT, recordCount: n };
      },
      finish: () => {
        log.finished++;
      },
    };
  };
  return { log, factory };
}

const recs = lossyRecords();

// These tests read the analysis synchronously: sliceMs Infinity feeds every record at once (with
// the default 12 ms slices, a stalled machine ended the first slice before the record they check).
describe('AppModel', () => {
  it('feeds only new records, and restarts after a clear', () => {
    const { log, factory } = countingFactory();
    const src = createMutableSource(recs.slice(0, 10));
    const m = createAnalysis({ source: src, analyzerFactory: factory, settings: normalizeSettings(undefined), throttleMs: 0, sliceMs: Infinity });
    expect(m.getSnapshot().recordCount).toBe(10);
    src.push(...recs.slice(10, 20));
    expect(m.flush().recordCount).toBe(20);
    src.push(...recs.slice(20));
    expect(m.flush().recordCount).toBe(recs.length);
    expect(log.pushed).toBe(recs.length);
    expect(log.created).toBe(1);
    src.clear();
    expect(m.flush().recordCount).toBe(0);
    src.push(...recs.slice(0, 5));
    expect(m.flush().recordCount).toBe(5);
    expect(log.created).toBe(2);
    expect(log.finished).toBe(0);
  });

  it('throttles publishes while records stream in', async () => {
    const { log, factory } = countingFactory();
    const src = createMutableSource([]);
    const m = createAnalysis({ source: src, analyzerFactory: factory, settings: normalizeSettings(undefined), throttleMs: 50 });
    let published = 0;
    const off = m.subscribe(() => published++);
    for (const r of recs) src.push(r);
    expect(published).toBe(0);
    await new Promise((r) => setTimeout(r, 80));
    expect(published).toBe(1);
    expect(m.getSnapshot().recordCount).toBe(recs.length);
    expect(log.snapshots).toBe(2);
    off();
  });

  it('publishes less often when a publication costs more (at most publishShare of the time)', async () => {
    // Records arrive every 10 ms for 2 s; a publication costs 0 or 20 ms (a fake clock the
    // snapshot advances). At 20 ms and a share of 5 %, publications are at least 400 ms apart.
    const run = async (cost: number) => {
      let t = 0;
      const factory = (): Analyzer => ({
        push: () => {},
        snapshot: () => {
          t += cost;
          return EMPTY_SNAPSHOT;
        },
      });
      const src = createMutableSource([]);
      const m = createAnalysis({ source: src, analyzerFactory: factory, settings: normalizeSettings(undefined), throttleMs: 50, publishShare: 0.05, clock: () => t });
      let published = 0;
      const off = m.subscribe(() => published++);
      for (let i = 0; i < 200; i++) {
        src.push({ ...recs[0]!, seq: i + 1 });
        await vi.advanceTimersByTimeAsync(10);
      }
      off();
      m.dispose();
      return published;
    };
    vi.useFakeTimers();
    try {
      const cheap = await run(0);
      const costly = await run(20);
      expect(cheap).toBeGreaterThanOrEqual(35);
      expect(costly).toBeGreaterThanOrEqual(4);
      expect(costly).toBeLessThanOrEqual(6);
    } finally {
      vi.useRealTimers();
    }
  });

  it('publishes what a burst sent last once the source is quiet, without waiting for the adaptive interval', async () => {
    vi.useFakeTimers();
    try {
      let t = 0;
      let n = 0;
      const factory = (): Analyzer => ({
        push: () => void n++,
        snapshot: () => {
          t += 40; // a costly publication: the adaptive interval is 800 ms
          return { ...EMPTY_SNAPSHOT, recordCount: n };
        },
      });
      const src = createMutableSource([]);
      const m = createAnalysis({ source: src, analyzerFactory: factory, settings: normalizeSettings(undefined), throttleMs: 50, publishShare: 0.05, quietMs: 40, clock: () => t });
      const off = m.subscribe(() => {});
      for (let i = 0; i < 100; i++) {
        src.push({ ...recs[0]!, seq: i + 1 });
        await vi.advanceTimersByTimeAsync(10);
      }
      expect(m.getSnapshot().recordCount).toBeLessThan(100);
      await vi.advanceTimersByTimeAsync(100);
      expect(m.getSnapshot().recordCount).toBe(100);
      off();
      m.dispose();
    } finally {
      vi.useRealTimers();
    }
  });

  it('publishes the records that end a long event stream without the quiet wait; a short one\'s end, or a JSON answer\'s, waits for it (issue 22, row 1c)', async () => {
    vi.useFakeTimers();
    try {
      const base = { src: 'page', t: 0, transport: 'fetch' } as const;
      const stream = (conn: string, capture: 'sse' | 'json', seq: number, bytes: number): CaptureRecord[] => [
        { ...base, seq, conn, kind: 'response', status: 200, statusText: 'OK', headers: [], url: 'http://x/mcp', redirected: false, type: 'basic', capture },
        { ...base, seq: seq + 1, conn, kind: 'chunk', text: 'data: 1\n\n', bytes: bytes - 1 },
        { ...base, seq: seq + 2, conn, kind: 'chunk', text: 'data: 2\n\n', bytes: 1 },
        { ...base, seq: seq + 3, conn, kind: 'end', how: 'complete' },
      ];
      let t = 0;
      const factory = (): Analyzer => {
        let n = 0;
        return {
          push: () => void n++,
          snapshot: () => {
            t += 40; // a costly publication: the adaptive interval is 800 ms
            return { ...EMPTY_SNAPSHOT, recordCount: n };
          },
        };
      };
      const src = createMutableSource([]);
      // quietMs well above throttleMs and below the interval: the quiet wait tells them apart.
      const m = createAnalysis({
        source: src, analyzerFactory: factory, settings: normalizeSettings(undefined), throttleMs: 20, quietMs: 200, publishShare: 0.05, sliceMs: Infinity, clock: () => t,
      });
      const off = m.subscribe(() => {});
      let filler = 1000;
      /** When (fake ms after the push) the records pushed are first in a published snapshot. */
      const shownAfter = async (records: CaptureRecord[]) => {
        // Pushed just after a publication: the adaptive interval (800 ms) is not over.
        src.push({ ...base, seq: filler++, conn: 'filler', kind: 'chunk', text: '', bytes: 0 });
        const before = m.getSnapshot();
        for (let ms = 0; m.getSnapshot() === before && ms < 2000; ms++) await vi.advanceTimersByTimeAsync(1);
        expect(m.getSnapshot()).not.toBe(before);
        const want = m.getRecords().length + records.length;
        src.push(...records);
        for (let ms = 0; ms <= 500; ms += 5) {
          if (m.getSnapshot().recordCount === want) return ms;
          await vi.advanceTimersByTimeAsync(5);
        }
        return Infinity;
      };
      expect(await shownAfter(stream('a', 'sse', 1, LONG_STREAM_BYTES))).toBeLessThanOrEqual(25);
      expect(await shownAfter(stream('b', 'sse', 10, LONG_STREAM_BYTES - 1))).toBeGreaterThanOrEqual(200);
      expect(await shownAfter(stream('c', 'json', 20, 10 * LONG_STREAM_BYTES))).toBeGreaterThanOrEqual(200);
      // A long stream's last chunk without its end waits for the quiet; its end then does not.
      expect(await shownAfter(stream('d', 'sse', 30, LONG_STREAM_BYTES).slice(0, 3))).toBeGreaterThanOrEqual(200);
      expect(await shownAfter(stream('d', 'sse', 30, LONG_STREAM_BYTES).slice(3))).toBeLessThanOrEqual(25);
      off();
      m.dispose();
    } finally {
      vi.useRealTimers();
    }
  });

  it('analyses a live source\'s records as they arrive; the timer publishes them, and a publication only takes the snapshot', async () => {
    vi.useFakeTimers();
    try {
      let pushed = 0;
      /** Records fed inside a publication (the snapshot's clock span): none should be. */
      let fedWhilePublishing = 0;
      let publishing = false;
      const factory = (): Analyzer => {
        let n = 0;
        return {
          push: () => {
            pushed++;
            n++;
            if (publishing) fedWhilePublishing++;
          },
          snapshot: () => ({ ...EMPTY_SNAPSHOT, recordCount: n }),
        };
      };
      const src = createMutableSource([]);
      const slices: (() => void)[] = [];
      const m = createAnalysis({
        // sliceMs 0: a slice is one record (the deadline is past after each)
        source: src, analyzerFactory: factory, settings: normalizeSettings(undefined), throttleMs: 50, quietMs: 40, sliceMs: 0,
        yieldTo: (cb) => void slices.push(cb),
      });
      let published = 0;
      const off = m.subscribe(() => {
        published++;
        publishing = false;
      });
      src.push({ ...recs[0]!, seq: 1 });
      // Fed at once, inside the source's change: nothing published yet, nothing behind.
      expect(pushed).toBe(1);
      expect(published).toBe(0);
      expect(m.getSnapshot().recordCount).toBe(0);
      expect(m.getProgress()).toBeUndefined();
      // A burst larger than a slice: the rest waits for the next slice, which publishes nothing.
      src.push(...Array.from({ length: 6 }, (_, i) => ({ ...recs[0]!, seq: i + 2 })));
      expect(pushed).toBe(2);
      expect(m.getProgress()).toEqual({ fed: 2, total: 7, importing: false });
      expect(slices).toHaveLength(1);
      while (slices.length) slices.shift()!();
      expect(pushed).toBe(7);
      expect(published).toBe(0);
      // The timer publishes what was fed; the publication feeds nothing.
      publishing = true;
      await vi.advanceTimersByTimeAsync(100);
      expect(published).toBe(1);
      expect(m.getSnapshot().recordCount).toBe(7);
      expect(fedWhilePublishing).toBe(0);
      off();
      m.dispose();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a publication replaces a pending feed-only slice with one that waits for the paint; flush() cancels a pending slice', async () => {
    vi.useFakeTimers();
    try {
      let pushed = 0;
      const factory = (): Analyzer => {
        let n = 0;
        return { push: () => void (pushed++, n++), snapshot: () => ({ ...EMPTY_SNAPSHOT, recordCount: n }) };
      };
      const src = createMutableSource([]);
      const slices: { cb: () => void; afterPaint: boolean }[] = [];
      const m = createAnalysis({
        source: src, analyzerFactory: factory, settings: normalizeSettings(undefined), throttleMs: 50, quietMs: 40, sliceMs: 0,
        yieldTo: (cb, afterPaint) => void slices.push({ cb, afterPaint }),
      });
      let published = 0;
      const off = m.subscribe(() => void published++);
      src.push(...[1, 2, 3, 4].map((seq) => ({ ...recs[0]!, seq })));
      expect(pushed).toBe(1);
      expect(slices.map((x) => x.afterPaint)).toEqual([false]);
      // The timer publishes (feeding one more record) and replaces the feed-only slice.
      await vi.advanceTimersByTimeAsync(100);
      expect(published).toBe(1);
      expect(pushed).toBe(2);
      expect(slices.map((x) => x.afterPaint)).toEqual([false, true]);
      slices.shift()!.cb(); // the replaced one: does nothing
      expect(pushed).toBe(2);
      slices.shift()!.cb(); // feeds one, not done (publishes if the interval is over)
      expect(pushed).toBe(3);
      slices.shift()!.cb(); // done: publishes
      expect(pushed).toBe(4);
      expect(m.getSnapshot().recordCount).toBe(4);
      // A pending slice cancelled by flush() does nothing when it runs.
      src.push(...[5, 6, 7].map((seq) => ({ ...recs[0]!, seq })));
      expect(slices).toHaveLength(1);
      expect(m.flush().recordCount).toBe(7);
      const after = published;
      slices.shift()!.cb();
      expect(pushed).toBe(7);
      expect(published).toBe(after);
      off();
      m.dispose();
    } finally {
      vi.useRealTimers();
    }
  });

  it('finishes the analyzer for a complete (static) source, and re-analyzes on settings change', () => {
    const { log, factory } = countingFactory();
    const m = createAnalysis({ source: createStaticSource(recs), analyzerFactory: factory, settings: normalizeSettings(undefined), sliceMs: Infinity });
    expect(log.finished).toBe(1);
    m.setSettings(normalizeSettings({ resyncEventNames: ['x'] }));
    expect(log.created).toBe(2);
    expect(log.pushed).toBe(recs.length * 2);
    expect(log.finished).toBe(2);
  });

  it('records an analyzer error and goes on', () => {
    const factory = (): Analyzer => ({
      push: (r: CaptureRecord) => {
        if (r.seq === 3) throw new Error('boom');
      },
      snapshot: () => EMPTY_SNAPSHOT,
    });
    const m = createAnalysis({ source: createStaticSource(recs), analyzerFactory: factory, settings: normalizeSettings(undefined), sliceMs: Infinity });
    expect(m.getErrors()).toHaveLength(1);
    expect(m.getErrors()[0]).toContain('boom');
  });

  it("an import that has ended shows its progress until the publication that holds its end (the banner does not go before the file's analysis is shown)", () => {
    vi.useFakeTimers();
    try {
      const { log, factory } = countingFactory();
      const records: CaptureRecord[] = recs.slice(0, 5);
      let complete = false;
      const listeners = new Set<() => void>();
      const src = {
        subscribe: (cb: () => void) => (listeners.add(cb), () => void listeners.delete(cb)),
        getRecords: () => records,
        get complete() {
          return complete;
        },
        drain: () => {},
      };
      const m = createAnalysis({ source: src, analyzerFactory: factory, settings: normalizeSettings(undefined), throttleMs: 50, sliceMs: Infinity });
      let published = 0;
      const off = m.subscribe(() => void published++);
      vi.advanceTimersByTime(100);
      // Every record read so far is fed and shown; the file is still being read.
      expect(m.getSnapshot().recordCount).toBe(5);
      expect(m.getProgress()).toEqual({ fed: 5, total: 5, importing: true });
      // The file ends: nothing more to feed, but the shown snapshot is not the finished analysis.
      complete = true;
      for (const cb of listeners) cb();
      expect(log.finished).toBe(0);
      expect(m.getProgress()).toEqual({ fed: 5, total: 5, importing: false });
      const before = published;
      vi.advanceTimersByTime(100);
      expect(published).toBe(before + 1);
      expect(log.finished).toBe(1);
      expect(m.getProgress()).toBeUndefined();
      off();
    } finally {
      vi.useRealTimers();
    }
  });
});

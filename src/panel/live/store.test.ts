import { describe, expect, it } from 'vitest';
import type { CaptureRecord } from '../../core/record';
import { createLiveStore } from './store';

const chunk = (src: string, seq: number, t = seq): CaptureRecord => ({ kind: 'chunk', src, seq, t, conn: 'c1', text: `${seq}`, bytes: 1 });
const nav = (src: string, seq: number, t: number, top = true): CaptureRecord => ({ kind: 'navigation', src, seq, t, url: `http://x/${src}`, top });
const keys = (rs: readonly CaptureRecord[]) => rs.map((r) => `${r.src}${r.seq}`);

describe('live store', () => {
  it('drops duplicates by (src, seq) and keeps per-src seq order when a backfill fills a hole', () => {
    const s = createLiveStore();
    expect(s.ingest([chunk('A', 1), chunk('A', 2), chunk('B', 1)])).toBe(3);
    expect(s.ingest([chunk('A', 2), chunk('A', 1)])).toBe(0);
    s.ingest([chunk('A', 4)]);
    expect(s.cursors()).toEqual({ A: 2, B: 1 });
    s.ingest([chunk('A', 3), chunk('A', 4)]);
    expect(keys(s.getSnapshot().records)).toEqual(['A1', 'A2', 'B1', 'A3', 'A4']);
    expect(s.cursors()).toEqual({ A: 4, B: 1 });
    expect(s.getSnapshot().duplicates).toBe(3);
  });

  it('is useSyncExternalStore-friendly: same snapshot until a change, listeners notified once per ingest', () => {
    const s = createLiveStore();
    const snap0 = s.getSnapshot();
    expect(s.getSnapshot()).toBe(snap0);
    let calls = 0;
    const off = s.subscribe(() => calls++);
    s.ingest([chunk('A', 1), chunk('A', 2)]);
    expect(calls).toBe(1);
    const snap1 = s.getSnapshot();
    expect(snap1).not.toBe(snap0);
    expect(snap0.records).toEqual([]); // old snapshots are not mutated
    s.ingest([chunk('A', 1)]);
    expect(s.getSnapshot()).toBe(snap1);
    off();
    s.ingest([chunk('A', 3)]);
    expect(calls).toBe(1);
  });

  it('a capture gap stands for its whole range in the cursor', () => {
    const s = createLiveStore();
    const gap: CaptureRecord = { kind: 'capture-gap', src: 'A', seq: 10, t: 0, lost: 10, fromSeq: 1, toSeq: 10, conns: ['c1'], reason: 'buffer-cap' };
    s.ingest([gap, chunk('A', 11)]);
    expect(s.cursors()).toEqual({ A: 11 });
    expect(s.getSnapshot().records.map((r) => r.kind)).toEqual(['capture-gap', 'chunk']);
  });

  it('clears on a top-frame navigation unless Preserve log is on; late records of the old page are ignored', () => {
    const s = createLiveStore();
    s.ingest([nav('A', 1, 100), chunk('A', 2, 101), nav('F', 1, 102, false), chunk('F', 2, 103)]);
    s.ingest([nav('B', 1, 200), chunk('B', 2, 201)]);
    expect(keys(s.getSnapshot().records)).toEqual(['B1', 'B2']);
    s.ingest([chunk('A', 3, 150)]); // flushed by the old page after the navigation
    expect(keys(s.getSnapshot().records)).toEqual(['B1', 'B2']);
    expect(s.cursors().A).toBe(3); // still counted: a backfill will not bring it back
    s.setPreserveLog(true);
    s.ingest([nav('C', 1, 300), chunk('C', 2, 301)]);
    expect(keys(s.getSnapshot().records)).toEqual(['B1', 'B2', 'C1', 'C2']);
    expect(s.getSnapshot().page).toMatchObject({ src: 'C' });
  });

  it('keeps records of a new page that arrive before its navigation record (iframes, backfill order)', () => {
    const s = createLiveStore();
    s.ingest([nav('A', 1, 100), chunk('A', 2, 101)]);
    s.ingest([nav('F', 1, 205, false), chunk('F', 2, 206)]); // iframe of page B, delivered first
    s.ingest([nav('B', 1, 200)]);
    expect(keys(s.getSnapshot().records)).toEqual(['F1', 'F2', 'B1']);
  });

  it('clear() empties the view but keeps cursors', () => {
    const s = createLiveStore();
    s.ingest([chunk('A', 1), chunk('A', 2)]);
    s.clear();
    expect(s.getSnapshot().records).toEqual([]);
    s.ingest([chunk('A', 2), chunk('A', 3)]);
    expect(keys(s.getSnapshot().records)).toEqual(['A3']);
  });
});

describe('live store cap', () => {
  it('drops the oldest records beyond its cap behind one capture-gap that counts them all', () => {
    const store = createLiveStore({ maxRecords: 100 });
    const mk = (seq: number) => ({ kind: 'chunk' as const, conn: 'c1', t: seq, text: 'x', bytes: 1, src: 'S', seq });
    for (let i = 1; i <= 250; i++) store.ingest([mk(i)]);
    const { records, evicted } = store.getSnapshot();
    expect(records.length).toBeLessThanOrEqual(100);
    expect(records[0]).toMatchObject({ kind: 'capture-gap', src: 'panel-store', reason: 'buffer-cap', lost: evicted });
    expect(records.filter((r) => r.kind === 'capture-gap').length).toBe(1);
    const kept = records.slice(1).map((r) => r.seq);
    expect(kept.at(-1)).toBe(250);
    expect(evicted + kept.length).toBe(250); // every record is either kept or counted
    expect(store.cursors().S).toBe(250); // nothing re-appears through backfill
    expect(store.ingest([mk(3)])).toBe(0);
  });
});

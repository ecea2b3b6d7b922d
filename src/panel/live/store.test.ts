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
    expect(snap0.count).toBe(0); // what the old snapshot was published with
    expect(snap1.count).toBe(2);
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

  it("a backfill's gap over seqs this store already took live stands for the part before them", () => {
    const s = createLiveStore();
    // a second panel of the tab: live records 4…10 came before its backfill, and the relay's
    // buffer evicted 1…6 meanwhile
    for (let i = 4; i <= 10; i++) s.ingest([chunk('A', i)]);
    s.ingest([{ kind: 'capture-gap', src: 'A', seq: 6, t: 0, lost: 6, fromSeq: 1, toSeq: 6, conns: ['c1', 'c2'], reason: 'buffer-cap' }, chunk('A', 7)]);
    // before: dropped as a duplicate (seq 6 is held): records 1…3 missing with no gap, cursor at 0
    expect(s.getSnapshot().records.filter((r) => r.kind === 'capture-gap')).toEqual([expect.objectContaining({ seq: 3, fromSeq: 1, toSeq: 3, lost: 3, conns: ['c1', 'c2'] })]);
    expect(s.cursors()).toEqual({ A: 10 });
    expect(keys(s.getSnapshot().records)).toEqual(['A3', 'A4', 'A5', 'A6', 'A7', 'A8', 'A9', 'A10']);
    // the same backfill again is a duplicate
    expect(s.ingest([{ kind: 'capture-gap', src: 'A', seq: 6, t: 0, lost: 6, fromSeq: 1, toSeq: 6, conns: ['c1'], reason: 'buffer-cap' }])).toBe(0);
  });

  it("a backfill's gap over seqs held in several stretches stands for each stretch this store lacks", () => {
    const s = createLiveStore();
    // live records 3, 4 and 7 came first; the backfill reports 1…9 lost (evicted meanwhile)
    for (const i of [3, 4, 7]) s.ingest([chunk('A', i)]);
    s.ingest([{ kind: 'capture-gap', src: 'A', seq: 9, t: 0, lost: 9, fromSeq: 1, toSeq: 9, conns: ['c1'], reason: 'buffer-cap' }, chunk('A', 10)]);
    const gaps = s.getSnapshot().records.filter((r) => r.kind === 'capture-gap');
    expect(gaps.map((g) => g.kind === 'capture-gap' && [g.fromSeq, g.toSeq, g.lost, g.seq])).toEqual([[1, 2, 2, 2], [5, 6, 2, 6], [8, 9, 2, 9]]);
    expect(s.cursors()).toEqual({ A: 10 });
    expect(keys(s.getSnapshot().records)).toEqual(['A2', 'A3', 'A4', 'A6', 'A7', 'A9', 'A10']);
    // a gap over a range of which only a seq above its own is held: cut too
    const t = createLiveStore();
    t.ingest([chunk('B', 1), chunk('B', 5)]);
    t.ingest([{ kind: 'capture-gap', src: 'B', seq: 4, t: 0, lost: 3, fromSeq: 2, toSeq: 4, conns: [], reason: 'buffer-cap' }]);
    expect(t.cursors()).toEqual({ B: 5 });
    t.ingest([{ kind: 'capture-gap', src: 'B', seq: 8, t: 0, lost: 3, fromSeq: 6, toSeq: 8, conns: [], reason: 'buffer-cap' }]);
    expect(t.cursors()).toEqual({ B: 8 });
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

describe('live store cost', () => {
  const mk = (seq: number): CaptureRecord => ({ kind: 'chunk', conn: 'c1', t: seq, text: 'x', bytes: 1, src: 'S', seq });

  /** Elements copied by Array.prototype.slice/filter/concat and spreads of arrays while `fn` runs. */
  function copiedElements(fn: () => void): number {
    const P = Array.prototype;
    const orig = { slice: P.slice, filter: P.filter, concat: P.concat };
    let n = 0;
    P.slice = function (this: unknown[], ...a: Parameters<typeof orig.slice>) {
      const r = orig.slice.apply(this, a);
      n += r.length;
      return r;
    };
    P.filter = function (this: unknown[], ...a: Parameters<typeof orig.filter>) {
      n += this.length;
      return orig.filter.apply(this, a as never);
    } as typeof P.filter;
    P.concat = function (this: unknown[], ...a: unknown[]) {
      const r = orig.concat.apply(this, a);
      n += r.length;
      return r;
    };
    try {
      fn();
    } finally {
      Object.assign(P, orig);
    }
    return n;
  }

  it('appends in place: ingesting 20 000 records in batches of 8 copies no record array', () => {
    const s = createLiveStore();
    const revs = new Set<number>();
    const copied = copiedElements(() => {
      for (let i = 1; i <= 20_000; i += 8) {
        s.ingest([mk(i), mk(i + 1), mk(i + 2), mk(i + 3), mk(i + 4), mk(i + 5), mk(i + 6), mk(i + 7)]);
        revs.add(s.getSnapshot().revision);
      }
    });
    // Before: records.slice() per batch = 1+2+...+2500 batches x 8 = 25 million elements copied.
    expect(copied).toBeLessThan(1000);
    expect(revs.size).toBe(2500); // every batch published a new revision
    const snap = s.getSnapshot();
    expect(snap.count).toBe(20_000);
    expect(snap.records.map((r) => r.seq)).toEqual(Array.from({ length: 20_000 }, (_, k) => k + 1));
  });

  it('a consumer feeding by index from the same array sees every record once, and a new array on any non-append change', () => {
    const s = createLiveStore({ maxRecords: 1000 });
    let arr = s.getSnapshot().records;
    let fed = 0;
    let resets = 0;
    const seen: number[] = [];
    const feed = () => {
      const { records } = s.getSnapshot();
      if (records !== arr) {
        arr = records;
        fed = 0;
        resets++;
        seen.length = 0;
      }
      for (; fed < records.length; fed++) seen.push(records[fed]!.seq);
    };
    s.subscribe(feed);
    for (let i = 1; i <= 500; i++) s.ingest([mk(i)]);
    expect(resets).toBe(0); // 500 batches appended to the array the consumer started with
    expect(seen).toEqual(Array.from({ length: 500 }, (_, k) => k + 1));
    // the cap: eviction gives a new array that starts with the gap
    for (let i = 501; i <= 1001; i++) s.ingest([mk(i)]);
    expect(resets).toBe(1);
    expect(s.getSnapshot().records[0]).toMatchObject({ kind: 'capture-gap', src: 'panel-store' });
    expect(seen.at(-1)).toBe(1001);
    // a hole filled by a backfill is not an append: new array
    s.ingest([mk(1003)]);
    const before = s.getSnapshot().records;
    s.ingest([mk(1002)]);
    expect(s.getSnapshot().records).not.toBe(before);
    expect(s.getSnapshot().records.slice(-2).map((r) => r.seq)).toEqual([1002, 1003]);
    expect(seen.slice(-2)).toEqual([1002, 1003]);
    // clear: new empty array
    s.clear();
    expect(s.getSnapshot().records).toEqual([]);
  });
});

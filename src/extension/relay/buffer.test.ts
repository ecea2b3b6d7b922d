import { describe, expect, it } from 'vitest';
import type { HookRecord } from '../../core/record';
import { createRelayBuffer } from './buffer';

const chunk = (conn: string, t: number, text = 'x'): HookRecord => ({ kind: 'chunk', conn, t, text, bytes: text.length });

describe('relay buffer', () => {
  it('numbers records densely from 1 with its src', () => {
    const b = createRelayBuffer('S');
    const a = b.push(chunk('c1', 1));
    const c = b.push(chunk('c1', 2));
    expect([a.seq, c.seq, a.src]).toEqual([1, 2, 'S']);
    expect(b.since(0).map((r) => r.seq)).toEqual([1, 2]);
    expect(b.since(1).map((r) => r.seq)).toEqual([2]);
    expect(b.since(2)).toEqual([]);
  });

  it('evicts beyond the record cap and answers older cursors with a gap record standing in for the lost range', () => {
    const b = createRelayBuffer('S', { maxRecords: 3 });
    for (let i = 1; i <= 5; i++) b.push(chunk(i <= 2 ? 'c1' : 'c2', i));
    expect(b.size().records).toBe(3);
    const out = b.since(0);
    expect(out[0]).toMatchObject({ kind: 'capture-gap', seq: 2, src: 'S', lost: 2, fromSeq: 1, toSeq: 2, conns: ['c1'], reason: 'buffer-cap' });
    expect(out.slice(1).map((r) => r.seq)).toEqual([3, 4, 5]);
    // a cursor inside the lost range loses only the rest of it
    expect(b.since(1)[0]).toMatchObject({ kind: 'capture-gap', lost: 1, fromSeq: 2, toSeq: 2 });
    // a cursor past the lost range gets no gap
    expect(b.since(2).map((r) => r.kind)).toEqual(['chunk', 'chunk', 'chunk']);
  });

  it('a gap names a long-lived connection still being evicted, however many others were evicted since it first was', () => {
    const b = createRelayBuffer('S', { maxRecords: 2 });
    b.push(chunk('stream', 0));
    for (let i = 0; i < 10_001; i++) {
      b.push(chunk(`post${i}`, i));
      if (i % 1000 === 0) b.push(chunk('stream', i));
    }
    b.push(chunk('stream', 20_000));
    // before: the bound on named connections dropped the one evicted first, the stream
    expect(b.since(0)[0]).toMatchObject({ kind: 'capture-gap' });
    expect((b.since(0)[0] as { conns: string[] }).conns).toContain('stream');
  });

  it('evicts by estimated bytes, keeping at least the newest record', () => {
    const b = createRelayBuffer('S', { maxBytes: 1000 });
    b.push(chunk('c1', 1, 'a'.repeat(300)));
    b.push(chunk('c1', 2, 'b'.repeat(300)));
    expect(b.size().records).toBe(1);
    b.push(chunk('c2', 3, 'c'.repeat(5000)));
    expect(b.size().records).toBe(1);
    expect(b.since(0)[0]).toMatchObject({ kind: 'capture-gap', lost: 2, conns: ['c1'] });
  });

  it('lists every connection with records in the lost range, and compacts its storage', () => {
    const b = createRelayBuffer('S', { maxRecords: 10 });
    for (let i = 1; i <= 5000; i++) b.push(chunk(`c${i % 7}`, i));
    const [gap, ...rest] = b.since(0);
    expect(gap).toMatchObject({ kind: 'capture-gap', lost: 4990, fromSeq: 1, toSeq: 4990 });
    expect((gap as { conns: string[] }).conns.sort()).toEqual(['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6']);
    expect(rest.map((r) => r.seq)).toEqual(Array.from({ length: 10 }, (_, i) => 4991 + i));
    expect(b.lastSeq()).toBe(5000);
    expect(b.oldestSeq()).toBe(4991);
  });

  it('setOptions lowers the cap immediately', () => {
    const b = createRelayBuffer('S');
    for (let i = 1; i <= 100; i++) b.push(chunk('c', i));
    b.setOptions({ maxRecords: 10 });
    expect(b.size().records).toBe(10);
  });
});

// Retention: what the cap bounds is memory, not just the buffer's own size estimate. Checked with
// WeakRefs and a forced GC (gc exposed through v8 flags in a fresh context; no timing involved).
describe('relay buffer memory', () => {
  async function collect() {
    const v8 = await import('node:v8');
    const vm = await import('node:vm');
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    // WeakRef targets stay alive until the end of the job that created the WeakRef.
    await new Promise((r) => setTimeout(r, 0));
    gc();
    await new Promise((r) => setTimeout(r, 0));
    gc();
  }

  it('does not keep evicted records reachable (few large records under a byte cap)', async () => {
    const b = createRelayBuffer('S', { maxBytes: 8 * 1024 * 1024 });
    const refs: WeakRef<object>[] = [];
    // 40 chunk records of ~1.2 MB (estimate x2): the shape of a 50 MB stream read in big reads.
    for (let i = 1; i <= 40; i++) refs.push(new WeakRef(b.push(chunk('c1', i, String(i).padEnd(600_000, 'x')))));
    const kept = b.size().records;
    expect(kept).toBeLessThan(10);
    await collect();
    const alive = refs.filter((r) => r.deref() !== undefined).length;
    expect(alive).toBe(kept);
    // and what is kept is still served
    expect(b.since(40 - kept).map((r) => r.seq)).toEqual(Array.from({ length: kept }, (_, k) => 41 - kept + k));
  });

  it('does not keep evicted records reachable (many small records under a record cap)', async () => {
    const b = createRelayBuffer('S', { maxRecords: 100 });
    const refs: WeakRef<object>[] = [];
    for (let i = 1; i <= 5000; i++) refs.push(new WeakRef(b.push(chunk('c1', i))));
    await collect();
    const alive = refs.filter((r) => r.deref() !== undefined).length;
    expect(alive).toBe(100);
    expect(b.since(0)[0]).toMatchObject({ kind: 'capture-gap', fromSeq: 1, toSeq: 4900 });
  });
});

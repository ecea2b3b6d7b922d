import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { IntervalSet, inferScheme, makeIdParser, newIdStats, parseIdGeneric, recordId, recordStep, describeRanges } from '../ids';

describe('IntervalSet', () => {
  it('behaves like a set of integers (add, has, missingIn)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 60 }), { maxLength: 80 }), fc.integer({ min: -5, max: 70 }), fc.integer({ min: -5, max: 70 }), (xs, a, b) => {
        const set = new IntervalSet();
        const naive = new Set<number>();
        for (const x of xs) {
          expect(set.add(x)).toBe(!naive.has(x));
          naive.add(x);
        }
        expect(set.size).toBe(naive.size);
        for (let i = -2; i < 65; i++) expect(set.has(i)).toBe(naive.has(i));
        const [from, to] = a <= b ? [a, b] : [b, a];
        const missing: number[] = [];
        for (const [l, h] of set.missingIn(from, to)) for (let i = l; i <= h; i++) missing.push(i);
        const expected: number[] = [];
        for (let i = from; i <= to; i++) if (!naive.has(i)) expected.push(i);
        expect(missing).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });
});

describe('id parsing', () => {
  it('splits a stable prefix from a trailing counter', () => {
    expect(parseIdGeneric('42')).toEqual({ prefix: '', counter: 42, width: 0 });
    expect(parseIdGeneric('s3-07')).toEqual({ prefix: 's3-', counter: 7, width: 2 });
    expect(parseIdGeneric('abc')).toBeNull();
    expect(parseIdGeneric('1234567890123456789')).toBeNull();
    expect(describeRanges([[8, 9], [12, 12]], 's3-', 2)).toBe('s3-08–s3-09, s3-12');
  });

  it('uses an override pattern with named groups', () => {
    const p = makeIdParser({ origin: '*', pattern: '^(?<stream>[^_]+)_(?<counter>\\d+)_x$' });
    expect(p('ab_12_x')).toEqual({ prefix: 'ab', counter: 12, width: 0 });
    expect(p('ab_12')).toBeNull();
  });
});

describe('scheme inference', () => {
  function infer(ids: string[][]) {
    const stats = newIdStats();
    ids.forEach((stream, si) => {
      let prev: { prefix: string; counter: number } | null = null;
      for (const id of stream) {
        const p = parseIdGeneric(id);
        if (stats.groups.size === 0 || ![...stats.groups.values()].some((g) => g.streams.has(`s${si}`))) stats.streamsWithIds++;
        recordId(stats, id, p, `s${si}`);
        if (p && prev && prev.prefix === p.prefix) recordStep(stats, p.counter - prev.counter);
        prev = p;
      }
    });
    return inferScheme(stats, undefined);
  }
  it('contiguous shared counter', () => expect(infer([['1', '2', '3', '6'], ['4', '5']])).toMatchObject({ kind: 'contiguous', scope: 'session' }));
  it('contiguous per-stream prefixes', () => expect(infer([['s1-1', 's1-2'], ['s2-1', 's2-2', 's2-3']])).toMatchObject({ kind: 'contiguous', scope: 'stream' }));
  it('sparse timestamps', () => expect(infer([['1700000000000', '1700000000950', '1700000002011']])).toMatchObject({ kind: 'sparse' }));
  it('opaque uuids and the SDK example store', () => {
    expect(infer([['550e8400-e29b-41d4-a716-446655440000', '6ba7b810-9dad-11d1-80b4-00c04fd430c8']]).kind).toBe('opaque');
    expect(infer([['a0491aee_1796022108046_v60p68wk', 'a0491aee_1796022108046_cdnuocr5', 'a0491aee_1796022108055_79zdou5d']]).kind).toBe('opaque');
  });
  it('no ids', () => expect(infer([]).kind).toBe('none'));
});

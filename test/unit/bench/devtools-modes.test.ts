import { describe, expect, it } from 'vitest';
import { byMode, modesSettle, type DevtoolsCopy, type ModePair } from '../../../bench/lib/devtools-modes';

const pair = (ratio: number, copy?: DevtoolsCopy): ModePair => ({
  withMs: 600 * ratio,
  withoutMs: 600,
  wallWithMs: 700 * ratio,
  wallWithoutMs: 700,
  usPerEvent: (600 * ratio - 600) / 100,
  ...(copy ? { devtools: { with: copy } } : {}),
});
// Ratios close together (an interval that closes within ±10 %) and far apart (one that does not).
const tight = (n: number, at: number, copy: DevtoolsCopy) => Array.from({ length: n }, (_, i) => pair(at * (1 + (i - n / 2) * 0.004), copy));
const wide = (n: number, copy: DevtoolsCopy) => Array.from({ length: n }, (_, i) => pair(1 + i * 0.25, copy));

describe('byMode', () => {
  it('is undefined for pairs without DevTools (row 1b)', () => {
    expect(byMode([pair(1.1), pair(1.2)], 0.1)).toBeUndefined();
  });

  it("groups pairs by the captured run's class, each with its own median and interval", () => {
    const modes = byMode([...tight(8, 1.2, 'none'), ...tight(7, 1.8, 'copied'), pair(1.5, 'partial')], 0.1)!;
    const by = Object.fromEntries(modes.map((m) => [m.copy, m]));
    expect(Object.keys(by).sort()).toEqual(['copied', 'none', 'partial']);
    expect(by.none!.pairs).toBe(8);
    expect(by.none!.ratio.median).toBeCloseTo(1.2, 1);
    expect(by.copied!.ratio.median).toBeCloseTo(1.8, 1);
    expect(by.none!.within).toBe(true);
    expect(by.partial!.ci).toBeUndefined(); // under 6 pairs
    expect(by.partial!.within).toBe(false);
    expect(by.copied!.wallRatio.median).toBeCloseTo(by.copied!.ratio.median, 6);
  });
});

describe('modesSettle', () => {
  const settle = (pairs: ModePair[], min = 6) => modesSettle(byMode(pairs, 0.1), pairs.length, min);

  it('holds when every class is within tolerance with enough pairs', () => {
    expect(settle([...tight(8, 1.2, 'none'), ...tight(6, 1.8, 'copied')])).toBe(true);
  });

  it('does not hold while a class of a quarter or more of the pairs is short of pairs or wide', () => {
    expect(settle([...tight(8, 1.2, 'none'), ...tight(4, 1.8, 'copied')])).toBe(false);
    expect(settle([...tight(8, 1.2, 'none'), ...wide(8, 'copied')])).toBe(false);
  });

  it('lets a rare class (under a quarter) and partial copies of any number stand without an interval', () => {
    expect(settle([...tight(12, 1.2, 'none'), ...tight(2, 1.8, 'copied')])).toBe(true);
    expect(settle([...tight(8, 1.2, 'none'), ...wide(8, 'partial')])).toBe(true);
  });

  it('needs one class closed: none, or only partial copies, is not settled', () => {
    expect(modesSettle(undefined, 10, 6)).toBe(false);
    expect(settle(wide(10, 'partial'))).toBe(false);
    expect(settle(wide(10, 'none'))).toBe(false);
  });
});

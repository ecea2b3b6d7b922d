// The bench's interval of the median (issue 22): the traced page rows repeat until it is within
// ±10 % of the median, so its order statistics must be the standard ones.
import { describe, expect, it } from 'vitest';
import { ciWithin, medianCI } from '../../../bench/lib/stats';

const oneTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('medianCI', () => {
  it('has no 95 % interval under 6 pairs', () => {
    expect(medianCI(oneTo(5))).toBeUndefined();
  });
  it('gives the order statistics of the binomial table (n = 6, 10, 20, 30), in any input order', () => {
    expect(medianCI(oneTo(6).reverse())).toEqual({ lo: 1, hi: 6, k: 1 });
    expect(medianCI(oneTo(10))).toEqual({ lo: 2, hi: 9, k: 2 });
    expect(medianCI(oneTo(20))).toEqual({ lo: 6, hi: 15, k: 6 });
    expect(medianCI(oneTo(30))).toEqual({ lo: 10, hi: 21, k: 10 });
  });
  it('ciWithin: tight pairs hold ±10 %, one wide pair among six does not', () => {
    expect(ciWithin([1.0, 1.01, 0.99, 1.02, 0.98, 1.0], 0.1)).toBe(true);
    expect(ciWithin([1.0, 1.01, 0.99, 1.02, 0.98, 2.5], 0.1)).toBe(false);
    expect(ciWithin([1.0, 1.0], 0.1)).toBe(false);
  });
});

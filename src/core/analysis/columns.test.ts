// Columns give back what was set, across the first block's growth and the later blocks, for the
// four kinds of typed arrays used side by side (one call site sees all four, as in the store).
import { describe, expect, it } from 'vitest';
import { Column } from './columns';

describe('columns', () => {
  it('keeps every value of four kinds of columns filled side by side', () => {
    for (let round = 0; round < 3; round++) {
      const cols = [new Column(new Float64Array(0)), new Column(new Uint32Array(0)), new Column(new Uint16Array(0)), new Column(new Uint8Array(0))];
      const n = 10_000 + round * 3_000;
      for (let i = 0; i < n; i++) for (let k = 0; k < cols.length; k++) cols[k]!.set(i, (i * (k + 3) + round) % 200);
      for (let k = 0; k < cols.length; k++) {
        let bad = -1;
        for (let i = 0; i < n && bad < 0; i++) if (cols[k]!.get(i) !== (i * (k + 3) + round) % 200) bad = i;
        expect(bad, `column ${k}, round ${round}`).toBe(-1);
      }
    }
  });

  it('a column set only at some indices (one kept for some events) holds them all', () => {
    for (const step of [1, 3, 9, 17, 5000]) {
      const c = new Column(new Uint32Array(0));
      const want = new Map<number, number>();
      for (let i = step - 1; i < 20_000; i += step) {
        c.set(i, i + 1);
        want.set(i, i + 1);
      }
      for (const [i, v] of want) expect(c.get(i), `index ${i}, step ${step}`).toBe(v);
    }
  });
});

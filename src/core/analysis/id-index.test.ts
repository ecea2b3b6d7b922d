// IdIndex behaves as a Map<string, T> for every sequence of get / set (runs, holes, overwrites,
// zero-padded and prefixed counters, ids the generic parser does not read).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { IdIndex } from './id-index';
import { parseIdGeneric } from '../ids';

describe('IdIndex', () => {
  it('is a Map', () => {
    const id = fc.oneof(
      fc.nat(40).map(String),
      fc.nat(40).map((n) => String(n).padStart(3, '0')),
      fc.tuple(fc.constantFrom('s1-', 's2-', 'a'), fc.nat(40)).map(([a, n]) => a + n),
      fc.constantFrom('x', '', 'abc', '1e3'),
    );
    const op = fc.tuple(fc.boolean(), id, fc.constantFrom('A', 'B', 'C'));
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), fc.boolean(), (ops, generic) => {
        const m = new Map<string, string>();
        const x = new IdIndex<string>(generic);
        for (const [isSet, k, v] of ops) {
          const p = parseIdGeneric(k);
          if (isSet) {
            m.set(k, v);
            x.set(k, p, v);
          } else expect(x.get(k, p)).toBe(m.get(k));
        }
        for (const k of m.keys()) expect(x.get(k, parseIdGeneric(k))).toBe(m.get(k));
      }),
      { numRuns: 2000 },
    );
  });
});

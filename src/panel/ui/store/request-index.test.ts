import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RequestInfo } from '../../../core/model';
import { indexRequests } from './view-model';

/** As the index was made before it was kept from view to view: the list's last request of each id. */
const whole = (rs: readonly RequestInfo[]) => new Map(rs.map((r) => [r.id, r]));

describe("a session's requests by id, kept from view to view", () => {
  it('equals the index made whole after requests come, change (repeated ids too), or go (property)', () => {
    const step = fc.record({ add: fc.nat({ max: 3 }), change: fc.array(fc.nat(), { maxLength: 3 }), drop: fc.boolean(), id: fc.nat({ max: 6 }) });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 30 }), (steps) => {
        let list: RequestInfo[] = [];
        let view: { requests: readonly RequestInfo[]; requestById: ReadonlyMap<string, RequestInfo> } | undefined;
        let v = 0;
        const req = (id: string) => ({ id, method: 'tools/call', v: v++ }) as unknown as RequestInfo;
        for (const s of steps) {
          list = list.slice();
          if (s.drop && list.length) list.shift();
          for (const c of s.change) if (list.length) list[c % list.length] = req(list[c % list.length]!.id);
          for (let k = 0; k < s.add; k++) list.push(req(String((s.id + k) % 7)));
          const requestById = indexRequests(list, view);
          expect([...requestById].sort()).toEqual([...whole(list)].sort());
          for (const [id, r] of whole(list)) expect(requestById.get(id)).toBe(r);
          view = { requests: list, requestById };
        }
      }),
      { numRuns: 500 },
    );
  });

  it('is the same index while the list is the same', () => {
    const list = [{ id: '1' } as RequestInfo];
    const requestById = indexRequests(list);
    expect(indexRequests(list, { requests: list, requestById })).toBe(requestById);
  });
});

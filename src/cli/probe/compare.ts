// What a run delivered against what the baseline showed: the same notifications and the result
// once. Messages are compared by content (the JSON-RPC id and the progress token differ per call).

import { isNotification, isResponse } from './conns';

export function messageKey(m: Record<string, unknown>): string {
  if (isResponse(m)) return 'error' in m ? `error ${JSON.stringify(m.error)}` : `result ${JSON.stringify(m.result)}`;
  const params = m.params && typeof m.params === 'object' ? { ...(m.params as Record<string, unknown>) } : m.params;
  if (params && typeof params === 'object') delete (params as Record<string, unknown>).progressToken;
  return `${String(m.method)} ${JSON.stringify(params ?? null)}`;
}

/** A short label of a message for reports: method and index/progress. */
export function messageLabel(m: Record<string, unknown>): string {
  if (isResponse(m)) return 'error' in m ? 'error' : 'result';
  const p = (m.params ?? {}) as Record<string, unknown>;
  const data = p.data as Record<string, unknown> | undefined;
  const pos = typeof p.progress === 'number' ? ` ${p.progress}${typeof p.total === 'number' ? `/${p.total}` : ''}` : data && typeof data.index === 'number' ? ` #${data.index}` : '';
  return `${String(m.method)}${pos}`;
}

/** A message's method and the names of its members, values left out: `notifications/message {data:{at,chunk,index},level}`. */
export function messageShape(m: Record<string, unknown>): string {
  const shape = (v: unknown, depth: number): string => {
    if (Array.isArray(v)) return `[${depth > 6 ? '' : v.map((x) => shape(x, depth + 1)).join(',')}]`;
    if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      return `{${Object.keys(o).filter((k) => k !== 'progressToken').sort().map((k) => `${k}${depth > 6 ? '' : `:${shape(o[k], depth + 1)}`}`).join(',')}}`;
    }
    return typeof v;
  };
  return isResponse(m) ? ('error' in m ? 'error' : 'result') : `${String(m.method)} ${shape(m.params ?? null, 0)}`;
}

/** How many leaf values (by path) two messages of one shape have in common. */
function sameLeaves(a: unknown, b: unknown, depth = 0): number {
  if (a && b && typeof a === 'object' && typeof b === 'object' && depth < 8) {
    let n = 0;
    for (const k of Object.keys(a as object)) n += sameLeaves((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], depth + 1);
    return n;
  }
  return a === b ? 1 : 0;
}

export interface Delivery {
  missing: Record<string, unknown>[];
  duplicated: Record<string, unknown>[];
  foreign: Record<string, unknown>[];
  /**
   * Messages the baseline shows and the run delivered with other values in the same members (a
   * tool whose output changes between calls: a timestamp, a random id): taken out of `missing`
   * and `foreign`, as content cannot tell whether they are the same events. [baseline's, run's].
   */
  changed: [Record<string, unknown>, Record<string, unknown>][];
  reordered: boolean;
  results: number;
}

export function compareDelivery(baseline: readonly Record<string, unknown>[], got: readonly Record<string, unknown>[]): Delivery {
  const want = new Map<string, { m: Record<string, unknown>; n: number }>();
  for (const m of baseline) {
    const k = messageKey(m);
    const w = want.get(k);
    if (w) w.n++;
    else want.set(k, { m, n: 1 });
  }
  const seen = new Map<string, number>();
  const duplicated: Record<string, unknown>[] = [];
  const foreign: Record<string, unknown>[] = [];
  const order: string[] = [];
  for (const m of got) {
    const k = messageKey(m);
    const n = (seen.get(k) ?? 0) + 1;
    seen.set(k, n);
    const w = want.get(k);
    if (!w) foreign.push(m);
    else if (n > w.n) duplicated.push(m);
    else order.push(k);
  }
  let missing: Record<string, unknown>[] = [];
  for (const [k, w] of want) for (let i = seen.get(k) ?? 0; i < w.n; i++) missing.push(w.m);
  // A message left out and one the baseline lacks, of the same shape: the same event with other values.
  const changed: [Record<string, unknown>, Record<string, unknown>][] = [];
  if (missing.length && foreign.length) {
    const left = missing.slice();
    const kept: Record<string, unknown>[] = [];
    for (const f of foreign) {
      // Of the messages left out with its shape, the one whose values agree with it most (#3 with
      // #3, not with the first of that shape: a real loss of #2 stays #2's).
      let i = -1;
      let best = -1;
      if (!isResponse(f)) {
        const shape = messageShape(f);
        left.forEach((m, k) => {
          if (isResponse(m) || messageShape(m) !== shape) return;
          const same = sameLeaves(m, f);
          if (same > best) {
            best = same;
            i = k;
          }
        });
      }
      if (i === -1) kept.push(f);
      else changed.push([left.splice(i, 1)[0]!, f]);
    }
    missing = left;
    foreign.splice(0, foreign.length, ...kept);
  }
  const expected = baseline.map(messageKey).filter((k) => order.includes(k));
  return {
    missing,
    duplicated,
    foreign,
    changed,
    reordered: expected.length === order.length && expected.some((k, i) => k !== order[i]),
    results: got.filter(isResponse).length,
  };
}

export const notificationsOf = (ms: readonly Record<string, unknown>[]) => ms.filter(isNotification);

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

export interface Delivery {
  missing: Record<string, unknown>[];
  duplicated: Record<string, unknown>[];
  foreign: Record<string, unknown>[];
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
  const missing: Record<string, unknown>[] = [];
  for (const [k, w] of want) for (let i = seen.get(k) ?? 0; i < w.n; i++) missing.push(w.m);
  const expected = baseline.map(messageKey).filter((k) => order.includes(k));
  return {
    missing,
    duplicated,
    foreign,
    reordered: expected.length === order.length && expected.some((k, i) => k !== order[i]),
    results: got.filter(isResponse).length,
  };
}

export const notificationsOf = (ms: readonly Record<string, unknown>[]) => ms.filter(isNotification);

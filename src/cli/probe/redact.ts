// Auth headers the user gave are never printed nor saved: their values are replaced in the
// captures (headers and any text) and in the report.

import type { CaptureRecord, Header } from '../../core/record';

export const REDACTED = '[redacted by probe]';

export function redactText(s: string, secrets: readonly string[]): string {
  let out = s;
  for (const v of secrets) if (v) out = out.split(v).join(REDACTED);
  return out;
}

export function redactRecords(records: readonly CaptureRecord[], secrets: readonly string[], names: readonly string[]): CaptureRecord[] {
  const lower = new Set(names.map((n) => n.toLowerCase()));
  const hs = (h: Header[]) => h.map(([k, v]) => [k, lower.has(k.toLowerCase()) ? REDACTED : redactText(v, secrets)] as Header);
  if (secrets.length === 0 && lower.size === 0) return records.slice();
  return records.map((r) => {
    switch (r.kind) {
      case 'request':
        return { ...r, headers: hs(r.headers), url: redactText(r.url, secrets), body: r.body === null ? null : redactText(r.body, secrets) };
      case 'response':
        return { ...r, headers: hs(r.headers) };
      case 'chunk':
        return { ...r, text: redactText(r.text, secrets) };
      default:
        return r;
    }
  });
}

/** Every string in a value (the report card) with the secrets replaced: before any escaping. */
export function redactDeep<T>(v: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return v;
  const walk = (x: unknown): unknown => {
    if (typeof x === 'string') return redactText(x, secrets);
    if (Array.isArray(x)) return x.map(walk);
    if (x && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, y]) => [k, walk(y)]));
    return x;
  };
  return walk(v) as T;
}

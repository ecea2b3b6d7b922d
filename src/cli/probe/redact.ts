// Auth headers the user gave are never printed nor saved: their values are replaced in the
// captures (headers and any text) and in the report.

import type { CaptureRecord, Header } from '../../core/record';

export const REDACTED = '[redacted by probe]';

export function redactText(s: string, secrets: readonly string[]): string {
  let out = s;
  for (const v of secrets) if (v) out = out.split(v).join(REDACTED);
  return out;
}

/**
 * A connection's chunk texts with the secrets replaced in the text they make together: a secret
 * a network read cut in two is in no chunk whole. A chunk that began inside a secret ends where
 * the secret does (the chunk it began in holds the replacement); the texts still join to the
 * redacted whole.
 */
export function redactChunks(texts: readonly string[], secrets: readonly string[]): string[] {
  const joined = texts.join('');
  const marks: [number, number][] = [];
  for (const v of secrets) {
    if (!v) continue;
    for (let i = joined.indexOf(v); i !== -1; i = joined.indexOf(v, i + v.length)) marks.push([i, i + v.length]);
  }
  if (marks.length === 0) return texts.slice();
  marks.sort((a, b) => a[0] - b[0]);
  const spans: [number, number][] = [];
  for (const m of marks) {
    const last = spans[spans.length - 1];
    if (last && m[0] < last[1]) last[1] = Math.max(last[1], m[1]);
    else spans.push([m[0], m[1]]);
  }
  const out: string[] = [];
  let cur = 0;
  let k = 0;
  let end = 0;
  for (const t of texts) {
    end += t.length;
    let piece = '';
    while (cur < end) {
      const m = spans[k];
      if (m && m[0] < end) {
        piece += joined.slice(cur, m[0]) + REDACTED;
        cur = m[1];
        k++;
      } else {
        piece += joined.slice(cur, end);
        cur = end;
      }
    }
    out.push(piece);
  }
  return out;
}

export function redactRecords(records: readonly CaptureRecord[], secrets: readonly string[], names: readonly string[]): CaptureRecord[] {
  const lower = new Set(names.map((n) => n.toLowerCase()));
  const hs = (h: Header[]) => h.map(([k, v]) => [k, lower.has(k.toLowerCase()) ? REDACTED : redactText(v, secrets)] as Header);
  if (secrets.length === 0 && lower.size === 0) return records.slice();
  // Chunk texts redacted per connection, across the chunks' boundaries.
  const chunks = new Map<string, number[]>();
  records.forEach((r, i) => {
    if (r.kind !== 'chunk') return;
    const key = `${r.src}\u0000${r.conn}`;
    const l = chunks.get(key);
    if (l) l.push(i);
    else chunks.set(key, [i]);
  });
  const texts = new Map<number, string>();
  for (const idx of chunks.values()) {
    const red = redactChunks(idx.map((i) => (records[i] as { text: string }).text), secrets);
    idx.forEach((i, j) => texts.set(i, red[j]!));
  }
  return records.map((r, i) => {
    switch (r.kind) {
      case 'request':
        return { ...r, headers: hs(r.headers), url: redactText(r.url, secrets), body: r.body === null ? null : redactText(r.body, secrets) };
      case 'response':
        return { ...r, headers: hs(r.headers) };
      case 'chunk':
        return { ...r, text: texts.get(i) ?? redactText(r.text, secrets) };
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

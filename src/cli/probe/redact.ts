// Auth headers the user gave are never printed nor saved: their values are replaced in the
// captures (headers and any text) and in the report, in the forms a server or the capture itself
// writes them (percent-encoded, JSON-escaped: encoded.ts). So are the credentials of the probed URL
// (credentials.ts), which is shown with them replaced.
//
// A value long enough to be a real credential is replaced wherever it occurs, even inside a longer
// string (a server may quote it glued to anything: "tok_abc123def:expired"). A short
// one ("Bearer x", "X-Key: 1") is replaced only where it stands as a whole token: replaced
// everywhere, every "x" or "1" of the report became the marker and the report was unreadable, while
// a reader could not have told which of those letters was the credential anyway. Where a credential
// can stand (a header's value, a quoted token, `?key=v`) it is a whole token, so it is still caught.

import type { CaptureRecord, Header } from '../../core/record';
import { shownUrl } from './credentials';
import { encodedPattern } from './encoded';
import { ANYWHERE_FROM, REDACTED } from './marker';

export { ANYWHERE_FROM, REDACTED };

/** Said once in the report when a value was short (command.ts). */
export const SHORT_NOTE = `a credential given with --header (or MCP_PROBE_HEADERS) or in the URL shorter than ${ANYWHERE_FROM} characters is redacted only where it stands as a whole word or number (there, even where it is not the credential), not inside longer ones`;

export const hasShortSecret = (secrets: readonly string[]): boolean => secrets.some((v) => v.length > 0 && v.length < ANYWHERE_FROM);

// A token's own characters: ASCII letters, digits, `_`. A letter of another script next to a short
// secret does not make it part of a word ("トークンab12は無効"): redacting there is the safe side.
const WORD = /[A-Za-z0-9_]/;
// Token68's punctuation (RFC 9110): it joins two runs of word characters into one token ("1.5",
// "a-b", "x/y"), but next to a space or the text's edge it is punctuation ("token x.").
const JOIN = /[.~+/=-]/;

const isWord = (c: string | undefined) => c !== undefined && WORD.test(c);

/**
 * Whether text[i, j) stands as a whole token: what is next to it on either side does not continue
 * it. `=` on the left ends a key (`?key=x`, `token=x`): what follows is a value of its own.
 */
function whole(text: string, i: number, j: number): boolean {
  // Saved chunk texts are raw JSON and URLs: an escape's letter or digits before the secret
  // (`\nab12`, `\u003cab12`, `%3Cab12`) stand for a character of their own, not part of a word.
  const before = text[i - 1];
  const after = text[j];
  const left = !escapeEndsAt(text, i) && (isWord(before) || (before !== undefined && before !== '=' && JOIN.test(before) && isWord(text[i - 2])));
  const right = isWord(after) || (after !== undefined && JOIN.test(after) && isWord(text[j + 1]));
  return !left && !right;
}

const HEX = /^[0-9A-Fa-f]+$/;

/** Whether an escape (JSON `\n`, `\uXXXX`, percent `%XX`) ends right before `i` in `text`. */
function escapeEndsAt(text: string, i: number): boolean {
  if (i >= 2 && text[i - 2] === '\\' && 'nrtbf"/\\'.includes(text[i - 1]!)) return true;
  if (i >= 6 && text[i - 6] === '\\' && text[i - 5] === 'u' && HEX.test(text.slice(i - 4, i))) return true;
  return i >= 3 && text[i - 3] === '%' && HEX.test(text.slice(i - 2, i));
}

/** Where the secrets are in a text, as sorted [start, end) spans that do not overlap. */
function spansOf(text: string, secrets: readonly string[]): [number, number][] {
  const marks: [number, number][] = [];
  for (const v of secrets) {
    if (!v) continue;
    const short = v.length < ANYWHERE_FROM;
    // Its encoded forms too (encoded.ts): a server echoes it percent-encoded, JSON escapes it.
    const re = encodedPattern(v);
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const i = m.index;
      const j = i + m[0].length;
      if (!short || whole(text, i, j)) marks.push([i, j]);
      // Every start, as indexOf found overlapping ones: a span is merged with the next below.
      re.lastIndex = i + 1;
    }
  }
  if (marks.length === 0) return [];
  // The marker is text this module wrote (a report's lines are redacted again once laid out): a
  // short secret that is one of its words ("by") must not break it, and names nothing there.
  const ours: [number, number][] = [];
  for (let i = text.indexOf(REDACTED); i !== -1; i = text.indexOf(REDACTED, i + REDACTED.length)) ours.push([i, i + REDACTED.length]);
  marks.sort((a, b) => a[0] - b[0]);
  const spans: [number, number][] = [];
  let k = 0;
  for (const m of marks) {
    // Both sorted: one pass (a server's text can hold many markers and many short matches).
    while (k < ours.length && ours[k]![1] <= m[0]) k++;
    const o = ours[k];
    if (o && o[0] <= m[0] && m[1] <= o[1]) continue;
    const last = spans[spans.length - 1];
    if (last && m[0] < last[1]) last[1] = Math.max(last[1], m[1]);
    else spans.push([m[0], m[1]]);
  }
  return spans;
}

export function redactText(s: string, secrets: readonly string[]): string {
  const spans = spansOf(s, secrets);
  if (spans.length === 0) return s;
  let out = '';
  let cur = 0;
  for (const [a, b] of spans) {
    out += s.slice(cur, a) + REDACTED;
    cur = b;
  }
  return out + s.slice(cur);
}

/**
 * A connection's chunk texts with the secrets replaced in the text they make together: a secret
 * a network read cut in two is in no chunk whole (and whether a short one stands as a whole token
 * is read there too). A chunk that began inside a secret ends where the secret does (the chunk it
 * began in holds the replacement); the texts still join to the redacted whole.
 */
export function redactChunks(texts: readonly string[], secrets: readonly string[]): string[] {
  const joined = texts.join('');
  const spans = spansOf(joined, secrets);
  if (spans.length === 0) return texts.slice();
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
  // A URL's userinfo, key in the path and query values replaced as in the report (credentials.ts),
  // then any secret.
  const url = (u: string) => redactText(shownUrl(u), secrets);
  if (secrets.length === 0 && lower.size === 0) return records.map((r) => (r.kind === 'request' || r.kind === 'response' ? { ...r, url: url(r.url) } : r));
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
        return { ...r, headers: hs(r.headers), url: url(r.url), body: r.body === null ? null : redactText(r.body, secrets) };
      case 'response':
        return { ...r, headers: hs(r.headers), url: url(r.url) };
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

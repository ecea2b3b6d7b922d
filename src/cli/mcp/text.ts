// Capture text (URLs, headers, SSE data, server messages) is untrusted page data: answers carry it
// as JSON string values, never as instructions or markup, and cut to a size a model's context can
// hold. Control and bidi characters survive as JSON escapes.

/** `s` cut to `max` characters, saying how much was left out. */
export function cap(s: string, max: number): string {
  if (s.length <= max) return s;
  return `${s.slice(0, max)}… (${s.length - max} more characters)`;
}

export const MESSAGE_MAX = 1200;
export const DATA_MAX = 1000;
export const URL_MAX = 300;
export const IDS_MAX = 30;
/** Stream ids are `<capture source>:<connection>`, both the page's text: 60,000 characters seen. */
export const STREAM_ID_MAX = 200;
/** JSON-RPC ids are the page's text too; get_request takes up to this many characters. */
export const REQUEST_ID_MAX = 200;
/** Missing ids as ranges: short for a counter, as long as its ids for one with a long prefix. */
export const MISSING_MAX = 300;

/** A finding's missing ranges, cut (ids of a hostile prefix made it 40,000 characters). */
export const capMissing = (m: string | undefined): string | null => (m === undefined ? null : cap(m, MISSING_MAX));

export function capIds(ids: readonly string[], max = IDS_MAX, idMax = 80): { ids: string[]; more?: number } {
  return ids.length <= max ? { ids: ids.map((i) => cap(i, idMax)) } : { ids: ids.slice(0, max).map((i) => cap(i, idMax)), more: ids.length - max };
}

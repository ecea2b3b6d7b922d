// Reading an event's data by a progress shape (see ../progress-shape.ts): the text around the
// holes compared, each hole checked to hold a whole token of its kind, the progress hole's value
// read. Nothing here allocates for the usual event but the slices of long texts it compares.

/** The kinds of a hole (and of a token). */
export const NUM = 1;
export const STR = 2;
export const OTHER = 3;

/** A progress shape: the text around the holes (one more than holes), each hole's kind, which is the progress. */
export interface Shape {
  segs: string[];
  holes: number[];
  progress: number;
}

/** The inside of a JSON string without escapes (RFC 8259 §7). */
const PLAIN = /^[^\\\u0000-\u001f]*$/;

/** A JSON number token, whole (RFC 8259 §6). */
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** 0-9 . e E + -: the characters a number token is made of. */
export function numberChar(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 46 || c === 101 || c === 69 || c === 43 || c === 45;
}

/**
 * The value of the number token `text[from, to)`, or NaN when it is not one. A plain integer (the
 * usual progress) is read here; anything else by Number() once the token is checked whole.
 */
function numberAt(text: string, from: number, to: number): number {
  if (to - from <= 15 && (text.charCodeAt(from) !== 48 || to - from === 1)) {
    let v = 0;
    let i = from;
    for (; i < to; i++) {
      const d = text.charCodeAt(i) - 48;
      if (d < 0 || d > 9) break;
      v = v * 10 + d; // at most 15 digits: exact, as Number() reads it
    }
    if (i === to) return v;
  }
  const token = text.slice(from, to);
  return NUMBER.test(token) ? Number(token) : NaN;
}

/**
 * Whether `text` holds `seg` at `pos`. A long one is compared as a slice (V8 compares strings of
 * equal length with memcmp; startsWith goes character by character, about 6× slower on 100
 * characters); a short one (`,"total":100,"message":"`) character by character, without a slice.
 */
function at(text: string, pos: number, seg: string): boolean {
  const n = seg.length;
  if (n > 24) return text.slice(pos, pos + n) === seg;
  if (pos + n > text.length) return false;
  for (let i = 0; i < n; i++) if (text.charCodeAt(pos + i) !== seg.charCodeAt(i)) return false;
  return true;
}

/** Where the shape's text ended in the last fitsFrom that fit (one number, not an object per event). */
export let fitEnd = 0;

/**
 * The progress hole's value if `text` is the shape `segs` around `holes`, each with a valid token
 * of its kind; NaN if it is not. A string hole is scanned to its closing quote, escapes and all; a
 * number hole is every number character from its start, checked whole.
 */
export function fits(text: string, segs: readonly string[], holes: readonly number[], progressHole: number): number {
  const last = segs[holes.length]!;
  // The length first: a text that does not end where the shape does is not read at all.
  if (text.length < last.length) return NaN;
  const v = fitsFrom(text, 0, segs, holes, progressHole);
  return fitEnd === text.length ? v : NaN;
}

/**
 * fits() of the text that starts at `from` in `text` and ends where the shape does (`fitEnd`):
 * what follows it is not read. Its tokens hold no line end (a string's control characters are
 * escaped); its texts hold none unless it was taught from data of several lines, so in an SSE body
 * the data line read by a shape without one ends at `fitEnd` (event-run.ts).
 */
export function fitsFrom(text: string, from: number, segs: readonly string[], holes: readonly number[], progressHole: number): number {
  let pos = from;
  let progress = NaN;
  const n = text.length;
  fitEnd = -1;
  for (let k = 0; k < holes.length; k++) {
    if (!at(text, pos, segs[k]!)) return NaN;
    pos += segs[k]!.length;
    let end = pos;
    if (holes[k] === NUM) {
      while (end < n && numberChar(text.charCodeAt(end))) end++;
      const v = end > pos ? numberAt(text, pos, end) : NaN;
      if (v !== v) return NaN;
      if (k === progressHole) progress = v;
    } else {
      // Usually a plain string: its closing quote, with no escape or control character before it.
      const q = text.indexOf('"', pos);
      if (q === -1) return NaN;
      end = q;
      if (PLAIN.test(text.slice(pos, q))) {
        pos = end;
        continue;
      }
      end = pos;
      for (;;) {
        if (end >= n) return NaN;
        const c = text.charCodeAt(end);
        if (c === 34) break;
        if (c < 32) return NaN;
        if (c === 92) {
          const e = text.charCodeAt(end + 1);
          if (e === 117) {
            if (!/^[0-9a-fA-F]{4}$/.test(text.slice(end + 2, end + 6))) return NaN;
            end += 6;
          } else if (e === 34 || e === 92 || e === 47 || e === 98 || e === 102 || e === 110 || e === 114 || e === 116) end += 2;
          else return NaN;
        } else end++;
      }
    }
    pos = end;
  }
  const last = segs[holes.length]!;
  // Not endsWith: it compares character by character too, ~1 µs for a 374-character tail in
  // Chromium 156 (row 1c's 500-byte events), where the slice compare takes a tenth of that.
  if (n - pos < last.length || !at(text, pos, last)) return NaN;
  fitEnd = pos + last.length;
  return progress;
}

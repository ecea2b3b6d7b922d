// Where a value stands in a JSON text, so that `serve` can replace one id in a recorded answer
// without parsing and re-serialising the rest: JSON.stringify(JSON.parse(x)) rounds integers
// beyond 2^53, moves integer-like member names first, rewrites whitespace and escapes, and
// overflows the stack on values nested a few thousand deep. This reads only the structure: strings are skipped by their
// quotes and escapes, containers by their brackets, with a loop (no recursion), so depth costs
// nothing. It is meant for texts JSON.parse accepted; on anything else it answers undefined.

export interface Span {
  start: number;
  end: number;
}

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

function skipSpace(t: string, i: number): number {
  while (i < t.length && isSpace(t.charCodeAt(i))) i++;
  return i;
}

/** A character of a number or of true / false / null. */
function isScalarChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 45 || c === 43 || c === 46;
}

/** End (after the closing quote) of the string whose opening quote is at `i`, or -1. */
function stringEnd(t: string, i: number): number {
  for (let j = i + 1; j < t.length; j++) {
    const c = t.charCodeAt(j);
    if (c === BACKSLASH) j++;
    else if (c === QUOTE) return j + 1;
  }
  return -1;
}

/** End of the object or array opening at `i`, or -1. Brackets inside strings do not count. */
function containerEnd(t: string, i: number): number {
  let depth = 0;
  for (let j = i; j < t.length; j++) {
    const c = t.charCodeAt(j);
    if (c === QUOTE) {
      const e = stringEnd(t, j);
      if (e === -1) return -1;
      j = e - 1;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth++;
    else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  return -1;
}

/** End of the value that starts at `i` (no space before it), or -1. */
function valueEnd(t: string, i: number): number {
  const c = t.charCodeAt(i);
  if (c === QUOTE) return stringEnd(t, i);
  if (c === OPEN_OBJECT || c === OPEN_ARRAY) return containerEnd(t, i);
  let j = i;
  while (j < t.length && isScalarChar(t.charCodeAt(j))) j++;
  return j > i ? j : -1;
}

/** The member name whose string token is t[start, end), as JSON.parse reads it. */
function keyOf(t: string, start: number, end: number): string | undefined {
  const raw = t.slice(start, end);
  if (!raw.includes('\\')) return raw.slice(1, -1);
  try {
    return JSON.parse(raw) as string;
  } catch {
    return undefined;
  }
}

/** The span of the whole text's value (space around it left out). */
export function rootSpan(t: string): Span | undefined {
  const start = skipSpace(t, 0);
  const end = valueEnd(t, start);
  return end === -1 ? undefined : { start, end };
}

/**
 * The members of the object at `at`: name → its value's span. A repeated name keeps its last
 * value, as JSON.parse does, so the span is the one the parsed message was read from.
 */
export function objectMembers(t: string, at: Span): Map<string, Span> | undefined {
  if (t.charCodeAt(at.start) !== OPEN_OBJECT) return undefined;
  const out = new Map<string, Span>();
  let i = skipSpace(t, at.start + 1);
  if (t.charCodeAt(i) === CLOSE_OBJECT) return out;
  for (;;) {
    if (t.charCodeAt(i) !== QUOTE) return undefined;
    const keyEnd = stringEnd(t, i);
    if (keyEnd === -1) return undefined;
    const key = keyOf(t, i, keyEnd);
    i = skipSpace(t, keyEnd);
    if (key === undefined || t.charCodeAt(i) !== COLON) return undefined;
    const start = skipSpace(t, i + 1);
    const end = valueEnd(t, start);
    if (end === -1) return undefined;
    out.set(key, { start, end });
    i = skipSpace(t, end);
    const c = t.charCodeAt(i);
    if (c === CLOSE_OBJECT) return out;
    if (c !== COMMA) return undefined;
    i = skipSpace(t, i + 1);
  }
}

/** The spans of the elements of the array at `at`. */
export function arrayElements(t: string, at: Span): Span[] | undefined {
  if (t.charCodeAt(at.start) !== OPEN_ARRAY) return undefined;
  const out: Span[] = [];
  let i = skipSpace(t, at.start + 1);
  if (t.charCodeAt(i) === CLOSE_ARRAY) return out;
  for (;;) {
    const end = valueEnd(t, i);
    if (end === -1) return undefined;
    out.push({ start: i, end });
    i = skipSpace(t, end);
    const c = t.charCodeAt(i);
    if (c === CLOSE_ARRAY) return out;
    if (c !== COMMA) return undefined;
    i = skipSpace(t, i + 1);
  }
}

/** The span of each JSON-RPC message of a body: the root value, or each element of a batch. */
export function messageSpans(t: string, batch: boolean): Span[] | undefined {
  const root = rootSpan(t);
  if (!root) return undefined;
  return batch ? arrayElements(t, root) : [root];
}

/**
 * Finds members below one message, reading each object on the way once: a message whose id,
 * params and result are all looked at is not walked three times.
 */
export function memberFinder(t: string, message: Span): (path: readonly string[]) => Span | undefined {
  const read = new Map<string, Map<string, Span> | undefined>();
  const membersAt = (key: string, span: Span) => {
    if (!read.has(key)) read.set(key, objectMembers(t, span));
    return read.get(key);
  };
  return (path) => {
    let cur: Span | undefined = message;
    let key = '';
    for (const name of path) {
      if (!cur) return undefined;
      cur = membersAt(key, cur)?.get(name);
      key += `\u0000${name}`;
    }
    return cur;
  };
}

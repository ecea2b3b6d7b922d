// Event ids: parsing an id into (stream part, counter), the hexadecimal reading of fixed-width
// fields, the user's override, and writing an id back from its parts.
import type { IdSchemeKind } from '../model';

export interface ParsedId {
  /** Stream part (everything before the counter), '' for plain integers. */
  prefix: string;
  counter: number;
  /** Digits of the counter as written (for zero padding when naming missing ids). */
  width: number;
  /** The counter is a fixed-width hexadecimal field (lowercase), read in base 16. */
  hex?: true;
}

export interface IdSchemeOverride {
  /** Origin (scheme://host:port) the override applies to; '*' for every origin. */
  origin: string;
  /**
   * Regular expression with named groups `counter` (required for contiguous / sparse) and
   * optionally `stream` (the per-stream part). Ids that do not match count as opaque.
   */
  pattern?: string;
  /** Scheme to assume. Defaults to contiguous when a pattern is given. */
  kind?: Exclude<IdSchemeKind, 'none' | 'undetermined'>;
}

const TRAILING_INT = /^(.*?)(\d+)$/;

/** Counters are exact below 2^53: at most 15 significant decimal digits, 13 hexadecimal ones. */
const MAX_DEC_DIGITS = 15;
const MAX_HEX_DIGITS = 13;

/** Zero-padded counters ("0042") keep their width when naming missing ids; others none. */
function padWidth(digits: string): number {
  return digits.length > 1 && digits.startsWith('0') ? digits.length : 0;
}

/** Significant digits of a digit string (leading zeros dropped; "000" has none). */
function significant(digits: string): number {
  let i = 0;
  while (i < digits.length && digits.charCodeAt(i) === 48) i++;
  return digits.length - i;
}

/**
 * Generic parse: a stable prefix plus a trailing decimal integer, i.e. `TRAILING_INT` (the digits
 * are the longest run of ASCII digits ending the id), read in base 10: at most 15 digits, or a
 * zero-padded field of any width whose significant digits are at most 15 (Python servers and
 * stores that pad a counter to 20 digits). Scanned by hand: it runs for every event id, and the
 * regex's lazy prefix backtracks over the whole id.
 */
export function parseIdGeneric(id: string): ParsedId | null {
  const n = id.length;
  let k = n;
  while (k > 0) {
    const c = id.charCodeAt(k - 1);
    if (c < 48 || c > 57) break;
    k--;
  }
  const len = n - k;
  if (len === 0) return null;
  let from = k;
  if (len > MAX_DEC_DIGITS) {
    // Only a zero-padded field: its significant digits must still be exact.
    while (from < n && id.charCodeAt(from) === 48) from++;
    if (from === k || n - from > MAX_DEC_DIGITS) return null;
  }
  // Small plain counters (the common case) are read without a substring.
  let counter = 0;
  for (let i = from; i < n; i++) counter = counter * 10 + (id.charCodeAt(i) - 48);
  const width = len > 1 && id.charCodeAt(k) === 48 ? len : 0;
  // The regex's `.` does not match line terminators: such a prefix is no match.
  for (let i = 0; i < k; i++) {
    const c = id.charCodeAt(i);
    if (c === 10 || c === 13 || c === 0x2028 || c === 0x2029) return null;
  }
  return { prefix: k === 0 ? '' : id.slice(0, k), counter, width };
}

/** The reference definition of parseIdGeneric (kept for the equivalence test). */
export function parseIdRegex(id: string): ParsedId | null {
  const m = TRAILING_INT.exec(id);
  if (!m) return null;
  const digits = m[2]!;
  if (digits.length > MAX_DEC_DIGITS && (!digits.startsWith('0') || significant(digits) > MAX_DEC_DIGITS || significant(digits) === digits.length)) return null;
  return { prefix: m[1]!, counter: Number(digits), width: padWidth(digits) };
}

/**
 * A fixed-width hexadecimal field ending the id: the longest run of [0-9a-f] at its end, at least
 * 4 characters, zero-padded to at least half its width (Cloudflare agents' McpAgent writes
 * `<streamId>:<seq as 16 hex digits>`: "…:000000000000000a"). The padding rule keeps random
 * tails out (a UUID's last group, a base-36 suffix): their runs are short or barely padded.
 * Returns the field's start, or -1.
 */
export function hexFieldStart(id: string): number {
  const n = id.length;
  let k = n;
  while (k > 0) {
    const c = id.charCodeAt(k - 1);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) break;
    k--;
  }
  const len = n - k;
  if (len < 4) return -1;
  let z = k;
  while (z < n && id.charCodeAt(z) === 48) z++;
  if ((z - k) * 2 < len || n - z > MAX_HEX_DIGITS) return -1;
  return k;
}

/** Whether the id's fixed-width field (see hexFieldStart) holds a digit a–f. */
export function hexLetters(id: string, start: number): boolean {
  for (let i = start; i < id.length; i++) if (id.charCodeAt(i) >= 97) return true;
  return false;
}

/**
 * The parse of a session whose fixed-width fields are hexadecimal: such a field (see
 * hexFieldStart), digits-only ones included, is read in base 16; every other id as parseIdGeneric.
 * A fixed-width field is ambiguous until one holds a digit a–f ("…0009" then "…000a" is hex, and
 * "…0010" after "…000f" is 16): the analyzer reads a session both ways and decides on the whole
 * session (see IdView in state.ts).
 */
export function parseIdHex(id: string): ParsedId | null {
  const k = hexFieldStart(id);
  if (k < 0) return parseIdGeneric(id);
  for (let i = 0; i < k; i++) {
    const c = id.charCodeAt(i);
    if (c === 10 || c === 13 || c === 0x2028 || c === 0x2029) return null;
  }
  let counter = 0;
  for (let i = k; i < id.length; i++) {
    const c = id.charCodeAt(i);
    counter = counter * 16 + (c <= 57 ? c - 48 : c - 87);
  }
  return { prefix: id.slice(0, k), counter, width: id.length - k, hex: true };
}

/** UUIDs (any version) in an id: random, no counter. */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
export function hasUuid(id: string): boolean {
  return id.length >= 36 && UUID.test(id);
}

export function makeIdParser(override: IdSchemeOverride | undefined): (id: string) => ParsedId | null {
  if (!override?.pattern) return parseIdGeneric;
  let re: RegExp;
  try {
    re = new RegExp(override.pattern);
  } catch {
    return parseIdGeneric;
  }
  return (id) => {
    const m = re.exec(id);
    const c = m?.groups?.counter;
    if (!m || c === undefined || !/^\d+$/.test(c) || significant(c) > MAX_DEC_DIGITS) return null;
    return { prefix: m.groups?.stream ?? '', counter: Number(c), width: padWidth(c) };
  };
}

export function formatId(prefix: string, counter: number, width: number, hex?: boolean): string {
  let s = hex ? counter.toString(16) : String(counter);
  if (width > s.length) s = s.padStart(width, '0');
  return prefix + s;
}

// Event-id schemes: parsing ids into (stream part, counter), sets of delivered counters, and the
// per-session inference of the scheme from incrementally kept statistics.
import type { IdScheme, IdSchemeKind } from './model';

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

/**
 * A set of integers as sorted, merged, inclusive intervals. Appends at the top (the usual case)
 * are O(1); other inserts binary-search.
 */
export class IntervalSet {
  private lo: number[] = [];
  private hi: number[] = [];
  size = 0;
  /**
   * Inserts below the current maximum (a hole filled or a new interval below the top): the only
   * way `missingIn` of a range below the maximum can change. Lets callers keep its results.
   */
  fills = 0;
  /** Also counts this set's fills (e.g. the session's IdStats). */
  constructor(private readonly owner?: { fills: number }) {}

  get min(): number | undefined {
    return this.lo[0];
  }
  get max(): number | undefined {
    return this.hi[this.hi.length - 1];
  }

  /** Insert; returns false if already present. */
  add(x: number): boolean {
    const n = this.lo.length;
    if (n === 0) {
      this.lo.push(x);
      this.hi.push(x);
      this.size = 1;
      return true;
    }
    const lastHi = this.hi[n - 1]!;
    if (x > lastHi) {
      if (x === lastHi + 1) this.hi[n - 1] = x;
      else {
        this.lo.push(x);
        this.hi.push(x);
      }
      this.size++;
      return true;
    }
    // Find the last interval with lo <= x.
    let a = 0;
    let b = n - 1;
    let idx = -1;
    while (a <= b) {
      const mid = (a + b) >> 1;
      if (this.lo[mid]! <= x) {
        idx = mid;
        a = mid + 1;
      } else b = mid - 1;
    }
    if (idx >= 0 && x <= this.hi[idx]!) return false;
    this.fills++;
    if (this.owner) this.owner.fills++;
    const joinLeft = idx >= 0 && this.hi[idx] === x - 1;
    const joinRight = idx + 1 < n && this.lo[idx + 1] === x + 1;
    if (joinLeft && joinRight) {
      this.hi[idx] = this.hi[idx + 1]!;
      this.lo.splice(idx + 1, 1);
      this.hi.splice(idx + 1, 1);
    } else if (joinLeft) this.hi[idx] = x;
    else if (joinRight) this.lo[idx + 1] = x;
    else {
      this.lo.splice(idx + 1, 0, x);
      this.hi.splice(idx + 1, 0, x);
    }
    this.size++;
    return true;
  }

  has(x: number): boolean {
    let a = 0;
    let b = this.lo.length - 1;
    while (a <= b) {
      const mid = (a + b) >> 1;
      if (this.lo[mid]! <= x) {
        if (x <= this.hi[mid]!) return true;
        a = mid + 1;
      } else b = mid - 1;
    }
    return false;
  }

  /** The smallest integer of [from, to] not in the set, or undefined. */
  firstMissing(from: number, to: number): number | undefined {
    if (to < from) return undefined;
    let a = 0;
    let b = this.lo.length - 1;
    while (a <= b) {
      const mid = (a + b) >> 1;
      if (this.lo[mid]! <= from) {
        if (from <= this.hi[mid]!) return this.hi[mid]! + 1 <= to ? this.hi[mid]! + 1 : undefined;
        a = mid + 1;
      } else b = mid - 1;
    }
    return from;
  }

  /** The intervals of the set that overlap [from, to], clipped to it. */
  *intervalsIn(from: number, to: number): Generator<[number, number]> {
    let a = 0;
    let b = this.lo.length - 1;
    let i = this.lo.length;
    while (a <= b) {
      const mid = (a + b) >> 1;
      if (this.hi[mid]! >= from) {
        i = mid;
        b = mid - 1;
      } else a = mid + 1;
    }
    for (; i < this.lo.length && this.lo[i]! <= to; i++) yield [Math.max(from, this.lo[i]!), Math.min(to, this.hi[i]!)];
  }

  /** The integers of [from, to] not in the set, as inclusive ranges. */
  missingIn(from: number, to: number): [number, number][] {
    const out: [number, number][] = [];
    if (to < from) return out;
    let next = from;
    // first interval that could overlap
    let a = 0;
    let b = this.lo.length - 1;
    let i = this.lo.length;
    while (a <= b) {
      const mid = (a + b) >> 1;
      if (this.hi[mid]! >= from) {
        i = mid;
        b = mid - 1;
      } else a = mid + 1;
    }
    for (; i < this.lo.length && next <= to; i++) {
      const l = this.lo[i]!;
      const h = this.hi[i]!;
      if (l > to) break;
      if (l > next) out.push([next, Math.min(l - 1, to)]);
      next = Math.max(next, h + 1);
    }
    if (next <= to) out.push([next, to]);
    return out;
  }
}

/** Per-prefix group of ids seen in a session. */
export interface IdGroup {
  prefix: string;
  set: IntervalSet;
  width: number;
  /** Streams (connections) that delivered ids of this group. */
  streams: Set<string>;
  /** The stream last added to `streams` (most ids come in runs from one stream). */
  lastStream?: string;
  counterLike: boolean;
  /** The counter is a fixed-width hexadecimal field (see parseIdHex). */
  hex?: true;
}

/** Statistics kept incrementally per session (O(1) per id). */
export interface IdStats {
  ids: number;
  unparsed: number;
  unparsedExample?: string;
  /** Ids that are or carry a UUID, among those that are no counter (unparsed, or alone under their prefix). */
  uuids: number;
  uuidExample?: string;
  examples: string[];
  groups: Map<string, IdGroup>;
  counterLikeGroups: number;
  otherGroups: number;
  /** Sum over counter-like groups of distinct counters and of (max - min + 1). */
  distinct: number;
  span: number;
  /** Streams (connections) that delivered at least one id. */
  streamsWithIds: number;
  steps: number;
  stepsOne: number;
  stepsUp: number;
  stepsDown: number;
  /** Hole fills in any id set of the session (IntervalSet.fills). */
  fills: number;
  /** The group of the last id recorded (ids come in runs of one prefix). */
  last?: IdGroup;
}

export function newIdStats(): IdStats {
  return {
    ids: 0,
    unparsed: 0,
    uuids: 0,
    examples: [],
    groups: new Map(),
    counterLikeGroups: 0,
    otherGroups: 0,
    distinct: 0,
    span: 0,
    streamsWithIds: 0,
    steps: 0,
    stepsOne: 0,
    stepsUp: 0,
    stepsDown: 0,
    fills: 0,
  };
}

function groupSpan(g: IdGroup): number {
  const min = g.set.min;
  const max = g.set.max;
  return min === undefined || max === undefined ? 0 : max - min + 1;
}

/** Record a (non-duplicate) id in the stats; returns its group, or undefined if unparsed. */
export function recordId(stats: IdStats, id: string, parsed: ParsedId | null, streamId: string): IdGroup | undefined {
  stats.ids++;
  if (stats.examples.length < 3) stats.examples.push(id);
  if (!parsed) {
    stats.unparsed++;
    stats.unparsedExample ??= id;
    if (hasUuid(id)) {
      stats.uuids++;
      stats.uuidExample ??= id;
    }
    return undefined;
  }
  let g = stats.last !== undefined && stats.last.prefix === parsed.prefix ? stats.last : stats.groups.get(parsed.prefix);
  if (!g) {
    g = { prefix: parsed.prefix, set: new IntervalSet(stats), width: parsed.width, streams: new Set(), counterLike: parsed.counter <= 1 || parsed.prefix === '' };
    if (parsed.hex) g.hex = true;
    stats.groups.set(parsed.prefix, g);
    if (g.counterLike) stats.counterLikeGroups++;
    else {
      stats.otherGroups++;
      if (hasUuid(id)) {
        stats.uuids++;
        stats.uuidExample ??= id;
      }
    }
  } else if (!g.counterLike) {
    // A second id under the same prefix: a counter, not a random suffix.
    g.counterLike = true;
    stats.otherGroups--;
    stats.counterLikeGroups++;
    stats.distinct += g.set.size;
    stats.span += groupSpan(g);
  }
  stats.last = g;
  if (g.lastStream !== streamId) {
    g.streams.add(streamId);
    g.lastStream = streamId;
  }
  if (g.counterLike) {
    const before = groupSpan(g);
    if (g.set.add(parsed.counter)) {
      stats.distinct++;
      stats.span += groupSpan(g) - before;
    }
  } else g.set.add(parsed.counter);
  return g;
}

export function recordStep(stats: IdStats, delta: number): void {
  stats.steps++;
  if (delta === 1) stats.stepsOne++;
  else if (delta > 1) stats.stepsUp++;
  else stats.stepsDown++;
}

/** Infer the scheme of a session from its statistics. O(1). */
export function inferScheme(stats: IdStats, override: IdSchemeOverride | undefined): IdScheme {
  if (override) {
    const kind = override.kind ?? (override.pattern ? 'contiguous' : 'opaque');
    const scheme: IdScheme = {
      kind,
      evidence: `set by the user for ${override.origin}` + (override.pattern ? ` (pattern ${override.pattern})` : ''),
      override: override.pattern ?? kind,
    };
    if (kind !== 'opaque') scheme.scope = override.pattern?.includes('(?<stream>') ? 'stream' : 'session';
    if (stats.unparsed > 0) scheme.evidence += `; ${stats.unparsed} id(s) do not match, e.g. "${stats.unparsedExample}"`;
    return scheme;
  }
  if (stats.ids === 0) return { kind: 'none', evidence: 'no event ids seen' };
  const eg = stats.examples.map((e) => `"${e}"`).join(', ');
  // One id shows no scheme at all: a counter, a timestamp and a random token all look alike.
  if (stats.ids === 1) return { kind: 'undetermined', evidence: `only one event id seen (${eg}): too few ids to tell a counter from random ids` };
  const nonCounter = stats.unparsed + stats.otherGroups;
  if (stats.unparsed * 10 > stats.ids || stats.otherGroups >= stats.counterLikeGroups || nonCounter * 2 > stats.ids) {
    // UUIDs often end in a digit (then they parse as "prefix + number"): name them for what they are.
    const why =
      stats.uuids * 2 > nonCounter
        ? `${stats.uuids} of ${stats.ids} ids are random UUIDs or carry one (e.g. "${stats.uuidExample}"), with no counter in them`
        : stats.unparsed > 0
          ? `${stats.unparsed} of ${stats.ids} ids are not a prefix plus a counter (e.g. "${stats.unparsedExample}")`
          : `${stats.otherGroups} of ${stats.ids} ids have a prefix of their own`;
    return { kind: 'opaque', evidence: `${why}: gaps and order cannot be checked (ids ${eg})` };
  }
  if (stats.counterLikeGroups > Math.max(1, stats.streamsWithIds)) {
    // More "stream prefixes" than streams: the prefix changes within a stream (e.g. Redis-style
    // "<ms>-<seq>" ids), so it is no stream part and the ids cannot be checked.
    return {
      kind: 'opaque',
      evidence: `${stats.counterLikeGroups} different id prefixes on ${stats.streamsWithIds} stream(s): the prefix is not a stream name, so gaps and order cannot be checked (ids ${eg})`,
    };
  }
  const scope: 'session' | 'stream' = stats.counterLikeGroups > 1 ? 'stream' : 'session';
  const coverage = stats.span > 0 ? stats.distinct / stats.span : 0;
  const stepShare = stats.steps > 0 ? stats.stepsOne / stats.steps : 0;
  const contiguous = coverage >= 0.8 || (stats.steps >= 2 && stepShare >= 0.5 && coverage >= 0.3);
  const where =
    scope === 'stream' ? `a counter per stream prefix (${stats.counterLikeGroups} prefixes)` : 'one counter shared by the session';
  const seen = `${stats.distinct} of ${stats.span} ids in range seen`;
  const stepTxt = stats.steps > 0 ? `, ${stats.stepsOne} of ${stats.steps} steps on a connection are +1` : '';
  if (contiguous) {
    return { kind: 'contiguous', scope, evidence: `contiguous counter: ${where}; ${seen}${stepTxt} (ids ${eg})` };
  }
  return {
    kind: 'sparse',
    scope,
    evidence: `increasing but sparse: ${where}; only ${seen}${stepTxt}: order can be checked, gaps cannot (ids ${eg})`,
  };
}

/** "12–13, 15" from ranges. */
export function describeRanges(ranges: [number, number][], prefix: string, width: number, hex?: boolean, limit = 12): string {
  const parts = ranges.slice(0, limit).map(([a, b]) => (a === b ? formatId(prefix, a, width, hex) : `${formatId(prefix, a, width, hex)}–${formatId(prefix, b, width, hex)}`));
  if (ranges.length > limit) parts.push(`… (${ranges.length - limit} more ranges)`);
  return parts.join(', ');
}

export function expandRanges(ranges: [number, number][], prefix: string, width: number, hex?: boolean, limit = 100): string[] {
  const out: string[] = [];
  for (const [a, b] of ranges) {
    for (let x = a; x <= b; x++) {
      if (out.length >= limit) return out;
      out.push(formatId(prefix, x, width, hex));
    }
  }
  return out;
}

export function countRanges(ranges: [number, number][]): number {
  let n = 0;
  for (const [a, b] of ranges) n += b - a + 1;
  return n;
}

// The per-session inference of the id scheme from statistics kept incrementally (O(1) per id), and
// the missing ids of a gap named as ranges.
import type { IdScheme } from '../model';
import { formatId, hasUuid, type IdSchemeOverride, type ParsedId } from './parse';
import { IntervalSet } from './interval-set';

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
      ...(override.pattern ? { pattern: override.pattern } : {}),
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

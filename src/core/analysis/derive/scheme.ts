// The id scheme of a session at snapshot time: inferred from its statistics (ids.ts) in the reading
// that applies (decimal, or hexadecimal once an id holds a–f), narrowed to per-stream counters
// when streams reuse ids, and to a server-wide counter when another session of the endpoint holds
// an id inside this session's range that it lacks.
import type { IdScheme } from '../../model';
import { formatId, inferScheme, type IntervalSet } from '../../ids';
import type { IdView, SessionState } from '../state';
import type { DeriveCache } from './cache';

/** The reading of a session's ids the analysis uses: hexadecimal once an id holds a–f in its fixed-width field. */
export function idView(s: SessionState): IdView {
  return s.hexSeen !== undefined && s.hex ? s.hex : s.main;
}

/** `ranges` without the members of `set`. */
export function minusSet(ranges: [number, number][], set: IntervalSet): [number, number][] {
  const out: [number, number][] = [];
  for (const [a, b] of ranges) {
    let next = a;
    for (const [l, h] of set.intervalsIn(a, b)) {
      if (l > next) out.push([next, l - 1]);
      next = h + 1;
    }
    if (next <= b) out.push([next, b]);
  }
  return out;
}

/**
 * A counter shared by several sessions of the endpoint: an id inside this session's range of a
 * counter that this session never received, delivered in another session. Decided on the sets of
 * delivered ids only (no threshold), so every run of the same situation gives the same answer; the
 * witness named is the smallest such id (first group, first session on a tie), so the evidence does
 * not depend on the order the records came in.
 */
function sharedWitness(v: IdView, peers: SessionState[]): DeriveCache['sharedWitness'] {
  let best: DeriveCache['sharedWitness'];
  for (const g of v.stats.groups.values()) {
    const lo = g.set.min;
    const hi = g.set.max;
    if (!g.counterLike || lo === undefined || hi === undefined || hi - lo < 2) continue;
    for (const t of peers) {
      const tg = idView(t).stats.groups.get(g.prefix);
      if (!tg || !tg.hex !== !g.hex) continue;
      for (const [a, b] of tg.set.intervalsIn(lo + 1, Math.min(hi - 1, best && best.prefix === g.prefix ? best.x - 1 : Infinity))) {
        const x = g.set.firstMissing(a, b);
        if (x === undefined) continue;
        best = { other: t, prefix: g.prefix, x };
        break;
      }
    }
    if (best) break;
  }
  return best;
}

/** How the session's fixed-width fields were read, added to the scheme's evidence. */
function radixNote(s: SessionState, v: IdView): string {
  if (v.hex && s.hexSeen !== undefined) return `; fixed-width fields are hexadecimal counters, read in base 16: ids of the session hold a digit a–f there (e.g. "${s.hexSeen}")`;
  if (s.radixDiffers !== undefined) {
    const p = s.main.parse(s.radixDiffers);
    return `; zero-padded fields are read as decimal numbers ("${s.radixDiffers}" as ${p ? p.counter : '?'}): no id of the session holds a digit a–f there`;
  }
  return '';
}

const counted = (k: IdScheme['kind']) => k === 'contiguous' || k === 'sparse';

export interface SchemeResult {
  scheme: IdScheme;
  /** Other sessions of the endpoint whose ids are the same events as this session's. */
  peers: SessionState[] | undefined;
}

/** The session's scheme; records the shared-counter test and whether it reads other sessions in `cache`. */
export function sessionScheme(s: SessionState, v: IdView, cache: DeriveCache): SchemeResult {
  let inferred = inferScheme(v.stats, s.override);
  if (counted(inferred.kind) && !inferred.override) inferred = { ...inferred, evidence: inferred.evidence + radixNote(s, v) };
  let scheme: IdScheme =
    s.idReuse > 0 && counted(inferred.kind) && !inferred.override
      ? { ...inferred, scope: 'stream' as const, evidence: `${inferred.evidence}; each stream counts on its own (${s.idReuse} id(s) repeated on other streams)` }
      : inferred;
  // Other sessions of the endpoint whose ids are the same events as this session's: none when the
  // server numbers each session on its own (the same ids delivered afresh in two sessions).
  const peers = s.ep && s.ep.reuse === 0 && s.ep.sessions.length > 1 ? s.ep.sessions.filter((x) => x !== s) : undefined;
  const eligible = peers !== undefined && counted(scheme.kind) && scheme.scope === 'session' && !scheme.override;
  const witness = eligible ? sharedWitness(v, peers) : undefined;
  cache.sharedWitness = witness;
  // Re-derived when another session of the endpoint changes (see the snapshot): its shared-counter
  // test, and the ids they delivered that are no gap here.
  cache.sharedCheck = eligible || (peers !== undefined && scheme.kind === 'contiguous');
  if (witness) {
    const g = v.stats.groups.get(witness.prefix)!;
    const eg = v.stats.examples.map((e) => `"${e}"`).join(', ');
    scheme = {
      kind: 'sparse',
      scope: 'server',
      evidence: `increasing, but one counter shared by several sessions of this server: id ${formatId(witness.prefix, witness.x, g.width, g.hex)}, inside this session's range, was delivered in session ${witness.other.sessionId ?? witness.other.key}, so ids missing here may be another session's: order can be checked, gaps cannot (ids ${eg})${radixNote(s, v)}`,
    };
  }
  return { scheme: v.hex ? { ...scheme, hex: true } : scheme, peers };
}

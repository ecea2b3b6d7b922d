// Findings sorted worst first (the order of `sortFindings` in src/core/presentation.ts: severity, then
// lossy-result-accepted first, then analysis order), kept incrementally across snapshots.
//
// The analyzer appends to its findings list while only new findings come after all listed, and
// copies the list into each snapshot. So for a new snapshot we compare the previous list with the
// new one by identity (pointer comparisons, no allocation) and, when it is an append, only the new
// findings are put into their (severity, lossy) bucket — no re-sort. Anything else rebuilds.

import type { Finding } from '../../../core/model';
import { findingBucket as bucketOf } from '../../../core/presentation';

const NBUCKETS = 6;

/** Work counters (tests check that a snapshot costs work in its new findings, not in all). */
export interface FindingsIndexStats {
  /** Findings put into a bucket (new ones on append, all on rebuild). */
  bucketed: number;
  /** Full rebuilds (first use, or a snapshot that was not an append). */
  rebuilds: number;
  /** Sorted lists produced (a session's list is re-made only when it gained findings). */
  lists: number;
}

export interface FindingsIndex {
  /** Bring the index up to `findings` (a snapshot's list). */
  update(findings: readonly Finding[]): void;
  /** Findings of one session (or all with `undefined`), worst first. Same array until it changes. */
  sorted(sessionKey: string | undefined): Finding[];
  /** Worst finding of a session. */
  worst(sessionKey: string): Finding | undefined;
  /** Error/warning counts of a session. */
  counts(sessionKey: string): { errors: number; warnings: number; total: number };
  readonly stats: FindingsIndexStats;
}

interface Group {
  buckets: Finding[][];
  list: Finding[] | undefined;
}

export function createFindingsIndex(): FindingsIndex {
  let seen: readonly Finding[] = [];
  let all: Group = newGroup();
  let bySession = new Map<string | undefined, Group>();
  const stats: FindingsIndexStats = { bucketed: 0, rebuilds: 0, lists: 0 };

  function newGroup(): Group {
    return { buckets: Array.from({ length: NBUCKETS }, () => []), list: undefined };
  }
  function add(f: Finding) {
    const b = bucketOf(f);
    all.buckets[b]!.push(f);
    all.list = undefined;
    let g = bySession.get(f.sessionKey);
    if (!g) bySession.set(f.sessionKey, (g = newGroup()));
    g.buckets[b]!.push(f);
    g.list = undefined;
    stats.bucketed++;
  }
  function isAppend(findings: readonly Finding[]): boolean {
    if (findings.length < seen.length) return false;
    for (let i = 0; i < seen.length; i++) if (findings[i] !== seen[i]) return false;
    return true;
  }
  function listOf(g: Group): Finding[] {
    if (!g.list) {
      stats.lists++;
      g.list = ([] as Finding[]).concat(...g.buckets);
    }
    return g.list;
  }
  const EMPTY: Finding[] = [];

  return {
    stats,
    update(findings) {
      if (findings === seen) return;
      let from = seen.length;
      if (!isAppend(findings)) {
        stats.rebuilds++;
        all = newGroup();
        bySession = new Map();
        from = 0;
      }
      for (let i = from; i < findings.length; i++) add(findings[i]!);
      seen = findings;
    },
    sorted(sessionKey) {
      if (sessionKey === undefined) return listOf(all);
      const g = bySession.get(sessionKey);
      return g ? listOf(g) : EMPTY;
    },
    worst(sessionKey) {
      const g = bySession.get(sessionKey);
      if (!g) return undefined;
      for (const b of g.buckets) if (b.length) return b[0];
      return undefined;
    },
    counts(sessionKey) {
      const g = bySession.get(sessionKey);
      if (!g) return { errors: 0, warnings: 0, total: 0 };
      const errors = g.buckets[0]!.length + g.buckets[1]!.length;
      const warnings = g.buckets[2]!.length + g.buckets[3]!.length;
      return { errors, warnings, total: errors + warnings + g.buckets[4]!.length + g.buckets[5]!.length };
    },
  };
}

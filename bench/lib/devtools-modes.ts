// The traced page rows' pairs by what DevTools made of each captured run's stream (page.ts reads
// it from DevTools' front end after the run): DevTools' own copy of a stream swings the page's CPU
// by more than the capture does, so a row's pairs are reported, and their intervals closed, by
// class (docs/benchmarks.md "DevTools' two modes").

import { ciWithin, median, medianCI, spread, type Spread } from './stats';

/**
 * What DevTools made of a run's event stream, read from its front end afterwards (devtoolsCopy):
 * the messages its EventStream tab lists for the request. In about half the reads of a 50 MB
 * stream from localhost DevTools copies the stream to its front end while the page reads, and the
 * browser process, the front end and the page's own thread all pay for it (docs/benchmarks.md
 * "DevTools' two modes"); the count afterwards tells those runs apart (all of the stream, none, or
 * part: `partial`). It is not the front end's choice at the time: paused at its first protocol
 * message of the run (CDP Debugger.pause), it still copied all or part of the stream in 2 and
 * 3 of two sets of six runs. `unknown`: the front end does not list the request.
 */
export type DevtoolsCopy = 'copied' | 'partial' | 'none' | 'unknown';

/** What byMode reads of a pair (page.ts CpuPair). */
export interface ModePair {
  withMs: number;
  withoutMs: number;
  wallWithMs: number;
  wallWithoutMs: number;
  usPerEvent: number;
  devtools?: { with: DevtoolsCopy };
}

/** The pairs of a row whose captured run DevTools handled one way (see DevtoolsCopy). */
export interface CpuMode {
  copy: DevtoolsCopy;
  pairs: number;
  ratio: Spread;
  ci: { lo: number; hi: number } | undefined;
  /** The interval is within ±tolerance of the median. */
  within: boolean;
  usPerEvent: Spread;
  wallRatio: Spread;
  withMs: number;
  withoutMs: number;
}

/** The pairs grouped by what DevTools made of the captured run, each with its interval. */
export function byMode(pairs: readonly ModePair[], tolerance: number): CpuMode[] | undefined {
  if (!pairs.some((p) => p.devtools)) return undefined;
  const groups = new Map<DevtoolsCopy, ModePair[]>();
  for (const p of pairs) {
    const k = p.devtools?.with ?? 'unknown';
    const g = groups.get(k);
    if (g) g.push(p);
    else groups.set(k, [p]);
  }
  return [...groups].map(([copy, ps]) => {
    const r = ps.map((x) => x.withMs / x.withoutMs);
    const ci = medianCI(r);
    return {
      copy,
      pairs: ps.length,
      ratio: spread(r),
      ci: ci && { lo: ci.lo, hi: ci.hi },
      within: ciWithin(r, tolerance),
      usPerEvent: spread(ps.map((x) => x.usPerEvent)),
      wallRatio: spread(ps.map((x) => x.wallWithMs / x.wallWithoutMs)),
      withMs: median(ps.map((x) => x.withMs)),
      withoutMs: median(ps.map((x) => x.withoutMs)),
    };
  });
}

/**
 * A row's classes are settled when one holds `min` pairs with its interval within tolerance and
 * every other does too or holds under a quarter of the pairs. `partial` runs are each a different
 * share of DevTools' copy: no interval can close over them, so they do not hold a row open.
 */
export function modesSettle(modes: readonly CpuMode[] | undefined, pairs: number, min: number): boolean {
  if (!modes) return false;
  const closed = (g: CpuMode) => g.pairs >= min && g.within;
  return modes.some(closed) && modes.every((g) => g.copy === 'partial' || closed(g) || g.pairs * 4 < pairs);
}

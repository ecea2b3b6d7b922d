// Sequences kept as runs (the analysis' columns, a request's notifications, the panel's event
// rows): which run holds an index.

/** Where each run starts: a column of the analysis (analysis/columns.ts) or the panel's array. */
export interface RunStarts {
  get(r: number): number;
}

/**
 * The run holding index `i` of a sequence kept as runs: `first.get(r)` is where run `r` starts (0
 * for the first run, growing); `hint`, the last answer, is tried first, since reads go mostly in
 * order. (An object with a method, not a closure: snapshots holding the runs are structured-cloned.)
 */
export function findRun(first: RunStarts, runs: number, i: number, hint: number): number {
  if (hint < runs && first.get(hint) <= i && (hint + 1 === runs || first.get(hint + 1) > i)) return hint;
  let lo = 0;
  let hi = runs - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (first.get(mid) <= i) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

// Sets of delivered counters.
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

  /**
   * Adds max + 1 … max + n (the set is not empty): what n calls of add would do for a run of
   * consecutive counters above the top (event-run.ts).
   */
  extendTop(n: number): void {
    this.hi[this.hi.length - 1]! += n;
    this.size += n;
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

  /** Index of the first interval whose end is >= n (binary search; lo.length when none). */
  private firstEndingAtOrAfter(n: number): number {
    let a = 0;
    let b = this.lo.length - 1;
    let i = this.lo.length;
    while (a <= b) {
      const mid = (a + b) >> 1;
      if (this.hi[mid]! >= n) {
        i = mid;
        b = mid - 1;
      } else a = mid + 1;
    }
    return i;
  }

  /** The intervals of the set that overlap [from, to], clipped to it. */
  *intervalsIn(from: number, to: number): Generator<[number, number]> {
    let i = this.firstEndingAtOrAfter(from);
    for (; i < this.lo.length && this.lo[i]! <= to; i++) yield [Math.max(from, this.lo[i]!), Math.min(to, this.hi[i]!)];
  }

  /** The integers of [from, to] not in the set, as inclusive ranges. */
  missingIn(from: number, to: number): [number, number][] {
    const out: [number, number][] = [];
    if (to < from) return out;
    let next = from;
    let i = this.firstEndingAtOrAfter(from); // the first interval that could overlap
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

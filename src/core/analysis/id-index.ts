// Event id -> the stream that first delivered it, for a whole session: a `Map<string, T>` in
// behaviour, built for a million ids. A Map with a million string keys cost the push path more
// than any other structure (hashing each new id, rehashing as it grows, ~50 bytes per entry kept),
// while ids are nearly always counters delivered in runs by one stream. So ids that the generic
// parser reads (prefix + counter) are kept as runs of counters per (prefix, width) — that parse
// is one-to-one, so the id text is given back exactly by (prefix, counter, width) — and only the
// others (and ids set again over an existing entry) go to a Map, which takes precedence.
import type { ParsedId } from '../ids';

class Runs<T> {
  lo: number[] = [];
  hi: number[] = [];
  val: T[] = [];
  constructor(
    readonly prefix: string,
    readonly width: number,
  ) {}

  /** Index of the run holding `x`, or -1. */
  find(x: number): number {
    const n = this.lo.length;
    if (n === 0 || x > this.hi[n - 1]!) return -1;
    let a = 0;
    let b = n - 1;
    while (a <= b) {
      const mid = (a + b) >> 1;
      if (this.lo[mid]! <= x) {
        if (x <= this.hi[mid]!) return mid;
        a = mid + 1;
      } else b = mid - 1;
    }
    return -1;
  }

  /** Adds `x` (not present) with value `v`. */
  add(x: number, v: T): void {
    const n = this.lo.length;
    if (n === 0 || x > this.hi[n - 1]!) {
      if (n > 0 && x === this.hi[n - 1]! + 1 && this.val[n - 1] === v) this.hi[n - 1] = x;
      else {
        this.lo.push(x);
        this.hi.push(x);
        this.val.push(v);
      }
      return;
    }
    // Below the top: insert a one-counter run in order (rare: replays, reordered ids).
    let a = 0;
    let b = n - 1;
    while (a <= b) {
      const mid = (a + b) >> 1;
      if (this.lo[mid]! < x) a = mid + 1;
      else b = mid - 1;
    }
    if (a > 0 && this.hi[a - 1] === x - 1 && this.val[a - 1] === v) {
      // Extends the run just below (a replay of older, unseen ids comes in order).
      this.hi[a - 1] = x;
      return;
    }
    this.lo.splice(a, 0, x);
    this.hi.splice(a, 0, x);
    this.val.splice(a, 0, v);
  }
}

export class IdIndex<T> {
  private readonly map = new Map<string, T>();
  private readonly runs = new Map<string, Map<number, Runs<T>>>();
  private last: Runs<T> | undefined;

  /** `generic`: `p` comes from parseIdGeneric (one-to-one); otherwise every id uses the Map. */
  constructor(private readonly generic: boolean) {}

  private runsFor(prefix: string, width: number, create: boolean): Runs<T> | undefined {
    const l = this.last;
    if (l !== undefined && l.width === width && l.prefix === prefix) return l;
    let byWidth = this.runs.get(prefix);
    let r = byWidth?.get(width);
    if (!r && create) {
      if (!byWidth) this.runs.set(prefix, (byWidth = new Map()));
      byWidth.set(width, (r = new Runs<T>(prefix, width)));
    }
    if (r) this.last = r;
    return r;
  }

  /**
   * Whether ids `prefix` + counter (no padding) from `counter` + 1 on are new here and, added in
   * order with value `v`, extend the top run of their prefix: the index holds no id in the Map,
   * and that run ends at `counter` with value `v` (event-run.ts reads a run of such ids).
   */
  topIs(prefix: string, counter: number, v: T): boolean {
    if (!this.generic || this.map.size > 0) return false;
    const r = this.runsFor(prefix, 0, false);
    const n = r ? r.hi.length : 0;
    return n > 0 && r!.hi[n - 1] === counter && r!.val[n - 1] === v;
  }

  /** The top run of `prefix` (which topIs just named) now ends at `counter`. */
  extendTop(prefix: string, counter: number): void {
    const r = this.runsFor(prefix, 0, false)!;
    r.hi[r.hi.length - 1] = counter;
  }

  /** The value of `id`; `p` must be the session parser's result for `id`. */
  get(id: string, p: ParsedId | null): T | undefined {
    if (this.map.size > 0) {
      const v = this.map.get(id);
      if (v !== undefined) return v;
    }
    if (!this.generic || p === null) return undefined;
    const r = this.runsFor(p.prefix, p.width, false);
    if (!r) return undefined;
    const i = r.find(p.counter);
    return i === -1 ? undefined : r.val[i];
  }

  set(id: string, p: ParsedId | null, v: T): void {
    if (!this.generic || p === null) {
      this.map.set(id, v);
      return;
    }
    const r = this.runsFor(p.prefix, p.width, true)!;
    if (r.find(p.counter) !== -1) this.map.set(id, v);
    else r.add(p.counter, v);
  }
}

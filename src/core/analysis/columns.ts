// Helpers of the analysis' columnar storage (event-store.ts, event-messages.ts).
import { findRun } from '../runs';

const NO_SEEDS: readonly never[] = Object.freeze([]);

/**
 * Repeated strings (event types, methods, key orders): index 0 is "none". `seeds` take indices 1,
 * 2, … A stream's columns are made for every request (a page's JSON-RPC POSTs: one stream each),
 * so the index is made at the first `put`, not with the dictionary.
 */
export class Dict<T = string> {
  readonly list: (T | undefined)[];
  private index: Map<string, number> | undefined;
  private lastKey: string | undefined;
  private lastAt = 0;
  constructor(private readonly seeds: readonly (readonly [string, T])[] = NO_SEEDS) {
    this.list = [undefined];
    for (const [, v] of seeds) this.list.push(v);
  }
  /** The index of `key`, or 0 when the dictionary is full (65,535 entries: a Uint16 column's): the caller keeps that value on the side. */
  put(key: string, value: T): number {
    // Most puts repeat the one before (a stream's method and progress token, event after event).
    if (key === this.lastKey) return this.lastAt;
    if (this.index === undefined) {
      this.index = new Map();
      for (let k = 0; k < this.seeds.length; k++) this.index.set(this.seeds[k]![0], k + 1);
    }
    let i = this.index.get(key);
    if (i === undefined) {
      i = this.list.length;
      // A stream is page data: it may name any number of event types or methods.
      if (i > 0xffff) return 0;
      this.list.push(value);
      this.index.set(key, i);
    }
    this.lastKey = key;
    this.lastAt = i;
    return i;
  }
}

type Typed = Float64Array | Uint32Array | Uint16Array | Uint8Array;

/**
 * The zero-length arrays a column is made with (`new Column(U32)`): one of each type for every
 * column, since a column never writes to it (its first write makes the first block).
 */
export const U8 = new Uint8Array(0);
export const U16 = new Uint16Array(0);
export const U32 = new Uint32Array(0);
export const F64 = new Float64Array(0);

/** Events per block of a long column. */
const SHIFT = 12;
const BLOCK = 1 << SHIFT;
const MASK = BLOCK - 1;

/**
 * A column of numbers, one per event. Its first block grows by doubling up to BLOCK entries (a
 * stream of a few events costs a few bytes); past that it gains whole blocks, so a long stream's
 * column is never copied and holds at most one block it does not use yet.
 */
export class Column<T extends Typed> {
  private blocks: T[];
  /** Capacity of the first block. */
  private cap0 = 0;
  constructor(
    /** A zero-length array of the column's type: a value, not a constructor, so a snapshot holding it stays structured-cloneable. */
    private readonly kind: T,
  ) {
    this.blocks = [kind];
  }
  private alloc(n: number): T {
    const k = this.kind;
    return (k instanceof Float64Array ? new Float64Array(n) : k instanceof Uint32Array ? new Uint32Array(n) : k instanceof Uint16Array ? new Uint16Array(n) : new Uint8Array(n)) as T;
  }
  get(i: number): number {
    return this.blocks[i >> SHIFT]![i & MASK]!;
  }
  set(i: number, v: number): void {
    const k = i >> SHIFT;
    if (k === 0) {
      if (i >= this.cap0) {
        // Not only doubled: a column set only for some events (a data span) skips indices.
        const cap = Math.min(BLOCK, Math.max(8, this.cap0 * 2, i + 1));
        const c = this.alloc(cap);
        c.set(this.blocks[0]!);
        this.blocks[0] = c;
        this.cap0 = cap;
      }
      this.blocks[0]![i] = v;
      return;
    }
    let b = this.blocks[k];
    if (b === undefined) this.blocks[k] = b = this.alloc(BLOCK);
    b[i & MASK] = v;
  }
}

/**
 * A column set in order (each value for the next index) whose values come in runs of equal values
 * (the time of the events of one read, the total of a request's progress). A run costs 12 bytes
 * however long it is.
 */
export class RunColumn {
  private first = new Column(U32);
  private value = new Column(F64);
  private runs = 0;
  private n = 0;
  private hint = 0;
  get length(): number {
    return this.n;
  }
  push(v: number): void {
    const r = this.runs - 1;
    if (r >= 0 && Object.is(v, this.value.get(r))) {
      this.n++;
      return;
    }
    this.first.set(this.runs, this.n);
    this.value.set(this.runs, v);
    this.runs++;
    this.n++;
  }
  /** The value at `i` (0 ≤ i < length). */
  get(i: number): number {
    return this.value.get(this.runOf(i));
  }
  /** Changes the last value pushed. */
  setLast(v: number): void {
    if (this.first.get(this.runs - 1) === this.n - 1) this.runs--;
    this.n--;
    this.push(v);
  }
  private runOf(i: number): number {
    return (this.hint = findRun(this.first, this.runs, i, this.hint));
  }
}

// A stream's events as a snapshot shows them: read by index (issue 22, item 1). Behind it the
// analysis keeps columns (analysis/event-store.ts), not one object per event; `at(i)` builds the
// event a reader asks for, and the one-fact readers (`time`, `id`, ...) read a column without
// building it, so a view that scans 100k events for their times allocates nothing. The array-like
// helpers (iteration, map, filter, find, slice) build every event they visit: for exports and
// details, not for per-frame work. JSON.stringify gives the events as an array (`toJSON`), field
// for field and in the same key order as the event objects the analysis kept before.
import type { FindingCode } from './model-codes';
import type { JsonRpcSummary, SseEvent } from './model-events';

export abstract class EventList implements Iterable<SseEvent> {
  /** Number of events (in a snapshot: at that snapshot; it never grows). */
  abstract readonly length: number;
  /** The event at `i` (a new object per call), or undefined outside 0..length-1. */
  abstract at(i: number): SseEvent | undefined;
  /** Time the chunk completing event `i` was read (NaN outside the list). */
  abstract time(i: number): number;
  abstract id(i: number): string | undefined;
  abstract duplicate(i: number): boolean;
  abstract messages(i: number): readonly JsonRpcSummary[];
  abstract data(i: number): string | undefined;
  abstract findings(i: number): readonly FindingCode[];
  /** The event's type (`event` field; "message" by default). */
  abstract type(i: number): string | undefined;
  /** What the list reads from: the same for every snapshot's list of one stream's events. */
  abstract readonly origin: object;

  /** Whether event `i` carries a result or an error. */
  answers(i: number): boolean {
    return this.messages(i).some((m) => m.kind === 'result' || m.kind === 'error');
  }
  /** Whether event `i` is a plain JSON body shown as an event. */
  synthetic(i: number): boolean {
    return this.at(i)?.synthetic !== undefined;
  }

  *[Symbol.iterator](): Iterator<SseEvent> {
    for (let i = 0; i < this.length; i++) yield this.at(i)!;
  }
  *entries(): IterableIterator<[number, SseEvent]> {
    for (let i = 0; i < this.length; i++) yield [i, this.at(i)!];
  }
  map<T>(fn: (e: SseEvent, i: number) => T): T[] {
    const out = new Array<T>(this.length);
    for (let i = 0; i < this.length; i++) out[i] = fn(this.at(i)!, i);
    return out;
  }
  filter(fn: (e: SseEvent, i: number) => unknown): SseEvent[] {
    const out: SseEvent[] = [];
    for (let i = 0; i < this.length; i++) {
      const e = this.at(i)!;
      if (fn(e, i)) out.push(e);
    }
    return out;
  }
  forEach(fn: (e: SseEvent, i: number) => void): void {
    for (let i = 0; i < this.length; i++) fn(this.at(i)!, i);
  }
  find(fn: (e: SseEvent, i: number) => unknown): SseEvent | undefined {
    for (let i = 0; i < this.length; i++) {
      const e = this.at(i)!;
      if (fn(e, i)) return e;
    }
    return undefined;
  }
  findIndex(fn: (e: SseEvent, i: number) => unknown): number {
    for (let i = 0; i < this.length; i++) if (fn(this.at(i)!, i)) return i;
    return -1;
  }
  findLast(fn: (e: SseEvent, i: number) => unknown): SseEvent | undefined {
    for (let i = this.length - 1; i >= 0; i--) {
      const e = this.at(i)!;
      if (fn(e, i)) return e;
    }
    return undefined;
  }
  some(fn: (e: SseEvent, i: number) => unknown): boolean {
    return this.findIndex(fn) !== -1;
  }
  every(fn: (e: SseEvent, i: number) => unknown): boolean {
    return this.findIndex((e, i) => !fn(e, i)) === -1;
  }
  slice(start = 0, end = this.length): SseEvent[] {
    const n = this.length;
    const a = Math.max(0, start < 0 ? n + start : Math.min(start, n));
    const b = Math.max(a, end < 0 ? n + end : Math.min(end, n));
    const out: SseEvent[] = [];
    for (let i = a; i < b; i++) out.push(this.at(i)!);
    return out;
  }
  /** Index of the first event at or after time `t` among the first `n` (times never decrease). */
  lowerBound(t: number, n = this.length): number {
    let lo = 0;
    let hi = Math.min(n, this.length);
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.time(mid) < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
  toJSON(): SseEvent[] {
    return this.slice();
  }
}

/** An EventList over event objects (tests, and streams built outside the analysis). */
export class ArrayEventList extends EventList {
  constructor(
    private readonly list: readonly SseEvent[],
    readonly length = list.length,
  ) {
    super();
  }
  get origin(): object {
    return this.list;
  }
  at(i: number): SseEvent | undefined {
    return i >= 0 && i < this.length ? this.list[i] : undefined;
  }
  time(i: number): number {
    return this.at(i)?.t ?? NaN;
  }
  id(i: number): string | undefined {
    return this.at(i)?.id;
  }
  duplicate(i: number): boolean {
    return this.at(i)?.duplicate === true;
  }
  messages(i: number): readonly JsonRpcSummary[] {
    return this.at(i)?.messages ?? [];
  }
  data(i: number): string | undefined {
    return this.at(i)?.data;
  }
  findings(i: number): readonly FindingCode[] {
    return this.at(i)?.findings ?? [];
  }
  type(i: number): string | undefined {
    return this.at(i)?.event;
  }
}

/** What a snapshot's view reads: the columns of one stream's events (analysis/event-store.ts). */
export interface EventColumns {
  build(i: number, n: number, overlay: ReadonlyMap<number, readonly FindingCode[]> | undefined): SseEvent | undefined;
  codesAt(i: number, overlay: ReadonlyMap<number, readonly FindingCode[]> | undefined): readonly FindingCode[];
  time(i: number): number;
  id(i: number): string | undefined;
  duplicate(i: number): boolean;
  messages(i: number): readonly JsonRpcSummary[];
  data(i: number): string | undefined;
  type(i: number): string | undefined;
  answers(i: number): boolean;
  synthetic(i: number): boolean;
}

const NONE: readonly never[] = Object.freeze([]);

/** A snapshot's events: the store's first `length` events with the derived codes of that snapshot. */
export class EventView extends EventList {
  constructor(
    private readonly store: EventColumns,
    readonly length: number,
    private readonly overlay: ReadonlyMap<number, readonly FindingCode[]> | undefined,
  ) {
    super();
  }
  private has(i: number): boolean {
    return i >= 0 && i < this.length;
  }
  get origin(): object {
    return this.store;
  }
  override answers(i: number): boolean {
    return this.has(i) && this.store.answers(i);
  }
  override synthetic(i: number): boolean {
    return this.has(i) && this.store.synthetic(i);
  }
  at(i: number): SseEvent | undefined {
    return this.store.build(i, this.length, this.overlay);
  }
  time(i: number): number {
    return this.has(i) ? this.store.time(i) : NaN;
  }
  id(i: number): string | undefined {
    return this.has(i) ? this.store.id(i) : undefined;
  }
  duplicate(i: number): boolean {
    return this.has(i) && this.store.duplicate(i);
  }
  messages(i: number): readonly JsonRpcSummary[] {
    return this.has(i) ? this.store.messages(i) : NONE;
  }
  data(i: number): string | undefined {
    return this.has(i) ? this.store.data(i) : undefined;
  }
  findings(i: number): readonly FindingCode[] {
    return this.has(i) ? this.store.codesAt(i, this.overlay) : NONE;
  }
  type(i: number): string | undefined {
    return this.has(i) ? this.store.type(i) : undefined;
  }
}

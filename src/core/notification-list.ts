// The notifications linked to a request, as a snapshot shows them: [stream id, event index] pairs
// read by position (issue 22, item 1). The analysis keeps them as runs of consecutive events of
// one stream (a request's progress mostly is one run), not an array per pair; JSON gives the pairs.
import { Column, U32 } from './analysis/columns';
import { findRun } from './runs';

export abstract class NotificationList implements Iterable<[string, number]> {
  /** Number of notifications (in a snapshot: at that snapshot; it never grows). */
  abstract readonly length: number;
  /** Stream of notification `k` ('' outside the list). */
  abstract streamAt(k: number): string;
  /** Index of notification `k` in its stream's events (-1 outside the list). */
  abstract indexAt(k: number): number;
  /** What the list reads from: the same for every snapshot's list of one request's notifications. */
  abstract readonly origin: object;

  at(k: number): [string, number] | undefined {
    return k >= 0 && k < this.length ? [this.streamAt(k), this.indexAt(k)] : undefined;
  }
  /** Calls `fn` with each notification's stream and event index (no pair built). */
  forEach(fn: (streamId: string, index: number, k: number) => void): void {
    for (let k = 0; k < this.length; k++) fn(this.streamAt(k), this.indexAt(k), k);
  }
  *[Symbol.iterator](): Iterator<[string, number]> {
    for (let k = 0; k < this.length; k++) yield [this.streamAt(k), this.indexAt(k)];
  }
  slice(start = 0, end = this.length): [string, number][] {
    const out: [string, number][] = [];
    for (let k = Math.max(0, start); k < Math.min(end, this.length); k++) out.push([this.streamAt(k), this.indexAt(k)]);
    return out;
  }
  toJSON(): [string, number][] {
    return this.slice();
  }
}

/** A NotificationList over pairs (tests, and requests built outside the analysis). */
export class ArrayNotificationList extends NotificationList {
  constructor(
    private readonly pairs: readonly (readonly [string, number])[],
    readonly length = pairs.length,
  ) {
    super();
  }
  get origin(): object {
    return this.pairs;
  }
  streamAt(k: number): string {
    return k >= 0 && k < this.length ? this.pairs[k]![0] : '';
  }
  indexAt(k: number): number {
    return k >= 0 && k < this.length ? this.pairs[k]![1] : -1;
  }
}

/** The notifications of one request as the analysis keeps them, appended to as they arrive. */
export class NotificationStore extends NotificationList {
  length = 0;
  private streams: string[] = [];
  /** Made at the first push (a request without notifications has a store too). */
  private slotOf: Map<string, number> | undefined;
  /**
   * Runs of consecutive events of one stream (a request's progress is mostly that): per run, its
   * first notification, its stream's slot and its first event index. 12 bytes a run.
   */
  private runFirst = new Column(U32);
  private runSlot = new Column(U32);
  private runIndex = new Column(U32);
  private runs = 0;
  private hint = 0;

  get origin(): object {
    return this;
  }
  push(streamId: string, index: number): void {
    const r = this.runs - 1;
    if (r >= 0 && this.streams[this.runSlot.get(r)] === streamId && this.runIndex.get(r) + this.length - this.runFirst.get(r) === index) {
      this.length++;
      return;
    }
    const slots = (this.slotOf ??= new Map());
    let s = slots.get(streamId);
    if (s === undefined) {
      s = this.streams.length;
      this.streams.push(streamId);
      slots.set(streamId, s);
    }
    this.runFirst.set(this.runs, this.length);
    this.runSlot.set(this.runs, s);
    this.runIndex.set(this.runs, index);
    this.runs++;
    this.length++;
  }
  private runOf(k: number): number {
    return (this.hint = findRun(this.runFirst, this.runs, k, this.hint));
  }
  streamAt(k: number): string {
    return k >= 0 && k < this.length ? this.streams[this.runSlot.get(this.runOf(k))]! : '';
  }
  indexAt(k: number): number {
    if (!(k >= 0 && k < this.length)) return -1;
    const r = this.runOf(k);
    return this.runIndex.get(r) + k - this.runFirst.get(r);
  }
  /** The first `n` notifications: what a snapshot hands out. */
  view(n = this.length): NotificationList {
    return new NotificationView(this, n);
  }
}

class NotificationView extends NotificationList {
  constructor(
    private readonly store: NotificationStore,
    readonly length: number,
  ) {
    super();
  }
  get origin(): object {
    return this.store;
  }
  streamAt(k: number): string {
    return k < this.length ? this.store.streamAt(k) : '';
  }
  indexAt(k: number): number {
    return k < this.length ? this.store.indexAt(k) : -1;
  }
}

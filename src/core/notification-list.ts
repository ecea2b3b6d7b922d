// The notifications linked to a request, as a snapshot shows them: [stream id, event index] pairs
// read by position (issue 22, item 1). The analysis keeps them as columns (a stream slot and an
// event index per notification, not an array per pair); JSON gives the list of pairs.
import { Column } from './analysis/columns';

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
  private slots = new Column(new Uint16Array(0));
  private index = new Column(new Uint32Array(0));
  private lastStream: string | undefined;
  private lastSlot = 0;

  get origin(): object {
    return this;
  }
  push(streamId: string, index: number): void {
    if (streamId !== this.lastStream) {
      let s = this.streams.indexOf(streamId);
      if (s === -1) {
        s = this.streams.length;
        if (s > 0xffff) throw new RangeError('too many streams for one request');
        this.streams.push(streamId);
      }
      this.lastStream = streamId;
      this.lastSlot = s;
    }
    this.slots.set(this.length, this.lastSlot);
    this.index.set(this.length++, index);
  }
  streamAt(k: number): string {
    return k >= 0 && k < this.length ? this.streams[this.slots.get(k)]! : '';
  }
  indexAt(k: number): number {
    return k >= 0 && k < this.length ? this.index.get(k) : -1;
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

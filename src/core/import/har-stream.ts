// HAR to CaptureRecords one entry at a time, for a file read as it arrives (the panel's import):
// the same per-entry conversion as importHar (harEntryReader in har.ts), and records handed out
// as soon as their place in capture order is certain, so the first ones are analysed and shown
// while the rest of the file is still being read.
//
// Capture order is by time across entries (a long GET's later chunks and end come after the
// requests of later entries). HAR writers list entries by start time, so once an entry starting
// at S is read, no later entry can add a record before S: records before the latest start are
// final and are handed out in order (a heap keyed like importHar's sort). A file that breaks that
// (entries out of order, our own export's log-level records, a `reconnectOf` naming a later
// entry) is detected by the first record that would sort before one already handed out; `end()`
// then returns the whole list in importHar's order with `restart: true`, and the caller replaces
// what it showed. Either way the final records equal importHar's, seq for seq.

import type { CaptureRecord } from '../record';
import { compareHarTimed, harEntryReader, noteMsiConn, orderHarRecords, type HarImportOptions, type HarTimed } from './har';

export interface HarStream {
  /** The next entry of `log.entries` (file order). Returns the records now final, in capture order. */
  entry(raw: unknown): CaptureRecord[];
  /** The log's other members once read (our own export's `_msiRecords`). */
  log(log: Record<string, unknown>): void;
  /**
   * The end of the file: the records not handed out yet. `restart`: the records handed out were
   * not the start of the file's capture order; `records` is then the whole list.
   */
  end(): { records: CaptureRecord[]; restart: boolean };
  /**
   * An entry is shown before it is whole (the panel's preview of a large entry): the records
   * final before `upTo` (its start, when known), then `provisional` with their seq. The file then
   * ends down the restart path: `end()` gives the whole list, importHar's.
   */
  preview(provisional: readonly Omit<CaptureRecord, 'seq'>[], upTo: number | undefined): CaptureRecord[];
  /** The latest entry start read (ms), -Infinity before the first. */
  readonly watermark: number;
}

type Item = HarTimed & { ord: number };
const cmp = (a: Item, b: Item) => compareHarTimed(a, b) || a.ord - b.ord;

/** A binary min-heap of records in capture order. */
class Heap {
  private a: Item[] = [];
  get size() {
    return this.a.length;
  }
  peek(): Item | undefined {
    return this.a[0];
  }
  push(x: Item) {
    const a = this.a;
    a.push(x);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (cmp(a[i]!, a[p]!) >= 0) break;
      [a[i], a[p]] = [a[p]!, a[i]!];
      i = p;
    }
  }
  pop(): Item | undefined {
    const a = this.a;
    const top = a[0];
    const last = a.pop();
    if (a.length && last) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && cmp(a[l]!, a[m]!) < 0) m = l;
        if (r < a.length && cmp(a[r]!, a[m]!) < 0) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m]!, a[i]!];
        i = m;
      }
    }
    return top;
  }
}

export function createHarStream(opts: HarImportOptions = {}): HarStream {
  const msiConn = new Map<string, string>();
  const reader = harEntryReader(opts, msiConn);
  const heap = new Heap();
  let taken = 0; // of reader.timed, pushed into the heap
  let ord = 0;
  let i = 0;
  let seq = 0;
  let last: Item | undefined;
  let broken = false;
  /** The latest entry start: no later entry (in a file sorted by start) adds a record before it. */
  let watermark = -Infinity;
  /** `_msi.reconnectOf` of entries read, naming connections no entry read so far had. */
  const unresolved = new Set<string>();
  const msiOf = (raw: unknown): Record<string, unknown> | undefined => {
    const m = typeof raw === 'object' && raw !== null ? (raw as { _msi?: unknown })._msi : undefined;
    return typeof m === 'object' && m !== null ? (m as Record<string, unknown>) : undefined;
  };

  const take = () => {
    for (; taken < reader.timed.length; taken++) {
      const x = reader.timed[taken]! as Item;
      x.ord = ord++;
      if (last && cmp(x, last) < 0) broken = true;
      heap.push(x);
    }
  };
  const emit = (upTo: number): CaptureRecord[] => {
    const out: CaptureRecord[] = [];
    if (broken) return out;
    for (let top = heap.peek(); top && top.t < upTo; top = heap.peek()) {
      last = heap.pop()!;
      out.push({ ...last.rec, seq: ++seq } as CaptureRecord);
    }
    return out;
  };

  return {
    entry(raw) {
      // importHar maps every entry's connection first: a reconnectOf naming a later entry would
      // differ here, so it sends this file down the restart path.
      const m = msiOf(raw);
      if (m && typeof m.src === 'string' && typeof m.conn === 'string' && unresolved.has(`${m.src}\u0000${m.conn}`)) broken = true;
      noteMsiConn(msiConn, raw, i);
      if (m && typeof m.src === 'string' && typeof m.reconnectOf === 'string' && !msiConn.has(`${m.src}\u0000${m.reconnectOf}`)) unresolved.add(`${m.src}\u0000${m.reconnectOf}`);
      const before = reader.timed.length;
      reader.entry(raw, i++);
      // The entry's request is its first record: its start.
      const start = reader.timed[before]?.t;
      if (start !== undefined) {
        if (start < watermark) broken = true;
        else watermark = start;
      }
      take();
      return emit(watermark);
    },
    log(log) {
      reader.logRecords(log);
      take();
    },
    preview(provisional, upTo) {
      const out = broken || upTo === undefined || upTo < watermark ? [] : emit(upTo);
      broken = true;
      for (const r of provisional) out.push({ ...r, seq: ++seq } as CaptureRecord);
      return out;
    },
    get watermark() {
      return watermark;
    },
    end() {
      take();
      if (!broken) return { records: emit(Infinity), restart: false };
      return { records: orderHarRecords(reader.timed.slice()), restart: true };
    },
  };
}

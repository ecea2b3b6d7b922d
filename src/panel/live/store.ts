// The panel's live record store: what the capture pipeline delivered, deduplicated and ordered.
//
// - Dedup by (src, seq): backfill after a reconnect may repeat records; they are dropped here.
// - Order: per src by seq (a late backfill that fills a hole is inserted at its place); across
//   srcs, by arrival.
// - A CaptureGapRecord (seq = last lost seq) stands for its whole range fromSeq..toSeq.
// - Navigation: a top-frame `navigation` record newer than the current boundary starts a new
//   page. Without Preserve log, records of other documents older than it are dropped (and late
//   ones from those documents are ignored), as the Network panel clears on navigation.
// - `cursors()` gives, per src, the highest seq held contiguously: what to ask backfill from.
//
// useSyncExternalStore-friendly: getSnapshot() returns the same object until something changed;
// each change produces a new snapshot with a new `records` array.

import type { CaptureRecord, NavigationRecord } from '../../core/record';

export interface LiveSnapshot {
  readonly revision: number;
  readonly records: readonly CaptureRecord[];
  readonly preserveLog: boolean;
  /** The top-frame navigation that started the current page (null before the first one). */
  readonly page: NavigationRecord | null;
  /** Records dropped as duplicates so far (diagnostics). */
  readonly duplicates: number;
}

export interface LiveStore {
  subscribe(listener: () => void): () => void;
  getSnapshot(): LiveSnapshot;
  /** Add records (any order, any src, duplicates allowed). Returns how many were new. */
  ingest(records: readonly CaptureRecord[]): number;
  /** Per src: highest seq held contiguously (0 if none). */
  cursors(): Record<string, number>;
  setPreserveLog(on: boolean): void;
  /** Drop all records shown (cursors are kept, so nothing re-appears through backfill). */
  clear(): void;
}

export interface LiveStoreOptions {
  preserveLog?: boolean;
}

interface SrcState {
  hwm: number;
  above: Set<number>;
  /** Highest seq present in `records` for this src (for the append fast path). */
  maxSeq: number;
}

export function createLiveStore(options: LiveStoreOptions = {}): LiveStore {
  let records: CaptureRecord[] = [];
  let preserveLog = options.preserveLog ?? false;
  let page: NavigationRecord | null = null;
  let duplicates = 0;
  let revision = 0;
  let snapshot: LiveSnapshot = { revision, records, preserveLog, page, duplicates };
  const srcs = new Map<string, SrcState>();
  const listeners = new Set<() => void>();

  function changed() {
    revision++;
    snapshot = { revision, records, preserveLog, page, duplicates };
    for (const l of [...listeners]) l();
  }

  function srcState(src: string): SrcState {
    let s = srcs.get(src);
    if (!s) srcs.set(src, (s = { hwm: 0, above: new Set(), maxSeq: 0 }));
    return s;
  }

  /** Mark seq (or a gap's range) as held; false if it was already. */
  function mark(s: SrcState, r: CaptureRecord): boolean {
    if (r.seq <= s.hwm || s.above.has(r.seq)) return false;
    if (r.kind === 'capture-gap' && r.fromSeq !== undefined && r.toSeq !== undefined && r.fromSeq <= s.hwm + 1) {
      s.hwm = Math.max(s.hwm, r.toSeq);
    } else if (r.seq === s.hwm + 1) s.hwm = r.seq;
    else s.above.add(r.seq);
    while (s.above.has(s.hwm + 1)) s.above.delete(++s.hwm);
    for (const q of s.above) if (q <= s.hwm) s.above.delete(q);
    return true;
  }

  function insert(list: CaptureRecord[], s: SrcState, r: CaptureRecord) {
    if (r.seq > s.maxSeq) {
      list.push(r);
      s.maxSeq = r.seq;
      return;
    }
    // Fill a hole: before the first record of the same src with a greater seq.
    let pos = list.length;
    for (let i = 0; i < list.length; i++) {
      const x = list[i]!;
      if (x.src === r.src && x.seq > r.seq) {
        pos = i;
        break;
      }
    }
    list.splice(pos, 0, r);
  }

  function beforePage(r: CaptureRecord): boolean {
    return page !== null && r.src !== page.src && r.t < page.t;
  }

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => snapshot,
    ingest(batch) {
      let next: CaptureRecord[] | null = null;
      let added = 0;
      for (const r of batch) {
        const s = srcState(r.src);
        if (!mark(s, r)) {
          duplicates++;
          continue;
        }
        if (!next) next = records.slice();
        if (r.kind === 'navigation' && r.top && (page === null || r.t > page.t)) {
          page = r;
          if (!preserveLog) next = next.filter((x) => !beforePage(x));
        } else if (!preserveLog && beforePage(r)) continue; // a late record of a previous page
        insert(next, s, r);
        added++;
      }
      if (next) {
        records = next;
        changed();
      }
      return added;
    },
    cursors() {
      const out: Record<string, number> = {};
      for (const [src, s] of srcs) out[src] = s.hwm;
      return out;
    },
    setPreserveLog(on) {
      if (on === preserveLog) return;
      preserveLog = on;
      changed();
    },
    clear() {
      records = [];
      for (const s of srcs.values()) s.maxSeq = s.hwm;
      changed();
    },
  };
}

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
// - Bounded: beyond `maxRecords` (default 200 000) the oldest records are dropped down to 90 % of
//   the cap (in steps, so a consumer that re-reads from the start does so rarely) and the list
//   starts with one `capture-gap` record (src 'panel-store', reason 'buffer-cap') counting every
//   record dropped so far: never a silent hole. Cursors are kept, so nothing re-appears.
//
// useSyncExternalStore-friendly: getSnapshot() returns the same object until something changed;
// each change produces a new snapshot object with a new `revision`.
//
// `records` is APPEND-ONLY between resets: a batch of new records is pushed onto the same array
// (copying it per batch made a live capture quadratic: 100k records in batches of 8 took 13 s).
// The array is replaced by a new one (never rewritten in place) when something other than an
// append happens: a navigation that drops older records, a backfill that fills a hole, eviction
// by the cap, clear(). So a consumer that has fed records[0..n) keeps going from n as long as
// the array is the same object; a new array means "start again". `count` is the number of records
// the snapshot was published with (the array may since have grown): a consumer that wants a frozen
// view takes `records.slice(0, count)`.

import type { CaptureRecord, NavigationRecord } from '../../core/record';

export interface LiveSnapshot {
  readonly revision: number;
  /** Append-only between resets (see the header): it may grow after this snapshot was taken. */
  readonly records: readonly CaptureRecord[];
  /** records.length when this snapshot was published. */
  readonly count: number;
  readonly preserveLog: boolean;
  /** The top-frame navigation that started the current page (null before the first one). */
  readonly page: NavigationRecord | null;
  /** Records dropped as duplicates so far (diagnostics). */
  readonly duplicates: number;
  /** Records dropped by the panel's own cap so far (the list then starts with a capture-gap). */
  readonly evicted: number;
}

export const PANEL_STORE_SRC = 'panel-store';
export const DEFAULT_PANEL_MAX_RECORDS = 200_000;

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
  /** Most records held (default DEFAULT_PANEL_MAX_RECORDS). */
  maxRecords?: number;
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
  let evicted = 0;
  let gapSeq = 0;
  const maxRecords = Math.max(10, options.maxRecords ?? DEFAULT_PANEL_MAX_RECORDS);
  let snapshot: LiveSnapshot = { revision, records, count: 0, preserveLog, page, duplicates, evicted };
  const srcs = new Map<string, SrcState>();
  const listeners = new Set<() => void>();

  function changed() {
    revision++;
    snapshot = { revision, records, count: records.length, preserveLog, page, duplicates, evicted };
    for (const l of [...listeners]) l();
  }

  function srcState(src: string): SrcState {
    let s = srcs.get(src);
    if (!s) srcs.set(src, (s = { hwm: 0, above: new Set(), maxSeq: 0 }));
    return s;
  }

  /**
   * A gap over seqs this store holds already: it took live records of the range before the
   * backfill that reports it (several panels of a tab get every batch, and one that just said
   * hello gets live records before its backfill; the relay's buffer evicted some of those since).
   * What this store lacks of the range is kept as one gap per stretch it does not hold (count and
   * range cut to it), in order; a gap dropped as a duplicate left those records missing with no
   * gap and the cursor stuck below them, and one cut to its first stretch did the same for the rest.
   */
  function unheldParts(s: SrcState, r: CaptureRecord): CaptureRecord[] {
    if (r.kind !== 'capture-gap' || r.fromSeq === undefined || r.toSeq === undefined) return [r];
    const held = (q: number) => q <= s.hwm || s.above.has(q);
    if (!held(r.seq)) {
      // Nothing of it held above the cursor: the usual gap, whole.
      let any = false;
      for (const q of s.above) if (q >= r.fromSeq && q <= r.toSeq) any = true;
      if (!any) return [r];
    }
    const out: CaptureRecord[] = [];
    let from = Math.max(r.fromSeq, s.hwm + 1);
    while (from <= r.toSeq) {
      while (from <= r.toSeq && held(from)) from++;
      if (from > r.toSeq) break;
      let to = from;
      while (to < r.toSeq && !held(to + 1)) to++;
      out.push(from === r.fromSeq && to === r.toSeq ? r : { ...r, seq: to, fromSeq: from, toSeq: to, lost: r.lost > 0 ? to - from + 1 : 0 });
      from = to + 1;
    }
    return out;
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

  function evict(list: CaptureRecord[]): CaptureRecord[] {
    const head = list[0]?.src === PANEL_STORE_SRC ? 1 : 0;
    const keep = Math.floor(maxRecords * 0.9);
    const drop = list.length - keep;
    const dropped = list.slice(head, head + drop);
    evicted += dropped.length;
    const gap: CaptureRecord = {
      kind: 'capture-gap', src: PANEL_STORE_SRC, seq: ++gapSeq, t: dropped[dropped.length - 1]?.t ?? 0,
      lost: evicted, conns: [], reason: 'buffer-cap',
    };
    srcState(PANEL_STORE_SRC).hwm = gapSeq;
    return [gap, ...list.slice(head + drop)];
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
      // `next` is `records` itself while only appends happen; a copy once anything else does.
      let next: CaptureRecord[] = records;
      let copied = false;
      const own = () => {
        if (!copied) {
          next = next.slice();
          copied = true;
        }
        return next;
      };
      let added = 0;
      let dup = 0;
      const take = (s: SrcState, r: CaptureRecord) => {
        if (!mark(s, r)) {
          dup++;
          return;
        }
        if (r.kind === 'navigation' && r.top && (page === null || r.t > page.t)) {
          page = r;
          if (!preserveLog && next.some(beforePage)) {
            next = next.filter((x) => !beforePage(x));
            copied = true;
          }
        } else if (!preserveLog && beforePage(r)) return; // a late record of a previous page
        if (r.seq > s.maxSeq) {
          next.push(r);
          s.maxSeq = r.seq;
        } else insert(own(), s, r); // fills a hole: not an append
        added++;
      };
      for (const r of batch) {
        const s = srcState(r.src);
        if (r.kind !== 'capture-gap') take(s, r);
        else {
          const parts = unheldParts(s, r);
          if (parts.length === 0) dup++;
          for (const p of parts) take(s, p);
        }
      }
      duplicates += dup;
      if (added > 0) {
        if (next.length > maxRecords) next = evict(next);
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

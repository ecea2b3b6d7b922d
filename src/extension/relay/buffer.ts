// The relay's numbered, bounded record buffer (one per document = one `src`).
//
// Every record gets the next seq (dense, from 1). The buffer keeps the newest records up to a cap
// (count and estimated bytes) so that a panel opened late, or reconnecting after Chrome stopped the
// service worker, can backfill from its cursor. Records evicted before a panel had them are never
// a silent hole: `since(cursor)` starts with a CaptureGapRecord standing in for the lost range.
// The gap record takes the seq of the last lost record, so seq stays dense for the panel.
//
// Records are kept as they travel (wire/records.ts WireRecord): a fetch chunk holds its bytes
// (or, once a panel took it, a reference into the Blob it was sent in), decoded by the panel.
//
// Pure: no chrome.*, no DOM.

import type { CaptureGapRecord, FaultRecord, HookRecord } from '../../core/record';
import type { WireChunk, WireRecord } from '../wire/records';

/** A record before numbering: a hook record, or a chunk the panel will decode. */
export type Unnumbered = HookRecord | Omit<FaultRecord, 'seq' | 'src'> | Omit<WireChunk, 'seq' | 'src'>;
/** A kept chunk whose bytes were sent in a Blob: the reference (delivery.ts). */
export type StoredRecord = WireRecord & { blob?: Blob };

export interface RelayBufferOptions {
  /** Most records kept. */
  maxRecords: number;
  /** Most estimated bytes kept (string lengths x2 + overhead). */
  maxBytes: number;
}

export const DEFAULT_BUFFER_OPTIONS: RelayBufferOptions = { maxRecords: 50_000, maxBytes: 64 * 1024 * 1024 };
/** Bound on the bookkeeping of evicted connections. */
const MAX_EVICTED_CONNS = 10_000;

export interface RelayBuffer {
  readonly src: string;
  /**
   * Number a record, keep it, evict the oldest beyond the caps. Returns the numbered record.
   * `size` overrides the estimate (a chunk whose text is decoded later: its byte count x2).
   */
  push(rec: Unnumbered, size?: number): StoredRecord;
  /** Records with seq > cursor, preceded by a gap record when some of them were evicted. */
  since(cursor: number): StoredRecord[];
  /** Last seq assigned (0 when none). */
  lastSeq(): number;
  /** Oldest seq still kept (lastSeq()+1 when empty). */
  oldestSeq(): number;
  size(): { records: number; bytes: number };
  setOptions(opts: Partial<RelayBufferOptions>): void;
}

export function estimateSize(r: Unnumbered | WireRecord): number {
  let n = 64;
  switch (r.kind) {
    case 'chunk':
      // Text: 2 bytes per character; bytes not decoded yet: 2 per byte (>= 2 per character).
      {
        const c = r as Partial<WireChunk>;
        n += (c.text?.length ?? 0) * 2 + (c.data?.length ?? c.len ?? 0) * 2 + (c.head?.length ?? 0);
      }
      break;
    case 'es-event':
      n += (r.data.length + r.type.length + r.lastEventId.length) * 2;
      break;
    case 'request':
      n += (r.url.length + (r.body?.length ?? 0)) * 2;
      for (const [k, v] of r.headers) n += (k.length + v.length) * 2;
      break;
    case 'response':
      n += r.url.length * 2;
      for (const [k, v] of r.headers) n += (k.length + v.length) * 2;
      break;
    default:
      n += 64;
  }
  return n;
}

export function createRelayBuffer(src: string, options: Partial<RelayBufferOptions> = {}): RelayBuffer {
  let opts: RelayBufferOptions = { ...DEFAULT_BUFFER_OPTIONS, ...options };
  let items: StoredRecord[] = [];
  let sizes: number[] = [];
  let head = 0; // index of the oldest kept record in items
  let bytes = 0;
  let nextSeq = 1;
  let lastEvictedT = 0;
  // conn -> [min seq evicted, max seq evicted]
  const evicted = new Map<string, [number, number]>();

  function evictOne() {
    const r = items[head]!;
    bytes -= sizes[head]!;
    lastEvictedT = r.t;
    if ('conn' in r) {
      const e = evicted.get(r.conn);
      if (e) {
        // Moved to the end: the bound drops the connection evicted least recently, not the one
        // evicted first (a session's long GET stream, still evicted now, would go unnamed).
        e[1] = r.seq;
        evicted.delete(r.conn);
        evicted.set(r.conn, e);
      } else {
        evicted.set(r.conn, [r.seq, r.seq]);
        if (evicted.size > MAX_EVICTED_CONNS) evicted.delete(evicted.keys().next().value!);
      }
    }
    // Clear the slot: an evicted record must not stay reachable from the array (it did before,
    // until a compaction that a buffer of few large chunk records never reached: an 8 MiB cap held
    // a whole 50 MB stream).
    (items as (StoredRecord | undefined)[])[head] = undefined;
    head++;
    // Compact when the dead prefix is at least half the array: amortised O(1) per record, and
    // the array of (now empty) slots is never more than twice the records kept.
    if (head * 2 >= items.length) {
      items = items.slice(head);
      sizes = sizes.slice(head);
      head = 0;
    }
  }

  function enforce() {
    // Keep at least the newest record even when it alone exceeds maxBytes.
    while (items.length - head > 1 && (items.length - head > opts.maxRecords || bytes > opts.maxBytes)) evictOne();
  }

  return {
    src,
    push(rec, sizeOverride) {
      const numbered = { ...rec, seq: nextSeq++, src } as StoredRecord;
      const size = sizeOverride ?? estimateSize(numbered);
      items.push(numbered);
      sizes.push(size);
      bytes += size;
      enforce();
      return numbered;
    },
    since(cursor) {
      const oldest = items.length > head ? items[head]!.seq : nextSeq;
      const out: StoredRecord[] = [];
      if (cursor + 1 < oldest) {
        const fromSeq = cursor + 1;
        const toSeq = oldest - 1;
        const conns: string[] = [];
        for (const [conn, [min, max]] of evicted) if (max >= fromSeq && min <= toSeq) conns.push(conn);
        const gap: CaptureGapRecord = {
          kind: 'capture-gap',
          seq: toSeq,
          src,
          t: lastEvictedT,
          lost: toSeq - fromSeq + 1,
          fromSeq,
          toSeq,
          conns,
          reason: 'buffer-cap',
        };
        out.push(gap);
      }
      // Records are in seq order: binary search would do, but backfill is rare; scan from the end.
      let i = items.length;
      while (i > head && items[i - 1]!.seq > cursor) i--;
      for (; i < items.length; i++) out.push(items[i]!);
      return out;
    },
    lastSeq: () => nextSeq - 1,
    oldestSeq: () => (items.length > head ? items[head]!.seq : nextSeq),
    size: () => ({ records: items.length - head, bytes }),
    setOptions(o) {
      opts = { ...opts, ...o };
      enforce();
    },
  };
}

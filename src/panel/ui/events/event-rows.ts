// A session's events in time order, as rows of the events table: compact (runs of consecutive
// events of one stream in Int32Arrays, not an object per row) and kept incrementally by the
// store, one merger per session.
//
// The analyzer only appends to a stream's events (Stream.eventCount says how many belong to a
// snapshot), so a new snapshot usually adds a tail: when every new event sorts after the last row,
// only the new events are merged and appended (work in the new events, not the session's).
// Otherwise (a stream's array replaced or shrunk, streams reordered, an event that sorts earlier)
// the merge is redone from scratch into new arrays. Arrays are shared by successive snapshots and
// only appended to; `EventRows.count` is the length at its snapshot (like Stream.eventCount).

import type { AnalysisSnapshot, Stream } from '../../../core/model';
import { findRun } from '../../../core/runs';

export interface EventRows {
  /** Rows at this snapshot. */
  readonly count: number;
  /** Stream id of row `i`. */
  streamAt(i: number): string;
  /** Index into the stream's events of row `i`. */
  indexAt(i: number): number;
  /** Row of an event, or -1. */
  find(streamId: string, index: number): number;
}

/** A stream's events in a snapshot: an older snapshot's shared array may have grown since. */
export const eventCountOf = (s: Stream): number => Math.min(s.eventCount ?? s.events.length, s.events.length);

export interface MergeStats {
  rowsEmitted: number;
  fullMerges: number;
  deltaMerges: number;
}

/**
 * Rows as runs of consecutive events of one stream. A session's streams mostly take turns (a tool
 * call's stream, then the next), so a run of any length costs 12 bytes; streams interleaved event
 * by event cost 12 bytes a row (issue 22, row 7: the panel's own bytes per event).
 */
class Buffer {
  /** Per run: its first row, its stream's slot, the event index of its first row. */
  start = new Int32Array(16);
  slot = new Int32Array(16);
  idx = new Int32Array(16);
  runs = 0;
  n = 0;
  push(slot: number, index: number) {
    const r = this.runs - 1;
    if (r >= 0 && this.slot[r] === slot && this.idx[r]! + (this.n - this.start[r]!) === index) {
      this.n++;
      return;
    }
    if (this.runs === this.start.length) {
      // New, larger arrays: rows handed out before keep the old ones (their prefix is valid).
      const grow = (a: Int32Array) => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.start = grow(this.start);
      this.slot = grow(this.slot);
      this.idx = grow(this.idx);
    }
    this.start[this.runs] = this.n;
    this.slot[this.runs] = slot;
    this.idx[this.runs] = index;
    this.runs++;
    this.n++;
  }
}

function view(buf: Buffer, ids: readonly string[]): EventRows {
  const { start, slot, idx, runs, n } = buf;
  let hint = 0;
  const starts = { get: (r: number) => start[r]! };
  const runOf = (i: number): number => (hint = findRun(starts, runs, i, hint));
  return {
    count: n,
    streamAt: (i) => (i >= 0 && i < n ? ids[slot[runOf(i)]!]! : ''),
    indexAt: (i) => {
      if (!(i >= 0 && i < n)) return -1;
      const r = runOf(i);
      return idx[r]! + i - start[r]!;
    },
    find(streamId, index) {
      const k = ids.indexOf(streamId);
      if (k < 0) return -1;
      for (let r = 0; r < runs; r++) {
        if (slot[r] !== k) continue;
        const len = (r + 1 < runs ? start[r + 1]! : n) - start[r]!;
        if (index >= idx[r]! && index < idx[r]! + len) return start[r]! + index - idx[r]!;
      }
      return -1;
    },
  };
}

export const EMPTY_ROWS: EventRows = { count: 0, streamAt: () => '', indexAt: () => -1, find: () => -1 };

/** k-way merge by time of the events [i, n) of each stream; streams are individually time-ordered. */
function mergeInto(buf: Buffer, heads: { s: Stream; slot: number; i: number; n: number }[], stats: MergeStats): void {
  const lists = heads.filter((h) => h.i < h.n);
  while (lists.length) {
    let best = 0;
    if (lists.length > 1) {
      let bt = lists[0]!.s.events.time(lists[0]!.i);
      for (let k = 1; k < lists.length; k++) {
        const t = lists[k]!.s.events.time(lists[k]!.i);
        if (t < bt) {
          best = k;
          bt = t;
        }
      }
    }
    const cur = lists[best]!;
    buf.push(cur.slot, cur.i);
    stats.rowsEmitted++;
    cur.i++;
    if (cur.i >= cur.n) lists.splice(best, 1);
  }
}

/** One session's rows, kept across snapshots. */
export function createEventRowsMerger(stats: MergeStats = { rowsEmitted: 0, fullMerges: 0, deltaMerges: 0 }) {
  let ids: string[] = [];
  /** What each stream's events are read from (a new origin: the analysis started over). */
  let arrays: (object | undefined)[] = [];
  let counts: number[] = [];
  let buf = new Buffer();
  let lastT = -Infinity;
  let lastSlot = -1;
  let rows: EventRows = EMPTY_ROWS;

  function setLast(snap: AnalysisSnapshot) {
    const n = buf.n;
    if (!n) {
      lastT = -Infinity;
      lastSlot = -1;
      return;
    }
    const r = buf.runs - 1;
    lastSlot = buf.slot[r]!;
    lastT = snap.streams[ids[lastSlot]!]!.events.time(buf.idx[r]! + n - 1 - buf.start[r]!);
  }
  function full(snap: AnalysisSnapshot, streamIds: readonly string[]): EventRows {
    stats.fullMerges++;
    ids = streamIds.slice();
    const streams = ids.map((id) => snap.streams[id]);
    arrays = streams.map((s) => s?.events.origin);
    counts = streams.map((s) => (s ? eventCountOf(s) : 0));
    buf = new Buffer();
    mergeInto(buf, streams.flatMap((s, k) => (s ? [{ s, slot: k, i: 0, n: counts[k]! }] : [])), stats);
    setLast(snap);
    return (rows = view(buf, ids));
  }

  return {
    stats,
    /** The rows of `streamIds` (the session's streams, in the session's order) at `snap`. */
    update(snap: AnalysisSnapshot, streamIds: readonly string[]): EventRows {
      if (ids.length === 0 || streamIds.length < ids.length) return full(snap, streamIds);
      for (let k = 0; k < ids.length; k++) if (streamIds[k] !== ids[k]) return full(snap, streamIds);
      let grew = false;
      // New streams join at the end of the order (`ids` is replaced, not appended to: rows handed
      // out before keep the list they were made with).
      if (streamIds.length > ids.length) {
        ids = streamIds.slice();
        for (let k = arrays.length; k < ids.length; k++) {
          arrays.push(undefined);
          counts.push(0);
        }
        grew = true;
      }
      const heads: { s: Stream; slot: number; i: number; n: number }[] = [];
      for (let k = 0; k < ids.length; k++) {
        const s = snap.streams[ids[k]!];
        if (!s) {
          if (counts[k]! > 0) return full(snap, streamIds);
          continue;
        }
        const n = eventCountOf(s);
        if ((counts[k]! > 0 && s.events.origin !== arrays[k]) || n < counts[k]!) return full(snap, streamIds);
        arrays[k] = s.events.origin;
        if (n === counts[k]) continue;
        const firstT = s.events.time(counts[k]!);
        // The new events must sort after the last row (time, then stream order) to be appended.
        if (firstT < lastT || (firstT === lastT && k < lastSlot)) return full(snap, streamIds);
        heads.push({ s, slot: k, i: counts[k]!, n });
      }
      if (heads.length === 0) return grew || rows === EMPTY_ROWS ? (rows = view(buf, ids)) : rows;
      stats.deltaMerges++;
      mergeInto(buf, heads, stats);
      for (const h of heads) counts[h.slot] = h.n;
      setLast(snap);
      return (rows = view(buf, ids));
    },
  };
}

/** Rows of a session computed from scratch (tests compare the incremental rows with it). */
export function sessionEventRows(snap: AnalysisSnapshot, sessionKey: string | undefined): { streamId: string; index: number }[] {
  const session = snap.sessions.find((s) => s.key === sessionKey);
  if (!session) return [];
  const r = createEventRowsMerger().update(snap, session.streamIds);
  return Array.from({ length: r.count }, (_, i) => ({ streamId: r.streamAt(i), index: r.indexAt(i) }));
}

// A session's streams as timeline lanes, computed by the store once per snapshot: lanes in start
// order, a label per lane that is unique within the session (wherever the panel names a stream —
// the timeline, the events table, a finding's detail — it uses this label, never the internal
// stream id such as `har:e4`), the session's start and the padded range the timeline opens on.

import type { AnalysisSnapshot, RequestInfo, Session, Stream } from '../../../core/model';
import { streamLabel } from '../common/labels';
import type { View } from './timeline-geom';

export type { View };

export interface Lanes {
  streams: readonly Stream[];
  laneOf: ReadonlyMap<string, number>;
  /** Unique within the session: a repeated label gets its ordinal, "GET stream (2)". */
  labels: ReadonlyMap<string, string>;
  /** The session's first stream start (times in the views are relative to it). */
  t0: number;
  /** The whole session with a margin: what the timeline shows before any zoom. */
  range: View;
  /**
   * `text` with the session's stream ids replaced by their lane labels, quoted. Finding messages
   * are the core's wording and some name a stream by its internal id (`har:e4`); until the core
   * words them by reference (see src/panel/ui/README.md), the panel names the stream as the
   * timeline does.
   */
  name(text: string): string;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A replacer of the given ids (longest first, not inside a longer id) by their labels. */
export function streamNamer(labels: ReadonlyMap<string, string>): (text: string) => string {
  const ids = [...labels.keys()].filter((id) => id.length >= 3).sort((a, b) => b.length - a.length);
  if (!ids.length) return (t) => t;
  const re = new RegExp(`(?<![\\w:.-])(?:${ids.map(escapeRe).join('|')})(?![\\w:.-])`, 'g');
  return (text) => (text.length > 20_000 ? text : text.replace(re, (id) => `“${labels.get(id)}”`));
}

/** A request sent whose response has not come yet (the hook records an MCP request when sent). */
export const awaitingResponse = (s: Stream): boolean => s.status === undefined && s.state === 'open' && s.events.length === 0;

export function streamEnd(s: Stream): number {
  const n = Math.min(s.eventCount ?? s.events.length, s.events.length);
  // (the time column alone: building the last event to read its time costs a live session of a
  // thousand streams an event per stream with every snapshot)
  const last = n ? s.events.time(n - 1) : s.start;
  return Math.max(s.end ?? last, last);
}

/**
 * What a build keeps to build the next one incrementally: each lane's base label and end (by lane),
 * how many lanes share each base label, and the session's extent. Held beside the Lanes value
 * (which views compare by identity and never change), not in it.
 */
interface LaneMemo {
  base: string[];
  ends: number[];
  count: Map<string, number>;
  b: number;
}
const memos = new WeakMap<Lanes, LaneMemo>();

/** Builds by kind (tests count work with them, not time). */
export const laneStats = { whole: 0, appended: 0 };

/**
 * `prev`: the session's lanes of the previous snapshot. What did not change is kept from it (the
 * lane order, the labels and their namer, whose regular expression over every stream id costs
 * most with a thousand streams); a live session of a thousand tool calls rebuilds its lanes with
 * every published snapshot. When the session only gained streams after its last lane (a live
 * session: every tool call adds one) and no label is repeated anew, only the streams that changed
 * or came are looked at (a snapshot's unchanged streams are the same objects as before); anything
 * else builds the lanes whole (`fullLanes`), which gives the same lanes (lanes.test.ts).
 */
export function buildLanes(snap: AnalysisSnapshot, session: Session, reqs: ReadonlyMap<string, RequestInfo>, prev?: Lanes): Lanes {
  const streams = session.streamIds.map((id) => snap.streams[id]).filter((s): s is Stream => !!s);
  return (prev && appended(snap, streams, reqs, prev)) || fullLanes(snap, session, reqs, prev, streams);
}

/** The lanes of `prev` with `streams` (the same ones first, then new ones in start order), or undefined. */
function appended(snap: AnalysisSnapshot, streams: Stream[], reqs: ReadonlyMap<string, RequestInfo>, prev: Lanes): Lanes | undefined {
  const memo = memos.get(prev);
  const old = prev.streams;
  const k = old.length;
  if (!memo || k === 0 || streams.length < k) return undefined;
  for (let i = k; i < streams.length; i++) if (streams[i - 1]!.start > streams[i]!.start) return undefined;
  const base = memo.base.slice();
  const ends = memo.ends.slice();
  let b = memo.b;
  for (let i = 0; i < k; i++) {
    const s = streams[i]!;
    const o = old[i]!;
    if (s === o) continue;
    // A stream that changed keeps its lane only with the same label (its requests' methods may
    // have become known): a label that changed renumbers its namesakes, so the lanes are built whole.
    if (s.id !== o.id || s.start !== o.start || streamLabel(s, reqs) !== base[i]) return undefined;
    const e = streamEnd(s);
    // (a stream's end only grows as it gains events; one that did not cannot keep the extent)
    if (e < ends[i]!) return undefined;
    ends[i] = e;
    if (e > b) b = e;
  }
  let labels = prev.labels;
  let laneOf = prev.laneOf;
  if (streams.length > k) {
    const count = new Map(memo.count);
    const more: [string, string][] = [];
    const lanes = new Map(prev.laneOf);
    for (let i = k; i < streams.length; i++) {
      const s = streams[i]!;
      const l = streamLabel(s, reqs);
      const n = (count.get(l) ?? 0) + 1;
      // A label one lane had alone gains "(1)" now: the lanes are built whole.
      if (n === 2) return undefined;
      count.set(l, n);
      base.push(l);
      ends.push(streamEnd(s));
      if (ends[i]! > b) b = ends[i]!;
      more.push([s.id, n > 1 ? `${l} (${n})` : l]);
      lanes.set(s.id, i);
    }
    const fresh = new Map(prev.labels);
    for (const [id, l] of more) fresh.set(id, l);
    labels = fresh;
    laneOf = lanes;
    const out = finishLanes(snap, streams, streams[0]!.start, b, laneOf, labels, prev, false);
    memos.set(out, { base, ends, count, b });
    laneStats.appended++;
    return out;
  }
  laneStats.appended++;
  const out = finishLanes(snap, streams, streams[0]!.start, b, laneOf, labels, prev, true);
  memos.set(out, { base, ends, count: memo.count, b });
  return out;
}

/** The range (see fullLanes) and the Lanes value. `sameLabels`: `labels` are prev's. */
function finishLanes(snap: AnalysisSnapshot, streams: readonly Stream[], a: number, b: number, laneOf: ReadonlyMap<string, number>, labels: ReadonlyMap<string, string>, prev: Lanes | undefined, sameLabels: boolean): Lanes {
  let range: View = { start: 0, end: 1000 };
  if (Number.isFinite(a)) {
    const pad = Math.max(20, (b - a) * 0.04);
    range = { start: a - pad, end: b + pad * 2.5 };
    // A live session grows with every published snapshot. Kept while its streams still fit, and
    // grown by a quarter when they no longer do, the range stays put between steps: the marks do
    // not slide left four times a second, and a tool call adds its own lane's marks instead of
    // moving every mark, tick and span drawn (and re-laying out the timeline's SVG; issue 22's row 2c).
    // A session's first build (a reload) and a finished capture (a file read to its end) get the
    // tight range.
    const p = snap.finished ? undefined : prev?.range;
    if (p && a >= p.start && p.end - p.start <= 2 * (range.end - range.start)) {
      if (b + pad <= p.end) range = p;
      else range = { start: range.start, end: b + pad + (b - a) * 0.25 };
    }
  }
  return { streams, laneOf, labels, t0: streams.length ? streams[0]!.start : 0, range, name: sameLabels && prev ? prev.name : lazyNamer(labels) };
}

/** The lanes built whole (`buildLanes` when the session changed otherwise than by new streams at its end). */
export function fullLanes(snap: AnalysisSnapshot, session: Session, reqs: ReadonlyMap<string, RequestInfo>, prev?: Lanes, listed?: Stream[]): Lanes {
  const streams = listed ?? session.streamIds.map((id) => snap.streams[id]).filter((s): s is Stream => !!s);
  // (the session lists its streams in start order as a rule: sorted only when they are not)
  let sorted = true;
  for (let i = 1; i < streams.length && sorted; i++) if (streams[i - 1]!.start > streams[i]!.start) sorted = false;
  if (!sorted) streams.sort((a, b) => a.start - b.start);
  const sameOrder = !!prev && prev.streams.length === streams.length && streams.every((s, i) => prev.streams[i]!.id === s.id);
  const laneOf = sameOrder ? prev.laneOf : new Map(streams.map((s, i) => [s.id, i]));
  const base = streams.map((s) => streamLabel(s, reqs));
  const total = new Map<string, number>();
  for (const b of base) total.set(b, (total.get(b) ?? 0) + 1);
  const seen = new Map<string, number>();
  const fresh = new Map<string, string>();
  streams.forEach((s, i) => {
    const b = base[i]!;
    const n = (seen.get(b) ?? 0) + 1;
    seen.set(b, n);
    fresh.set(s.id, total.get(b)! > 1 ? `${b} (${n})` : b);
  });
  const sameLabels = !!prev && prev.labels.size === fresh.size && [...fresh].every(([id, l]) => prev.labels.get(id) === l);
  const labels = sameLabels ? prev.labels : fresh;
  let a = Infinity;
  let b = -Infinity;
  const ends = streams.map(streamEnd);
  for (let i = 0; i < streams.length; i++) {
    a = Math.min(a, streams[i]!.start);
    b = Math.max(b, ends[i]!);
  }
  const out = finishLanes(snap, streams, a, b, laneOf, labels, prev, sameLabels);
  memos.set(out, { base, ends, count: total, b });
  laneStats.whole++;
  return out;
}

/** streamNamer built on the first message it names (most snapshots name none). */
function lazyNamer(labels: ReadonlyMap<string, string>): (text: string) => string {
  let namer: ((text: string) => string) | undefined;
  return (text) => (namer ??= streamNamer(labels))(text);
}

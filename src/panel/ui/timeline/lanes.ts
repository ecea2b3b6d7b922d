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
 * `prev`: the session's lanes of the previous snapshot. What did not change is kept from it (the
 * lane order, the labels and their namer, whose regular expression over every stream id costs
 * most with a thousand streams); a live session of a thousand tool calls rebuilds its lanes with
 * every published snapshot.
 */
export function buildLanes(snap: AnalysisSnapshot, session: Session, reqs: ReadonlyMap<string, RequestInfo>, prev?: Lanes): Lanes {
  const streams = session.streamIds.map((id) => snap.streams[id]).filter((s): s is Stream => !!s);
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
  for (const s of streams) {
    a = Math.min(a, s.start);
    b = Math.max(b, streamEnd(s));
  }
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
  return { streams, laneOf, labels, t0: streams.length ? streams[0]!.start : 0, range, name: sameLabels ? prev.name : lazyNamer(labels) };
}

/** streamNamer built on the first message it names (most snapshots name none). */
function lazyNamer(labels: ReadonlyMap<string, string>): (text: string) => string {
  let namer: ((text: string) => string) | undefined;
  return (text) => (namer ??= streamNamer(labels))(text);
}

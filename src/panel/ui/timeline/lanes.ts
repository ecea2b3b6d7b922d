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

export function streamEnd(s: Stream): number {
  const n = Math.min(s.eventCount ?? s.events.length, s.events.length);
  const last = n ? s.events[n - 1]!.t : s.start;
  return Math.max(s.end ?? last, last);
}

export function buildLanes(snap: AnalysisSnapshot, session: Session, reqs: ReadonlyMap<string, RequestInfo>): Lanes {
  const streams = session.streamIds
    .map((id) => snap.streams[id])
    .filter((s): s is Stream => !!s)
    .sort((a, b) => a.start - b.start);
  const laneOf = new Map(streams.map((s, i) => [s.id, i]));
  const base = streams.map((s) => streamLabel(s, reqs));
  const total = new Map<string, number>();
  for (const b of base) total.set(b, (total.get(b) ?? 0) + 1);
  const seen = new Map<string, number>();
  const labels = new Map<string, string>();
  streams.forEach((s, i) => {
    const b = base[i]!;
    const n = (seen.get(b) ?? 0) + 1;
    seen.set(b, n);
    labels.set(s.id, total.get(b)! > 1 ? `${b} (${n})` : b);
  });
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
  }
  return { streams, laneOf, labels, t0: streams.length ? streams[0]!.start : 0, range, name: streamNamer(labels) };
}

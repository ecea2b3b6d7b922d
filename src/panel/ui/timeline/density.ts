// Events too many to draw one by one, aggregated: per lane, the events falling in each few-pixel
// column of the visible range are counted (two binary searches per column, not a pass over the
// events), and drawn as one density path whose bar heights follow the count on a log scale. The
// events that matter — with a finding, a terminal response, a named SSE event, a duplicate id —
// are kept apart (per stream, computed once per stream object) and drawn as marks on top, so a
// gap or an error never disappears into the density. Zooming in until the events have room
// brings back one mark per event.

import type { Stream } from '../../../core/model';
import { lowerBound } from './timeline-geom';

/** Columns of this many px. */
export const BIN_PX = 3;

export interface Special {
  index: number;
  t: number;
}

/** Indexes of the events drawn as marks even in density, in time order. */
export function specialsOf(s: Stream): Special[] {
  const out: Special[] = [];
  const n = Math.min(s.eventCount ?? s.events.length, s.events.length);
  // One fact at a time from the columns: no event is built for the scan.
  const ev = s.events;
  for (let i = 0; i < n; i++) {
    if (ev.findings(i).length || ev.duplicate(i) || (ev.type(i) !== 'message' && !ev.synthetic(i)) || ev.answers(i)) out.push({ index: i, t: ev.time(i) });
  }
  return out;
}

export interface Bins {
  /** Column k covers x in [k * BIN_PX, (k + 1) * BIN_PX). */
  counts: Uint32Array;
  max: number;
  total: number;
  /** Index of the first event in view. */
  first: number;
}

/** Events per column over [0, width) px, for the first `n` events of a stream. */
export function binEvents(events: Stream['events'], n: number, tAt: (px: number) => number, width: number): Bins {
  const cols = Math.max(1, Math.ceil(width / BIN_PX));
  const counts = new Uint32Array(cols);
  let prev = lowerBound(events, tAt(0), n);
  const first = prev;
  let max = 0;
  for (let k = 0; k < cols; k++) {
    const next = lowerBound(events, tAt((k + 1) * BIN_PX), n);
    const c = next - prev;
    counts[k] = c;
    if (c > max) max = c;
    prev = next;
  }
  return { counts, max, total: prev - first, first };
}

/** One SVG path of bars centred on `y`: 2 px wide, 3–12 px high by log(count). */
export function densityPath(b: Bins, y: number): string {
  if (!b.max) return '';
  const lm = Math.log(b.max + 1);
  let d = '';
  for (let k = 0; k < b.counts.length; k++) {
    const c = b.counts[k]!;
    if (!c) continue;
    const h = 3 + Math.round((9 * Math.log(c + 1)) / lm);
    d += `M${k * BIN_PX},${y - h / 2}h2v${h}h-2z`;
  }
  return d;
}

/** Specials within [a, b) in time (binary search over the specials' times). */
export function specialsIn(list: readonly Special[], a: number, b: number): Special[] {
  const lo = lowerBound(list, a);
  const out: Special[] = [];
  for (let i = lo; i < list.length && list[i]!.t <= b; i++) out.push(list[i]!);
  return out;
}

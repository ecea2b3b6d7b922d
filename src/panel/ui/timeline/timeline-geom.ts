// Pure helpers for the timeline (testable without a DOM).

import type { SseEvent } from '../../../core/model';
import { EventList } from '../../../core/event-list';

export function niceStep(rangeMs: number, widthPx: number, minPx = 90): number {
  const raw = (rangeMs / Math.max(1, widthPx)) * minPx;
  const p = 10 ** Math.floor(Math.log10(Math.max(raw, 1e-6)));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

/** First index (below `end`) whose t >= x (events are time-ordered). */
export function lowerBound(events: EventList | readonly Pick<SseEvent, 't'>[], t: number, end = events.length): number {
  if (events instanceof EventList) return events.lowerBound(t, end);
  let lo = 0;
  let hi = end;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (events[mid]!.t < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export interface View {
  start: number;
  end: number;
}

export function zoomView(v: View, factor: number, anchorT: number, min = 0.5): View {
  const span = Math.max(min, (v.end - v.start) * factor);
  const r = (anchorT - v.start) / Math.max(1e-9, v.end - v.start);
  const start = anchorT - r * span;
  return { start, end: start + span };
}

export function panView(v: View, deltaMs: number): View {
  return { start: v.start + deltaMs, end: v.end + deltaMs };
}

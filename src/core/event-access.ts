// Reading a stream's events by index. Readers that need one fact of an event (its time, id,
// duplicate mark, messages) ask for that fact here rather than building the event, so that the
// columns behind a stream (analysis/event-store.ts, issue 22 item 1) are read without allocating;
// eventAt gives the whole event, for detail views and exports.
import type { EventList } from './event-list';
import type { JsonRpcSummary, SseEvent } from './model';

/** A stream as the analysis keeps it or as a snapshot shows it. */
export interface EventSource {
  events: EventList;
  eventCount?: number;
}

/** Number of events the stream holds now (in a snapshot: at that snapshot). */
export function eventCount(s: EventSource): number {
  return s.events.length;
}

/** Number of events at the stream's snapshot. */
export function eventCountAtSnapshot(s: EventSource): number {
  return Math.min(s.events.length, s.eventCount ?? s.events.length);
}

/** The whole event at `i`, or undefined past the end. */
export function eventAt(s: EventSource, i: number): SseEvent | undefined {
  return s.events.at(i);
}

/** The events at the stream's snapshot, in order. */
export function eventsAtSnapshot(s: EventSource): readonly SseEvent[] {
  return s.events.slice(0, eventCountAtSnapshot(s));
}

export function eventTime(s: EventSource, i: number): number | undefined {
  return i >= 0 && i < s.events.length ? s.events.time(i) : undefined;
}

export function eventId(s: EventSource, i: number): string | undefined {
  return s.events.id(i);
}

/** Whether the event at `i` exists and was received before in its session. */
export function eventDuplicate(s: EventSource, i: number): boolean {
  return s.events.duplicate(i);
}

export function eventMessages(s: EventSource, i: number): readonly JsonRpcSummary[] {
  return s.events.messages(i);
}

/** The data field of the event at `i` (undefined past the end). */
export function eventData(s: EventSource, i: number): string | undefined {
  return s.events.data(i);
}

/** Index of the last event whose id is `id`, or -1. */
export function lastIndexOfId(s: EventSource, id: string): number {
  for (let i = s.events.length - 1; i >= 0; i--) if (s.events.id(i) === id) return i;
  return -1;
}

/** Whether some event of the stream is not a duplicate. */
export function hasFreshEvent(s: EventSource): boolean {
  for (let i = 0; i < s.events.length; i++) if (!s.events.duplicate(i)) return true;
  return false;
}

// Reading a stream's events by index. Readers that need one fact of an event (its time, id,
// duplicate mark, messages) ask for that fact here rather than reading an event object, so that
// the storage behind it can become columns (analysis/event-table.ts, issue 22 item 1) without
// touching them again; eventAt gives the whole event, for detail views and exports.
import type { JsonRpcSummary, SseEvent } from './model';

/** A stream as the analysis keeps it or as a snapshot shows it. */
export interface EventSource {
  events: readonly SseEvent[];
  eventCount?: number;
}

const NONE: readonly JsonRpcSummary[] = Object.freeze([]);

/** Number of events the stream holds now (in the latest snapshot: all of them). */
export function eventCount(s: EventSource): number {
  return s.events.length;
}

/** Number of events at the stream's snapshot (an older snapshot's stream may have grown since). */
export function eventCountAtSnapshot(s: EventSource): number {
  return Math.min(s.events.length, s.eventCount ?? s.events.length);
}

/** The whole event at `i`, or undefined past the end. */
export function eventAt(s: EventSource, i: number): SseEvent | undefined {
  return s.events[i];
}

/** The events at the stream's snapshot, in order. */
export function eventsAtSnapshot(s: EventSource): readonly SseEvent[] {
  const n = eventCountAtSnapshot(s);
  return n < s.events.length ? s.events.slice(0, n) : s.events;
}

export function eventTime(s: EventSource, i: number): number | undefined {
  return s.events[i]?.t;
}

export function eventId(s: EventSource, i: number): string | undefined {
  return s.events[i]?.id;
}

/** Whether the event at `i` exists and was received before in its session. */
export function eventDuplicate(s: EventSource, i: number): boolean {
  return s.events[i]?.duplicate === true;
}

export function eventMessages(s: EventSource, i: number): readonly JsonRpcSummary[] {
  return s.events[i]?.messages ?? NONE;
}

/** The data field of the event at `i` (undefined past the end). */
export function eventData(s: EventSource, i: number): string | undefined {
  return s.events[i]?.data;
}

/** Index of the last event whose id is `id`, or -1. */
export function lastIndexOfId(s: EventSource, id: string): number {
  for (let i = s.events.length - 1; i >= 0; i--) if (s.events[i]!.id === id) return i;
  return -1;
}

/** Whether some event of the stream is not a duplicate. */
export function hasFreshEvent(s: EventSource): boolean {
  for (let i = 0; i < s.events.length; i++) if (s.events[i]!.duplicate !== true) return true;
  return false;
}

// The events of a captured body for the exporters, with the time the chunk completing each was
// read. eventsource-parser (the WHATWG "event stream interpretation", the same grammar the core's
// own one-pass reader is tested against) reads the fields; each chunk is fed as the page read it,
// so an event is timed by the chunk whose blank line dispatched it. As in EventSource, a block with
// an id but no data is no event (it only moves the last event id: `cursor` of the next event).

import { createParser } from 'eventsource-parser';

export interface ParsedSseEvent {
  /** This event's own `id` field, when it had one. */
  id?: string;
  /** The last event id after this event (what EventSource reports as lastEventId), '' for none. */
  cursor: string;
  event: string;
  data: string;
  /** Time the chunk that completed the event was read. */
  time: number;
}

export function parseSseChunks(chunks: readonly { text: string; t: number }[]): { events: ParsedSseEvent[] } {
  const events: ParsedSseEvent[] = [];
  let cursor = '';
  let t = 0;
  // At each blank line the parser calls onId (the block had an id field) and then onEvent (it had
  // data), so `cursor` is already this event's when onEvent runs.
  const parser = createParser({
    onId: (id) => void (cursor = id),
    onEvent: (e) => void events.push({ ...(e.id !== undefined ? { id: e.id } : {}), cursor, event: e.event || 'message', data: e.data, time: t }),
  });
  for (const c of chunks) {
    t = c.t;
    parser.feed(c.text);
  }
  return { events };
}

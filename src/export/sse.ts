// The events of a captured body for the exporters, with the time the chunk completing each was
// read. The fields are read by the core's SSE reader (`createSseConnectionParser`, the WHATWG
// "event stream interpretation", property-tested against eventsource-parser in
// src/core/sse-oracle.test.ts), so a HAR's `_sseEvents` are exactly the events the analysis saw.
// Each chunk is fed as the page read it, so an event is timed by the chunk whose blank line
// dispatched it. As in EventSource, a block with an id but no data is no event (it only moves the
// last event id: `cursor` of the next event), and a last block without its closing blank line is
// never dispatched.
//
// (Until eventsource-parser 3 replaced 4, this file fed the library itself: 3 has no `onId`, so
// it cannot report an id-only block's cursor, and it keeps a leading U+FEFF that the WHATWG rule
// strips: docs/dependencies.md.)

import { createSseConnectionParser } from '../core/sse';

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
  const parser = createSseConnectionParser();
  let cursor = '';
  for (const c of chunks) {
    for (const b of parser.feed(c.text)) {
      if (b.id !== undefined) cursor = b.id;
      if (b.data !== undefined) events.push({ ...(b.id !== undefined ? { id: b.id } : {}), cursor, event: b.event || 'message', data: b.data, time: c.t });
    }
  }
  return { events };
}

// Derive the minimal panel's rows from records: connections and their raw events. SSE text is
// split into events with eventsource-parser, fed chunk by chunk (one parser per connection).

import { createParser, type EventSourceParser } from 'eventsource-parser';
import type { CaptureRecord, EndRecord, RequestRecord, ResponseRecord } from '../../core/record';

export interface RawEvent {
  id: string | undefined;
  type: string;
  data: string;
  t: number;
}
export interface ConnView {
  key: string;
  src: string;
  conn: string;
  request: RequestRecord | null;
  response: ResponseRecord | null;
  end: EndRecord | null;
  events: RawEvent[];
  bytes: number;
}
export interface Marker {
  key: string;
  kind: 'navigation' | 'capture-gap' | 'notice';
  text: string;
  t: number;
}
export type Row = { type: 'conn'; conn: ConnView } | { type: 'marker'; marker: Marker };

export function buildRows(records: readonly CaptureRecord[]): Row[] {
  const rows: Row[] = [];
  const conns = new Map<string, ConnView>();
  const parsers = new Map<string, EventSourceParser>();
  const now = new Map<string, number>();
  for (const r of records) {
    if (r.kind === 'navigation') {
      if (r.top) rows.push({ type: 'marker', marker: { key: `${r.src}/${r.seq}`, kind: 'navigation', text: `Navigated to ${r.url}`, t: r.t } });
      continue;
    }
    if (r.kind === 'capture-gap') {
      rows.push({ type: 'marker', marker: { key: `${r.src}/${r.seq}`, kind: 'capture-gap',
        text: `Capture gap: ${r.lost} record(s) lost (${r.reason}, seq ${r.fromSeq}–${r.toSeq}); streams affected: ${r.conns.join(', ') || 'unknown'}`, t: r.t } });
      continue;
    }
    if (r.kind === 'notice') {
      rows.push({ type: 'marker', marker: { key: `${r.src}/${r.seq}`, kind: 'notice', text: `${r.level}: ${r.message}`, t: r.t } });
      continue;
    }
    const key = `${r.src}/${r.conn}`;
    let c = conns.get(key);
    if (!c) {
      c = { key, src: r.src, conn: r.conn, request: null, response: null, end: null, events: [], bytes: 0 };
      conns.set(key, c);
      rows.push({ type: 'conn', conn: c });
    }
    const cv = c;
    switch (r.kind) {
      case 'request':
        cv.request = r;
        break;
      case 'response':
        cv.response = r;
        break;
      case 'end':
        cv.end = r;
        break;
      case 'es-event':
        cv.events.push({ id: r.lastEventId || undefined, type: r.type, data: r.data, t: r.t });
        break;
      case 'chunk': {
        cv.bytes += r.bytes;
        if (cv.response?.capture === 'json') {
          cv.events.push({ id: undefined, type: 'json', data: r.text, t: r.t });
          break;
        }
        let p = parsers.get(key);
        if (!p) {
          // events get the time of the chunk that completed them
          p = createParser({ onEvent: (e) => cv.events.push({ id: e.id, type: e.event ?? 'message', data: e.data, t: now.get(key)! }) });
          parsers.set(key, p);
        }
        now.set(key, r.t);
        p.feed(r.text);
        break;
      }
    }
  }
  return rows;
}

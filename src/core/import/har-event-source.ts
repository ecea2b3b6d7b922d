// HAR entries whose SSE events are only in `_eventSourceMessages` (no response.content.text).
//
// Who writes the field, and how (read in their code):
// - NeuraLegion's cypress-har-generator (src/network/EntryBuilder.ts, NetworkRequest.ts,
//   NetworkObserver.ts at commit 2a745bf) writes `_eventSourceMessages: [{time, eventName,
//   eventId, data}]` on every entry (`[]` when there were none), one per CDP
//   `Network.eventSourceMessageReceived`, with `time` the event's raw CDP `timestamp`: monotonic
//   seconds since an arbitrary point, not wall-clock. It keeps no body for an EventSource stream.
// - Chrome DevTools holds the same four fields per message (devtools-frontend
//   front_end/core/sdk/NetworkRequest.ts, addEventSourceMessage) with `time` from pseudoWallTime
//   (seconds since the epoch); its HAR writer (front_end/models/har/Log.ts) and reader
//   (HARFormat.ts) handle only `_webSocketMessages`, so DevTools neither writes nor reads this one.
// - Other recorders write `time` in seconds since the epoch, like `_webSocketMessages`.
// - `eventId` is the EventSource's last event id after the event, '' before any: Blink passes its
//   lastEventId to CDP, and DevTools' own parser for fetch/XHR streams
//   (front_end/core/sdk/ServerSentEventsProtocol.ts) keeps `#id` across events the same way. An
//   event's own `id:` line that repeats the previous id is therefore invisible, as it is to a page's
//   EventSource; the core reads `es-event` records (a native EventSource's view) the same way.
//
// What the file lacks is said in one notice (the panel lists it with the capture notices, the
// CLI prints it): the body text (comments, `retry:`, an event cut off at the end, chunk times),
// and, when so, ids or wall-clock times.
import type { CaptureNoticeRecord } from '../record';

export interface ImportedEsEvent {
  t: number;
  type: string;
  data: string;
  lastEventId: string;
}

export interface EventSourceMessages {
  events: ImportedEsEvent[];
  /** How `time` was read: seconds since the epoch, monotonic seconds (spacing kept), or absent. */
  times: 'epoch' | 'monotonic' | 'none';
  /** No message carried an id field. */
  noIds: boolean;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const DAY_MS = 86_400_000;

/** Text of a field that should be a string; other JSON values as their JSON text, never String(obj). */
function text(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v === undefined || v === null) return undefined;
  return JSON.stringify(v) ?? undefined;
}

/**
 * The entry's `_eventSourceMessages` as EventSource events with capture times, or undefined when it
 * holds none (absent, `[]`, or no object in it). `start`, `responseT`, `endT`: the entry's request,
 * response and end times (ms since the epoch) as the HAR importer placed them.
 */
export function readEventSourceMessages(raw: unknown, at: { start: number; responseT: number; endT: number }): EventSourceMessages | undefined {
  if (!Array.isArray(raw)) return undefined;
  const msgs = raw.filter(isObj);
  if (msgs.length === 0) return undefined;
  const firstTime = msgs.find((m) => finite(m.time))?.time as number | undefined;
  // Seconds since the epoch put the event within a day of its request; CDP's monotonic clock is
  // seconds since boot, far from it.
  const times: EventSourceMessages['times'] = firstTime === undefined ? 'none' : Math.abs(firstTime * 1000 - at.start) < DAY_MS ? 'epoch' : 'monotonic';
  const after = at.responseT + 0.001;
  const late = Math.max(after, at.endT - 0.001);
  let last = '';
  let noIds = true;
  let prevT = after;
  const events = msgs.map((m, k): ImportedEsEvent => {
    // `eventId` (CDP, DevTools, cypress-har-generator); `id` / `lastEventId` from other recorders.
    const id = text(m.eventId ?? m.lastEventId ?? m.id);
    if (id !== undefined) {
      // CDP and DevTools write '' before any id: that is no id.
      if (id !== '') noIds = false;
      last = id;
    }
    let t: number;
    if (times === 'epoch' && finite(m.time)) t = m.time * 1000;
    else if (times === 'monotonic' && finite(m.time)) t = after + (m.time - firstTime!) * 1000;
    // No usable time: the first event at the response (sent on connect), the rest when the body
    // was read to its end, as the HAR importer places a body without read times.
    else t = k === 0 ? after : late;
    t = Math.max(t, prevT);
    prevT = t;
    const type = text(m.eventName ?? m.event ?? m.type);
    return { t, type: type === undefined || type === '' ? 'message' : type, data: text(m.data) ?? '', lastEventId: last };
  });
  return { events, times, noIds };
}

/** One notice for all the entries of a file whose events came only from `_eventSourceMessages`. */
export function eventSourceMessagesNotice(
  entries: readonly { t: number; method: string; url: string; imported: EventSourceMessages }[],
): Omit<CaptureNoticeRecord, 'seq' | 'src'> | undefined {
  if (entries.length === 0) return undefined;
  const names = entries.slice(0, 3).map((e) => `${e.method} ${e.url}`);
  const which = `${entries.length === 1 ? 'One HAR entry' : `${entries.length} HAR entries`} (${names.join(', ')}${entries.length > 3 ? ', …' : ''})`;
  const parts = [
    `${which} ${entries.length === 1 ? 'holds its' : 'hold their'} SSE events only in _eventSourceMessages, without the response body text (response.content.text).`,
    'The events, their types, data and last event ids are analysed; what only the body shows is not in the file: comments, retry: fields, an id: line repeating the previous id, an event cut off at the end of the stream, and when each chunk was read.',
  ];
  const noIds = entries.filter((e) => e.imported.noIds).length;
  if (noIds > 0) parts.push(`${noIds === entries.length ? 'No message' : `In ${noIds} of them no message`} carries an event id (eventId), so gaps cannot be shown there.`);
  const mono = entries.filter((e) => e.imported.times === 'monotonic').length;
  if (mono > 0) parts.push(`${mono === entries.length ? 'Their' : `In ${mono} of them the`} times are monotonic seconds (as CDP reports them), not wall-clock: the events are placed from the response on, keeping their spacing.`);
  const none = entries.filter((e) => e.imported.times === 'none').length;
  if (none > 0) parts.push(`${none === entries.length ? 'No message has' : `In ${none} of them no message has`} a time: the first event is placed at the response, the others at the end of the entry.`);
  return {
    kind: 'notice',
    t: entries.reduce((m, e) => Math.min(m, e.t), Infinity),
    level: noIds > 0 ? 'warning' : 'info',
    code: 'har-event-source-messages',
    message: parts.join(' '),
  };
}

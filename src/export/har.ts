// HAR 1.2 export. Chrome's own HAR export keeps no SSE events; this one puts the event-stream body
// in response.content.text and, per entry, the events twice: our own `_sseEvents` (id, event,
// data, time in seconds since the epoch, like Chrome's `_webSocketMessages`) and
// `_eventSourceMessages`, the field other HAR tools read and write (see eventSourceMessages
// below). `_msi` carries what a re-import needs to rebuild the capture exactly (connection,
// transport, how the body ended, chunk timing).

import type { CaptureRecord, Header } from '../core/record';
import { headerValue } from '../core/record';
import { connKey, groupConns, type Conn } from './conns';
import { parseSseChunks } from './sse';
import { PRODUCT_VERSION } from './version';

export interface HarOptions {
  creatorVersion?: string;
  /** Title of the page entry. */
  pageTitle?: string;
}

export interface HarSseEvent {
  id?: string;
  event: string;
  data: string;
  /** Seconds since the epoch. */
  time: number;
}

/**
 * One entry of `_eventSourceMessages`, shaped as the tools that write it shape it: Chrome DevTools
 * keeps a request's EventSource messages as `{time, eventName, eventId, data}`
 * (devtools-frontend front_end/core/sdk/NetworkRequest.ts, addEventSourceMessage; time from
 * pseudoWallTime, seconds since the epoch), the fields of CDP's
 * `Network.eventSourceMessageReceived`, and NeuraLegion's cypress-har-generator writes exactly that
 * array per entry (src/network/EntryBuilder.ts, `_eventSourceMessages`, at commit 2a745bf). DevTools'
 * own HAR writer writes only `_webSocketMessages` (front_end/models/har/Log.ts).
 */
export interface HarEventSourceMessage {
  /** Seconds since the epoch. */
  time: number;
  eventName: string;
  /**
   * The last event id after this event, '' before any: what Blink passes to CDP and DevTools'
   * own fetch/XHR SSE parser reports (ServerSentEventsProtocol.ts keeps `#id` across events), not
   * only this event's own `id:` line.
   */
  eventId: string;
  data: string;
}

interface HarNameValue {
  name: string;
  value: string;
}

export interface HarEntry {
  pageref?: string;
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: never[];
    headers: HarNameValue[];
    queryString: HarNameValue[];
    postData?: { mimeType: string; text: string };
    headersSize: number;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: never[];
    headers: HarNameValue[];
    content: { size: number; mimeType: string; text?: string };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
    _error?: string;
  };
  cache: Record<string, never>;
  timings: { blocked: number; dns: number; connect: number; send: number; wait: number; receive: number; ssl: number };
  _resourceType: string;
  _sseEvents?: HarSseEvent[];
  _eventSourceMessages?: HarEventSourceMessage[];
  _msi: {
    src: string;
    conn: string;
    transport: string;
    reconnectOf?: string;
    bodyNote?: string;
    end?: { how: string; reason?: string; t: number };
    responseT?: number;
    responseUrl?: string;
    redirected?: boolean;
    type?: string;
    capture?: string;
    /** Chunk boundaries in response.content.text: UTF-16 length, bytes, read time (ms epoch). */
    chunks?: { t: number; bytes: number; length: number; droppedBytes?: number }[];
    esEvents?: { t: number; type: string; data: string; lastEventId: string }[];
  };
}

export interface Har {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    pages: { startedDateTime: string; id: string; title: string; pageTimings: Record<string, number> }[];
    entries: HarEntry[];
    /** Records that belong to no connection (navigations, capture gaps, notices), injected faults, and the records of a connection without its request. */
    _msiRecords: CaptureRecord[];
  };
}

const nv = (h: readonly Header[]): HarNameValue[] => h.map(([name, value]) => ({ name, value }));

function queryString(url: string): HarNameValue[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

// (a record's time comes from the page or a file: one outside Date's range, ±8.64e15 ms, would throw)
const iso = (t: number) => new Date(Number.isFinite(t) ? Math.max(-8.64e15, Math.min(8.64e15, t)) : 0).toISOString();
const enc = new TextEncoder();

function entry(c: Conn, pageref: string | undefined): HarEntry | undefined {
  const req = c.request;
  if (!req) return undefined;
  const res = c.response;
  const text = c.chunks.map((ch) => ch.text).join('');
  let lastT = Math.max(req.t, res?.t ?? 0, c.end?.t ?? 0);
  for (const ch of c.chunks) if (ch.t > lastT) lastT = ch.t;
  for (const ev of c.esEvents) if (ev.t > lastT) lastT = ev.t;
  const mime = (res && headerValue(res.headers, 'content-type')) ?? (c.esEvents.length ? 'text/event-stream' : 'x-unknown');
  let sse: HarSseEvent[] | undefined;
  let esm: HarEventSourceMessage[] | undefined;
  let bodyText: string | undefined = c.chunks.length ? text : undefined;
  if (c.esEvents.length) {
    sse = c.esEvents.map((e) => ({ ...(e.lastEventId ? { id: e.lastEventId } : {}), event: e.type, data: e.data, time: e.t / 1000 }));
    esm = c.esEvents.map((e) => ({ time: e.t / 1000, eventName: e.type, eventId: e.lastEventId, data: e.data }));
    bodyText ??= c.esEvents
      .map((e) => `${e.type !== 'message' ? `event: ${e.type}\n` : ''}${e.lastEventId ? `id: ${e.lastEventId}\n` : ''}${e.data.split('\n').map((d) => `data: ${d}`).join('\n')}\n\n`)
      .join('');
  } else if (res?.capture === 'sse' || /text\/event-stream/i.test(mime)) {
    const parsed = parseSseChunks(c.chunks).events;
    sse = parsed.map((e) => ({ ...(e.id !== undefined ? { id: e.id } : {}), event: e.event, data: e.data, time: e.time / 1000 }));
    esm = parsed.map((e) => ({ time: e.time / 1000, eventName: e.event, eventId: e.cursor, data: e.data }));
  }
  const bytes = c.chunks.reduce((n, ch) => n + ch.bytes, 0);
  // An imported entry's hold in the browser (timings.blocked) stays apart from its wait.
  const blocked = req.blockedMs ?? -1;
  const wait = res ? Math.max(0, res.t - req.t - Math.max(0, blocked)) : -1;
  const e: HarEntry = {
    ...(pageref ? { pageref } : {}),
    startedDateTime: iso(req.t),
    time: Math.max(0, lastT - req.t),
    request: {
      method: req.method,
      url: req.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: nv(req.headers),
      queryString: queryString(req.url),
      ...(req.body !== null ? { postData: { mimeType: headerValue(req.headers, 'content-type') ?? 'application/json', text: req.body } } : {}),
      headersSize: -1,
      bodySize: req.body !== null ? enc.encode(req.body).length : 0,
    },
    response: {
      status: res?.status ?? 0,
      statusText: res?.statusText ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: res ? nv(res.headers) : [],
      content: { size: bodyText !== undefined ? enc.encode(bodyText).length : 0, mimeType: mime, ...(bodyText !== undefined ? { text: bodyText } : {}) },
      redirectURL: (res && headerValue(res.headers, 'location')) ?? '',
      headersSize: -1,
      bodySize: c.chunks.length ? bytes : -1,
      ...(c.end && c.end.how !== 'complete' ? { _error: `${c.end.how}${c.end.reason ? `: ${c.end.reason}` : ''}` } : {}),
    },
    cache: {},
    timings: {
      blocked,
      dns: -1,
      connect: -1,
      send: 0,
      wait,
      receive: res ? Math.max(0, lastT - res.t) : 0,
      ssl: -1,
    },
    _resourceType: req.transport === 'eventsource' ? 'eventsource' : req.transport === 'xhr' ? 'xhr' : 'fetch',
    ...(sse ? { _sseEvents: sse } : {}),
    ...(esm ? { _eventSourceMessages: esm } : {}),
    _msi: {
      src: c.src,
      conn: c.conn,
      transport: req.transport,
      ...(req.reconnectOf ? { reconnectOf: req.reconnectOf } : {}),
      ...(req.bodyNote ? { bodyNote: req.bodyNote } : {}),
      ...(c.end ? { end: { how: c.end.how, ...(c.end.reason !== undefined ? { reason: c.end.reason } : {}), t: c.end.t } } : {}),
      ...(res ? { responseT: res.t, responseUrl: res.url, redirected: res.redirected, type: res.type, capture: res.capture } : {}),
      ...(c.chunks.length
        ? { chunks: c.chunks.map((ch) => ({ t: ch.t, bytes: ch.bytes, length: ch.text.length, ...(ch.droppedBytes ? { droppedBytes: ch.droppedBytes } : {}) })) }
        : {}),
      ...(c.esEvents.length ? { esEvents: c.esEvents.map((e) => ({ t: e.t, type: e.type, data: e.data, lastEventId: e.lastEventId })) } : {}),
    },
  };
  return e;
}

export function toHar(records: readonly CaptureRecord[], opts: HarOptions = {}): Har {
  const conns = groupConns(records);
  const orphans = new Set(conns.filter((c) => !c.request).map((c) => c.key));
  const first = records.reduce((m, r) => Math.min(m, r.t), Infinity);
  const pages = records.length
    ? [{ startedDateTime: iso(first), id: 'page_1', title: opts.pageTitle ?? 'MCP Stream Inspector capture', pageTimings: {} }]
    : [];
  const entries = conns
    .map((c) => entry(c, pages.length ? 'page_1' : undefined))
    .filter((e): e is HarEntry => !!e)
    .sort((a, b) => a.startedDateTime.localeCompare(b.startedDateTime));
  return {
    log: {
      version: '1.2',
      creator: { name: 'MCP Stream Inspector', version: opts.creatorVersion ?? PRODUCT_VERSION },
      pages,
      entries,
      // Injected faults too (they name a connection: the import maps it to its entry), and every
      // record of a connection whose request the capture does not hold (evicted by the buffer's
      // cap, lost in a gap): it has no entry to be, and the analysis keeps it as a stream of its own.
      _msiRecords: records.filter((r) => !('conn' in r) || r.kind === 'fault' || orphans.has(connKey(r.src, r.conn))),
    },
  };
}

export function exportHar(records: readonly CaptureRecord[], opts: HarOptions = {}): string {
  return JSON.stringify(toHar(records, opts), null, 1);
}

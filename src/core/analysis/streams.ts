// Streams: one per connection the analysis follows (an MCP POST, GET, resume or EventSource).
import { EventStore } from './event-store';
import type { RequestRecord } from '../record';
import { headerValue } from '../record';
import type { StreamKind } from '../model';
import { type StreamS } from './state';
import { connKey, type AnalyzerState } from './analyzer-state';

/** A new stream for connection `conn` of `src`, opened by `req` (undefined: its request is not in the capture). */
export function newStream(A: AnalyzerState, src: string, conn: string, req: RequestRecord | undefined, t: number): StreamS {
  const id = `${src}:${conn}`;
  const method = req?.method.toUpperCase() ?? 'GET';
  const headers = req?.headers ?? [];
  const lastEventId = headerValue(headers, 'last-event-id');
  const transport = req?.transport ?? 'unknown';
  let kind: StreamKind;
  if (transport === 'eventsource') kind = 'eventsource';
  else if (!req) kind = 'other';
  else if (method === 'POST') kind = 'post';
  else if (method === 'GET') kind = lastEventId !== undefined ? 'resume' : 'get';
  else kind = 'other';
  const st: StreamS = {
    id,
    kind,
    method,
    url: req?.url ?? '',
    transport,
    requestHeaders: headers,
    responseHeaders: [],
    requestIds: [],
    resumedBy: [],
    start: t,
    state: 'open',
    events: new EventStore(),
    comments: 0,
    bytes: 0,
    captureIncomplete: A.gapConns.has(connKey(src, conn)) || !req,
    fresh: req !== undefined && lastEventId === undefined && req.reconnectOf === undefined,
    orphan: !req,
    ord: ++A.ord,
    deferSession: false,
    bodyMessages: [],
    capture: 'unknown',
    json: [],
    root: undefined as unknown as StreamS,
    segments: [],
    requests: [],
    isResume: false,
    sawId: false,
    messages: 0,
    resyncOrds: [],
    crossOrds: [],
    chainIds: new Map(),
    dirty: true,
  };
  st.root = st;
  st.segments = [st];
  if (lastEventId !== undefined) st.lastEventIdSent = lastEventId;
  if (req?.blockedMs !== undefined) st.blockedMs = req.blockedMs;
  A.streamsById.set(id, st);
  A.streamOrder.push(st);
  return st;
}

/** Whether more can still arrive on a stream. A response the capture does not follow
 * (`capture: 'none'`, e.g. the 202 to a notification) gets no chunk and no end record by the
 * record contract, so once its response is in, it is done even though no end will come. */
export function stillOpen(x: StreamS): boolean {
  return x.state === 'open' && !(x.status !== undefined && x.capture === 'none');
}

export function chainOpen(root: StreamS): boolean {
  return root.segments.some(stillOpen);
}

/** Incomplete only because records were not kept while recording was off (the user's setting). */
export function notRecordedOnly(x: StreamS): boolean {
  return x.notRecorded === true && !x.inspectorLost && !x.bodyAbsent;
}

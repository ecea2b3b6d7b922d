// Names of things as the panel shows them: streams (lane labels), events' JSON-RPC methods and
// ids, endpoints, tool names.

import type { RequestInfo, SseEvent, Stream } from '../../../core/model';
import type { EventList } from '../../../core/event-list';

/** "POST #2 tools/call", "GET resumed (Last-Event-ID 11)", "GET stream". Not unique: see timeline/lanes.ts. */
export function streamLabel(s: Stream, reqs?: ReadonlyMap<string, RequestInfo>): string {
  if (s.kind === 'resume') return `GET resumed${s.lastEventIdSent !== undefined ? ` (Last-Event-ID ${s.lastEventIdSent})` : ''}`;
  if (s.kind === 'get') return 'GET stream';
  if (s.kind === 'eventsource') return 'EventSource';
  const ids = s.requestIds;
  if (ids.length === 0) return `${s.method}`;
  const m = ids.map((id) => reqs?.get(id)?.method).filter(Boolean);
  return `${s.method} #${ids.join(',')}${m.length ? ` ${m.join(', ')}` : ''}`;
}

export function eventMethods(e: SseEvent): string {
  return e.messages
    .map((m) => m.method ?? (m.kind === 'result' ? 'result' : m.kind === 'error' ? 'error' : m.kind === 'invalid' ? 'invalid JSON-RPC' : ''))
    .filter(Boolean)
    .join(', ');
}

export function eventRpcIds(e: SseEvent): string {
  return e.messages
    .map((m) => m.id)
    .filter((x): x is string => x !== undefined)
    .join(', ');
}

/** Index of the first event of `events` carrying a result or error (for `requestId`), or -1; no event is built. */
export function terminalIndex(events: EventList, requestId?: string): number {
  for (let i = 0; i < events.length; i++) {
    if (events.answers(i) && events.messages(i).some((m) => (m.kind === 'result' || m.kind === 'error') && (requestId === undefined || m.id === requestId))) return i;
  }
  return -1;
}

/** ` long_task` for a tools/call (leading space), '' otherwise. */
export function toolName(params: unknown): string {
  const n = (params as { name?: unknown } | undefined)?.name;
  return typeof n === 'string' ? ` ${n}` : '';
}

export function endpointLabel(url: string): string {
  try {
    const u = new URL(url);
    return `${u.host}${u.pathname}`;
  } catch {
    return url;
  }
}

export function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

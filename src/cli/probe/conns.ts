// The probe's view of a recording: one entry per HTTP exchange, with the SSE events the client
// read, parsed by the core's SSE parser. What the experiments compare (the analysis proper is the
// core's, over the same records).

import { createSseConnectionParser } from '../../core/sse';
import { headerValue, type CaptureRecord, type EndHow, type Header } from '../../core/record';

export interface ProbeEvent {
  /** Position in the connection, from 1. */
  n: number;
  id?: string;
  event?: string;
  data?: string;
  /** The JSON-RPC message in `data`, when it parses. */
  msg?: Record<string, unknown>;
  t: number;
}

export interface ProbeConn {
  conn: string;
  method: string;
  url: string;
  reqHeaders: Header[];
  body: string | null;
  /** JSON-RPC method and id of the request body (single message). */
  rpcMethod?: string;
  rpcId?: string;
  lastEventId?: string;
  sessionId?: string;
  status?: number;
  contentType?: string;
  events: ProbeEvent[];
  /** Body text when the answer was JSON. */
  jsonText?: string;
  end?: EndHow;
  endReason?: string;
  t: number;
  /** When its response headers came (its response record). */
  respondedAt?: number;
  /** When it ended (its end record). */
  endedAt?: number;
}

function parseJson(s: string | undefined): Record<string, unknown> | undefined {
  if (!s) return undefined;
  try {
    const v: unknown = JSON.parse(s);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function connsOf(records: readonly CaptureRecord[]): ProbeConn[] {
  const out = new Map<string, ProbeConn>();
  const parsers = new Map<string, ReturnType<typeof createSseConnectionParser>>();
  const add = (c: ProbeConn, blocks: { id?: string; event?: string; data?: string }[], t: number) => {
    for (const b of blocks) {
      if (b.id === undefined && b.data === undefined) continue;
      c.events.push({ n: c.events.length + 1, ...(b.id !== undefined ? { id: b.id } : {}), ...(b.event !== undefined ? { event: b.event } : {}), ...(b.data !== undefined ? { data: b.data } : {}), ...(b.data ? { msg: parseJson(b.data) } : {}), t });
    }
  };
  for (const r of records) {
    if (r.kind === 'request') {
      const msg = parseJson(r.body ?? undefined);
      out.set(r.conn, {
        conn: r.conn,
        method: r.method,
        url: r.url,
        reqHeaders: r.headers,
        body: r.body,
        ...(typeof msg?.method === 'string' ? { rpcMethod: msg.method } : {}),
        ...(msg && 'id' in msg ? { rpcId: JSON.stringify(msg.id) } : {}),
        ...(headerValue(r.headers, 'last-event-id') !== undefined ? { lastEventId: headerValue(r.headers, 'last-event-id') } : {}),
        ...(headerValue(r.headers, 'mcp-session-id') !== undefined ? { sessionId: headerValue(r.headers, 'mcp-session-id') } : {}),
        events: [],
        t: r.t,
      });
    } else if (r.kind === 'response') {
      const c = out.get(r.conn);
      if (!c) continue;
      c.status = r.status;
      c.respondedAt = r.t;
      const ct = headerValue(r.headers, 'content-type');
      if (ct !== undefined) c.contentType = ct;
      c.sessionId ??= headerValue(r.headers, 'mcp-session-id');
      if (r.capture === 'sse') parsers.set(r.conn, createSseConnectionParser());
    } else if (r.kind === 'chunk') {
      const c = out.get(r.conn);
      if (!c) continue;
      const p = parsers.get(r.conn);
      if (p) add(c, p.feed(r.text), r.t);
      else c.jsonText = (c.jsonText ?? '') + r.text;
    } else if (r.kind === 'end') {
      const c = out.get(r.conn);
      if (!c) continue;
      c.end = r.how;
      c.endedAt = r.t;
      if (r.reason !== undefined) c.endReason = r.reason;
      const p = parsers.get(r.conn);
      if (p) add(c, p.end().filter((b) => !b.truncated), r.t);
    }
  }
  return [...out.values()];
}

/** The JSON-RPC messages a connection delivered (SSE events of type message, or its JSON body). */
export function messagesOf(c: ProbeConn): Record<string, unknown>[] {
  if (c.jsonText !== undefined) {
    const v = parseJson(c.jsonText);
    return v ? [v] : [];
  }
  return c.events.filter((e) => e.msg && (e.event === undefined || e.event === 'message')).map((e) => e.msg!);
}

export const isResponse = (m: Record<string, unknown>) => 'id' in m && ('result' in m || 'error' in m);
export const isNotification = (m: Record<string, unknown>) => typeof m.method === 'string' && !('id' in m);

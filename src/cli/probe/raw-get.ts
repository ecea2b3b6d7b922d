// A GET with a cursor the probe chooses, sent directly on the recording fetch: the SDK client can
// only resume with the last id it read itself, so an unknown, malformed, evicted or another
// session's cursor is sent by hand (the same headers the SDK sends). The stream is read for
// `listenMs` at most, then let go.

import type { Recorder } from './record-fetch';

export interface RawGet {
  status?: number;
  error?: string;
  /** The stream ended by itself within the listening time. */
  ended: boolean;
}

export async function rawGet(
  rec: Recorder,
  url: string,
  h: { sessionId?: string; protocolVersion?: string; lastEventId?: string; extra: Record<string, string> },
  listenMs: number,
): Promise<RawGet> {
  const headers: Record<string, string> = { ...h.extra, accept: 'text/event-stream' };
  if (h.sessionId) headers['mcp-session-id'] = h.sessionId;
  if (h.protocolVersion) headers['mcp-protocol-version'] = h.protocolVersion;
  if (h.lastEventId !== undefined) headers['last-event-id'] = h.lastEventId;
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(new Error('probe: stopped listening')), listenMs);
  try {
    const res = await rec.fetch(url, { method: 'GET', headers, signal: ac.signal });
    let ended = false;
    if (res.body) {
      const reader = res.body.getReader();
      try {
        for (;;) {
          const r = await reader.read();
          if (r.done) {
            ended = true;
            break;
          }
        }
      } catch {
        // stopped listening (abort) or the server broke the stream: the records say which
      }
    } else ended = true;
    return { status: res.status, ended };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e), ended: true };
  } finally {
    clearTimeout(timer);
  }
}

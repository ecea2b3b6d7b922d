// Moved from src/panel/ui/__fixtures__/lossy.ts: the panel's tests now run on real fixture captures
// (src/panel/ui/test-support/fixtures.ts); the exporters' tests keep this hand-made sample.
// Hand-made sample data for the UI and exporters before/independently of the real analyzer:
// a session whose tools/call stream is cut after id 11 and resumed with Last-Event-ID: 11, the
// server replaying from 14 (12–13 lost), the result accepted -> lossy-result-accepted.

import type { CaptureRecord } from '../../src/core/record';
import type { AnalysisSnapshot, Finding, RequestInfo, SseEvent, Stream } from '../../src/core/model';
import { EMPTY_CAPTURE } from '../../src/core/presentation';
import { ArrayEventList } from '../../src/core/event-list';
import { ArrayNotificationList } from '../../src/core/notification-list';

export const T0 = Date.UTC(2026, 10, 30, 7, 0, 0);
export const SESSION = '64e82829c1d04b7e9a3f5d2e8b7c6a10';
export const URL_ = 'http://127.0.0.1:3939/mcp';
const SRC = 'tab1:frame0';

function sse(id: number, data: unknown, event = 'message'): string {
  return `event: ${event}\nid: ${id}\ndata: ${JSON.stringify(data)}\n\n`;
}

function progress(id: number, n: number) {
  return { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't2', progress: n, total: 40 } };
}
function message(id: number, n: number, hostile = false) {
  return {
    jsonrpc: '2.0',
    method: 'notifications/message',
    params: { level: 'info', data: hostile ? `chunk ${n} \u202Egnp.exe | \`rm -rf\` <img src=x onerror=alert(1)>` : `chunk ${n} of output` },
  };
}

/** CaptureRecords for the lossy scenario. */
export function lossyRecords(): CaptureRecord[] {
  const out: CaptureRecord[] = [];
  let seq = 0;
  const add = (r: Omit<CaptureRecord, 'seq' | 'src'>) => out.push({ ...(r as CaptureRecord), seq: ++seq, src: SRC });
  const reqH = (extra: [string, string][] = []): [string, string][] => [
    ['Content-Type', 'application/json'],
    ['Accept', 'application/json, text/event-stream'],
    ...extra,
  ];
  // initialize (JSON response)
  add({ kind: 'request', conn: 'c1', t: T0, transport: 'fetch', method: 'POST', url: URL_, headers: reqH(), body: '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"demo","version":"1"}}}' } as never);
  add({ kind: 'response', conn: 'c1', t: T0 + 12, status: 200, statusText: 'OK', headers: [['Content-Type', 'text/event-stream'], ['Mcp-Session-Id', SESSION]], url: URL_, redirected: false, type: 'cors', capture: 'sse' } as never);
  add({ kind: 'chunk', conn: 'c1', t: T0 + 14, text: sse(1, { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'fixture', version: '1' } } }), bytes: 200 } as never);
  add({ kind: 'end', conn: 'c1', t: T0 + 15, how: 'complete' } as never);
  // tools/list
  const sid: [string, string][] = [['Mcp-Session-Id', SESSION], ['MCP-Protocol-Version', '2025-11-25']];
  add({ kind: 'request', conn: 'c2', t: T0 + 40, transport: 'fetch', method: 'POST', url: URL_, headers: reqH(sid), body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' } as never);
  add({ kind: 'response', conn: 'c2', t: T0 + 48, status: 200, statusText: 'OK', headers: [['Content-Type', 'text/event-stream']], url: URL_, redirected: false, type: 'cors', capture: 'sse' } as never);
  add({ kind: 'chunk', conn: 'c2', t: T0 + 50, text: sse(2, { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'long_task' }] } }), bytes: 80 } as never);
  add({ kind: 'end', conn: 'c2', t: T0 + 51, how: 'complete' } as never);
  // tools/call, cut after id 11
  add({ kind: 'request', conn: 'c3', t: T0 + 100, transport: 'fetch', method: 'POST', url: URL_, headers: reqH(sid), body: '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"long_task","arguments":{"n":20},"_meta":{"progressToken":"t2"}}}' } as never);
  add({ kind: 'response', conn: 'c3', t: T0 + 110, status: 200, statusText: 'OK', headers: [['Content-Type', 'text/event-stream']], url: URL_, redirected: false, type: 'cors', capture: 'sse' } as never);
  let t = T0 + 150;
  for (let id = 3; id <= 11; id++) {
    const n = id - 2;
    const body = id % 2 ? progress(id, n) : message(id, n, id === 8);
    add({ kind: 'chunk', conn: 'c3', t, text: sse(id, body), bytes: 120 } as never);
    t += 90;
  }
  add({ kind: 'end', conn: 'c3', t: t, how: 'network-error', reason: 'TypeError: network error' } as never);
  // resume
  t += 300;
  add({ kind: 'request', conn: 'c4', t, transport: 'fetch', method: 'GET', url: URL_, headers: [['Accept', 'text/event-stream'], ...sid, ['Last-Event-ID', '11']], body: null, bodyNote: 'none' } as never);
  add({ kind: 'response', conn: 'c4', t: t + 8, status: 200, statusText: 'OK', headers: [['Content-Type', 'text/event-stream']], url: URL_, redirected: false, type: 'cors', capture: 'sse' } as never);
  t += 40;
  for (let id = 14; id <= 45; id++) {
    const body = id % 2 ? progress(id, id - 2) : message(id, id - 2);
    add({ kind: 'chunk', conn: 'c4', t, text: sse(id, body), bytes: 120 } as never);
    t += 45;
  }
  add({ kind: 'chunk', conn: 'c4', t, text: sse(46, { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'sha256:9f2c…' }] } }), bytes: 140 } as never);
  add({ kind: 'end', conn: 'c4', t: t + 5, how: 'complete' } as never);
  return out;
}

function ev(index: number, id: number, t: number, data: unknown, messages: SseEvent['messages'], findings: SseEvent['findings'] = []): SseEvent {
  const d = JSON.stringify(data);
  return { index, id: String(id), cursor: String(id), event: 'message', data: d, t, raw: `event: message\nid: ${id}\ndata: ${d}\n\n`, messages, findings };
}

/** A hand-made AnalysisSnapshot matching lossyRecords() (what the analyzer should roughly say). */
export function lossySnapshot(): AnalysisSnapshot {
  const rec = lossyRecords();
  const chunks = (conn: string) => rec.filter((r): r is Extract<CaptureRecord, { kind: 'chunk' }> => r.kind === 'chunk' && r.conn === conn);
  const toEvents = (conn: string, firstIndex = 0): SseEvent[] =>
    chunks(conn).map((c, i) => {
      const m = /id: (\d+)\ndata: (.*)\n/.exec(c.text)!;
      const data = JSON.parse(m[2]!) as { id?: number; method?: string; result?: unknown; params?: { progressToken?: string; progress?: number; total?: number } };
      const summary: SseEvent['messages'][number] = data.method
        ? { kind: 'notification', method: data.method, progressToken: data.params?.progressToken, progress: data.params?.progress, total: data.params?.total }
        : { kind: 'result', id: String(data.id) };
      return { ...ev(firstIndex + i, Number(m[1]), c.t, data, [summary]), raw: c.text };
    });
  const key = SESSION;
  const s1 = toEvents('c1');
  const s2 = toEvents('c2');
  const s3 = toEvents('c3');
  const s4 = toEvents('c4');
  s4[0]!.findings.push('replay-gap');
  s4[s4.length - 1]!.findings.push('lossy-result-accepted');
  const base = (id: string, conn: string, kind: Stream['kind'], method: string, events: SseEvent[], extra: Partial<Stream>): Stream => {
    const req = rec.find((r) => r.kind === 'request' && r.conn === conn)!;
    const end = rec.find((r) => r.kind === 'end' && r.conn === conn);
    return {
      id,
      sessionKey: key,
      kind,
      method,
      url: URL_,
      status: 200,
      contentType: 'text/event-stream',
      requestHeaders: (req as { headers: [string, string][] }).headers,
      responseHeaders: [['Content-Type', 'text/event-stream']],
      requestIds: [],
      resumedBy: [],
      start: req.t,
      end: end?.t,
      state: 'complete',
      events: new ArrayEventList(events),
      comments: 0,
      bytes: events.reduce((n, e) => n + e.raw.length, 0),
      transport: 'fetch',
      ...extra,
    };
  };
  const streams: Record<string, Stream> = {
    's:c1': base('s:c1', 'c1', 'post', 'POST', s1, { requestIds: ['0'] }),
    's:c2': base('s:c2', 'c2', 'post', 'POST', s2, { requestIds: ['1'] }),
    's:c3': base('s:c3', 'c3', 'post', 'POST', s3, { requestIds: ['2'], state: 'error', endReason: 'TypeError: network error', resumedBy: ['s:c4'] }),
    's:c4': base('s:c4', 'c4', 'resume', 'GET', s4, { lastEventIdSent: '11', resumes: 's:c3' }),
  };
  const notif = (sid: string, evs: SseEvent[]): [string, number][] => evs.filter((e) => e.messages[0]?.kind === 'notification').map((e) => [sid, e.index]);
  const requests: RequestInfo[] = [
    { id: '0', method: 'initialize', streamId: 's:c1', responseStreamId: 's:c1', response: 'result', verdict: 'complete', notifications: new ArrayNotificationList([]), cumulativeCount: 0, findings: [], start: T0, end: T0 + 14 },
    { id: '1', method: 'tools/list', streamId: 's:c2', responseStreamId: 's:c2', response: 'result', verdict: 'complete', notifications: new ArrayNotificationList([]), cumulativeCount: 0, findings: [], start: T0 + 40, end: T0 + 50 },
    {
      id: '2',
      method: 'tools/call',
      params: { name: 'long_task', arguments: { n: 20 } },
      progressToken: '"t2"',
      streamId: 's:c3',
      responseStreamId: 's:c4',
      response: 'result',
      verdict: 'lossy',
      notifications: new ArrayNotificationList([...notif('s:c3', s3), ...notif('s:c4', s4)]),
      cumulativeCount: 20,
      findings: ['replay-gap', 'lossy-result-accepted'],
      start: T0 + 100,
      end: s4[s4.length - 1]!.t,
    },
  ];
  const findings: Finding[] = [
    {
      code: 'lossy-result-accepted',
      severity: 'error',
      sessionKey: key,
      sessionId: SESSION,
      streamId: 's:c4',
      relatedStreamIds: ['s:c3'],
      requestId: '2',
      eventIds: ['46'],
      missing: '12–13',
      eventIndex: s4.length - 1,
      message:
        'The client accepted the result of request 2 (tools/call long_task) after a replay that skipped ids 12–13. It accumulated 20 cumulative notifications (notifications/message); the ids imply 21. The result looks complete but is built from an incomplete stream.',
    },
    {
      code: 'replay-gap',
      severity: 'error',
      sessionKey: key,
      sessionId: SESSION,
      streamId: 's:c4',
      relatedStreamIds: ['s:c3'],
      requestId: '2',
      eventIds: ['12', '13'],
      missing: '12–13',
      eventIndex: 0,
      message: 'Resumed with Last-Event-ID: 11, the replay started at 14: ids 12–13 were never delivered by any stream of the session.',
    },
    {
      code: 'stale-resume-cursor',
      severity: 'info',
      sessionKey: key,
      sessionId: SESSION,
      streamId: 's:c4',
      eventIds: ['11'],
      eventIndex: 0,
      message: 'Hostile text check: \u202Eevil | `code` <b>bold</b> \u0000 end',
    },
  ];
  return {
    version: 1,
    sessions: [
      {
        key,
        sessionId: SESSION,
        endpoint: URL_,
        origin: 'http://127.0.0.1:3939',
        protocolVersion: '2025-11-25',
        era: 'legacy',
        eraEvidence: '2025: initialize and Mcp-Session-Id (revision 2025-11-25)',
        idScheme: { kind: 'contiguous', scope: 'session', evidence: 'integers counting up by one across all streams (1, 2, 3 … 46)' },
        gaplessDeclared: false,
        lossless: false,
        losslessReasons: ['a stream was resumed after a reconnect', 'ids 12–13 were never delivered', 'the server did not declare gapless retention'],
        streamIds: Object.keys(streams),
        requestIds: ['0', '1', '2'],
        worst: 'error',
      },
      {
        key: 'endpoint:http://127.0.0.1:3939/stateless',
        sessionId: null,
        endpoint: 'http://127.0.0.1:3939/stateless',
        origin: 'http://127.0.0.1:3939',
        protocolVersion: '2026-07-28',
        era: 'modern',
        eraEvidence: '2026-07-28: requests carry _meta protocolVersion 2026-07-28 and no session',
        idScheme: { kind: 'none', evidence: 'no event ids' },
        gaplessDeclared: false,
        lossless: true,
        losslessReasons: [],
        streamIds: [],
        requestIds: [],
      },
    ],
    servers: [
      { endpoint: URL_, origin: 'http://127.0.0.1:3939', era: 'legacy', evidence: ['initialize answered (protocolVersion 2025-11-25)', 'Mcp-Session-Id issued'], sessionKeys: [key] },
      { endpoint: 'http://127.0.0.1:3939/stateless', origin: 'http://127.0.0.1:3939', era: 'modern', evidence: ['a 2026-07-28 request answered (tools/call 1)'], sessionKeys: ['endpoint:http://127.0.0.1:3939/stateless'] },
    ],
    streams,
    requests: { [key]: requests, 'endpoint:http://127.0.0.1:3939/stateless': [] },
    findings,
    markers: [{ t: T0 + 1500, kind: 'capture-gap', text: 'capture-gap: 3 records lost (buffer-cap)' }],
    recordCount: rec.length,
    capture: EMPTY_CAPTURE,
  };
}

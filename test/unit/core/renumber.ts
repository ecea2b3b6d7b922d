// A snapshot as a second run of the same scenario would give it: every JSON-RPC id, Mcp-Session-Id
// (and so session key), connection (stream) id and finding message replaced, consistently, by
// another; the shape (order of sessions, requests and streams, methods, tool names, event ids of
// a counter scheme) kept. For diffSnapshots' invariance property.
import { ArrayNotificationList } from '../../../src/core/notification-list';
import type { AnalysisSnapshot, Finding, RequestInfo, Session, Stream } from '../../../src/core/model';

export interface Renumbering {
  /** JSON-RPC id n becomes n + idOffset (or the string "r<n + idOffset>"). */
  idOffset: number;
  stringIds: boolean;
  /** Mixed into every new session id. */
  sessionSalt: string;
  /** Connection ids become `<prefix>:<n>`. */
  streamPrefix: string;
  /** Appended to every finding message (messages quote ids that change per run). */
  messageSuffix: string;
}

export function renumber(s: AnalysisSnapshot, how: Renumbering): AnalysisSnapshot {
  const ids = new Map<string, string>();
  const id = (x: string): string => {
    let y = ids.get(x);
    if (y === undefined) {
      const n = ids.size + how.idOffset;
      y = how.stringIds ? JSON.stringify(`r${n}`) : String(n);
      ids.set(x, y);
    }
    return y;
  };
  const optId = (x: string | undefined) => (x === undefined ? undefined : id(x));
  const sessionIds = new Map<string, string>();
  const sid = (x: string): string => {
    let y = sessionIds.get(x);
    if (y === undefined) sessionIds.set(x, (y = `${how.sessionSalt}-${sessionIds.size}-${x.length}`));
    return y;
  };
  // A session key is its session id, or a name built from the endpoint (sessionless): only the
  // former changes between runs.
  const keys = new Map<string, string>();
  for (const x of s.sessions) keys.set(x.key, x.sessionId !== null && x.key === x.sessionId ? sid(x.sessionId) : x.key);
  const key = (x: string) => keys.get(x) ?? x;
  const streams = new Map<string, string>();
  Object.keys(s.streams).forEach((x, i) => streams.set(x, `${how.streamPrefix}:${i}`));
  const st = (x: string) => streams.get(x) ?? x;
  const optSt = (x: string | undefined) => (x === undefined ? undefined : st(x));
  const def = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

  const sessions: Session[] = s.sessions.map((x) =>
    def({
      ...x,
      key: key(x.key),
      sessionId: x.sessionId === null ? null : sid(x.sessionId),
      streamIds: x.streamIds.map(st),
      requestIds: x.requestIds.map(id),
      chains: x.chains?.map((c) => ({ ...c, rootStreamId: st(c.rootStreamId), requestIds: c.requestIds.map(id), segments: c.segments.map((g) => ({ ...g, streamId: st(g.streamId) })) })),
      links: x.links?.map((l) => ({ ...l, from: id(l.from), to: id(l.to), fromStreamId: st(l.fromStreamId), toStreamId: st(l.toStreamId) })),
      subscriptions: x.subscriptions?.map((u) => def({ ...u, requestId: id(u.requestId), streamId: st(u.streamId), ...(u.outage ? { outage: def({ ...u.outage, relistenRequestId: optId(u.outage.relistenRequestId) }) } : {}) })),
    }),
  );
  const outStreams: Record<string, Stream> = {};
  for (const [k, x] of Object.entries(s.streams)) {
    outStreams[st(k)] = def({
      ...x,
      id: st(x.id),
      sessionKey: key(x.sessionKey),
      requestIds: x.requestIds.map(id),
      resumes: optSt(x.resumes),
      resumedBy: x.resumedBy.map(st),
      chainRoot: optSt(x.chainRoot),
    });
  }
  const requests: Record<string, RequestInfo[]> = {};
  for (const [k, rs] of Object.entries(s.requests)) {
    requests[key(k)] = rs.map((r) =>
      def({
        ...r,
        id: id(r.id),
        streamId: st(r.streamId),
        responseStreamId: optSt(r.responseStreamId),
        reissueOf: optId(r.reissueOf),
        reissuedAs: optId(r.reissuedAs),
        retryOf: optId(r.retryOf),
        retriedAs: optId(r.retriedAs),
        notifications: new ArrayNotificationList(r.notifications.slice().map(([a, b]) => [st(a), b] as [string, number])),
      }),
    );
  }
  const findings: Finding[] = s.findings.map((f) =>
    def({
      ...f,
      sessionKey: key(f.sessionKey),
      sessionId: f.sessionId === null ? null : sid(f.sessionId),
      streamId: optSt(f.streamId),
      relatedStreamIds: f.relatedStreamIds?.map(st),
      requestId: optId(f.requestId),
      relatedRequestIds: f.relatedRequestIds?.map(id),
      message: `${f.message}${how.messageSuffix}`,
    }),
  );
  return {
    ...s,
    sessions,
    servers: s.servers.map((x) => ({ ...x, sessionKeys: x.sessionKeys.map(key) })),
    streams: outStreams,
    requests,
    findings,
  };
}

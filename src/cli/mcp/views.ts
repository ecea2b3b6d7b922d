// The answers of the tools, as plain data built from the core's analysis: a summary first, short
// ids to drill down with (s1 for a session, f3 for a finding, st2 for a stream beside its id),
// every wording from the core (presentation.ts, presentation-eras.ts) or docs/findings.md.
import { lossDetail, sortFindings, VERDICT_TEXT, worstForRequest, captureSummary, ADVICE_LOSSY, ADVICE_DUPLICATED } from '../../core/presentation';
import { ERA_LABEL, linkText, serverOf, sessionTitle, subscriptionText } from '../../core/presentation-eras';
import type { AnalysisSnapshot, Finding, RequestInfo, Session, SseEvent, Stream, Verdict } from '../../core/model';
import { findingsOfRequest, requestName } from '../audit-input';
import { adviceFor } from './explain';
import type { Capture } from './captures';
import { cap, capIds, capMissing, DATA_MAX, IDS_MAX, MESSAGE_MAX, REQUEST_ID_MAX, STREAM_ID_MAX, URL_MAX } from './text';
import { eventCountAtSnapshot, eventsAtSnapshot } from '../../core/event-access';
import { makeIdParser, parseIdGeneric, parseIdHex, type ParsedId } from '../../core/ids/parse';
import { paginate } from './cursor';
import { handlesOf, keepHandles } from './handles';

export class NotFound extends Error {}

// ---------------------------------------------------------------- references

export const sessionRef = (snap: AnalysisSnapshot, s: Session) => `s${handlesOf(snap).of.sessions.see(s.key) + 1}`;

/** A session by its short id (s1), its key or its Mcp-Session-Id. */
export function findSession(snap: AnalysisSnapshot, ref: string): Session {
  const m = /^s(\d+)$/.exec(ref);
  const key = m ? handlesOf(snap).of.sessions.keyAt(Number(m[1]) - 1) : undefined;
  const s = m ? snap.sessions.find((x) => x.key === key) : snap.sessions.find((x) => x.key === ref || x.sessionId === ref);
  if (!s) throw new NotFound(`no session "${cap(ref, 80)}" in this capture (${snap.sessions.length} session(s)); list_sessions names them`);
  return s;
}

// A stream's id is `<capture source>:<connection>`, both the page's text (a hostile page's source
// made it 60,000 characters: shown cut, it could not be passed back). Each stream also has a
// handle, st1… (handles.ts): short, and never a real id (those hold a ':').

/** The handle of a stream (st1…), null for an id the capture has no stream for. */
export function streamRef(snap: AnalysisSnapshot, id: string): string | null {
  const n = snap.streams[id] === undefined ? undefined : handlesOf(snap).of.streams.numberOf(id);
  return n === undefined ? null : `st${n + 1}`;
}

export const streamIdText = (id: string) => cap(id, STREAM_ID_MAX);

/** A stream by its handle (st1) or its whole id. */
export function findStream(snap: AnalysisSnapshot, ref: string): Stream {
  const m = /^st(\d+)$/.exec(ref);
  const s = m ? snap.streams[handlesOf(snap).of.streams.keyAt(Number(m[1]) - 1) ?? ''] : snap.streams[ref];
  if (!s) throw new NotFound(`no stream "${cap(ref, 80)}" in this capture; get_timeline lists a session's streams with their handles (st1…)`);
  return s;
}

/** Request ids as the client may write them: 2, "2" (JSON text of a string id) or the JSON text. */
function idMatches(r: RequestInfo, want: string): boolean {
  return r.id === want || r.id === JSON.stringify(want);
}

/** The handle of a request (rq1…), null for one the capture does not hold. */
export function requestRef(snap: AnalysisSnapshot, r: RequestInfo | null): string | null {
  const n = r ? handlesOf(snap).requests.get(r) : undefined;
  return n === undefined ? null : `rq${n + 1}`;
}

/** Where requests of one id were sent, to choose with "stream", and their handles, which always tell them apart. */
function sentOn(snap: AnalysisSnapshot, hits: readonly { request: RequestInfo }[]): string {
  const streams = [...new Set(hits.map((h) => h.request.streamId))];
  const handles = `; or pass one's handle as request: ${hits.map((h) => requestRef(snap, h.request)).join(', ')}`;
  if (streams.length < hits.length) return `, some in one POST${handles}`;
  return `, sent on streams ${streams.map((id) => streamRef(snap, id) ?? cap(id, 80)).join(', ')}: say which with "stream"${handles}`;
}

type RequestHit = { session: Session; request: RequestInfo };

/**
 * A request by its handle (rq1…): a JSON-RPC id longer than the 200 characters get_request takes
 * (the page's text) has no other name. A handle is never a request's JSON text (a string id's is
 * quoted: "\"rq1\""), so it goes first, as the exact JSON text does over the bare string below.
 */
function requestByHandle(snap: AnalysisSnapshot, ref: string, session: string | undefined, stream: string | undefined): RequestHit | undefined {
  const m = /^rq(\d+)$/.exec(ref);
  const hit = m ? handlesOf(snap).requestAt.get(Number(m[1]) - 1) : undefined;
  if (!hit) return undefined;
  if (session !== undefined && findSession(snap, session) !== hit.session) throw new NotFound(`request ${ref} is in session ${sessionRef(snap, hit.session)}, not in ${cap(session, 80)}`);
  if (stream !== undefined && findStream(snap, stream).id !== hit.request.streamId) throw new NotFound(`request ${ref} was sent on stream ${streamRef(snap, hit.request.streamId) ?? '?'}, not on ${cap(stream, 80)}`);
  return hit;
}

/**
 * A request by its handle or its id, in `session` when given, on `stream` (a handle or an id)
 * when given: the one way to name each of two requests a client sent with the same id.
 */
export function findRequest(snap: AnalysisSnapshot, ref: string, session: string | undefined, stream?: string): RequestHit {
  const byHandle = requestByHandle(snap, ref, session, stream);
  if (byHandle) return byHandle;
  const sessions = session !== undefined ? [findSession(snap, session)] : snap.sessions;
  const on = stream !== undefined ? findStream(snap, stream).id : undefined;
  const hits: RequestHit[] = [];
  for (const s of sessions) for (const r of snap.requests[s.key] ?? []) if (idMatches(r, ref) && (on === undefined || r.streamId === on)) hits.push({ session: s, request: r });
  if (hits.length === 0) throw new NotFound(`no request with id ${cap(ref, 80)}${session !== undefined ? ` in session ${cap(session, 80)}` : ''}${stream !== undefined ? ` on stream ${cap(stream, 80)}` : ''}`);
  // `2` names the number 2 and the string "2": the id written exactly as the request's JSON text
  // ("\"2\"" for the string) picks one.
  const exact = hits.filter((h) => h.request.id === ref);
  const pick = exact.length > 0 ? exact : hits;
  if (pick.length > 1) {
    const where = [...new Set(pick.map((h) => sessionRef(snap, h.session)))];
    throw new NotFound(
      where.length > 1
        ? `request id ${cap(ref, 80)} is in ${where.length} sessions (${where.join(', ')}): say which with "session"`
        : `${pick.length} requests of session ${where[0]} have id ${cap(ref, 80)} (the client used it again)${sentOn(snap, pick)}`,
    );
  }
  return pick[0]!;
}

/**
 * The request a finding is about: the one of its session with its id, or among several (the id
 * used again) the one sent or answered on the finding's stream; null when that leaves several.
 */
export function requestOf(snap: AnalysisSnapshot, f: Finding): RequestInfo | null {
  if (f.requestId === undefined) return null;
  const same = (snap.requests[f.sessionKey] ?? []).filter((r) => r.id === f.requestId);
  const pick = same.length > 1 ? same.filter((r) => r.streamId === f.streamId || r.responseStreamId === f.streamId) : same;
  return pick.length === 1 ? pick[0]! : null;
}

/**
 * list_findings' request filter. A handle names one request: the findings get_request lists for
 * it. An id, as the client may write it: the findings about that id or naming it as related.
 */
export function findingsAbout(snap: AnalysisSnapshot, ref: string): (f: Finding) => boolean {
  const hit = requestByHandle(snap, ref, undefined, undefined);
  if (!hit) return (f) => f.requestId === ref || f.requestId === JSON.stringify(ref) || (f.relatedRequestIds ?? []).includes(ref);
  const key = hit.session.key;
  const of = new Set(findingsOfRequest(snap.findings.filter((f) => f.sessionKey === key), hit.request, snap.requests[key] ?? []));
  return (f) => of.has(f);
}

// ---------------------------------------------------------------- pieces

/** Request ids as get_request takes them: whole up to its 200 characters (cut to 80, an id of 100 could not be passed back). */
const requestIdList = (ids: readonly string[]) => capIds(ids, IDS_MAX, REQUEST_ID_MAX);

export function findingView(snap: AnalysisSnapshot, f: Finding) {
  const s = snap.sessions.find((x) => x.key === f.sessionKey);
  const ids = capIds(f.eventIds);
  return {
    finding: `f${handlesOf(snap).findings.get(f) ?? -1}`,
    code: f.code,
    severity: f.severity,
    session: s ? sessionRef(snap, s) : null,
    requestId: f.requestId !== undefined ? cap(f.requestId, REQUEST_ID_MAX) : null,
    request: requestRef(snap, requestOf(snap, f)),
    stream: f.streamId !== undefined ? streamRef(snap, f.streamId) : null,
    streamId: f.streamId !== undefined ? streamIdText(f.streamId) : null,
    eventIds: ids.ids,
    ...(ids.more ? { moreEventIds: ids.more } : {}),
    missing: capMissing(f.missing),
    message: cap(f.message, MESSAGE_MAX),
    pending: f.pending === true,
    injected: f.injected ? cap(f.injected.text, 300) : null,
  };
}
export type FindingView = ReturnType<typeof findingView>;

function worstOfSession(snap: AnalysisSnapshot, s: Session) {
  const fs = sortFindings(snap.findings.filter((f) => f.sessionKey === s.key));
  return fs[0] ? findingView(snap, fs[0]) : null;
}

const verdictCounts = (rs: readonly RequestInfo[]) => {
  const out: Partial<Record<Verdict, number>> = {};
  for (const r of rs) out[r.verdict] = (out[r.verdict] ?? 0) + 1;
  return out;
};

export function sessionView(snap: AnalysisSnapshot, s: Session) {
  const rs = snap.requests[s.key] ?? [];
  const fs = snap.findings.filter((f) => f.sessionKey === s.key);
  return {
    session: sessionRef(snap, s),
    key: cap(s.key, URL_MAX),
    title: cap(sessionTitle(s), URL_MAX),
    sessionId: s.sessionId === null ? null : cap(s.sessionId, 200),
    era: s.era,
    eraLabel: ERA_LABEL[s.era],
    serverEra: serverOf(snap, s)?.era ?? 'unknown',
    endpoint: cap(s.endpoint, URL_MAX),
    idScheme: s.idScheme.kind,
    lossless: s.lossless,
    requests: rs.length,
    streams: s.streamIds.length,
    verdicts: verdictCounts(rs),
    findings: { total: fs.length, error: fs.filter((f) => f.severity === 'error').length, warning: fs.filter((f) => f.severity === 'warning').length, info: fs.filter((f) => f.severity === 'info').length },
    worstFinding: worstOfSession(snap, s),
  };
}
export type SessionView = ReturnType<typeof sessionView>;

export function captureView(c: Capture) {
  const snap = keepHandles(c);
  const sorted = sortFindings(snap.findings);
  const count = (sev: string) => snap.findings.filter((f) => f.severity === sev).length;
  return {
    capture: c.id,
    kind: c.kind,
    label: cap(c.label, URL_MAX),
    format: c.format,
    records: snap.recordCount,
    sessions: snap.sessions.length,
    requests: Object.values(snap.requests).reduce((n, rs) => n + rs.length, 0),
    findings: { total: snap.findings.length, error: count('error'), warning: count('warning'), info: count('info') },
    worstFinding: sorted[0] ? findingView(snap, sorted[0]) : null,
    eras: [...new Set(snap.sessions.map((s) => s.era))],
    captureHealth: cap(captureSummary(snap.capture), MESSAGE_MAX),
    live: c.kind === 'live' ? snap.finished !== true : false,
  };
}
export type CaptureView = ReturnType<typeof captureView>;

// ---------------------------------------------------------------- timeline

/**
 * Which page of a timeline shows something about a stream: the page of that stream, or the first
 * page when the stream is not one of the session's (a gap with no stream, a fault on another
 * session's stream), so every chain, link, gap… is on exactly one page.
 */
function pageFilter(all: readonly Stream[], shown: readonly Stream[]) {
  const inSession = new Set(all.map((x) => x.id));
  const onPage = new Set(shown.map((x) => x.id));
  const first = all.length === 0 || shown[0] === all[0];
  return (streamId: string | undefined) => (streamId !== undefined && inSession.has(streamId) ? onPage.has(streamId) : first);
}

/**
 * The handles of the requests a stream sent, beside its request ids (as far as they are listed):
 * the k-th time an id is listed, the k-th request of the session sent on it with that id.
 */
function sentHandles(snap: AnalysisSnapshot, s: Session): (x: Stream) => (string | null)[] {
  const byStream = new Map<string, RequestInfo[]>();
  for (const r of snap.requests[s.key] ?? []) {
    let l = byStream.get(r.streamId);
    if (!l) byStream.set(r.streamId, (l = []));
    l.push(r);
  }
  return (x) => {
    const sent = byStream.get(x.id) ?? [];
    const used = new Set<RequestInfo>();
    return x.requestIds.slice(0, IDS_MAX).map((id) => {
      const r = sent.find((q) => q.id === id && !used.has(q));
      if (r) used.add(r);
      return requestRef(snap, r ?? null);
    });
  };
}

/**
 * One page of a session's timeline: the session's streams in its order (a capture of 3,000 tool
 * calls made the whole timeline 800 KB, more than an agent's context), each chain, link,
 * subscription, gap and fault on the page of the stream it starts at. Times stay relative to the
 * session's first stream on every page.
 */
export function timelineView(snap: AnalysisSnapshot, s: Session, cursor?: string, limit?: number, query: unknown = { t: 'timeline', s: s.key }) {
  const all = s.streamIds.map((id) => snap.streams[id]).filter((x): x is Stream => !!x);
  const page = paginate(all, query, cursor, limit);
  const streams = page.items;
  const onPage = pageFilter(all, streams);
  const t0 = Math.min(...all.map((x) => x.start), Infinity);
  const rel = (t: number | undefined) => (t === undefined || !Number.isFinite(t0) ? null : Math.round(t - t0));
  const gaps = snap.findings.filter((f) => f.sessionKey === s.key && (f.code === 'replay-gap' || f.code === 'live-gap' || f.code === 'capture-gap') && onPage(f.streamId));
  const handlesSent = sentHandles(snap, s);
  return {
    session: sessionRef(snap, s),
    title: cap(sessionTitle(s), URL_MAX),
    era: s.era,
    idScheme: { kind: s.idScheme.kind, scope: s.idScheme.scope ?? null, evidence: cap(s.idScheme.evidence, MESSAGE_MAX) },
    lossless: s.lossless,
    losslessReasons: s.losslessReasons.map((x) => cap(x, MESSAGE_MAX)),
    startedAt: Number.isFinite(t0) ? new Date(t0).toISOString() : null,
    streams: streams.map((x) => {
      const ids = eventsAtSnapshot(x).filter((e) => e.id !== undefined);
      const resumedBy = capIds(x.resumedBy, IDS_MAX, STREAM_ID_MAX);
      const requestIds = requestIdList(x.requestIds);
      return {
        stream: streamRef(snap, x.id)!,
        streamId: streamIdText(x.id),
        kind: x.kind,
        httpMethod: cap(x.method, 20),
        status: x.status ?? null,
        state: x.state,
        startMs: rel(x.start),
        endMs: rel(x.end),
        events: eventCountAtSnapshot(x),
        firstEventId: ids[0]?.id !== undefined ? cap(ids[0].id, 80) : null,
        lastEventId: ids.at(-1)?.id !== undefined ? cap(ids.at(-1)!.id!, 80) : null,
        lastEventIdSent: x.lastEventIdSent !== undefined ? cap(x.lastEventIdSent, 80) : null,
        resumes: x.resumes !== undefined ? streamIdText(x.resumes) : null,
        resumedBy: resumedBy.ids,
        ...(resumedBy.more ? { moreResumedBy: resumedBy.more } : {}),
        requestIds: requestIds.ids,
        ...(requestIds.more ? { moreRequestIds: requestIds.more } : {}),
        requests: handlesSent(x),
        endReason: x.endReason !== undefined ? cap(x.endReason, 300) : null,
      };
    }),
    chains: (s.chains ?? []).filter((c) => onPage(c.rootStreamId)).map((c) => chainView(snap, c)),
    links: (s.links ?? []).filter((l) => onPage(l.fromStreamId)).map((l) => ({
      kind: l.kind,
      from: cap(l.from, REQUEST_ID_MAX),
      to: cap(l.to, REQUEST_ID_MAX),
      fromStream: streamRef(snap, l.fromStreamId),
      fromStreamId: streamIdText(l.fromStreamId),
      toStream: streamRef(snap, l.toStreamId),
      toStreamId: streamIdText(l.toStreamId),
      text: cap(linkText(l), MESSAGE_MAX),
    })),
    subscriptions: (s.subscriptions ?? []).filter((x) => onPage(x.streamId)).map((x) => ({ requestId: cap(x.requestId, REQUEST_ID_MAX), stream: streamRef(snap, x.streamId), streamId: streamIdText(x.streamId), state: x.state, changes: x.changes, text: cap(subscriptionText(x), MESSAGE_MAX) })),
    gaps: gaps.map((f) => findingView(snap, f)),
    faults: (snap.faults ?? []).filter((f) => f.sessionKey === s.key && onPage(f.streamId)).map((f) => {
      const requestIds = requestIdList(f.requestIds);
      return {
        armed: f.armed,
        fault: f.fault,
        text: cap(f.text, 300),
        stream: streamRef(snap, f.streamId),
        streamId: streamIdText(f.streamId),
        requestIds: requestIds.ids,
        ...(requestIds.more ? { moreRequestIds: requestIds.more } : {}),
        findings: f.findings.slice(),
      };
    }),
    total: page.total,
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  };
}

/** A reconnect chain, its segments cut to IDS_MAX (a page resuming in a loop makes thousands). */
function chainView(snap: AnalysisSnapshot, c: NonNullable<Session['chains']>[number]) {
  const requestIds = requestIdList(c.requestIds);
  return {
    rootStream: streamRef(snap, c.rootStreamId),
    rootStreamId: streamIdText(c.rootStreamId),
    requestIds: requestIds.ids,
    ...(requestIds.more ? { moreRequestIds: requestIds.more } : {}),
    segments: c.segments.slice(0, IDS_MAX).map((g) => ({
      stream: streamRef(snap, g.streamId),
      streamId: streamIdText(g.streamId),
      resumedFrom: g.resumedFrom !== undefined ? cap(g.resumedFrom, 80) : null,
      firstId: g.firstId !== undefined ? cap(g.firstId, 80) : null,
      lastId: g.lastId !== undefined ? cap(g.lastId, 80) : null,
      events: g.events,
      state: g.state,
      status: g.status ?? null,
    })),
    ...(c.segments.length > IDS_MAX ? { moreSegments: c.segments.length - IDS_MAX } : {}),
  };
}

// ---------------------------------------------------------------- events

function eventView(e: SseEvent, dataMax: number) {
  return {
    index: e.index,
    id: e.id !== undefined ? cap(e.id, 200) : null,
    event: cap(e.event, 100),
    t: e.t,
    data: cap(e.data, dataMax),
    messages: e.messages.map((m) => ({ kind: m.kind, id: m.id !== undefined ? cap(m.id, REQUEST_ID_MAX) : null, method: m.method !== undefined ? cap(m.method, 120) : null, progress: m.progress ?? null })),
    findings: e.findings.slice(),
    duplicate: e.duplicate === true,
    truncated: e.truncated === true,
  };
}
export type EventView = ReturnType<typeof eventView>;

/** How ids are read into a prefix and a counter: one of the core's parsers. */
export type IdReader = (id: string) => ParsedId | null;

/**
 * How the analysis reads the ids of `session`, for a range of them: counters only where its
 * scheme is contiguous or sparse; by the user's pattern where an override gives one (IdScheme.
 * pattern, read by the core's makeIdParser as the analysis does: an invalid one falls back the
 * same way), in base 16 where the analysis reads them so (IdScheme.hex: Cloudflare's `…000a`),
 * else as parseIdGeneric does (17 digits are no counter, a counter padded to 20 digits is one);
 * null where ids count nothing (opaque: a UUID ends in digits by chance).
 */
export function idReaderOf(session: Session | undefined): IdReader | null {
  const scheme = session?.idScheme;
  if (!session || (scheme?.kind !== 'contiguous' && scheme?.kind !== 'sparse')) return null;
  if (scheme.pattern !== undefined) return makeIdParser({ origin: session.origin, pattern: scheme.pattern });
  return scheme.hex ? parseIdHex : parseIdGeneric;
}

function notOnStream(id: string, all: readonly { id?: string }[], beforeFrom: boolean): string {
  if (beforeFrom) return `event ${cap(id, 80)} comes before fromId on this stream: toId must come after it`;
  const ids = all.map((e) => e.id).filter((x): x is string => x !== undefined);
  const span = ids.length === 0 ? 'this stream carries no event id' : `its ids run from ${cap(ids[0]!, 80)} to ${cap(ids.at(-1)!, 80)} (${ids.length} events with an id)`;
  return `no event with id ${cap(id, 80)} on this stream (ids are compared as text here: they are not counters): ${span}`;
}

/**
 * The events of a stream between two event ids (inclusive): by their counter when `read` (see
 * idReaderOf) finds one in both bounds under the same prefix, each event's id read the same way,
 * else from the first event with id `from` to the first with id `to`.
 */
export function eventsOf(s: Stream, from: string | undefined, to: string | undefined, dataMax = DATA_MAX, read: IdReader | null = parseIdGeneric): EventView[] {
  const all = eventsAtSnapshot(s);
  let sel = all;
  if (from !== undefined || to !== undefined) {
    const counterOf = (id: string | undefined) => (id === undefined || !read ? undefined : (read(id) ?? undefined));
    const a = counterOf(from);
    const b = counterOf(to);
    const prefix = a?.prefix ?? b?.prefix;
    if (read && (from === undefined || a !== undefined) && (to === undefined || b !== undefined) && (a === undefined || b === undefined || a.prefix === b.prefix)) {
      sel = all.filter((e) => {
        const c = counterOf(e.id);
        return c !== undefined && c.prefix === prefix && (a === undefined || c.counter >= a.counter) && (b === undefined || c.counter <= b.counter);
      });
    } else {
      const i = from === undefined ? 0 : all.findIndex((e) => e.id === from);
      const j = to === undefined ? all.length - 1 : all.findIndex((e, k) => k >= Math.max(0, i) && e.id === to);
      // Ids read as they are (not counters): an id the stream never carried names no place in it.
      // An empty answer would read as "no events there"; the agent is told instead.
      if (i < 0 || j < 0) throw new NotFound(notOnStream(i < 0 ? from! : to!, all, i >= 0 && j < 0 && all.some((e) => e.id === to)));
      sel = all.slice(i, j + 1);
    }
  }
  return sel.map((e) => eventView(e, dataMax));
}

// ---------------------------------------------------------------- a request

const idOrNull = (id: string | undefined) => (id === undefined ? null : cap(id, REQUEST_ID_MAX));

export function requestView(snap: AnalysisSnapshot, s: Session, r: RequestInfo) {
  const rs = snap.requests[s.key] ?? [];
  const fs = sortFindings(findingsOfRequest(snap.findings.filter((f) => f.sessionKey === s.key), r, rs));
  const worst = worstForRequest(fs);
  const loss = r.verdict === 'lossy' || fs.some((f) => f.missing) ? lossDetail(snap, s.key, r) : undefined;
  const advice: { code: string; whatToDo: string }[] = [];
  if (r.verdict === 'lossy') advice.push({ code: 'lossy-result-accepted', whatToDo: ADVICE_LOSSY });
  if (r.verdict === 'duplicated') advice.push({ code: 'duplicate-output-accepted', whatToDo: ADVICE_DUPLICATED });
  for (const f of fs) {
    if (advice.some((a) => a.code === f.code)) continue;
    const a = adviceFor(f.code);
    if (a) advice.push({ code: f.code, whatToDo: a });
  }
  const p = r.params as { name?: unknown } | undefined;
  return {
    session: sessionRef(snap, s),
    request: requestRef(snap, r),
    requestId: cap(r.id, REQUEST_ID_MAX),
    name: cap(requestName(r), 200),
    method: cap(r.method, 120),
    tool: r.method === 'tools/call' && typeof p?.name === 'string' ? cap(p.name, 120) : null,
    verdict: r.verdict,
    verdictText: VERDICT_TEXT[r.verdict],
    response: r.response ?? null,
    stream: streamRef(snap, r.streamId),
    streamId: streamIdText(r.streamId),
    responseStream: r.responseStreamId !== undefined ? streamRef(snap, r.responseStreamId) : null,
    responseStreamId: r.responseStreamId !== undefined ? streamIdText(r.responseStreamId) : null,
    notifications: r.notificationCount ?? r.notifications.length,
    cumulativeNotifications: r.cumulativeCount,
    loss: loss ? { missing: capMissing(loss.missing), missingCount: loss.missingCount ?? null, accumulated: loss.accumulated, implied: loss.implied ?? null } : null,
    worstFinding: worst ? findingView(snap, worst) : null,
    findings: fs.slice(0, 20).map((f) => findingView(snap, f)),
    moreFindings: Math.max(0, fs.length - 20),
    whatToDo: advice,
    links: { reissueOf: idOrNull(r.reissueOf), reissuedAs: idOrNull(r.reissuedAs), retryOf: idOrNull(r.retryOf), retriedAs: idOrNull(r.retriedAs) },
  };
}

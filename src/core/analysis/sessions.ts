// Sessions (one per Mcp-Session-Id, or per endpoint for sessionless traffic), the requests a
// stream's body carries, protocol revisions, and resume links: which stream a GET with
// Last-Event-ID (or a browser's EventSource reconnect) continues.
import { headerValue } from '../record';
import { NotificationStore } from '../notification-list';
import { boundedDepth, getPath, idText } from '../jsonrpc';
import { makeIdParser, newIdStats, parseIdGeneric } from '../ids';
import { IdIndex } from './id-index';
import { addFinding } from './findings-log';
import { needlessResume, staleCursor } from './texts';
import type { Candidate, ReqState, SessionState, StreamS } from './state';
import type { AnalyzerState } from './analyzer-state';
import type { Era } from '../model';
import { joinServer, metaVersion, requestFacts } from './eras';
import { noteCancel } from './client-facts';
import { safeUrl } from '../url-parts';
import { lastIndexOfId } from '../event-access';

/** Ranks of where a revision was read (the higher wins): the 2026-07-28 `_meta` of each request is the truth there. */
export const META_RANK = 4;

/** The legacy-era session of `sessionId`, or the sessionless 2025 group of the endpoint. */
export function getSession(A: AnalyzerState, sessionId: string | null, url: string): SessionState {
  const { endpoint } = safeUrl(url);
  const key = sessionId !== null ? sessionId : 'endpoint:' + endpoint;
  return A.sessions.get(key) ?? newSession(A, key, sessionId, url, 'legacy');
}

/** A new session (or sessionless group) `key` of `url`'s server, speaking `era`. */
export function newSession(A: AnalyzerState, key: string, sessionId: string | null, url: string, era: Era): SessionState {
  const { origin, endpoint } = safeUrl(url);
  const override = A.opts.idSchemeOverrides.find((o) => o.origin === origin || o.origin === '*');
  const parse = makeIdParser(override);
  const stats = newIdStats();
  const candidates: Candidate[] = [];
  const s: SessionState = {
    key,
    sessionId,
    endpoint,
    origin,
    pvRank: 0,
    gaplessDeclared: false,
    streams: [],
    requests: [],
    requestById: new Map(),
    progress: new Map(),
    idIndex: new IdIndex(parse === parseIdGeneric),
    stats,
    override,
    parse,
    candidates,
    main: { stats, candidates, parse, hex: false },
    findings: [],
    resumes: [],
    resyncOrds: [],
    captureGap: false,
    idReuse: 0,
    era,
    dirty: true,
  };
  A.sessions.set(key, s);
  joinServer(A, s);
  if (sessionId !== null) {
    let ep = A.endpoints.get(endpoint);
    if (!ep) A.endpoints.set(endpoint, (ep = { sessions: [], reuse: 0 }));
    // A loop of re-initialisations is reported by its last session (derive/client-loops.ts): the
    // one before must learn that it no longer is.
    const prev = ep.sessions[ep.sessions.length - 1];
    if (prev) prev.dirty = true;
    ep.sessions.push(s);
    s.ep = ep;
  }
  return s;
}

/** The revision from the initialize result (rank 3) wins over the header (2) and the request (1); `_meta` (4) in the modern era. */
export function setPv(s: SessionState, v: unknown, rank: number): void {
  if (typeof v !== 'string' || !v) return;
  if (rank >= s.pvRank) {
    s.protocolVersion = v;
    s.pvRank = rank;
  }
}

export function attachSession(st: StreamS, s: SessionState): void {
  st.session = s;
  s.streams.push(st);
  s.dirty = true;
  // What the client did before this request now names this session (era-mismatch).
  if (st.prev?.session) st.prev.session.dirty = true;
  const pv = headerValue(st.requestHeaders, 'mcp-protocol-version');
  if (pv) setPv(s, pv, 2);
  if (s.era === 'modern') setPv(s, metaVersion(st.bodyMessages), META_RANK);
  // Requests carried by the body.
  for (const m of st.bodyMessages) {
    const sm = m.summary;
    if (sm.kind === 'notification' && sm.method === 'notifications/cancelled') {
      const target = idText(getPath(m.msg, ['params', 'requestId']));
      const cancelled = target !== undefined ? s.requestById.get(target) : undefined;
      if (cancelled) {
        cancelled.cancelled = true;
        noteCancel(cancelled, st.start);
      }
    }
    if (sm.kind !== 'request' || sm.id === undefined || !sm.method) continue;
    const r: ReqState = { id: sm.id, method: sm.method, stream: st, ord: st.ord, start: st.start, notifications: new NotificationStore(), cumulative: 0, x: requestFacts(st, s, m) };
    if (m.msg && m.msg.params !== undefined) r.params = boundedDepth(m.msg.params);
    if (sm.progressToken !== undefined) {
      r.progressToken = sm.progressToken;
      s.progress.set(sm.progressToken, r);
    }
    s.requests.push(r);
    s.requestById.set(r.id, r);
    st.requests.push(r);
    st.requestIds.push(r.id);
    if (sm.method === 'initialize') setPv(s, getPath(m.msg, ['params', 'protocolVersion']), 1);
  }
}

/** A stream still waiting for its session (initialize without response) gets its endpoint's. */
export function ensureSession(A: AnalyzerState, st: StreamS): SessionState {
  if (!st.session) {
    st.deferSession = false;
    attachSession(st, getSession(A, st.sessionHeader ?? null, st.url));
  }
  return st.session!;
}

/** The stream a resume with `cursor` continues: the one that delivered it, else a guess. */
function resumeTarget(A: AnalyzerState, st: StreamS, s: SessionState, cursor: string | undefined): StreamS | undefined {
  if (cursor === undefined) return undefined;
  const hit = s.idIndex.get(cursor, s.parse(cursor));
  // (a priming id every stream repeats, "0": rust-sdk #791, names them all as well)
  if (hit && s.idReuse === 0 && !s.primingReused?.has(cursor)) return hit;
  if (hit) {
    // Ids repeat across the session's streams (each numbered on its own): the cursor names every
    // stream that delivered it, and the index keeps the last. The client resumes the one still
    // waiting for its result; with none, the latest is a guess, and what the resume delivers of
    // another chain proves the guess wrong, not the server.
    let waiting: StreamS | undefined;
    for (let i = s.streams.length - 1; i >= 0; i--) {
      const x = s.streams[i]!;
      if (x === st || x.isResume || !x.root.requests.some((q) => q.response === undefined)) continue;
      const last = x.root.segments[x.root.segments.length - 1]!;
      if (last.state === 'open' || !x.root.segments.some((seg) => lastIndexOfId(seg, cursor) !== -1)) continue;
      if (waiting && waiting.root !== x.root) {
        // More than one is still waiting (two streams cut after the same priming id): which one
        // the client resumed is a guess too.
        st.linkGuessed = true;
        break;
      }
      waiting = last;
    }
    if (waiting) return waiting;
    st.linkGuessed = true;
    return hit;
  }
  const p = s.parse(cursor);
  const g = p && p.prefix !== '' ? s.stats.groups.get(p.prefix) : undefined;
  if (g) {
    for (const sid of g.streams) {
      const cand = A.streamsById.get(sid);
      if (cand) return cand;
    }
  }
  // The cursor was delivered on a stream whose body the file does not hold (a HAR omits bodies
  // of cut streams): the resume belongs to the latest such stream of the session that still
  // waits for a result.
  for (let i = s.streams.length - 1; i >= 0; i--) {
    const x = s.streams[i]!;
    if (x === st || !(x.bodyAbsent || x.captureIncomplete)) continue;
    if (x.root.requests.some((q) => q.response === undefined)) {
      // A guess (the stream that carried the cursor may have been lost whole): what the
      // resume delivers of another chain proves the guess wrong, not the server.
      st.linkGuessed = true;
      return x.root.segments[x.root.segments.length - 1]!;
    }
  }
  return undefined;
}

export function linkResume(A: AnalyzerState, st: StreamS, s: SessionState, cursor: string | undefined, prevConn?: StreamS): void {
  st.isResume = true;
  const target = prevConn ?? resumeTarget(A, st, s, cursor);
  st.resumeBase = cursor !== undefined ? s.parse(cursor) : null;
  s.resumes.push(st);
  s.dirty = true;
  if (!target) return;
  const root = target.root;
  st.resumes = target;
  // What the capture does not hold of the resumed connection ended at the cursor the client sent.
  // A guessed link bounds a stream whose body the file does not hold (the guess's own premise),
  // not one whose records the inspector lost: the cursor may have come from records lost whole
  // (capture-gap-ids.test.ts, seed 501898225: a lossless server was accused of a live gap).
  if (cursor !== undefined && target.lost && (!st.linkGuessed || target.bodyAbsent)) A.lost.resumedFrom(target, cursor);
  target.resumedBy.push(st.id);
  target.dirty = true;
  st.root = root;
  root.segments.push(st);
  st.requestIds = root.requestIds;
  // After lost records the page may have received ids the capture does not hold: not stale.
  if (cursor !== undefined && root.chainCursor !== undefined && cursor !== root.chainCursor && !root.cursorUnknown) {
    addFinding(A, s, st.ord, 'stale-resume-cursor', {
      streamId: st.id,
      relatedStreamIds: [target.id],
      eventIds: [cursor, root.chainCursor],
      ...(root.requests[0] ? { requestId: root.requests[0].id } : {}),
      message: staleCursor(cursor, root.chainCursor),
    });
  }
  const expecting = root.requests.filter((r) => r.method !== undefined);
  if (expecting.length > 0 && expecting.every((r) => r.response !== undefined)) {
    addFinding(A, s, st.ord, 'needless-resume', {
      streamId: st.id,
      relatedStreamIds: [target.id],
      requestId: expecting[0]!.id,
      eventIds: cursor !== undefined ? [cursor] : [],
      message: needlessResume(target.id, expecting.map((r) => r.id), expecting[0]!.response!),
    });
  }
}

// The incremental analyzer: CaptureRecords in (one at a time, in capture order), an
// AnalysisSnapshot out. Work per record is amortized O(1) per event; everything that depends on
// the whole session (the id scheme, whether a gap was filled by another stream, verdicts) is
// derived at snapshot time from compact per-session state, only for sessions that changed.
//
// Decision points (documented in docs/findings.md):
// - Gap candidates are noted when a connection's ids jump (live) or a resume starts past the
//   cursor (replay). A candidate becomes a finding at snapshot time if the session's scheme is a
//   contiguous counter and some of its ids were delivered by no stream of the session. Before
//   `finish()`, while another stream of the session is still open, such a finding is `pending`.
// - Everything else (duplicates, cursor checks, progress, truncation, rejections) is decided when
//   the record that shows it arrives, in capture order, so any batching gives the same result.
import type { CaptureRecord, ChunkRecord, EndRecord, EsEventRecord, RequestRecord, ResponseRecord, CaptureGapRecord } from './record';
import { headerValue, isEventStreamType, isJsonType } from './record';
import type { AnalysisSnapshot, Finding, FindingCode, JsonRpcSummary, RequestInfo, Session, SseEvent, Stream, StreamKind } from './model';
import { createSseConnectionParser, type SseBlock } from './sse';
import { boundedDepth, decodeJsonRpc, getPath, idText, type DecodedMessage } from './jsonrpc';
import { IntervalSet, formatId, hexFieldStart, hexLetters, makeIdParser, newIdStats, parseIdGeneric, parseIdHex, recordId, recordStep, type IdSchemeOverride, type ParsedId } from './ids';
import { IdIndex } from './id-index';
import { SEVERITY, type FindingInput } from './findings';
import { lookupCapability, resolveOptions, type AnalyzerOptions, type ResolvedOptions } from './options';
import { NO_SESSION, type Candidate, type ConnState, type EndpointState, type FindingRun, type IdTrack, type IdView, type OrdFinding, type ReqState, type SessionState, type StreamS } from './state';
import { addOverlayCode, applyOverlay, deriveSession, streamModel } from './derive';
import { createCaptureGaps } from './capture-gaps';
import { createLostIds } from './lost-ids';

export interface Analyzer {
  /** Consume one record (records of one source must come in seq order). */
  push(record: CaptureRecord): void;
  pushAll(records: Iterable<CaptureRecord>): void;
  /** End of capture: streams still open stay "pending"; nothing more will come. */
  finish(): void;
  /** The current analysis; the same object is returned until something changes. */
  snapshot(): AnalysisSnapshot;
  /** Increases with every change. */
  readonly revision: number;
  readonly finished: boolean;
}


function safeUrl(url: string): { origin: string; endpoint: string } {
  try {
    const u = new URL(url);
    return { origin: u.origin, endpoint: u.origin + u.pathname };
  } catch {
    return { origin: url, endpoint: url };
  }
}

/** The first ids of a list for a message: "1, 2, 3 … 9 (12 in all)". Complete lists are in eventIds. */
export function idList(ids: readonly string[], cap = 10): string {
  if (ids.length <= cap) return ids.join(', ');
  return `${ids.slice(0, cap - 1).join(', ')} … ${ids[ids.length - 1]} (${ids.length} in all)`;
}

/** Shared by every event without finding codes / messages (copy on write: never mutated). */
const NO_CODES = Object.freeze([]) as unknown as FindingCode[];
const NO_MESSAGES = Object.freeze([]) as unknown as JsonRpcSummary[];

function summaries(ms: DecodedMessage[]): JsonRpcSummary[] {
  if (ms.length === 1) return [ms[0]!.summary];
  return ms.map((m) => m.summary);
}

function addCode(ev: SseEvent, code: FindingCode): void {
  if (ev.findings === NO_CODES) ev.findings = [code];
  else ev.findings.push(code);
}

function looksJsonRpc(body: string | null): DecodedMessage[] | null {
  if (!body) return null;
  const t = body.trimStart();
  if (!(t.startsWith('{') || t.startsWith('['))) return null;
  const d = decodeJsonRpc(body);
  if (d.error) return null;
  const ok = d.messages.some((m) => m.msg && (m.msg.jsonrpc === '2.0' || m.summary.kind !== 'invalid'));
  return ok ? d.messages : null;
}

export function createAnalyzer(options?: AnalyzerOptions): Analyzer {
  const opts: ResolvedOptions = resolveOptions(options);
  const resync = new Set(opts.resyncEvents);
  const idempotent = new Set(opts.idempotentNotifications);
  const cumulativeForced = new Set(opts.cumulativeNotifications);
  const isCumulative = (method: string) => cumulativeForced.has(method) || !idempotent.has(method);

  const conns = new Map<string, ConnState>();
  const sessions = new Map<string, SessionState>();
  /** Sessions with an Mcp-Session-Id, per endpoint (origin + path). */
  const endpoints = new Map<string, EndpointState>();
  const streamsById = new Map<string, StreamS>();
  const streamOrder: StreamS[] = [];
  const globalFindings: OrdFinding[] = [];
  const markers: AnalysisSnapshot['markers'] = [];
  const gapConns = new Set<string>();
  /** Legacy HTTP+SSE transport: POST endpoint URL announced by an `endpoint` event -> session. */
  const legacyAlias = new Map<string, SessionState>();
  let ord = 0;
  let revision = 0;
  let recordCount = 0;
  let finished = false;
  let cached: AnalysisSnapshot | undefined;
  /** The snapshot's findings so far (in ord order) and their ords; global findings included. */
  let outFindings: Finding[] = [];
  let outOrd: number[] = [];
  let outGlobal = 0;
  let cachedRevision = -1;

  const connKey = (src: string, conn: string) => src + '\u0000' + conn;
  /** Stretches of records the capture does not hold: parts of any session re-derive them all. */
  const lost = createLostIds(() => {
    for (const s of sessions.values()) s.dirty = true;
  });

  function overrideFor(origin: string): IdSchemeOverride | undefined {
    return opts.idSchemeOverrides.find((o) => o.origin === origin || o.origin === '*');
  }

  function getSession(sessionId: string | null, url: string): SessionState {
    const { origin, endpoint } = safeUrl(url);
    const key = sessionId !== null ? sessionId : 'endpoint:' + endpoint;
    let s = sessions.get(key);
    if (!s) {
      const override = overrideFor(origin);
      const parse = makeIdParser(override);
      const stats = newIdStats();
      const candidates: Candidate[] = [];
      s = {
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
        dirty: true,
      };
      sessions.set(key, s);
      if (sessionId !== null) {
        let ep = endpoints.get(endpoint);
        if (!ep) endpoints.set(endpoint, (ep = { sessions: [], reuse: 0 }));
        ep.sessions.push(s);
        s.ep = ep;
      }
    }
    return s;
  }

  function setPv(s: SessionState, v: unknown, rank: number) {
    if (typeof v !== 'string' || !v) return;
    if (rank >= s.pvRank) {
      s.protocolVersion = v;
      s.pvRank = rank;
    }
  }

  function addFinding(s: SessionState | undefined, at: number, code: FindingCode, f: FindingInput): Finding {
    const finding: Finding = {
      code,
      severity: SEVERITY[code],
      sessionKey: s ? s.key : NO_SESSION,
      sessionId: s ? s.sessionId : null,
      ...f,
    };
    (s ? s.findings : globalFindings).push({ ord: at, f: finding });
    if (s) s.dirty = true;
    return finding;
  }

  /**
   * One finding per run of contiguous events of a connection with the same code and the same other
   * stream (a replay of thousands of another stream's events is one finding, not thousands):
   * extends the open run when `ev` directly follows it, else starts one. `eventIds` lists every id;
   * the message names the first few and the count.
   */
  function runFinding(
    s: SessionState,
    st: StreamS,
    ev: SseEvent,
    at: number,
    code: FindingCode,
    rel: string,
    render: (ids: string[], n: number) => string,
    f: Omit<Finding, 'code' | 'severity' | 'sessionKey' | 'sessionId' | 'message' | 'eventIds'>,
  ): FindingRun {
    const run = st.run;
    if (run && run.code === code && run.rel === rel && run.lastIndex === ev.index - 1 && run.f.requestId === f.requestId) {
      run.lastIndex = ev.index;
      if (ev.id !== undefined) run.f.eventIds.push(ev.id);
      run.f.message = run.render(run.f.eventIds, run.f.eventIds.length) + (run.note ?? '');
      s.dirty = true;
      return run;
    }
    const ids = ev.id !== undefined ? [ev.id] : [];
    const finding = addFinding(s, at, code, { ...f, eventIds: ids, message: render(ids, ids.length) });
    const r: FindingRun = { code, rel, f: finding, lastIndex: ev.index, render };
    st.run = r;
    return r;
  }

  // ---------------------------------------------------------------- streams and sessions

  function newStream(src: string, conn: string, req: RequestRecord | undefined, t: number): StreamS {
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
      events: [],
      comments: 0,
      bytes: 0,
      captureIncomplete: gapConns.has(connKey(src, conn)) || !req,
      fresh: req !== undefined && lastEventId === undefined && req.reconnectOf === undefined,
      orphan: !req,
      ord: ++ord,
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
    streamsById.set(id, st);
    streamOrder.push(st);
    return st;
  }

  function attachSession(st: StreamS, s: SessionState) {
    st.session = s;
    s.streams.push(st);
    s.dirty = true;
    const pv = headerValue(st.requestHeaders, 'mcp-protocol-version');
    if (pv) setPv(s, pv, 2);
    // Requests carried by the body.
    for (const m of st.bodyMessages) {
      const sm = m.summary;
      if (sm.kind === 'notification' && sm.method === 'notifications/cancelled') {
        const target = idText(getPath(m.msg, ['params', 'requestId']));
        const cancelled = target !== undefined ? s.requestById.get(target) : undefined;
        if (cancelled) cancelled.cancelled = true;
      }
      if (sm.kind !== 'request' || sm.id === undefined || !sm.method) continue;
      const r: ReqState = {
        id: sm.id,
        method: sm.method,
        stream: st,
        ord: st.ord,
        start: st.start,
        notifications: [],
        cumulative: 0,
      };
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

  function linkResume(st: StreamS, s: SessionState, cursor: string | undefined, prevConn?: StreamS) {
    st.isResume = true;
    let target: StreamS | undefined = prevConn;
    if (!target && cursor !== undefined) {
      const hit = s.idIndex.get(cursor, s.parse(cursor));
      if (hit) target = hit;
      else {
        const p = s.parse(cursor);
        const g = p && p.prefix !== '' ? s.stats.groups.get(p.prefix) : undefined;
        if (g) {
          for (const sid of g.streams) {
            const cand = streamsById.get(sid);
            if (cand) {
              target = cand;
              break;
            }
          }
        }
      }
    }
    if (!target && cursor !== undefined) {
      // The cursor was delivered on a stream whose body the file does not hold (a HAR omits bodies
      // of cut streams): the resume belongs to the latest such stream of the session that still
      // waits for a result.
      for (let i = s.streams.length - 1; i >= 0; i--) {
        const x = s.streams[i]!;
        if (x === st || !(x.bodyAbsent || x.captureIncomplete)) continue;
        if (x.root.requests.some((q) => q.response === undefined)) {
          target = x.root.segments[x.root.segments.length - 1]!;
          // A guess (the stream that carried the cursor may have been lost whole): what the
          // resume delivers of another chain proves the guess wrong, not the server.
          st.linkGuessed = true;
          break;
        }
      }
    }
    st.resumeBase = cursor !== undefined ? s.parse(cursor) : null;
    s.resumes.push(st);
    s.dirty = true;
    if (!target) return;
    const root = target.root;
    st.resumes = target;
    // What the capture does not hold of the resumed connection ended at the cursor the client sent.
    if (cursor !== undefined && target.lost) lost.resumedFrom(target, cursor);
    target.resumedBy.push(st.id);
    target.dirty = true;
    st.root = root;
    root.segments.push(st);
    st.requestIds = root.requestIds;
    // After lost records the page may have received ids the capture does not hold: not stale.
    if (cursor !== undefined && root.chainCursor !== undefined && cursor !== root.chainCursor && !root.cursorUnknown) {
      addFinding(s, st.ord, 'stale-resume-cursor', {
        streamId: st.id,
        relatedStreamIds: [target.id],
        eventIds: [cursor, root.chainCursor],
        ...(root.requests[0] ? { requestId: root.requests[0].id } : {}),
        message: `The client resumed with Last-Event-ID ${cursor}, but the last id it had received on this stream was ${root.chainCursor}: events between them are replayed again or skipped.`,
      });
    }
    const expecting = root.requests.filter((r) => r.method !== undefined);
    if (expecting.length > 0 && expecting.every((r) => r.response !== undefined)) {
      addFinding(s, st.ord, 'needless-resume', {
        streamId: st.id,
        relatedStreamIds: [target.id],
        requestId: expecting[0]!.id,
        eventIds: cursor !== undefined ? [cursor] : [],
        message: `The client resumed stream ${target.id} although request ${expecting.map((r) => r.id).join(', ')} had already received its ${expecting[0]!.response}.`,
      });
    }
  }

  const gaps = createCaptureGaps({
    conns,
    gapConns,
    markers,
    nextOrd: () => ++ord,
    connKey,
    addFinding,
    newStream,
    attachSession,
    getSession,
    lost,
  });

  // ---------------------------------------------------------------- records

  function onRequest(r: RequestRecord) {
    const key = connKey(r.src, r.conn);
    const c: ConnState = { req: r };
    conns.set(key, c);
    const headers = r.headers;
    const sid = headerValue(headers, 'mcp-session-id');
    const body = looksJsonRpc(r.body);
    const relevant =
      r.transport === 'eventsource' ||
      sid !== undefined ||
      headerValue(headers, 'mcp-protocol-version') !== undefined ||
      headerValue(headers, 'last-event-id') !== undefined ||
      body !== null ||
      (headerValue(headers, 'accept') ?? '').toLowerCase().includes('text/event-stream') ||
      r.reconnectOf !== undefined;
    if (!relevant) return; // decided at the response
    startStream(c, r, body ?? []);
  }

  function startStream(c: ConnState, r: RequestRecord, body: DecodedMessage[]) {
    const st = newStream(r.src, r.conn, r, r.t);
    c.stream = st;
    st.bodyMessages = body;
    // Its request arrives after a gap that listed it: flagged now, its body resynced at the response.
    const key = connKey(r.src, r.conn);
    if (gapConns.has(key)) gaps.resyncAfterGap(st, key);
    const sid = headerValue(r.headers, 'mcp-session-id');
    if (sid !== undefined) st.sessionHeader = sid;
    const isInit = body.some((m) => m.summary.method === 'initialize' && m.summary.kind === 'request');
    if (isInit && !(sid === undefined && legacyAlias.has(r.url))) {
      // The InitializeResult's response names the session (even if the client sent an old id).
      st.deferSession = true;
      return;
    }
    const legacy = sid === undefined ? legacyAlias.get(r.url) : undefined;
    const s = legacy ?? getSession(sid ?? null, r.url);
    attachSession(st, s);
    if (r.reconnectOf !== undefined) {
      const prev = conns.get(connKey(r.src, r.reconnectOf))?.stream;
      // EventSource reconnect by the browser: it sends the previous cursor itself.
      const cursor = prev?.root.cursorUnknown ? undefined : prev?.root.chainCursor;
      if (cursor !== undefined) st.lastEventIdSent = cursor;
      // The browser keeps lastEventId across reconnects: only a change is a new id.
      if (prev?.esLastId !== undefined) st.esLastId = prev.esLastId;
      if (prev?.esUnknown) st.esUnknown = true;
      st.kind = 'eventsource';
      linkResume(st, s, cursor, prev?.session === s ? prev : undefined);
    } else if (st.lastEventIdSent !== undefined && st.method === 'GET') {
      linkResume(st, s, st.lastEventIdSent === '' ? undefined : st.lastEventIdSent);
    }
  }

  function onResponse(r: ResponseRecord) {
    const key = connKey(r.src, r.conn);
    let c = conns.get(key);
    const ct = headerValue(r.headers, 'content-type');
    const sid = headerValue(r.headers, 'mcp-session-id');
    if (!c) {
      // Request record lost: keep the stream if it looks like MCP.
      if (!isEventStreamType(ct) && sid === undefined) return;
      c = {};
      conns.set(key, c);
      const st = newStream(r.src, r.conn, undefined, r.t);
      st.url = r.url;
      c.stream = st;
      attachSession(st, getSession(sid ?? null, r.url));
      // The body starts after the response, so it is whole: only the request is unknown.
      gaps.noteOrphan(st, key, 'its request');
    }
    if (!c.stream) {
      if (!c.req || (!isEventStreamType(ct) && sid === undefined)) {
        c.ignored = true;
        return;
      }
      startStream(c, c.req, []);
    }
    const st = c.stream!;
    st.status = r.status;
    if (ct !== undefined) st.contentType = ct;
    st.responseHeaders = r.headers;
    st.capture = r.capture === 'sse' || isEventStreamType(ct) ? 'sse' : r.capture === 'json' || isJsonType(ct) ? 'json' : r.capture;
    if (st.capture === 'sse') st.parser = createSseConnectionParser();
    if (c.req !== undefined && gapConns.has(key)) gaps.resyncAfterGap(st, key);
    st.dirty = true;
    if (st.deferSession) {
      st.deferSession = false;
      attachSession(st, getSession(sid ?? st.sessionHeader ?? null, st.url || r.url));
    }
    const s = st.session!;
    s.dirty = true;
    if (r.status === 404 && st.sessionHeader !== undefined && !s.expired) {
      s.expired = true;
      addFinding(s, ++ord, 'session-expired', {
        streamId: st.id,
        eventIds: [],
        ...(st.requests[0] ? { requestId: st.requests[0].id } : {}),
        message: `The server answered 404 to session id ${st.sessionHeader} (first on a ${st.method}${st.requests[0] ? ` ${st.requests[0].method}` : ''}): the session is gone; the client must initialize a new one, and requests sent on the old session get no result.`,
      });
    }
    if (st.isResume && r.status >= 400) {
      addFinding(s, ++ord, 'resume-rejected', {
        streamId: st.id,
        ...(st.resumes ? { relatedStreamIds: [st.resumes.id] } : {}),
        ...(st.root.requests[0] ? { requestId: st.root.requests[0].id } : {}),
        eventIds: st.lastEventIdSent !== undefined ? [st.lastEventIdSent] : [],
        message: `The resume with Last-Event-ID ${st.lastEventIdSent ?? '(none)'} was refused with HTTP ${r.status}: nothing after that id was replayed.`,
      });
    }
  }

  function onChunk(r: ChunkRecord) {
    const key = connKey(r.src, r.conn);
    const c = conns.get(key);
    const st = c ? c.stream : gaps.orphanStream(r, key);
    if (!st || st.state !== 'open') return;
    st.bytes += r.bytes;
    st.dirty = true;
    if (st.capture === 'unknown' && st.status === undefined && gapConns.has(key)) {
      // Its response was lost with the gap: an MCP stream whose body starts at an unknown point.
      gaps.lostResponse(st, key);
    }
    if (st.capture === 'sse' && st.parser) {
      const blocks = st.parser.feed(r.text);
      if (st.resyncNote && !st.parser.resyncing) gaps.finishResync(st, false);
      const x = st.parser.extended;
      if (x && st.lastEv && st.lastBlock === x) {
        // CR + LF of a blank line split across reads: the LF completes the last event's raw text.
        const ev = st.lastEv;
        ev.raw = x.raw;
        const shown = st.events[ev.index];
        if (shown && shown !== ev) st.events[ev.index] = { ...shown, raw: x.raw };
      }
      for (const b of blocks) onBlock(st, b, r.t);
      st.comments = st.parser.comments;
      if (st.parser.retry !== undefined) st.retry = st.parser.retry;
      if (r.droppedBytes) gaps.cutChunk(st, r.droppedBytes);
    } else if (st.capture === 'json' || st.capture === 'unknown') {
      st.json.push(r.text);
    }
    if (r.droppedBytes) {
      st.captureIncomplete = true;
      st.inspectorLost = true;
    }
    // Once the text is whole again, what was lost before (and dropped by the resync) was read.
    if (!st.parser?.resyncing) lost.bodyRecord(st, r.t);
    if (st.session) st.session.dirty = true;
  }

  /** A stream still waiting for its session (initialize without response) gets its endpoint's. */
  function ensureSession(st: StreamS): SessionState {
    if (!st.session) {
      st.deferSession = false;
      attachSession(st, getSession(st.sessionHeader ?? null, st.url));
    }
    return st.session!;
  }

  function onEsEvent(r: EsEventRecord) {
    const key = connKey(r.src, r.conn);
    const c = conns.get(key);
    const st = c ? c.stream : gaps.orphanStream(r, key);
    if (!st || st.state !== 'open') return;
    lost.bodyRecord(st, r.t);
    ensureSession(st);
    st.dirty = true;
    let changed = r.lastEventId !== (st.esLastId ?? '');
    st.esLastId = r.lastEventId;
    if (st.esUnknown) {
      // Events were lost before this one: a changed lastEventId may come from one of them, so
      // this event is not said to carry it; the cursor after it is known all the same.
      st.esUnknown = false;
      if (changed) {
        changed = false;
        st.cursor = r.lastEventId === '' ? undefined : r.lastEventId;
        st.root.chainCursor = st.cursor;
        st.root.cursorUnknown = false;
      }
    }
    const raw = (changed ? `id: ${r.lastEventId}\n` : '') + (r.type !== 'message' ? `event: ${r.type}\n` : '') + r.data.split('\n').map((l) => `data: ${l}`).join('\n') + '\n\n';
    const block: SseBlock = { comments: 0, raw, data: r.data };
    if (changed) block.id = r.lastEventId;
    if (r.type !== 'message') block.event = r.type;
    onBlock(st, block, r.t);
  }

  function onEnd(r: EndRecord) {
    const st = conns.get(connKey(r.src, r.conn))?.stream;
    if (!st || st.state !== 'open') return;
    lost.bodyRecord(st, r.t);
    ensureSession(st);
    if (st.parser) {
      for (const b of st.parser.end()) onBlock(st, b, r.t);
      st.comments = st.parser.comments;
      if (st.resyncNote) gaps.finishResync(st, true);
    } else if (st.json.length > 0) {
      onJsonBody(st, r.t);
    }
    st.end = r.t;
    st.endOrd = ++ord;
    lost.ended(st, r.t);
    st.state =
      r.how === 'complete' ? 'complete' : r.how === 'network-error' ? 'error' : r.how === 'unread' ? 'unread' : r.how === 'unknown' ? 'unknown' : 'aborted';
    if (r.reason !== undefined) st.endReason = r.reason;
    else if (r.how !== 'complete' && r.how !== 'unknown') st.endReason = r.how;
    st.dirty = true;
    const s = st.session!;
    s.dirty = true;
    // An empty resume that closed while its request was still pending.
    const serverClosed = r.how === 'complete' || r.how === 'network-error' || r.how === 'unknown';
    if (st.isResume && serverClosed && (st.status === undefined || st.status < 400) && st.events.length === 0 && !st.captureIncomplete) {
      const pending = st.root.requests.filter((q) => q.response === undefined);
      if (pending.length > 0) {
        addFinding(s, st.endOrd, 'resume-rejected', {
          streamId: st.id,
          ...(st.resumes ? { relatedStreamIds: [st.resumes.id] } : {}),
          requestId: pending[0]!.id,
          eventIds: st.lastEventIdSent !== undefined ? [st.lastEventIdSent] : [],
          message: `The resume with Last-Event-ID ${st.lastEventIdSent ?? '(none)'} got an empty stream that closed while request ${pending[0]!.id} (${pending[0]!.method}) was still waiting for its result: the server replayed nothing.`,
        });
      }
    }
  }

  function onJsonBody(st: StreamS, t: number) {
    const text = st.json.join('');
    st.json = [];
    if (!text.trim()) return;
    const d = decodeJsonRpc(text);
    const ev: SseEvent = {
      index: st.events.length,
      event: 'message',
      data: text,
      t,
      raw: text,
      messages: d.messages.map((m) => m.summary),
      findings: [],
      synthetic: 'json-body',
    };
    if (d.error) ev.jsonError = d.error;
    st.events.push(ev);
    const at = ++ord;
    for (const m of d.messages) onMessage(st, ev, m, at);
  }

  // ---------------------------------------------------------------- events

  function onBlock(st: StreamS, b: SseBlock, t: number) {
    const s = ensureSession(st);
    const at = ++ord;
    // The common event (an id, data, no retry) is built with all its properties at once: adding
    // `id` and `cursor` afterwards cost each event a second allocation (a property backing store).
    const ev: SseEvent =
      b.id !== undefined && b.id !== '' && !b.truncated && b.retry === undefined && b.data !== undefined
        ? { index: st.events.length, event: b.event ?? 'message', data: b.data, t, raw: b.raw, messages: NO_MESSAGES, findings: NO_CODES, id: b.id, cursor: b.id }
        : { index: st.events.length, event: b.event ?? 'message', data: b.data ?? '', t, raw: b.raw, messages: NO_MESSAGES, findings: NO_CODES };
    if (b.id !== undefined && b.id !== '') ev.id = b.id;
    if (b.retry !== undefined) ev.retry = b.retry;
    if (b.data === undefined) ev.idOnly = true;
    st.events.push(ev);
    if (st.parser) {
      st.lastBlock = b;
      st.lastEv = ev;
    }
    s.dirty = true;

    if (b.truncated) {
      ev.truncated = true;
      if (st.cursor !== undefined) ev.cursor = st.cursor;
      addCode(ev, 'truncated-event');
      if (b.data) {
        const d = decodeJsonRpc(b.data);
        ev.messages = summaries(d.messages);
      }
      const what = ev.messages.length ? ` carrying ${ev.messages.map(describeMsg).join(', ')}` : '';
      addFinding(s, at, 'truncated-event', {
        streamId: st.id,
        eventIds: ev.id !== undefined ? [ev.id] : [],
        eventIndex: ev.index,
        ...(st.root.requests[0] ? { requestId: st.root.requests[0].id } : {}),
        message: `The stream ended inside an event${ev.id !== undefined ? ` (id ${ev.id})` : ''}${what} with no closing blank line: clients drop such an event silently.`,
      });
      return;
    }

    if (b.id !== undefined) {
      st.cursor = b.id === '' ? undefined : b.id;
      st.root.chainCursor = st.cursor;
      st.root.cursorUnknown = false;
      if (b.id !== '') onId(st, s, ev, b.id, at, !b.data);
    }
    if (st.cursor !== undefined) ev.cursor = st.cursor;

    if (ev.event !== 'message') {
      if (ev.event === 'endpoint' && st.method === 'GET' && ev.data) {
        try {
          legacyAlias.set(new URL(ev.data.trim(), st.url).href, s);
          s.legacyStream = st;
        } catch {
          /* not a URL */
        }
      }
      if (resync.has(ev.event)) {
        if (st.root.requests.length > 0) st.root.resyncOrds.push(at);
        else s.resyncOrds.push(at);
      }
      return;
    }
    if (!b.data) return; // priming event / id-only block: idempotent
    const d = decodeJsonRpc(b.data);
    if (d.error) ev.jsonError = d.error;
    ev.messages = summaries(d.messages);
    for (const m of d.messages) onMessage(st, ev, m, at);
  }

  function addCandidate(v: IdView, st: StreamS, tr: IdTrack, eventIndex: number, at: number, p: ParsedId, id: string, kind: Candidate['kind'], from: number, to: number, prevId?: string) {
    const prevOrd = st.isResume && !tr.lastParsed ? st.ord : tr.lastIdOrd ?? st.ord;
    const c: Candidate = { kind, stream: st, eventIndex, ord: at, prefix: p.prefix, width: p.width, from, to, id, prevOrd };
    if (p.hex) c.hex = true;
    if (prevId !== undefined) c.prevId = prevId;
    if (st.isResume && !tr.lastParsed) c.atResume = true;
    v.candidates.push(c);
  }

  /** The hexadecimal reading's track of a stream (created on first use). */
  function hexTrack(v: IdView, st: StreamS): IdTrack {
    let tr = v.tracks!.get(st);
    if (!tr) {
      tr = { chainIds: new Map() };
      if (st.isResume) tr.resumeBase = st.lastEventIdSent ? parseIdHex(st.lastEventIdSent) : null;
      v.tracks!.set(st, tr);
    }
    return tr;
  }

  /**
   * The id checks of one reading of the session (IdView) for an id new to the session: statistics,
   * the chain's delivered counters, the steps between ids of a connection and the gap / reorder /
   * cross-prefix candidates they show. `tr` is the stream's track in that reading.
   */
  function trackId(v: IdView, tr: IdTrack, rootTr: IdTrack, st: StreamS, ev: SseEvent, id: string, p: ParsedId | null, at: number, priming: boolean) {
    recordId(v.stats, id, p, st.id);
    if (p) {
      let set = rootTr.chainLast !== undefined && rootTr.chainLast.prefix === p.prefix ? rootTr.chainLast.set : rootTr.chainIds.get(p.prefix);
      if (!set) rootTr.chainIds.set(p.prefix, (set = new IntervalSet(v.stats)));
      if (rootTr.chainLast === undefined) rootTr.chainLast = { prefix: p.prefix, set };
      else if (rootTr.chainLast.set !== set) {
        rootTr.chainLast.prefix = p.prefix;
        rootTr.chainLast.set = set;
      }
      set.add(p.counter);
    }
    // A priming event (id, empty data) only moves the cursor. Some servers send one with a fresh
    // id at the start of every stream, a resumed one too: it is no step in the sequence.
    if (!p || priming) return;
    // The first id after lost records: ids in between may have been in them, so a jump is no gap
    // (and no step of the scheme); going backwards still is.
    let acrossGap: boolean;
    if (tr === st) {
      lost.keptId(st, p);
      acrossGap = st.afterGap === true;
      st.afterGap = false;
    } else {
      acrossGap = (st.gaps ?? 0) !== (tr.gaps ?? 0);
      tr.gaps = st.gaps;
    }
    const base = st.isResume ? tr.resumeBase : undefined;
    const lp = tr.lastParsed;
    if (base && p.prefix !== base.prefix) {
      // Under a per-stream prefix scheme, another stream's events (decided at snapshot).
      addCandidate(v, st, tr, ev.index, at, p, id, 'cross-prefix', 0, 0, st.lastEventIdSent);
    } else if (base && !lp) {
      // First event of the replay: compare with the cursor the client sent.
      if (p.counter > base.counter + 1) {
        if (!acrossGap) addCandidate(v, st, tr, ev.index, at, p, id, 'replay', base.counter + 1, p.counter - 1, st.lastEventIdSent);
      } else if (p.counter <= base.counter) addCandidate(v, st, tr, ev.index, at, p, id, 'reorder', p.counter, p.counter, st.lastEventIdSent);
    } else if (lp && lp.prefix === p.prefix) {
      const delta = p.counter - lp.counter;
      if (!acrossGap) recordStep(v.stats, delta);
      if (delta > 1) {
        if (!acrossGap) addCandidate(v, st, tr, ev.index, at, p, id, st.isResume ? 'replay' : 'live', lp.counter + 1, p.counter - 1, formatId(lp.prefix, lp.counter, lp.width, lp.hex));
      } else if (delta <= 0) addCandidate(v, st, tr, ev.index, at, p, id, 'reorder', p.counter, p.counter, formatId(lp.prefix, lp.counter, lp.width, lp.hex));
    }
    if (!base || p.prefix === base.prefix) {
      if (!lp || lp.prefix !== p.prefix || p.counter > lp.counter) tr.lastParsed = p;
    }
    tr.lastIdOrd = at;
  }

  /**
   * An id new to session `s` that another session of its endpoint delivered too. On a resumed
   * stream of one and a stream of the other that is no resume, the resume replayed the other
   * session's event (a store shared by the sessions); on two streams that are no resume, the
   * server numbers each session on its own and ids say nothing across sessions (decided at
   * snapshot time, so the order in which the two deliveries arrive does not matter).
   */
  function crossSession(s: SessionState, st: StreamS, ev: SseEvent, id: string, p: ParsedId | null, at: number) {
    const ep = s.ep!;
    for (const t of ep.sessions) {
      if (t === s) continue;
      const hit = t.idIndex.get(id, p);
      if (!hit) continue;
      if (st.isResume && !hit.isResume) {
        (s.crossIn ??= []).push({ stream: st, index: ev.index, ord: at, other: hit });
        s.dirty = true;
      } else if (!st.isResume && hit.isResume) {
        for (let i = hit.events.length - 1; i >= 0; i--) {
          if (hit.events[i]!.id !== id) continue;
          (t.crossIn ??= []).push({ stream: hit, index: i, ord: hit.ord, other: st });
          t.dirty = true;
          break;
        }
      } else if (!st.isResume && !hit.isResume && ep.reuse++ === 0) {
        for (const x of ep.sessions) x.dirty = true;
      }
      return;
    }
  }

  function onId(st: StreamS, s: SessionState, ev: SseEvent, id: string, at: number, priming: boolean) {
    const p = s.parse(id);
    let prev = s.idIndex.get(id, p);
    if (prev && prev.root !== st.root && (!st.isResume || s.sessionId === null || s.idReuse > 0)) {
      // The same id on an unrelated, fresh stream is not a replay: the server numbers each
      // stream on its own (stateless servers, or ids not unique in the session).
      s.idReuse++;
      prev = undefined;
    }
    if (prev) {
      ev.duplicate = true;
      const req = st.root.requests[0];
      if (!(st.isResume && prev.root !== st.root) || st.linkGuessed) {
        addCode(ev, 'replay-duplicate');
        st.dupEv = ev;
        const first = prev.id;
        const run = runFinding(
          s,
          st,
          ev,
          at,
          'replay-duplicate',
          first,
          (ids, n) =>
            n === 1
              ? `Event id ${ids[0]} arrived again (first on stream ${first}): a client that does not de-duplicate applies it twice.`
              : `${n} events arrived again (ids ${idList(ids)}; first on stream ${first}): a client that does not de-duplicate applies them twice.`,
          { streamId: st.id, relatedStreamIds: prev.id !== st.id ? [prev.id] : [], eventIndex: ev.index, ...(req ? { requestId: req.id } : {}) },
        );
        st.dupRun = run;
      } else {
        addCode(ev, 'replay-cross-stream');
        st.root.crossOrds.push(at);
        const other = prev.id;
        runFinding(
          s,
          st,
          ev,
          at,
          'replay-cross-stream',
          other,
          (ids, n) =>
            n === 1
              ? `The resumed stream delivered event ${ids[0]} again, which belongs to another stream (${other}): the server replayed events that were never part of the stream being resumed.`
              : `The resumed stream delivered ${n} events again (ids ${idList(ids)}) which belong to another stream (${other}): the server replayed events that were never part of the stream being resumed.`,
          { streamId: st.id, relatedStreamIds: [prev.id], eventIndex: ev.index, ...(req ? { requestId: req.id } : {}) },
        );
      }
      return;
    }
    s.idIndex.set(id, p, st);
    if (st.firstId === undefined) {
      st.firstId = id;
      s.stats.streamsWithIds++;
      if (s.hex) s.hex.stats.streamsWithIds++;
    }
    st.lastId = id;
    if (s.ep !== undefined && s.ep.sessions.length > 1) crossSession(s, st, ev, id, p, at);
    // Ids ending in a fixed-width field are read both ways (decimal and hexadecimal) from the
    // first one on; the snapshot picks the reading on the whole session (see IdView).
    if (s.hex === undefined && s.override === undefined && (p ? p.width >= 4 && String(p.counter).length * 2 <= p.width : hexFieldStart(id) >= 0)) {
      s.hex = { stats: newIdStats(), candidates: [], parse: parseIdHex, hex: true, tracks: new Map() };
      s.hex.stats.streamsWithIds = 1;
    }
    trackId(s.main, st, st.root, st, ev, id, p, at, priming);
    if (s.hex) {
      const hp = parseIdHex(id);
      if (hp?.hex) {
        if (s.hexSeen === undefined && hexLetters(id, id.length - hp.width)) s.hexSeen = id;
        else if (s.radixDiffers === undefined && p && p.counter !== hp.counter) s.radixDiffers = id;
      }
      trackId(s.hex, hexTrack(s.hex, st), hexTrack(s.hex, st.root), st, ev, id, hp, at, priming);
    }
    st.sawId = true;
  }

  function onMessage(st: StreamS, ev: SseEvent, m: DecodedMessage, at: number) {
    const s = ensureSession(st);
    const sm = m.summary;
    st.messages++;
    if ((sm.kind === 'result' || sm.kind === 'error') && sm.id !== undefined) {
      // A client may reuse an id once its request is answered, or (wrongly) have two requests with
      // one id in flight: the request carried by this stream's own POST comes first.
      const own = st.root.requests.find((q) => q.id === sm.id && q.response === undefined);
      const req = own ?? s.requestById.get(sm.id);
      if (!req) return; // a response to no request seen: nothing to attach it to
      if (req.response !== undefined) {
        if (!ev.duplicate) {
          ev.duplicate = true;
          addCode(ev, 'replay-duplicate');
          addFinding(s, at, 'replay-duplicate', {
            streamId: st.id,
            relatedStreamIds: req.responseStream && req.responseStream !== st ? [req.responseStream.id] : [],
            requestId: req.id,
            eventIds: ev.id !== undefined ? [ev.id] : [],
            eventIndex: ev.index,
            message: `The response to request ${req.id} (${req.method}) arrived a second time.`,
          });
        }
        return;
      }
      req.response = sm.kind;
      req.responseStream = st;
      req.responseOrd = at;
      req.responseIndex = ev.index;
      req.end = ev.t;
      if (st.isResume && st.resumes && !st.linkGuessed && req.stream.root !== st.root && !ev.duplicate) {
        addCode(ev, 'replay-cross-stream');
        st.root.crossOrds.push(at);
        req.stream.root.crossOrds.push(at);
        addFinding(s, at, 'replay-cross-stream', {
          streamId: st.id,
          relatedStreamIds: [st.root.id, req.stream.id],
          requestId: req.id,
          eventIds: ev.id !== undefined ? [ev.id] : [],
          eventIndex: ev.index,
          message: `The stream resuming ${st.root.id} delivered the response to request ${req.id} (${req.method}), which was sent on another stream (${req.stream.id}).`,
        });
      }
      if (req.method === 'initialize' && sm.kind === 'result') {
        setPv(s, getPath(m.msg, ['result', 'protocolVersion']), 3);
        const decl = lookupCapability(getPath(m.msg, ['result', 'capabilities']), opts.gaplessCapabilityPath);
        if (decl !== undefined && decl !== null && decl !== false) s.gaplessDeclared = true;
      }
      return;
    }
    if (sm.kind !== 'notification' || !sm.method) return;
    let req: ReqState | undefined;
    if (sm.method === 'notifications/progress' && sm.progressToken !== undefined) {
      req = s.progress.get(sm.progressToken);
      const sameDup = ev.duplicate && st.dupEv === ev;
      if (req && sameDup && sm.progress !== undefined && req.lastProgress !== undefined && sm.progress <= req.lastProgress) {
        // A replayed duplicate: the client's progress handler sees a value that does not increase.
        addCode(ev, 'progress-regressed');
        addFinding(s, at, 'progress-regressed', {
          streamId: st.id,
          requestId: req.id,
          eventIds: ev.id !== undefined ? [ev.id] : [],
          eventIndex: ev.index,
          message: `Progress of request ${req.id} went from ${req.lastProgress} to ${sm.progress}: event ${ev.id ?? ''} was replayed a second time, and progress must increase with each notification.`,
        });
      }
      if (req && !ev.duplicate && sm.progress !== undefined) {
        if (req.lastProgress !== undefined && sm.progress <= req.lastProgress) {
          const code: FindingCode = st.isResume && sm.progress < req.lastProgress ? 'replay-reordered' : 'progress-regressed';
          addCode(ev, code);
          addFinding(s, at, code, {
            streamId: st.id,
            requestId: req.id,
            eventIds: ev.id !== undefined ? [ev.id] : [],
            eventIndex: ev.index,
            message:
              code === 'replay-reordered'
                ? `Progress of request ${req.id} went from ${req.lastProgress} back to ${sm.progress} on the resumed stream: the replay delivered events out of order.`
                : `Progress of request ${req.id} went from ${req.lastProgress} to ${sm.progress}: progress must increase with each notification.`,
          });
        }
        if (req.lastProgress === undefined || sm.progress > req.lastProgress) req.lastProgress = sm.progress;
      }
      if (req && st.isResume && st.resumes && !st.linkGuessed && req.stream.root !== st.root && !ev.duplicate) {
        addCode(ev, 'replay-cross-stream');
        st.root.crossOrds.push(at);
        const q = req;
        runFinding(
          s,
          st,
          ev,
          at,
          'replay-cross-stream',
          'progress:' + q.id,
          (ids, n) =>
            n <= 1
              ? `The stream resuming ${st.root.id} delivered progress for request ${q.id}, which was sent on another stream (${q.stream.id}).`
              : `The stream resuming ${st.root.id} delivered ${n} progress notifications for request ${q.id} (ids ${idList(ids)}), which was sent on another stream (${q.stream.id}).`,
          { streamId: st.id, relatedStreamIds: [st.root.id, req.stream.id], requestId: req.id, eventIndex: ev.index },
        );
      }
    }
    if (!req) req = st.root.requests.find((q) => q.response === undefined) ?? st.root.requests[0];
    if (!req) return;
    req.notifications.push([st.id, ev.index]);
    const cumulative = isCumulative(sm.method);
    if (cumulative && !ev.duplicate && req.response === undefined) req.cumulative++;
    else if (cumulative && ev.duplicate && st.dupEv === ev && req.response === undefined) {
      // A cumulative notification applied twice before the result: the result is not trustworthy.
      req.dupCumulative = (req.dupCumulative ?? 0) + 1;
      const run = st.dupRun;
      if (run && run.lastIndex === ev.index && run.note === undefined) {
        run.note = ` Cumulative notification(s) (${sm.method}) for request ${req.id} (${req.method}) came again before its result: a client that appends them holds that part twice, so the result it accepts is not trustworthy (verdict at least complete-unverified).`;
        run.f.message += run.note;
      }
    }
  }

  function describeMsg(m: JsonRpcSummary): string {
    if (m.kind === 'result' || m.kind === 'error') return `the ${m.kind} of request ${m.id}`;
    if (m.method) return m.method;
    return 'data';
  }

  // ---------------------------------------------------------------- push

  function push(r: CaptureRecord) {
    recordCount++;
    revision++;
    if (typeof r !== 'object' || r === null) return;
    switch (r.kind) {
      case 'request':
        onRequest(r);
        break;
      case 'response':
        onResponse(r);
        break;
      case 'chunk':
        onChunk(r);
        break;
      case 'es-event':
        onEsEvent(r);
        break;
      case 'end':
        onEnd(r);
        break;
      case 'capture-gap':
        gaps.onCaptureGap(r);
        break;
      case 'navigation':
        markers.push({ t: r.t, kind: 'navigation', text: r.url });
        break;
      case 'notice':
        // The relay's "not recording" notice (its NOT_RECORDING_CODE): connections that started
        // and ended while recording was off were not kept, and no gap record names them (when no
        // connection was open as recording began, this notice is all the capture says).
        if (r.code === 'not-recording') lost.add(undefined, 'connections that ended before recording began (not kept)', r.t);
        break;
      default:
        break;
    }
  }

  // ---------------------------------------------------------------- snapshot

  function snapshot(): AnalysisSnapshot {
    if (cached && cachedRevision === revision) return cached;
    const outSessions: Session[] = [];
    // Keyed by page data (session ids, stream ids): no prototype, so "__proto__" or "constructor"
    // is an ordinary key (JSON.stringify and Object.keys see it like any other).
    const outStreams: Record<string, Stream> = Object.create(null) as Record<string, Stream>;
    const outRequests: Record<string, RequestInfo[]> = Object.create(null) as Record<string, RequestInfo[]>;
    // All findings in ord order: appended to while every session only appended findings that
    // come after everything listed; rebuilt otherwise.
    let rebuild = outOrd.length === 0 && (globalFindings.length > 0 || sessions.size > 0);
    const fresh: OrdFinding[] = globalFindings.slice(outGlobal);
    outGlobal = globalFindings.length;
    // A session whose analysis reads the other sessions of its endpoint (a counter they may share,
    // ids they delivered) is derived again when one of them changed.
    for (const ep of endpoints.values()) {
      if (ep.sessions.length < 2 || ep.reuse > 0 || !ep.sessions.some((x) => x.dirty)) continue;
      for (const x of ep.sessions) if (x.sharedCheck) x.dirty = true;
    }
    for (const s of sessions.values()) {
      if (s.dirty || !s.cached) {
        const d = deriveSession(s, finished, opts, lost);
        if (d.overlays) {
          for (const st of s.streams) if (applyOverlay(st, d.overlays.get(st))) st.dirty = true;
        } else {
          for (const [st, idx, code] of d.overlayAdds) if (addOverlayCode(st, idx, code)) st.dirty = true;
        }
        if (d.appended) for (const x of d.appended) fresh.push(x);
        else rebuild = true;
        s.cached = { session: d.session, requests: d.requests, findings: d.findings };
        s.dirty = false;
      }
      outSessions.push(s.cached.session);
      outRequests[s.key] = s.cached.requests;
    }
    if (!rebuild && fresh.length > 0) {
      fresh.sort((a, b) => a.ord - b.ord);
      if (outOrd.length > 0 && fresh[0]!.ord <= outOrd[outOrd.length - 1]!) rebuild = true;
      else
        for (const x of fresh) {
          outOrd.push(x.ord);
          outFindings.push(x.f);
        }
    }
    if (rebuild) {
      const all: OrdFinding[] = globalFindings.slice();
      for (const s of sessions.values()) if (s.cached) for (const f of s.cached.findings) all.push(f);
      all.sort((a, b) => a.ord - b.ord);
      outOrd = all.map((x) => x.ord);
      outFindings = all.map((x) => x.f);
    }
    for (const st of streamOrder) {
      if (!st.session) continue; // not yet assigned (initialize awaiting its response)
      outStreams[st.id] = st.dirty || !st.cached ? streamModel(st) : st.cached;
    }
    cached = {
      version: 1,
      revision,
      finished,
      sessions: outSessions,
      streams: outStreams,
      requests: outRequests,
      findings: outFindings.slice(),
      markers: markers.slice(),
      recordCount,
    };
    cachedRevision = revision;
    return cached;
  }

  function finish() {
    if (finished) return;
    finished = true;
    revision++;
    for (const st of streamOrder) {
      if (st.state === 'open' && st.capture === 'json' && st.json.length > 0) {
        const text = st.json.join('');
        try {
          JSON.parse(text);
        } catch {
          continue; // still incomplete: leave it pending
        }
        onJsonBody(st, st.start);
      }
    }
    for (const s of sessions.values()) s.dirty = true;
  }

  return {
    push,
    pushAll(records) {
      for (const r of records) push(r);
    },
    finish,
    snapshot,
    get revision() {
      return revision;
    },
    get finished() {
      return finished;
    },
  };
}

/** Convenience: analyze a whole capture and finish it. */
export function analyzeRecords(records: Iterable<CaptureRecord>, options?: AnalyzerOptions): AnalysisSnapshot {
  const a = createAnalyzer(options);
  a.pushAll(records);
  a.finish();
  return a.snapshot();
}

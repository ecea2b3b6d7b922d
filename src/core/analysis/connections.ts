// Connection records -> state: a request opens a stream when it looks like MCP (or waits for its
// response to tell), a response says what its body is, chunks feed the connection's SSE parser
// (or collect a JSON body), a native EventSource's events come whole, and an end closes the
// stream. A resume and a session's 404 are decided here, when the record that shows them arrives.
import type { ChunkRecord, EndRecord, EsEventRecord, RequestRecord, ResponseRecord } from '../record';
import { headerValue, isEventStreamType, isJsonType } from '../record';
import { checkStall, noteGet } from './stalls';
import { createSseConnectionParser, type SseBlock, type SseRunReader } from '../sse';
import { decodeJsonRpc, type DecodedMessage } from '../jsonrpc';
import { addFinding } from './findings-log';
import { newStream } from './streams';
import { attachSession, ensureSession, getSession, linkResume } from './sessions';
import { extendLastRaw, onBlock, onJsonBody } from './events';
import { readRun, readTextRun, RUNS } from './event-run';
import { cutChunk, finishResync, lostResponse, noteOrphan, orphanStream, resyncAfterGap } from './capture-gaps';
import { ORPHAN_WHAT, resumeEmpty, resumeRefused, sessionExpired } from './texts';
import { connKey, type AnalyzerState, type ConnState } from './analyzer-state';
import { modernEnded, onHttpAnswer, requestEra } from './eras';
import { followOn, getConversation } from './conversations';
import { eventCount } from '../event-access';

function looksJsonRpc(body: string | null): DecodedMessage[] | null {
  if (!body) return null;
  const t = body.trimStart();
  if (!(t.startsWith('{') || t.startsWith('['))) return null;
  const d = decodeJsonRpc(body);
  if (d.error) return null;
  const ok = d.messages.some((m) => m.msg && (m.msg.jsonrpc === '2.0' || m.summary.kind !== 'invalid'));
  return ok ? d.messages : null;
}

export function onRequest(A: AnalyzerState, r: RequestRecord): void {
  const c: ConnState = { req: r };
  A.conns.set(connKey(r.src, r.conn), c);
  const headers = r.headers;
  const body = looksJsonRpc(r.body);
  const relevant =
    r.transport === 'eventsource' ||
    headerValue(headers, 'mcp-session-id') !== undefined ||
    headerValue(headers, 'mcp-protocol-version') !== undefined ||
    headerValue(headers, 'last-event-id') !== undefined ||
    body !== null ||
    (headerValue(headers, 'accept') ?? '').toLowerCase().includes('text/event-stream') ||
    r.reconnectOf !== undefined;
  if (!relevant) return; // decided at the response
  startStream(A, c, r, body ?? []);
}

function startStream(A: AnalyzerState, c: ConnState, r: RequestRecord, body: DecodedMessage[]): void {
  const st = newStream(A, r.src, r.conn, r, r.t);
  c.stream = st;
  st.bodyMessages = body;
  noteGet(A, r.src, st);
  // Its request arrives after a gap that listed it: flagged now, its body resynced at the response.
  const key = connKey(r.src, r.conn);
  if (A.gapConns.has(key)) resyncAfterGap(A, st, key);
  const sid = headerValue(r.headers, 'mcp-session-id');
  if (sid !== undefined) st.sessionHeader = sid;
  followOn(A, st, r.src);
  if (requestEra(st.method, r.headers, body) === 'modern') {
    // 2026-07-28: no session, whatever Mcp-Session-Id it carries (the server ignores it).
    attachSession(st, getConversation(A, r.url, r.src, body));
    return;
  }
  const isInit = body.some((m) => m.summary.method === 'initialize' && m.summary.kind === 'request');
  if (isInit && !(sid === undefined && A.legacyAlias.has(r.url))) {
    // The InitializeResult's response names the session (even if the client sent an old id).
    st.deferSession = true;
    return;
  }
  const legacy = sid === undefined ? A.legacyAlias.get(r.url) : undefined;
  const s = legacy ?? getSession(A, sid ?? null, r.url);
  attachSession(st, s);
  if (r.reconnectOf !== undefined) {
    const prev = A.conns.get(connKey(r.src, r.reconnectOf))?.stream;
    // EventSource reconnect by the browser: it sends the previous cursor itself.
    const cursor = prev?.root.cursorUnknown ? undefined : prev?.root.chainCursor;
    if (cursor !== undefined) st.lastEventIdSent = cursor;
    // The browser keeps lastEventId across reconnects: only a change is a new id.
    if (prev?.esLastId !== undefined) st.esLastId = prev.esLastId;
    if (prev?.esUnknown) st.esUnknown = true;
    st.kind = 'eventsource';
    linkResume(A, st, s, cursor, prev?.session === s ? prev : undefined);
  } else if (st.lastEventIdSent !== undefined && st.method === 'GET') {
    linkResume(A, st, s, st.lastEventIdSent === '' ? undefined : st.lastEventIdSent);
  }
}

export function onResponse(A: AnalyzerState, r: ResponseRecord): void {
  const key = connKey(r.src, r.conn);
  let c = A.conns.get(key);
  const ct = headerValue(r.headers, 'content-type');
  const sid = headerValue(r.headers, 'mcp-session-id');
  if (!c) {
    // Request record lost: keep the stream if it looks like MCP.
    if (!isEventStreamType(ct) && sid === undefined) return;
    c = {};
    A.conns.set(key, c);
    const st = newStream(A, r.src, r.conn, undefined, r.t);
    st.url = r.url;
    c.stream = st;
    attachSession(st, getSession(A, sid ?? null, r.url));
    // The body starts after the response, so it is whole: only the request is unknown.
    noteOrphan(A, st, key, ORPHAN_WHAT.response);
  }
  if (!c.stream) {
    if (!c.req || (!isEventStreamType(ct) && sid === undefined)) {
      c.ignored = true;
      return;
    }
    startStream(A, c, c.req, []);
  }
  const st = c.stream!;
  st.status = r.status;
  st.respondedAt = r.t;
  if (ct !== undefined) st.contentType = ct;
  st.responseHeaders = r.headers;
  st.capture = r.capture === 'sse' || isEventStreamType(ct) ? 'sse' : r.capture === 'json' || isJsonType(ct) ? 'json' : r.capture;
  if (st.capture === 'sse') st.parser = createSseConnectionParser();
  if (c.req !== undefined && A.gapConns.has(key)) resyncAfterGap(A, st, key);
  st.dirty = true;
  if (st.deferSession) {
    st.deferSession = false;
    attachSession(st, getSession(A, sid ?? st.sessionHeader ?? null, st.url || r.url));
  }
  const s = st.session!;
  s.dirty = true;
  onHttpAnswer(A, st, s, sid);
  checkStall(A, r.src, st, s, r.t);
  if (r.status === 404 && st.sessionHeader !== undefined && !s.expired) {
    s.expired = true;
    addFinding(A, s, ++A.ord, 'session-expired', {
      streamId: st.id,
      eventIds: [],
      ...(st.requests[0] ? { requestId: st.requests[0].id } : {}),
      message: sessionExpired(st.sessionHeader, st.method, st.requests[0]?.method),
    });
  }
  if (st.isResume && r.status >= 400) {
    addFinding(A, s, ++A.ord, 'resume-rejected', {
      streamId: st.id,
      ...(st.resumes ? { relatedStreamIds: [st.resumes.id] } : {}),
      ...(st.root.requests[0] ? { requestId: st.root.requests[0].id } : {}),
      eventIds: st.lastEventIdSent !== undefined ? [st.lastEventIdSent] : [],
      message: resumeRefused(st.lastEventIdSent, r.status),
    });
  }
}

export function onChunk(A: AnalyzerState, r: ChunkRecord): void {
  const key = connKey(r.src, r.conn);
  const c = A.conns.get(key);
  const st = c ? c.stream : orphanStream(A, r, key);
  if (!st || st.state !== 'open') return;
  st.bytes += r.bytes;
  st.dirty = true;
  if (st.capture === 'unknown' && st.status === undefined && A.gapConns.has(key)) {
    // Its response was lost with the gap: an MCP stream whose body starts at an unknown point.
    lostResponse(A, st, key);
  }
  if (st.capture === 'sse' && st.parser) {
    const parser = st.parser;
    const spans: number[] = [];
    const dataAts: number[] = [];
    let ready = false;
    // The blocks the reader made, in order; what the feed says first (a resync's end, an event's
    // raw text completed by the LF of its CR LF) before the first of them.
    const handle = (blocks: SseBlock[], sp: number[], da: number[]) => {
      if (!ready) {
        ready = true;
        if (st.resyncNote && !parser.resyncing) finishResync(A, st, false);
        const x = parser.extended;
        if (x && st.lastEvIndex !== undefined && st.lastBlock === x) extendLastRaw(st, x.raw);
      }
      for (let k = 0; k < blocks.length; ) {
        const n = readRun(A, st, blocks, k, r.t, r.text, sp, da);
        if (n > 0) k += n;
        else {
          onBlock(A, st, blocks[k]!, r.t, r.text, sp[k]!, da[k]!);
          k++;
        }
      }
      blocks.length = 0;
      sp.length = 0;
      da.length = 0;
    };
    // Runs of the usual events are read from the text itself (event-run.ts), after the blocks
    // before them. Not for a stream's first read: no run starts before its first id, and most
    // streams, a tool call's answer each, have a read or two.
    let runs: SseRunReader | undefined;
    if (RUNS.on && st.lastParsed !== undefined) {
      let cursor = '';
      runs = {
        get cursor() {
          return cursor;
        },
        read(text, at, base, pending) {
          handle(pending, spans, dataAts);
          const got = readTextRun(A, st, text, at, base, r.text, r.t);
          if (got === undefined) return at;
          cursor = got.id;
          return got.end;
        },
      };
    }
    handle(parser.feed(r.text, spans, dataAts, runs), spans, dataAts);
    st.comments = st.parser.comments;
    if (st.parser.retry !== undefined) st.retry = st.parser.retry;
    if (r.droppedBytes) cutChunk(A, st, r.droppedBytes);
  } else if (st.capture === 'json' || st.capture === 'unknown') {
    st.json.push(r.text);
  }
  if (r.droppedBytes) {
    st.captureIncomplete = true;
    st.inspectorLost = true;
  }
  // Once the text is whole again, what was lost before (and dropped by the resync) was read.
  if (!st.parser?.resyncing) A.lost.bodyRecord(st, r.t);
  if (st.session) st.session.dirty = true;
}

export function onEsEvent(A: AnalyzerState, r: EsEventRecord): void {
  const key = connKey(r.src, r.conn);
  const c = A.conns.get(key);
  const st = c ? c.stream : orphanStream(A, r, key);
  if (!st || st.state !== 'open') return;
  A.lost.bodyRecord(st, r.t);
  ensureSession(A, st);
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
  onBlock(A, st, block, r.t);
}

export function onEnd(A: AnalyzerState, r: EndRecord): void {
  const st = A.conns.get(connKey(r.src, r.conn))?.stream;
  if (!st || st.state !== 'open') return;
  A.lost.bodyRecord(st, r.t);
  ensureSession(A, st);
  if (st.parser) {
    for (const b of st.parser.end()) onBlock(A, st, b, r.t);
    st.comments = st.parser.comments;
    if (st.resyncNote) finishResync(A, st, true);
  } else if (st.json.length > 0) {
    onJsonBody(A, st, r.t);
  }
  st.end = r.t;
  st.endOrd = ++A.ord;
  A.lost.ended(st, r.t);
  st.state = r.how === 'complete' ? 'complete' : r.how === 'network-error' ? 'error' : r.how === 'unread' ? 'unread' : r.how === 'unknown' ? 'unknown' : 'aborted';
  if (r.reason !== undefined) st.endReason = r.reason;
  else if (r.how !== 'complete' && r.how !== 'unknown') st.endReason = r.how;
  st.dirty = true;
  const s = st.session!;
  s.dirty = true;
  modernEnded(A, st);
  // An empty resume that closed while its request was still pending.
  const serverClosed = r.how === 'complete' || r.how === 'network-error' || r.how === 'unknown';
  if (st.isResume && serverClosed && (st.status === undefined || st.status < 400) && eventCount(st) === 0 && !st.captureIncomplete) {
    const pending = st.root.requests.filter((q) => q.response === undefined);
    if (pending.length > 0) {
      addFinding(A, s, st.endOrd, 'resume-rejected', {
        streamId: st.id,
        ...(st.resumes ? { relatedStreamIds: [st.resumes.id] } : {}),
        requestId: pending[0]!.id,
        eventIds: st.lastEventIdSent !== undefined ? [st.lastEventIdSent] : [],
        message: resumeEmpty(st.lastEventIdSent, pending[0]!.id, pending[0]!.method),
      });
    }
  }
}

/** End of capture: a JSON body still open is taken as whole when it parses. */
export function finishBodies(A: AnalyzerState): void {
  for (const st of A.streamOrder) {
    if (st.state === 'open' && st.capture === 'json' && st.json.length > 0) {
      try {
        JSON.parse(st.json.join(''));
      } catch {
        continue; // still incomplete: leave it pending
      }
      onJsonBody(A, st, st.start);
    }
  }
}


// A capture turned into what `serve` answers from: one Exchange per recorded connection (request,
// response, body as timed units, how it ended), grouped by MCP session. The body is cut into
// units at SSE event boundaries with the core's own parser, so an event's raw text (ids, retry
// fields, comments, CRLF) is served byte for byte, and a unit can be withheld, delayed, or have its
// JSON-RPC ids rewritten on its own.
import { decodeJsonRpc } from '../../core/jsonrpc';
import { headerValue, type CaptureRecord, type ChunkRecord, type EndHow, type Header, type RequestRecord } from '../../core/record';
import { createSseConnectionParser } from '../../core/sse';
import type { SseBlock } from '../../core/sse-types';
import { decodeKeyed, liveIdReader, type KeyedMessage } from './rewrite';

export interface Block {
  id?: string;
  event?: string;
  /** Has non-empty data: a client dispatches it. */
  dispatched: boolean;
  messages: KeyedMessage[];
  /** The data is a JSON array (a 2025-03-26 batch). */
  batch: boolean;
}

/** A piece of a response body, served at `t` ms after the response headers (at speed 1). */
export interface Unit {
  t: number;
  text: string;
  /** Set for an SSE event (a block with an id or data); comments and blank text have none. */
  block?: Block;
  /** The whole JSON body of an application/json response. */
  json?: { messages: KeyedMessage[]; batch: boolean };
  /** serve's JSON-RPC error in place of a JSON body the capture lost part of or does not hold (ANSWER_LOST). */
  lost?: true;
}

export interface Exchange {
  /** Position in the recording (order of the request records). */
  index: number;
  conn: string;
  httpMethod: string;
  url: string;
  /** Path it is served at. */
  path: string;
  /** Recorded origin + path: which recorded server it came from. */
  endpoint: string;
  requestHeaders: Header[];
  requestBody: string | null;
  /** Decoded JSON-RPC messages of the request body ([] for none). */
  messages: KeyedMessage[];
  batch: boolean;
  sessionId?: string;
  lastEventId?: string;
  response?: {
    status: number;
    statusText: string;
    headers: Header[];
    capture: 'sse' | 'json' | 'none';
    /** ms from the request to the response headers. */
    waitMs: number;
  };
  units: Unit[];
  /** How the body ended, ms after the response; none = it was still open when the capture ended. */
  end?: { how: EndHow; t: number };
  /**
   * The server ended this stream as the client ended its session (a DELETE of the same session
   * was sent before the end, or within SESSION_END_SLACK_MS after it): a server closes a session's open streams when the
   * session ends (the SDK servers, the Python SDK's session manager), so the replay ends it when
   * the live client's DELETE arrives, not at the recorded time. Played by the clock, a standalone
   * GET would end before a slower client's DELETE and the SDK client would open another GET that
   * the recording does not hold.
   */
  endsWithSession?: true;
  /** Recorded session id (request or response header), or `endpoint:<endpoint>` when sessionless. */
  group: string;
  responseSessionId?: string;
  /** What the capture does not hold of this exchange. */
  notes: string[];
  /**
   * What of the recorded body the capture does not hold, told to the client in the LOSS_HEADER
   * of the answer (server.ts), whatever the body's kind: `events` (SSE: the events the loss cut
   * are left out), `answer` (JSON: a -32051 error per request in its place), `text` (any other
   * body: served up to the loss), `absent` (the file holds no body: served empty, or -32051 per
   * request for a JSON answer).
   */
  loss?: BodyLoss;
}

export type BodyLoss = 'events' | 'answer' | 'text' | 'absent';

/**
 * Response header naming an exchange's `loss`: only the header can say it for an SSE stream or a
 * text body (no JSON-RPC message can carry it without being one the server never sent), so every
 * lossy answer carries it, the -32051 ones too.
 */
export const LOSS_HEADER = 'mcp-stream-inspector-capture-loss';

/** JSON-RPC error code of serve's answer in place of a JSON body the capture lost part of, or does not hold. */
export const ANSWER_LOST = -32051;

export interface Recording {
  exchanges: Exchange[];
  /** Served path → recorded endpoint. */
  paths: Map<string, string>;
  /** Connections that are not MCP traffic (other requests in a HAR). */
  ignored: number;
  warnings: string[];
}

interface Conn {
  request: RequestRecord;
  records: CaptureRecord[];
}

function isJsonRpcBody(body: string | null): boolean {
  if (!body) return false;
  const r = decodeJsonRpc(body);
  return r.messages.length > 0 && r.messages.every((m) => m.summary.kind !== 'invalid');
}

function originPath(url: string): { origin: string; path: string } {
  try {
    const u = new URL(url);
    return { origin: u.origin, path: u.pathname };
  } catch {
    return { origin: '', path: url.startsWith('/') ? url.split('?')[0]! : '/' };
  }
}

/** A chunk of a body, `t` ms after the response; `afterLoss`: records of its connection were lost just before it. */
interface Piece {
  t: number;
  text: string;
  afterLoss: boolean;
}

/**
 * The body's chunks in order, each marked when what came before it was lost: a capture gap that
 * named the connection (in the records' order, as the analysis reads it), or a chunk before it
 * whose tail the size cap cut. A file without a body (an import's gap) has nothing to join.
 */
function bodyPieces(records: readonly CaptureRecord[], t0: number): Piece[] {
  const out: Piece[] = [];
  let lost = false;
  for (const r of records) {
    if (r.kind === 'capture-gap') lost ||= r.reason !== 'import';
    else if (r.kind === 'chunk') {
      out.push({ t: r.t - t0, text: r.text, afterLoss: lost });
      lost = (r.droppedBytes ?? 0) > 0;
    }
  }
  return out;
}

/** The pieces cut into runs that continue each other's text; each run after the first starts after a loss. */
function runsOf(pieces: readonly Piece[]): Piece[][] {
  const runs: Piece[][] = [];
  for (const p of pieces) {
    if (p.afterLoss || runs.length === 0) runs.push([p]);
    else runs[runs.length - 1]!.push(p);
  }
  return runs;
}

/**
 * Split an event-stream body into units: each event with the time of the chunk that completed it.
 * Where records were lost, the text on either side of the loss up to the nearest certain event
 * boundary is not served (`unserved` counts its characters), as the analysis's parser drops it:
 * served joined, it would make an event the server never sent, with the id of the one cut.
 */
function sseUnits(pieces: readonly Piece[]): { units: Unit[]; unserved: number } {
  const parser = createSseConnectionParser();
  const units: Unit[] = [];
  let unserved = 0;
  const runs = runsOf(pieces);
  runs.forEach((run, r) => {
    const last = r === runs.length - 1;
    if (run[0]!.afterLoss) parser.resync();
    const text = run.map((p) => p.text).join('');
    const blocks = [...parser.feed(text), ...(last ? parser.end() : [])];
    unserved += unitsOfRun(run, text, blocks, units, { skipBefore: run[0]!.afterLoss, keepAfter: last });
  });
  return { units, unserved };
}

/**
 * Adds the units of one run's text (its pieces joined) to `units`; returns the characters it does
 * not serve. `skipBefore`: the text before its first event is what the parser discarded after a
 * loss; `keepAfter`: the text after its last event is served (else it is the start of an event
 * the loss cut).
 */
function unitsOfRun(run: readonly Piece[], text: string, blocks: readonly SseBlock[], units: Unit[], o: { skipBefore: boolean; keepAfter: boolean }): number {
  const ends: number[] = [];
  let at = 0;
  for (const p of run) ends.push((at += p.text.length));
  const timeAt = (offset: number): number => {
    for (let i = 0; i < ends.length; i++) if (offset <= ends[i]!) return run[i]!.t;
    return run[run.length - 1]?.t ?? 0;
  };
  const first = units.length;
  let unserved = 0;
  let pos = 0;
  const passthrough = (to: number) => {
    if (to > pos) units.push({ t: timeAt(to), text: text.slice(pos, to) });
    pos = to;
  };
  // Where each block is, found from the end: the text before the first block may be what the
  // parser discarded after a loss, which can hold the very text of the block after it (the same
  // keep-alive twice), and a search from the start would take that copy. After the last block
  // is at most the start of an event no blank line ended, which holds no whole block.
  const starts: number[] = [];
  let limit = text.length;
  for (let k = blocks.length - 1; k >= 0; k--) {
    const raw = blocks[k]!.raw;
    const i = limit >= raw.length ? text.lastIndexOf(raw, limit - raw.length) : -1;
    starts[k] = i;
    if (i >= 0) limit = i;
  }
  for (let k = 0; k < blocks.length; k++) {
    const b = blocks[k]!;
    const i = starts[k]!;
    if (i < pos) continue; // cannot happen: every block is a slice of the text fed, in order
    if (o.skipBefore && units.length === first) {
      unserved += i - pos;
      pos = i;
    }
    passthrough(i);
    const data = b.data;
    units.push({
      t: timeAt(i + b.raw.length),
      text: b.raw,
      block: {
        ...(b.id !== undefined ? { id: b.id } : {}),
        ...(b.event !== undefined ? { event: b.event } : {}),
        dispatched: data !== undefined && data !== '' && !b.truncated,
        messages: data ? decodeKeyed(data).messages : [],
        batch: data !== undefined && data.trimStart().startsWith('['),
      },
    });
    pos = i + b.raw.length;
  }
  if (o.keepAfter && !(o.skipBefore && units.length === first)) passthrough(text.length);
  else unserved += text.length - pos;
  return unserved;
}

/**
 * A body's chunks up to its first loss, and where that was: records of its connection lost (a
 * capture gap naming it, not an import's: that file holds no body at all) between the response
 * and its end, or a chunk the size cap cut (its kept text is before the loss). `trailing`: a loss
 * after the last chunk, which may have lost nothing (the end of a body looks like any other).
 */
function bodyUntilLoss(records: readonly CaptureRecord[]): { chunks: ChunkRecord[]; loss: 'none' | 'inside' | 'trailing' } {
  const chunks: ChunkRecord[] = [];
  let started = false;
  let ended = false;
  let pending = false;
  for (const r of records) {
    if (r.kind === 'response') started = true;
    else if (!started) continue;
    else if (r.kind === 'end') ended = true;
    else if (r.kind === 'capture-gap' && r.reason !== 'import' && !ended) pending = true;
    else if (r.kind === 'chunk') {
      if (pending) return { chunks, loss: 'inside' };
      chunks.push(r);
      if ((r.droppedBytes ?? 0) > 0) return { chunks, loss: 'inside' };
    }
  }
  return { chunks, loss: pending ? 'trailing' : 'none' };
}

/**
 * Whether the capture lost part of a JSON body (bodyUntilLoss). A loss after the last chunk
 * leaves the body whole when it parses as an object or array: nothing can follow its closing
 * bracket.
 */
function jsonBodyLost(loss: 'none' | 'inside' | 'trailing', chunks: number, text: string): boolean {
  if (loss !== 'trailing') return loss === 'inside';
  if (chunks === 0) return true;
  const root = text.trimStart();
  return !(root.startsWith('{') || root.startsWith('[')) || decodeKeyed(text).error !== undefined;
}

/**
 * serve's answer in place of a JSON body the capture lost part of (joined, the text on both sides
 * of the loss can parse into an answer the server never sent: a string's middle left out), or
 * does not hold (a HAR saved without it: served empty, it would be an answer with nothing). Each
 * request of the exchange gets an error under its recorded id as written, which the live id then
 * replaces as in any answer; id null when it had none.
 */
function lostJsonUnit(t: number, body: string | null, messages: readonly KeyedMessage[], batch: boolean, why: string): Unit {
  const error = JSON.stringify({ code: ANSWER_LOST, message: `mcp-stream-inspector serve: ${why}` });
  const written = liveIdReader(body, batch, messages.length);
  const ids = messages.flatMap((m, i) => (m.summary.kind === 'request' && m.msg ? [written(i, ['id'], m.msg.id)?.text ?? 'null'] : []));
  const answers = (ids.length > 0 ? ids : ['null']).map((id) => `{"jsonrpc":"2.0","id":${id},"error":${error}}`);
  const asBatch = batch && ids.length > 0;
  const text = asBatch ? `[${answers.join(',')}]` : answers[0]!;
  return { t, text, json: { messages: decodeKeyed(text).messages, batch: asBatch }, lost: true };
}

const LOST_PART = 'the capture lost part of this answer (a capture gap or a chunk its size cap cut); joined, it would be an answer the server never sent';
const NOT_HELD = 'the capture does not hold the body of this answer (the file saved it without its body)';

/**
 * The units of a body that is not an event stream, served whole when the capture holds it whole.
 * Else a JSON answer gets serve's -32051 error per request (lostJsonUnit), and any other body
 * (text/plain, an HTML error page) the text before the loss, which the capture proves the server
 * sent first: joined across the loss, it would be text the server never sent as one; the client
 * learns of the cut from the LOSS_HEADER, as for the other kinds.
 */
function bodyUnits(
  records: readonly CaptureRecord[],
  capture: 'json' | 'none',
  t0: number,
  req: { body: string | null; messages: readonly KeyedMessage[]; batch: boolean; absent: boolean },
): { units: Unit[]; loss?: BodyLoss } {
  const { chunks, loss } = bodyUntilLoss(records);
  const text = chunks.map((ch) => ch.text).join('');
  const t = (chunks.length > 0 ? chunks[chunks.length - 1]!.t : t0) - t0;
  if (capture === 'json') {
    if (jsonBodyLost(loss, chunks.length, text)) return { units: [lostJsonUnit(t, req.body, req.messages, req.batch, LOST_PART)], loss: 'answer' };
    // A HAR saved without the body (HAR writers omit them): served empty, an answer to requests
    // would be one with nothing in it. A notification's answer holds nothing anyway: served so.
    if (req.absent && chunks.length === 0 && req.messages.some((m) => m.summary.kind === 'request')) {
      return { units: [lostJsonUnit(t, req.body, req.messages, req.batch, NOT_HELD)], loss: 'absent' };
    }
  }
  const json = capture === 'json' && chunks.length > 0 ? decodeKeyed(text) : undefined;
  const units = chunks.length > 0 ? [{ t, text, ...(json && !json.error ? { json: { messages: json.messages, batch: text.trimStart().startsWith('[') } } : {}) }] : [];
  // The inspector's hook records no body of these (only a file of another recorder holds one): a
  // loss after the response of one whose body no chunk holds did not cut any text the file has.
  const cut = loss === 'inside' || (loss === 'trailing' && chunks.length > 0);
  return { units, ...(capture === 'none' && cut ? { loss: 'text' as const } : {}) };
}

/** A native EventSource's events, written back as SSE (the browser kept no raw text). */
function esUnits(events: { t: number; type: string; data: string; lastEventId: string }[]): Unit[] {
  let cursor = '';
  return events.map((e) => {
    const lines: string[] = [];
    if (e.type !== 'message') lines.push(`event: ${e.type}`);
    const changed = e.lastEventId !== cursor;
    if (changed) lines.push(`id: ${e.lastEventId}`);
    cursor = e.lastEventId;
    for (const l of e.data.split('\n')) lines.push(`data: ${l}`);
    return {
      t: e.t,
      text: lines.join('\n') + '\n\n',
      block: {
        ...(changed ? { id: e.lastEventId } : {}),
        ...(e.type !== 'message' ? { event: e.type } : {}),
        dispatched: e.data !== '',
        messages: decodeKeyed(e.data).messages,
        batch: e.data.trimStart().startsWith('['),
      },
    };
  });
}

export function buildRecording(records: readonly CaptureRecord[]): Recording {
  const conns = new Map<string, Conn>();
  const order: Conn[] = [];
  const gapConns = new Map<string, string[]>();
  for (const r of records) {
    if (r.kind === 'capture-gap') {
      for (const c of r.conns) {
        const k = `${r.src}\u0000${c}`;
        gapConns.set(k, [...(gapConns.get(k) ?? []), r.reason]);
        // Where in its body the loss was: what follows does not continue what came before.
        conns.get(k)?.records.push(r);
      }
      continue;
    }
    if (!('conn' in r)) continue;
    const k = `${r.src}\u0000${r.conn}`;
    if (r.kind === 'request') {
      // A second request record under one conn would be a new connection in a broken file; keep the first.
      if (conns.has(k)) continue;
      const c = { request: r, records: [] };
      conns.set(k, c);
      order.push(c);
    } else conns.get(k)?.records.push(r);
  }

  // MCP endpoints: a JSON-RPC body, an Mcp-Session-Id, or an event stream was seen there.
  const mcp = new Set<string>();
  for (const c of order) {
    const { origin, path } = originPath(c.request.url);
    const res = c.records.find((r) => r.kind === 'response');
    if (
      isJsonRpcBody(c.request.body) ||
      headerValue(c.request.headers, 'mcp-session-id') !== undefined ||
      (res?.kind === 'response' && (res.capture === 'sse' || headerValue(res.headers, 'mcp-session-id') !== undefined))
    )
      mcp.add(origin + path);
  }
  // Served at the recorded path; a path used by two recorded servers gets the host in front.
  const byPath = new Map<string, Set<string>>();
  for (const e of mcp) {
    const p = originPath(e).path;
    byPath.set(p, (byPath.get(p) ?? new Set()).add(e));
  }
  const pathOf = new Map<string, string>();
  for (const e of mcp) {
    const { origin, path } = originPath(e);
    const shared = (byPath.get(path)?.size ?? 0) > 1;
    pathOf.set(e, shared ? `/${origin.replace(/^[a-z]+:\/\//, '').replace(/[^A-Za-z0-9.-]/g, '_')}${path}` : path);
  }

  const warnings: string[] = [];
  const exchanges: Exchange[] = [];
  /** Absolute request and end times (the recording's clock) per exchange index. */
  const absolute: { request: number; end?: number }[] = [];
  let ignored = 0;
  for (const c of order) {
    const { origin, path } = originPath(c.request.url);
    const endpoint = origin + path;
    const served = pathOf.get(endpoint);
    if (served === undefined) {
      ignored++;
      continue;
    }
    const req = c.request;
    // A status no HTTP/1.1 server can send as the final answer (0, 1xx, >999 in a broken file): none.
    const res = c.records.find((r) => r.kind === 'response' && Number.isInteger(r.status) && r.status >= 200 && r.status <= 999);
    const endRec = c.records.find((r) => r.kind === 'end');
    const t0 = res?.kind === 'response' ? res.t : req.t;
    const notes: string[] = [];
    const chunks = c.records.filter((r) => r.kind === 'chunk');
    const es = c.records.filter((r) => r.kind === 'es-event');
    let units: Unit[] = [];
    let unserved = 0;
    const body = req.body;
    const decoded = body ? decodeKeyed(body) : undefined;
    const messages = decoded && !decoded.error ? decoded.messages : [];
    const batch = body !== null && body.trimStart().startsWith('[');
    const gaps = gapConns.get(`${req.src}\u0000${req.conn}`);
    const absent = gaps?.includes('import') ?? false;
    let loss: BodyLoss | undefined;
    if (res?.kind === 'response') {
      if (es.length > 0) units = esUnits(es.map((e) => ({ ...e, t: e.t - t0 })));
      else if (res.capture === 'sse') ({ units, unserved } = sseUnits(bodyPieces(c.records, t0)));
      else ({ units, loss } = bodyUnits(c.records, res.capture, t0, { body, messages, batch, absent }));
      const dropped = chunks.reduce((n, ch) => n + (ch.droppedBytes ?? 0), 0);
      if (dropped > 0) notes.push(`${dropped} bytes were not kept by the capture (event size cap)`);
      // A stream's loss as sseUnits reads it (bodyPieces): any loss of its connection's records.
      if (!loss && (es.length > 0 || res.capture === 'sse')) loss = absent ? 'absent' : gaps || dropped > 0 ? 'events' : undefined;
      else if (!loss && absent) loss = 'absent';
    }
    if (gaps) notes.push(absent ? 'the file holds no body for it' : `the capture lost records of it (${[...new Set(gaps)].join(', ')})`);
    if (unserved > 0) notes.push(`${unserved} characters of events the loss cut are not served (joined, they would make an event the server never sent)`);
    const answered = units.some((u) => u.lost);
    const instead = answered ? `answered with a JSON-RPC error ${ANSWER_LOST} in its place` : loss === 'text' ? 'served up to the loss' : '';
    if (answered) notes.push(absent ? `its JSON answer is not in the file: ${instead}` : `its JSON body is not whole: ${instead} (joined, it would be an answer the server never sent)`);
    if (loss === 'text') notes.push(`its body is cut by the loss: ${instead} (joined, it would be text the server never sent as one)`);
    const sessionId = headerValue(req.headers, 'mcp-session-id');
    const responseSessionId = res?.kind === 'response' ? headerValue(res.headers, 'mcp-session-id') : undefined;
    const lastEventId = headerValue(req.headers, 'last-event-id');
    const sid = sessionId ?? responseSessionId;
    exchanges.push({
      index: exchanges.length,
      conn: req.conn,
      httpMethod: req.method.toUpperCase(),
      url: req.url,
      path: served,
      endpoint,
      requestHeaders: req.headers,
      requestBody: body,
      messages,
      batch,
      ...(sessionId !== undefined ? { sessionId } : {}),
      ...(lastEventId !== undefined ? { lastEventId } : {}),
      ...(res?.kind === 'response'
        ? { response: { status: res.status, statusText: res.statusText, headers: res.headers, capture: res.capture, waitMs: Math.max(0, res.t - req.t) } }
        : {}),
      units,
      ...(endRec?.kind === 'end' ? { end: { how: endRec.how, t: Math.max(0, endRec.t - t0) } } : {}),
      group: sid !== undefined ? `session:${sid}` : `endpoint:${endpoint}`,
      ...(responseSessionId !== undefined ? { responseSessionId } : {}),
      notes,
      ...(loss ? { loss } : {}),
    });
    absolute.push({ request: req.t, ...(endRec?.kind === 'end' ? { end: endRec.t } : {}) });
    if (notes.length) warnings.push(`${req.method} ${served} (${req.conn}): ${notes.join('; ')}${instead ? '' : '; served as the capture holds it'}`);
  }
  markSessionEnds(exchanges, absolute);
  const paths = new Map<string, string>();
  for (const [e, p] of pathOf) paths.set(p, e);
  return { exchanges, paths, ignored, warnings };
}

/**
 * How long before the recorded DELETE a stream's end still counts as the session's end: a
 * recorder that takes a request's time when its answer arrives (the Node recorder of the fixture
 * captures) puts the DELETE after the ends the server made while handling it (1–2 ms seen).
 */
const SESSION_END_SLACK_MS = 50;

/** Sets `endsWithSession` on streams the server ended as their session's DELETE was handled. */
function markSessionEnds(exchanges: Exchange[], absolute: readonly { request: number; end?: number }[]): void {
  const deleteAt = new Map<string, number>();
  for (const ex of exchanges) {
    if (ex.httpMethod !== 'DELETE' || !ex.group.startsWith('session:')) continue;
    const t = absolute[ex.index]!.request;
    deleteAt.set(ex.group, Math.min(deleteAt.get(ex.group) ?? Infinity, t));
  }
  for (const ex of exchanges) {
    const d = deleteAt.get(ex.group);
    const end = absolute[ex.index]!.end;
    if (d === undefined || end === undefined || ex.httpMethod === 'DELETE' || !ex.end) continue;
    // Only ends the server made; a stream the client closed stays open on replay anyway.
    if (ex.end.how !== 'complete' && ex.end.how !== 'unknown' && ex.end.how !== 'network-error') continue;
    if (end >= d - SESSION_END_SLACK_MS) ex.endsWithSession = true;
  }
}

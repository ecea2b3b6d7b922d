// Which recorded exchange answers a live request. No I/O: the HTTP side (server.ts) asks, then
// plays what it is told. Rules:
// - A request is matched to the first unused recorded exchange of its session (mapped from the
//   session id this replay handed out) with the same HTTP method, path and key: the JSON-RPC
//   methods and params (without `_meta`: progress tokens, 2026-07-28 metadata) of a POST, the
//   Last-Event-ID of a GET. ids are not compared; they are mapped (rewrite.ts), by their key
//   (idKey: a number's token as written, so ids beyond 2^53 stay apart). `initialize`
//   matches by method when no recorded one has the same params (another client's clientInfo).
// - Each recorded session is one "pass": its first initialize hands out the recorded session id;
//   with --loop, or after a fault expired the session, a new initialize starts another pass of it
//   with `<id>-<pass>`.
// - A resume whose Last-Event-ID the recording never resumed from (a fault cut the stream
//   elsewhere) is answered as a correct server would: the recorded events after that id, on the
//   stream that carried it.
// - Anything else is not in the recording: a JSON-RPC error, and a console line saying why.
import { createFaultArming, responseOverride, type ActiveFault, type FaultArming, type FaultSpec, type RequestFacts, type ResponseOverride } from '../../core/faults/index';
import { paramsKey } from '../../core/faults/presets';
import { keyOf, liveIdReader, newIdMaps, type IdMaps, type KeyedMessage } from './rewrite';
import { ANSWER_LOST, type Exchange, type Recording } from './recording';

export interface LiveRequest {
  httpMethod: string;
  path: string;
  /** Lower-case names. */
  headers: Record<string, string | undefined>;
  body: string | null;
  /** Decoded with decodeKeyed: ids by their key. */
  messages: KeyedMessage[];
  batch: boolean;
}

export interface Pass {
  group: string;
  number: number;
  used: Set<number>;
  maps: IdMaps;
  recordedSessionId?: string;
  servedSessionId?: string;
  /** A fault expired this pass's session: a new initialize may start the next pass. */
  expired: boolean;
  /** Event ids this pass delivered: where each was, and when (ms, the replay's clock). */
  cursors: Map<string, { ex: Exchange; unit: number; at: number }>;
  /** Units (`<exchange index>:<unit index>`) a fault made the server lose: no replay brings them back. */
  lost: Set<string>;
  /**
   * Exchanges whose answer a fault broke: the same request sent again (a re-issue, the 2026-07-28
   * way to recover) is answered from them again, as the server would answer it.
   */
  faulted: Set<number>;
  /** Resolves when the live client's DELETE of this pass's session has been answered. */
  sessionEnded: Promise<void>;
  endSession(): void;
}

export type Answer =
  | {
      kind: 'replay';
      ex: Exchange;
      pass: Pass;
      /** First unit to play (a synthesized resume starts after the cursor). */
      from: number;
      /** Set for a synthesized resume: the cursor's unit time and when it was delivered. */
      resumeOf?: { unitT: number; at: number };
      /** Stay open after the last unit (a synthesized resume whose result was lost: as the SDK server waits). */
      hold?: boolean;
      faults: ActiveFault[];
      /** Live ids (JSON text) of the requests this response answers, for drop-result. */
      requestIds: string[];
      log: string;
    }
  | { kind: 'override'; override: ResponseOverride; pass?: Pass; sessionId?: string; log: string }
  | { kind: 'error'; status: number; contentType: string; body: string; log: string };

export interface ReplayOptions {
  loop?: boolean;
  /** `method`: match requests by JSON-RPC method only (params may differ). */
  match?: 'params' | 'method';
  faults?: readonly FaultSpec[];
  now?: () => number;
}

/** JSON-RPC error code of answers to requests the recording does not hold. */
export const NOT_IN_RECORDING = -32050;

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function params(d: KeyedMessage): unknown {
  return d.msg?.params;
}

/**
 * A notification's params with its requestId (notifications/cancelled) as the recorded id's key,
 * the live one mapped through `maps`: its parsed value would make two ids beyond 2^53 one.
 */
function withRecordedIds(d: KeyedMessage, maps?: IdMaps): unknown {
  const p = params(d);
  if (!isObj(p) || d.requestIdKey === undefined) return p;
  const k = d.requestIdKey;
  // Behind a NUL on both sides alike, so that the key, not a parsed value, is what is compared.
  return { ...p, requestId: `\u0000${maps?.liveToRecorded.get(k) ?? k}` };
}

/** What must be equal for a live message to be the recorded one (`maps` for a live one). */
function messageKey(d: KeyedMessage, loose: boolean, maps?: IdMaps): string {
  const s = d.summary;
  if (s.kind === 'request' || s.kind === 'notification') {
    const method = s.method ?? '';
    if (loose) return `${s.kind} ${method}`;
    const p = s.kind === 'notification' ? withRecordedIds(d, maps) : params(d);
    return `${s.kind} ${paramsKey(method, p)}`;
  }
  // The client's answer to a server request: the server chose the id, so it is the same.
  return `${s.kind} ${s.id ?? ''}`;
}

function bodyKey(messages: readonly KeyedMessage[], batch: boolean, loose: boolean, maps?: IdMaps): string {
  return (batch ? '[' : '') + messages.map((m) => messageKey(m, loose, maps)).join('\n');
}

function describeLive(live: LiveRequest): string {
  const first = live.messages[0]?.summary;
  if (live.httpMethod === 'POST' && first) {
    const what = live.messages.map((m) => (m.summary.method ?? m.summary.kind) + (m.summary.id !== undefined ? ` #${m.summary.id}` : '')).join(', ');
    return `POST ${live.path} ${what}`;
  }
  const leid = live.headers['last-event-id'];
  return `${live.httpMethod} ${live.path}${leid !== undefined ? ` Last-Event-ID ${leid}` : ''}`;
}

function describeEx(ex: Exchange): string {
  const r = ex.response;
  if (!r) return `recorded ${ex.conn}: no response (the request failed: connection dropped)`;
  const events = ex.units.filter((u) => u.block?.dispatched).length;
  const answered = ex.units.some((u) => u.lost);
  const body =
    r.capture === 'sse'
      ? `SSE, ${events} event${events === 1 ? '' : 's'}${ex.loss ? ` (${ex.loss === 'absent' ? 'the file holds no body' : 'the capture lost part of it'})` : ''}`
      : answered
        ? `JSON ${ex.loss === 'absent' ? 'the file holds no body for' : 'the capture lost part of'}: answered with JSON-RPC error ${ANSWER_LOST}`
        : ex.loss === 'text'
          ? 'a body the capture lost part of: served up to the loss'
          : r.capture === 'json'
            ? 'JSON'
            : 'no body';
  const end = !ex.end
    ? r.capture === 'none'
      ? ''
      : ', then stays open'
    : ex.end.how === 'network-error'
      ? ', then cut (connection reset)'
      : ex.end.how === 'complete' || ex.end.how === 'unknown'
        ? ''
        : ', then stays open (the client closed it)';
  return `recorded ${ex.conn}: ${r.status} ${body}${end}`;
}

export interface Replay {
  answer(live: LiveRequest): Answer;
  /** The HTTP side delivered an event with this id from `ex` (unit index) in `pass`. */
  delivered(pass: Pass, ex: Exchange, unit: number, id: string): void;
  readonly arming: FaultArming;
  readonly recording: Recording;
  passes(): Pass[];
}

export function createReplay(rec: Recording, options: ReplayOptions = {}): Replay {
  const now = options.now ?? (() => performance.now());
  const arming = createFaultArming(options.faults ?? []);
  const groups = new Map<string, Exchange[]>();
  for (const ex of rec.exchanges) groups.set(ex.group, [...(groups.get(ex.group) ?? []), ex]);
  const current = new Map<string, Pass>();
  const all: Pass[] = [];
  const sessions = new Map<string, Pass>();
  const newPass = (group: string): Pass => {
    const prev = current.get(group);
    let endSession = () => {};
    const sessionEnded = new Promise<void>((resolve) => (endSession = resolve));
    const p: Pass = {
      group, number: (prev?.number ?? 0) + 1, used: new Set(), maps: newIdMaps(), expired: false, cursors: new Map(), lost: new Set(), faulted: new Set(),
      sessionEnded, endSession: () => endSession(),
    };
    current.set(group, p);
    all.push(p);
    return p;
  };
  for (const g of groups.keys()) newPass(g);
  let pending: ActiveFault[] = [];

  const looseAllowed = (ex: Exchange) =>
    options.match === 'method' || (ex.messages.length === 1 && ex.messages[0]!.summary.kind === 'request' && ex.messages[0]!.summary.method === 'initialize');

  function sameKind(live: LiveRequest, ex: Exchange): boolean {
    if (ex.httpMethod !== live.httpMethod || ex.path !== live.path) return false;
    if (live.httpMethod === 'GET') return ex.lastEventId === live.headers['last-event-id'];
    return true;
  }

  function keyMatches(live: LiveRequest, ex: Exchange, pass: Pass, loose: boolean): boolean {
    if (live.httpMethod !== 'POST') return true;
    if (ex.messages.length === 0 || live.messages.length === 0) return ex.messages.length === live.messages.length && ex.requestBody === live.body;
    return bodyKey(ex.messages, ex.batch, loose) === bodyKey(live.messages, live.batch, loose, pass.maps);
  }

  /** First exchange in recorded order among `cands` that matches (strict, then loose where allowed). */
  function pick(live: LiveRequest, cands: Exchange[], passOf: (ex: Exchange) => Pass): Exchange | undefined {
    const kind = cands.filter((ex) => sameKind(live, ex));
    return kind.find((ex) => keyMatches(live, ex, passOf(ex), false)) ?? kind.find((ex) => looseAllowed(ex) && keyMatches(live, ex, passOf(ex), true));
  }

  function mapIds(live: LiveRequest, ex: Exchange, pass: Pass): string[] {
    const out: string[] = [];
    const written = liveIdReader(live.body, live.batch, live.messages.length);
    const recorded = liveIdReader(ex.requestBody, ex.batch, ex.messages.length);
    ex.messages.forEach((rm, i) => {
      const lm = live.messages[i];
      if (!lm || rm.summary.kind !== 'request' || lm.summary.kind !== 'request' || rm.summary.id === undefined || lm.summary.id === undefined) return;
      const id = written(i, ['id'], lm.msg!.id);
      if (id) pass.maps.ids.set(rm.summary.id, id);
      pass.maps.liveToRecorded.set(lm.summary.id, rm.summary.id);
      out.push(lm.summary.id);
      const rt = isObj(rm.msg?.params) && isObj(rm.msg.params._meta) ? rm.msg.params._meta.progressToken : undefined;
      const lt = isObj(lm.msg?.params) && isObj(lm.msg.params._meta) ? lm.msg.params._meta.progressToken : undefined;
      const rid = rt !== undefined ? recorded(i, ['params', '_meta', 'progressToken'], rt) : undefined;
      const rk = rid ? keyOf(rid) : undefined;
      const token = rk !== undefined && lt !== undefined ? written(i, ['params', '_meta', 'progressToken'], lt) : undefined;
      if (rk !== undefined && token) pass.maps.tokens.set(rk, token);
    });
    return out;
  }

  /** Live ids of the requests an exchange carried (for a resume: those of the stream it continues). */
  function liveIdsOf(ex: Exchange, pass: Pass): string[] {
    return ex.messages
      .filter((m) => m.summary.kind === 'request' && m.summary.id !== undefined)
      .map((m) => {
        const live = pass.maps.ids.get(m.summary.id!);
        return live !== undefined ? (keyOf(live) ?? m.summary.id!) : m.summary.id!;
      });
  }

  /** The exchange whose stream a cursor belongs to, following resumes back to the request. */
  function rootOf(ex: Exchange, pass: Pass): Exchange {
    let cur = ex;
    for (let guard = 0; guard < 1000 && cur.httpMethod === 'GET' && cur.lastEventId !== undefined; guard++) {
      const prev = pass.cursors.get(cur.lastEventId)?.ex ?? findRecorded(pass.group, cur.lastEventId, cur.index)?.ex;
      if (!prev || prev === cur) break;
      cur = prev;
    }
    return cur;
  }

  function findRecorded(group: string, id: string, before = Infinity): { ex: Exchange; unit: number } | undefined {
    let found: { ex: Exchange; unit: number } | undefined;
    for (const ex of groups.get(group) ?? []) {
      if (ex.index >= before) break;
      ex.units.forEach((u, i) => {
        if (u.block?.id === id) found = { ex, unit: i };
      });
    }
    return found;
  }

  function facts(live: LiveRequest, pass: Pass | undefined, sessionId: string | undefined): RequestFacts {
    const leid = live.headers['last-event-id'];
    const on: RequestFacts['on'] =
      live.httpMethod === 'POST' && live.messages.some((m) => m.summary.kind === 'request')
        ? 'request'
        : live.httpMethod === 'GET'
          ? leid !== undefined
            ? 'resume'
            : 'standalone'
          : 'other';
    let method: string | undefined;
    let tool: string | undefined;
    let requestId: string | undefined;
    let meta: unknown;
    const describe = (d: KeyedMessage | undefined) => {
      if (!d) return;
      method = d.summary.method;
      requestId = d.summary.id;
      const p = d.msg?.params;
      if (isObj(p)) {
        if (method === 'tools/call' && typeof p.name === 'string') tool = p.name;
        meta = p._meta;
      }
    };
    if (on === 'request') describe(live.messages.find((m) => m.summary.kind === 'request'));
    else if (on === 'resume' && leid !== undefined) {
      const at = pass?.cursors.get(leid) ?? (pass ? findRecorded(pass.group, leid) : undefined);
      if (at && pass) {
        const root = rootOf(at.ex, pass);
        describe(root.messages.find((m) => m.summary.kind === 'request'));
        if (requestId !== undefined) {
          const live = pass.maps.ids.get(requestId);
          if (live !== undefined) requestId = keyOf(live) ?? requestId;
        }
      }
    }
    const metaVersion = isObj(meta) && typeof meta['io.modelcontextprotocol/protocolVersion'] === 'string' ? (meta['io.modelcontextprotocol/protocolVersion'] as string) : undefined;
    const protocolVersion = live.headers['mcp-protocol-version'] ?? metaVersion;
    return {
      url: live.path,
      httpMethod: live.httpMethod,
      on,
      ...(method !== undefined ? { method } : {}),
      ...(tool !== undefined ? { tool } : {}),
      ...(requestId !== undefined ? { requestId } : {}),
      ...(protocolVersion !== undefined ? { protocolVersion } : {}),
      ...(sessionId !== undefined ? { sessionId } : {}),
    };
  }

  function notInRecording(live: LiveRequest, why: string): Answer {
    const log = `${describeLive(live)}: not in the recording (${why})`;
    const requests = live.messages.filter((m) => m.summary.kind === 'request');
    if (live.httpMethod === 'POST' && requests.length > 0) {
      // Written as text around the id the client wrote: a parsed id beyond 2^53 would come back rounded.
      const written = liveIdReader(live.body, live.batch, live.messages.length);
      const errors = live.messages.flatMap((m, i) => {
        if (m.summary.kind !== 'request') return [];
        const error = { code: NOT_IN_RECORDING, message: `mcp-stream-inspector serve: this ${m.summary.method} is not in the recording (${why})` };
        return [`{"jsonrpc":"2.0","id":${written(i, ['id'], m.msg!.id)?.text ?? 'null'},"error":${JSON.stringify(error)}}`];
      });
      return { kind: 'error', status: 200, contentType: 'application/json', body: live.batch ? `[${errors.join(',')}]` : errors[0]!, log: `${log} → JSON-RPC error ${NOT_IN_RECORDING}` };
    }
    if (live.httpMethod === 'POST' && live.messages.length > 0) return { kind: 'error', status: 202, contentType: 'application/json', body: '', log: `${log} → 202, no effect` };
    const status = live.httpMethod === 'GET' && live.headers['last-event-id'] !== undefined ? 400 : live.httpMethod === 'POST' ? 400 : 405;
    const body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: NOT_IN_RECORDING, message: `mcp-stream-inspector serve: ${live.httpMethod} not in the recording (${why})` } });
    return { kind: 'error', status, contentType: 'application/json', body, log: `${log} → ${status}` };
  }

  function recordedAlternatives(live: LiveRequest, cands: Exchange[]): string {
    const m = live.messages[0]?.summary.method;
    if (live.httpMethod !== 'POST' || m === undefined) return '';
    const same = cands.filter((ex) => ex.messages[0]?.summary.method === m);
    if (same.length === 0) return `no unused recorded ${m}`;
    const p = same[0]!.messages[0]!.msg?.params;
    let text: string;
    try {
      text = JSON.stringify(p ?? null) ?? '';
    } catch {
      text = '(params too deep to show)';
    }
    return `the recorded ${m} has other params: ${text.length > 160 ? text.slice(0, 157) + '…' : text}; --match method ignores params`;
  }

  function replayAnswer(live: LiveRequest, ex: Exchange, pass: Pass, active: ActiveFault[], again = false): Answer {
    if (again) pass.faulted.delete(ex.index);
    pass.used.add(ex.index);
    if (ex.httpMethod === 'DELETE') pass.endSession();
    const requestIds = mapIds(live, ex, pass);
    if (ex.responseSessionId !== undefined && ex.sessionId === undefined) {
      pass.recordedSessionId = ex.responseSessionId;
      pass.servedSessionId = pass.number === 1 ? ex.responseSessionId : `${ex.responseSessionId}-${pass.number}`;
      sessions.set(pass.servedSessionId, pass);
    }
    const ids = requestIds.length > 0 ? requestIds : live.httpMethod === 'GET' ? liveIdsOf(rootOf(ex, pass), pass) : [];
    const note = again ? ' (again: a re-issue of a request a fault broke)' : '';
    return { kind: 'replay', ex, pass, from: 0, faults: active, requestIds: ids, log: `${describeLive(live)} → ${describeEx(ex)}${note}` };
  }

  return {
    arming,
    recording: rec,
    passes: () => [...all],
    delivered(pass, ex, unit, id) {
      pass.cursors.set(id, { ex, unit, at: now() });
    },
    answer(live) {
      const a = answer(live);
      // A fault given to a request the recording cannot answer has not been used.
      if (a.kind === 'error') for (const f of pending) arming.refund(f);
      pending = [];
      return a;
    },
  };

  function answer(live: LiveRequest): Answer {
    const sid = live.headers['mcp-session-id'];
    const pass = sid !== undefined ? sessions.get(sid) : undefined;
    const f = facts(live, pass, sid);
    const active = arming.take(f);
    pending = active;
    const override = responseOverride(active);
    if (override) {
      if (override.fault.spec.action.kind === 'expire-session' && pass) pass.expired = true;
      return { kind: 'override', override, ...(pass ? { pass } : {}), ...(sid !== undefined ? { sessionId: sid } : {}), log: `${describeLive(live)} → fault: ${override.status}` };
    }
    if (sid !== undefined && !pass) {
      const known = [...sessions.keys()];
      return {
        kind: 'error',
        status: 404,
        contentType: 'application/json',
        body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }),
        log: `${describeLive(live)}: session ${sid} was not handed out by this replay (${known.length ? `served: ${known.join(', ')}` : 'no session yet: initialize first'}) → 404`,
      };
    }
    if (pass) {
      const cands = (groups.get(pass.group) ?? []).filter((ex) => !pass.used.has(ex.index) && ex.sessionId !== undefined);
      const ex = pick(live, cands, () => pass);
      if (ex) return replayAnswer(live, ex, pass, active);
      const redo = live.httpMethod === 'POST' ? pick(live, (groups.get(pass.group) ?? []).filter((e) => pass.faulted.has(e.index)), () => pass) : undefined;
      if (redo) return replayAnswer(live, redo, pass, active, true);
      const leid = live.headers['last-event-id'];
      if (live.httpMethod === 'GET' && leid !== undefined) {
        const synth = synthesize(live, pass, leid, active);
        if (synth) return synth;
      }
      return notInRecording(live, recordedAlternatives(live, cands) || `session ${pass.recordedSessionId ?? pass.group} has no unused exchange like it`);
    }
    // No session header: initialize, or sessionless traffic (stateless servers, 2026-07-28).
    const cands = rec.exchanges.filter((ex) => ex.sessionId === undefined && !current.get(ex.group)!.used.has(ex.index));
    const ex = pick(live, cands, (e) => current.get(e.group)!);
    if (ex) return replayAnswer(live, ex, current.get(ex.group)!, active);
    const faulted = rec.exchanges.filter((e) => e.sessionId === undefined && current.get(e.group)!.faulted.has(e.index));
    const redo = live.httpMethod === 'POST' ? pick(live, faulted, (e) => current.get(e.group)!) : undefined;
    if (redo) return replayAnswer(live, redo, current.get(redo.group)!, active, true);
    const used = rec.exchanges.filter((e) => e.sessionId === undefined && current.get(e.group)!.used.has(e.index));
    const again = pick(live, used, (e) => current.get(e.group)!);
    if (again && (options.loop || current.get(again.group)!.expired)) {
      const p = newPass(again.group);
      const first = pick(live, (groups.get(again.group) ?? []).filter((e) => e.sessionId === undefined), () => p)!;
      return replayAnswer(live, first, p, active);
    }
    const leid = live.headers['last-event-id'];
    if (live.httpMethod === 'GET' && leid !== undefined) {
      for (const p of current.values()) {
        if (!p.group.startsWith('endpoint:')) continue;
        const synth = p.cursors.has(leid) ? synthesize(live, p, leid, active) : undefined;
        if (synth) return synth;
      }
    }
    return notInRecording(live, again ? 'it was replayed already; --loop serves the recording again' : recordedAlternatives(live, cands) || 'nothing recorded like it');
  }

  function synthesize(live: LiveRequest, pass: Pass, leid: string, active: ActiveFault[]): Answer | undefined {
    const served = pass.cursors.get(leid);
    const at = served ?? findRecorded(pass.group, leid);
    if (!at) return undefined;
    const root = rootOf(at.ex, pass);
    const rest = at.ex.units.map((u, i) => ({ u, i })).slice(at.unit + 1);
    const lost = rest.some(({ i }) => pass.lost.has(`${at.ex.index}:${i}`));
    const left = rest.filter(({ u, i }) => u.block?.dispatched && !pass.lost.has(`${at.ex.index}:${i}`)).length;
    return {
      kind: 'replay',
      ex: at.ex,
      pass,
      from: at.unit + 1,
      resumeOf: { unitT: at.ex.units[at.unit]!.t, at: served?.at ?? now() },
      ...(lost ? { hold: true } : {}),
      faults: active,
      requestIds: liveIdsOf(root, pass),
      log: `${describeLive(live)} → no such resume recorded: replaying ${at.ex.conn} after id ${leid} (${left} event${left === 1 ? '' : 's'}), as a server that kept them would${lost ? '; without what a fault made it lose, then stays open' : ''}`,
    };
  }
}

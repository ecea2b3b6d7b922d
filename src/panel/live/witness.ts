// The independent witness (issue 9): the panel checks the capture against the browser's own
// network view, chrome.devtools.network, which does not depend on the page hook. Pure rules are in
// src/core/witness.ts; this file feeds them and turns what they find into records.
//
// Sources: `getHAR()` once at start (requests since DevTools opened, also those finished before
// the panel loaded, and requests still in flight), then every 2 s while the panel is visible and
// the capture holds no request of the hook (the only way to see a request still in flight, e.g. a
// worker's open event stream, while the panel would otherwise show nothing), and
// `onRequestFinished` (finished requests, with their bodies).
//
// For every request with MCP markers, after a grace period that lets the hook's records arrive:
// - captured (a hook request record matches, core/witness.ts matchCaptured): nothing to add, but a
//   cross-origin session id the page cannot read is reported (`session-id-not-exposed`);
// - not captured: one `capture-gap` record (src 'network', reason 'not-seen-by-hook', lost 1, the
//   request and the likely reason), so the analysis and every export say it; and, once the request
//   has finished, what the network view kept of it (request, response, the whole body as one
//   chunk, end) with transport 'network', "observed after completion".
// CORS preflights are paired with the request they were made for: a refused MCP header is a
// `notice` whose code is the finding `cors-preflight-rejected` (the analysis files it as a finding).

import type { CaptureRecord, Header, RequestRecord } from '../../core/record';
import { isEventStreamType, isJsonType } from '../../core/record';
import { utf8Length } from '../../core/utf8';
import { readEventSourceMessages } from '../../core/import/har-event-source';
import {
  exposeProblem,
  failedBeforeAnswer,
  isPreflight,
  likelyReason,
  matchCaptured,
  mcpMarkers,
  netHeaders,
  preflightProblem,
  startedAt,
  UNSEEN_REASON_TEXT,
  type CorsProblem,
  type NetEntry,
  type UnseenReason,
} from '../../core/witness';
import type { LiveStore } from './store';

export const WITNESS_SRC = 'network';

/** A chrome.devtools.network request (a HAR entry with getContent). */
export interface WitnessEntry extends NetEntry {
  response: NetEntry['response'] & { statusText?: string; bodySize?: number };
  getContent?(cb: (content: string | null, encoding: string) => void): void;
  /**
   * Chrome: the events DevTools' own EventStream view parsed from a text/event-stream response
   * (time in seconds since the epoch; eventId is the stream's last event id at that event).
   */
  _eventSourceMessages?: { time: number; eventName: string; eventId: string; data: string }[];
}

/** How a request the network saw ended, for its end record. */
function endOf(e: WitnessEntry): { how: 'complete' | 'network-error' | 'page-aborted'; reason: string } {
  const err = e.response._error;
  const where = 'observed after completion, chrome.devtools.network';
  if (!err) return { how: 'complete', reason: `(${where})` };
  // net::ERR_ABORTED: the client aborted the request or cancelled its body.
  return { how: err === 'net::ERR_ABORTED' ? 'page-aborted' : 'network-error', reason: `${err} (${where})` };
}

export interface MissingRequest {
  method: string;
  url: string;
  markers: string[];
  reason: UnseenReason;
  reasonText: string;
  /** When the network saw it start. */
  t: number;
  /**
   * Its body as the network kept it: added to the capture; waiting for the request to finish;
   * rebuilt from DevTools' EventStream messages (Chrome kept no body); not kept by the network
   * view; none (not an event stream or JSON, or failed before an answer).
   */
  body: 'added' | 'rebuilt' | 'pending' | 'not-kept' | 'none';
}

export interface WitnessSnapshot {
  readonly revision: number;
  /** MCP requests the network view showed (current page, or all with Preserve log). */
  readonly seen: number;
  /** Of those, held by the capture. */
  readonly captured: number;
  /** Not held by the capture (each has a capture-gap record). */
  readonly missing: readonly MissingRequest[];
  /** Seen, not judged yet (grace period). */
  readonly checking: number;
  readonly problems: readonly CorsProblem[];
}

export interface WitnessEnv {
  onRequestFinished(cb: (e: WitnessEntry) => void): void;
  getHar(): Promise<WitnessEntry[]>;
  /** What the background said about the tab's relays (null until it answered). */
  tabStatus(): { relays: boolean | null; installReason?: string };
  now?(): number;
  setTimer?(fn: () => void, ms: number): unknown;
  /** Whether the panel is visible (polling pauses while it is not). */
  visible?(): boolean;
}

export interface WitnessOptions {
  /** ms after a request was first seen before it is judged (default 1500; 3000 for the first getHAR). */
  graceMs?: number;
  /** getHAR poll interval while the capture holds no hook request (default 2000). */
  pollEmptyMs?: number;
}

export interface Witness {
  snapshot(): WitnessSnapshot;
  subscribe(fn: () => void): () => void;
  /** Read getHAR now (tests, and the panel's first screen). */
  poll(): Promise<void>;
  stop(): void;
}

interface Tracked {
  e: WitnessEntry;
  key: string;
  markers: string[];
  start: number;
  seenAt: number;
  finished: boolean;
  state: 'checking' | 'captured' | 'missing';
  missing?: MissingRequest;
  grace: number;
  /** Its notice or capture-gap record was emitted. */
  recorded?: boolean;
}

const MAX_TRACKED = 5000;
const PREFLIGHT_WAIT_MS = 3000;
const MAX_INDEX = 5000;

/**
 * Headers of the records the witness adds: all the network saw (the Origin, the browser's own
 * headers, those CORS hides from the page), except cookies, which the page hook never sees and
 * an export should not carry.
 */
const recordHeaders = (hs: NetEntry['request']['headers']) => netHeaders(hs).filter(([k]) => !/^(set-)?cookie2?$/i.test(k));

const keyOf = (e: NetEntry) => `${e.request.method} ${e.request.url} ${e.startedDateTime}`;

function bodyKind(e: NetEntry): 'sse' | 'json' | null {
  const ct = netHeaders(e.response.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? e.response.content?.mimeType;
  if (isEventStreamType(ct)) return 'sse';
  if (isJsonType(ct)) return 'json';
  return null;
}

function safeAtob(b64: string): string {
  try {
    const bin = atob(b64);
    const bytes = Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  } catch {
    return '';
  }
}

export function startWitness(store: LiveStore, env: WitnessEnv, opts: WitnessOptions = {}): Witness {
  const now = env.now ?? (() => Date.now());
  const setTimer = env.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const grace = opts.graceMs ?? 1500;
  let stopped = false;
  let seq = 0;
  let conn = 0;
  let revision = 0;
  const listeners = new Set<() => void>();
  const tracked = new Map<string, Tracked>();
  /** The same, by URL (a preflight is paired with a request to its URL). */
  const byUrl = new Map<string, Set<Tracked>>();
  /**
   * Entries dropped by Clear, a navigation or the bound: the network log still holds them, and the
   * next getHAR must not bring them back as new (their hook records are used by then: they would
   * look unseen).
   */
  const forgotten = new Set<string>();
  const untrack = (k: string, x: Tracked) => {
    tracked.delete(k);
    forgotten.add(k);
    if (forgotten.size > 20_000) forgotten.delete(forgotten.values().next().value!);
    const s = byUrl.get(x.e.request.url);
    s?.delete(x);
    if (s && s.size === 0) byUrl.delete(x.e.request.url);
  };
  const preflights: WitnessEntry[] = [];
  const pfSeen = new Map<WitnessEntry, number>();
  const seenPreflights = new Set<string>();
  const reported = new Set<string>();
  const problems: CorsProblem[] = [];

  // The hook's request records (and their responses' page-visible headers), kept here as well so
  // that Clear, or a navigation that empties the view, does not make a request look unseen.
  const hookRequests = new Set<RequestRecord>();
  const hookResponses = new Map<string, Header[]>();
  /**
   * Redirected requests: the network view has one entry per hop (the request's URL answered 3xx,
   * then the final URL), the capture one request with the final URL on its response. Each final
   * hop is matched here (same method, or GET after a 301/302/303).
   */
  const hookRedirects = new Set<{ method: string; url: string; t: number }>();
  const usedRedirects = new Set<{ method: string; url: string; t: number }>();
  const hookRequestByConn = new Map<string, RequestRecord>();
  const used = new Set<RequestRecord>();
  let documents: string[] = [];
  let bypassed = false;
  let bufferCapAt: number | undefined;
  let indexed = 0;
  let lastRecords: readonly CaptureRecord[] = [];
  let pageT = -Infinity;

  function index() {
    const snap = store.getSnapshot();
    const rs = snap.records;
    // The store replaces its array by an empty one only on Clear (a navigation keeps its record).
    const cleared = rs !== lastRecords && rs.length === 0 && tracked.size > 0;
    if (rs !== lastRecords) indexed = 0;
    for (let i = indexed; i < rs.length; i++) {
      const r = rs[i]!;
      if (r.src === WITNESS_SRC) continue;
      if (r.kind === 'request' && r.transport !== 'network') {
        hookRequests.add(r);
        hookRequestByConn.set(`${r.src}\u0000${r.conn}`, r);
      } else if (r.kind === 'response') {
        const key = `${r.src}\u0000${r.conn}`;
        hookResponses.set(key, r.headers);
        const q = hookRequestByConn.get(key);
        if (q && r.url && r.url !== q.url) {
          hookRedirects.add({ method: q.method, url: r.url, t: q.t });
          if (q.method !== 'GET') hookRedirects.add({ method: 'GET', url: r.url, t: q.t });
        }
      }
      else if (r.kind === 'navigation') documents = [...documents.slice(-200), r.url];
      else if (r.kind === 'notice' && r.code === 'hook-bypassed') bypassed = true;
      else if (r.kind === 'capture-gap' && r.reason === 'buffer-cap') bufferCapAt = Math.max(bufferCapAt ?? -Infinity, r.t);
    }
    indexed = rs.length;
    lastRecords = rs;
    for (const r of hookRequests) {
      if (hookRequests.size <= MAX_INDEX) break;
      hookRequests.delete(r);
      used.delete(r);
      hookResponses.delete(`${r.src}\u0000${r.conn}`);
      hookRequestByConn.delete(`${r.src}\u0000${r.conn}`);
    }
    for (const r of hookRedirects) {
      if (hookRedirects.size <= MAX_INDEX) break;
      hookRedirects.delete(r);
      usedRedirects.delete(r);
    }
    // A new page (top navigation) without Preserve log: the witness starts over with it, as the
    // store and the Network panel do. Clear empties it too.
    const page = snap.page;
    if ((page && page.t > pageT && !snap.preserveLog) || cleared) {
      const from = cleared ? Infinity : page!.t;
      let dropped = false;
      for (const [k, x] of tracked) {
        if (x.start < from && x.state !== 'checking') {
          untrack(k, x);
          dropped = true;
        }
      }
      if (dropped) changed();
    }
    if (page) pageT = Math.max(pageT, page.t);
  }
  const unsub = store.subscribe(index);

  let snap: WitnessSnapshot = { revision, seen: 0, captured: 0, missing: [], checking: 0, problems: [] };
  function changed() {
    revision++;
    let captured = 0;
    let checking = 0;
    const missing: MissingRequest[] = [];
    for (const x of tracked.values()) {
      if (x.state === 'captured') captured++;
      else if (x.state === 'checking') checking++;
      else if (x.missing) missing.push(x.missing);
    }
    snap = { revision, seen: tracked.size, captured, missing, checking, problems: problems.slice() };
    for (const l of [...listeners]) l();
  }

  const emit = (recs: CaptureRecord[]) => {
    if (recs.length) store.ingest(recs);
  };

  function report(p: CorsProblem) {
    const k = `${p.code} ${p.method} ${p.url} ${p.headers.join(',')}`;
    if (reported.has(k)) return;
    reported.add(k);
    problems.push(p);
    changed();
    emit([
      {
        kind: 'notice', src: WITNESS_SRC, seq: ++seq, t: now(), level: 'error', code: p.code, message: p.message, url: p.url,
        ...(p.sessionId !== undefined ? { sessionId: p.sessionId } : {}),
      },
    ]);
  }

  function addBody(x: Tracked) {
    const e = x.e;
    const capture = bodyKind(e);
    const m = x.missing;
    if (!m || m.body !== 'pending') return;
    if (!capture || !e.getContent || failedBeforeAnswer(e)) {
      m.body = 'none';
      recordUnseen(x, false);
      return;
    }
    m.body = 'added';
    e.getContent((content, encoding) => {
      if (stopped) return;
      const text = content == null ? '' : encoding === 'base64' ? safeAtob(content) : content;
      // Chrome keeps no body (getContent gives '') for a stream that broke or that the client
      // aborted; DevTools' EventStream messages then still hold its events: what DevTools
      // parsed, without comments, retry: or an id: line repeating the last id. With neither, the
      // stream is left out (its capture-gap says it is not held) rather than shown as one that
      // ended without events, which would accuse the server of a missing result.
      const start = x.start;
      const endT = start + (e.time > 0 ? e.time : 0);
      // As the HAR importer reads them (core/import/har-event-source.ts): a native EventSource's
      // view of the stream, `es-event` records with the stream's last event id at each event.
      const events = text === '' && capture === 'sse' ? (readEventSourceMessages(e._eventSourceMessages, { start, responseT: start, endT })?.events ?? []) : [];
      if (text === '' && events.length === 0) {
        m.body = 'not-kept';
        recordUnseen(x, false);
        changed();
        return;
      }
      if (events.length) m.body = 'rebuilt';
      const end = Math.max(endT, ...events.map((ev) => ev.t));
      const base = { src: WITNESS_SRC, conn: 'n' + (++conn).toString(36) };
      const how = endOf(e);
      const recs: CaptureRecord[] = [
        { ...base, seq: ++seq, t: start, kind: 'request', transport: 'network', method: e.request.method, url: e.request.url, headers: recordHeaders(e.request.headers), body: e.request.postData?.text ?? null },
        { ...base, seq: ++seq, t: start, kind: 'response', status: e.response.status, statusText: e.response.statusText ?? '', headers: recordHeaders(e.response.headers), url: e.request.url, redirected: false, type: 'network', capture },
      ];
      if (events.length) for (const ev of events) recs.push({ ...base, seq: ++seq, t: ev.t, kind: 'es-event', type: ev.type, data: ev.data, lastEventId: ev.lastEventId });
      else recs.push({ ...base, seq: ++seq, t: end, kind: 'chunk', text, bytes: utf8Length(text) });
      recs.push({ ...base, seq: ++seq, t: end, kind: 'end', how: how.how, reason: events.length ? `${how.reason}; events rebuilt from DevTools' EventStream view` : how.reason });
      emit(recs);
      recordUnseen(x, true);
      changed();
    });
  }

  function judge(x: Tracked) {
    if (stopped || x.state !== 'checking') return;
    index();
    // A request of a page the panel no longer shows (navigated away, no Preserve log): forget it.
    if (x.start < pageT && !store.getSnapshot().preserveLog) {
      untrack(x.key, x);
      changed();
      return;
    }
    const status = env.tabStatus();
    const hit = matchCaptured(x.e, hookRequests, used, now());
    if (!hit && matchCaptured(x.e, hookRedirects, usedRedirects, now())) {
      x.state = 'captured';
      changed();
      return;
    }
    if (hit) {
      x.state = 'captured';
      const p = exposeProblem(x.e, hookResponses.get(`${hit.src}\u0000${hit.conn}`));
      if (p) report(p);
      changed();
      return;
    }
    // Until the background said whether the tab has relays, "why" is not known: wait for it.
    if (status.relays === null && now() - x.seenAt < 10_000) {
      setTimer(() => judge(x), 500);
      return;
    }
    const reason = likelyReason(x.e, {
      relays: status.relays,
      ...(status.installReason !== undefined ? { installReason: status.installReason } : {}),
      bypassed,
      documents,
      ...(bufferCapAt !== undefined ? { bufferCapAt } : {}),
    });
    x.state = 'missing';
    x.missing = { method: x.e.request.method, url: x.e.request.url, markers: x.markers, reason, reasonText: UNSEEN_REASON_TEXT[reason], t: x.start, body: 'pending' };
    const p = exposeProblem(x.e);
    if (p) report(p);
    // Finished: its record says whether the capture now holds its events (observed by the network)
    // or not. Still in flight (its response may not even have headers yet): the gap now, so that
    // an export taken meanwhile says it; its events follow once it finishes.
    if (x.finished) addBody(x);
    else recordUnseen(x, false);
    changed();
  }

  /**
   * The record that carries an unseen request into the analysis and the exports. Its events held
   * (observed by the network view): a `notice` (code not-seen-by-hook, a warning finding: how the
   * page read them is unknown). Not held: a `capture-gap` (reason not-seen-by-hook, lost 1: the
   * capture lacks them). Once per request.
   */
  function recordUnseen(x: Tracked, held: boolean) {
    if (x.recorded || !x.missing) return;
    x.recorded = true;
    const m = x.missing;
    const { method, url } = m;
    // The request's session id, else the one its response created (initialize): the analysis
    // files the capture's streams of this request under that session too.
    const sidOf = (hs: NetEntry['request']['headers']) => netHeaders(hs).find(([k]) => k.toLowerCase() === 'mcp-session-id')?.[1];
    const sid = sidOf(x.e.request.headers) ?? sidOf(x.e.response.headers);
    if (held) {
      emit([
        {
          kind: 'notice', src: WITNESS_SRC, seq: ++seq, t: now(), level: 'warning', code: 'not-seen-by-hook', url, ...(sid !== undefined ? { sessionId: sid } : {}),
          message: `The capture hook did not see ${method} ${url} (likely: ${m.reasonText}). Its events are shown as the browser's network view observed them after completion${m.body === 'rebuilt' ? " (rebuilt from DevTools' EventStream view: Chrome kept no body)" : ''}: when and how the page read them is unknown.`,
        },
      ]);
    } else {
      emit([{ kind: 'capture-gap', src: WITNESS_SRC, seq: ++seq, t: now(), lost: 1, conns: [], reason: 'not-seen-by-hook', method, url, why: m.reason }]);
    }
  }

  /**
   * Preflights wait (at most PREFLIGHT_WAIT_MS) for the failed request they were made for: same
   * URL, status 0, started within 5 s; the closest. Chrome reports both, in either order. A
   * preflight that refused an MCP header is reported with or without it (the browser never sends
   * such a request); the session id then comes from the capture's request to that URL.
   */
  function pairPreflights(force = false) {
    for (let i = preflights.length - 1; i >= 0; i--) {
      const pf = preflights[i]!;
      const url = pf._initiator?.url ?? pf.request.url;
      const start = startedAt(pf);
      let actual: Tracked | undefined;
      for (const x of byUrl.get(url) ?? []) {
        if (!failedBeforeAnswer(x.e) || Math.abs(x.start - start) > 5000) continue;
        if (!actual || Math.abs(x.start - start) < Math.abs(actual.start - start)) actual = x;
      }
      const waited = now() - (pfSeen.get(pf) ?? 0) >= PREFLIGHT_WAIT_MS;
      if (!actual && !waited && !force) continue;
      preflights.splice(i, 1);
      pfSeen.delete(pf);
      let sid: string | undefined;
      if (!actual) {
        index();
        let best: RequestRecord | undefined;
        for (const r of hookRequests) {
          if (r.url !== url || Math.abs(r.t - start) > 5000) continue;
          if (!best || Math.abs(r.t - start) < Math.abs(best.t - start)) best = r;
        }
        sid = best?.headers.find(([k]) => k.toLowerCase() === 'mcp-session-id')?.[1];
      }
      const p = preflightProblem(pf, actual?.e, sid);
      if (p) report(p);
    }
  }

  function see(e: WitnessEntry, finished: boolean, initial: boolean) {
    if (stopped || !e?.request || !e.response) return;
    if (isPreflight(e)) {
      const k = keyOf(e);
      if (seenPreflights.has(k)) return;
      seenPreflights.add(k);
      if (seenPreflights.size > 2000) seenPreflights.delete(seenPreflights.values().next().value!);
      // Only a preflight asking for an MCP header, or for a JSON POST, can concern MCP.
      const asked = (netHeaders(e.request.headers).find(([n]) => n.toLowerCase() === 'access-control-request-headers')?.[1] ?? '').toLowerCase();
      if (!/mcp-|last-event-id|content-type/.test(asked)) return;
      preflights.push(e);
      pfSeen.set(e, now());
      if (preflights.length > 200) preflights.shift();
      pairPreflights();
      setTimer(() => pairPreflights(), PREFLIGHT_WAIT_MS + 10);
      return;
    }
    const k = keyOf(e);
    if (forgotten.has(k)) return;
    const old = tracked.get(k);
    if (old) {
      if (finished && !old.finished) {
        old.finished = true;
        old.e = e; // the finished entry has getContent and the final headers
        if (old.state === 'missing') {
          addBody(old);
          changed();
        }
      }
      return;
    }
    const markers = mcpMarkers(e);
    // A failed request can be an MCP one refused by its preflight: kept when its URL had one.
    if (markers.length === 0) return;
    const x: Tracked = { e, key: k, markers, start: startedAt(e), seenAt: now(), finished, state: 'checking', grace: initial ? grace * 2 : grace };
    tracked.set(k, x);
    let u = byUrl.get(e.request.url);
    if (!u) byUrl.set(e.request.url, (u = new Set()));
    u.add(x);
    if (tracked.size > MAX_TRACKED) {
      for (const [kk, y] of tracked) {
        if (tracked.size <= MAX_TRACKED) break;
        if (y.state !== 'checking') untrack(kk, y);
      }
    }
    pairPreflights();
    setTimer(() => judge(x), x.grace);
    changed();
  }

  env.onRequestFinished((e) => see(e, true, false));

  let polls = 0;
  async function poll() {
    if (stopped) return;
    let entries: WitnessEntry[] = [];
    try {
      entries = await env.getHar();
    } catch {
      return;
    }
    const initial = polls++ === 0;
    for (const e of entries) see(e, false, initial);
  }
  // getHAR copies DevTools' whole network log (a long event stream's EventStream messages
  // included) into the panel: polled only while the capture holds no request of the hook, i.e.
  // while the panel would otherwise say nothing; once the hook delivers, finished requests come
  // from onRequestFinished alone.
  function schedule() {
    if (stopped) return;
    setTimer(
      () => {
        if (stopped) return;
        index();
        if (hookRequests.size > 0) return schedule();
        const go = env.visible?.() ?? true;
        (go ? poll() : Promise.resolve()).finally(schedule);
      },
      opts.pollEmptyMs ?? 2000,
    );
  }
  void poll().finally(schedule);

  return {
    snapshot: () => snap,
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    poll,
    stop() {
      stopped = true;
      unsub();
    },
  };
}

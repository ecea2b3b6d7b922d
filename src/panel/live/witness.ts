// The independent witness (issue 9): the panel checks the capture against the browser's own
// network view, chrome.devtools.network, which does not depend on the page hook. Pure rules are in
// src/core/witness.ts; this file tracks the network's MCP requests and judges each against the
// capture. Beside it: witness-types.ts (its interface), witness-capture-index.ts (what it knows
// of the capture), witness-records.ts (the records it adds), witness-preflights.ts (CORS
// preflights paired with the requests they were made for).
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

import type { CaptureRecord } from '../../core/record';
import {
  exposeProblem,
  failedBeforeAnswer,
  isWorkerEntry,
  likelyReason,
  matchCaptured,
  mcpMarkers,
  noFragment,
  startedAt,
  UNSEEN_REASON_TEXT,
  type CorsProblem,
  type EntrySource,
  type NetEntry,
} from '../../core/witness';
import { followsRedirect, isRedirectHop, isUnfollowedRedirect, redirectTarget } from '../../core/witness-redirects';
import type { LiveStore } from './store';
import { answerWithin } from './devtools-answer';
import { createCaptureIndex } from './witness-capture-index';
import { createPreflights } from './witness-preflights';
import { bodyKind, contentText, createWitnessRecords } from './witness-records';
import type { MissingRequest, Witness, WitnessEntry, WitnessEnv, WitnessOptions, WitnessSnapshot } from './witness-types';

export { WITNESS_SRC } from './witness-capture-index';
export type { MissingRequest, Witness, WitnessEntry, WitnessEnv, WitnessOptions, WitnessSnapshot } from './witness-types';

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
  /** First seen in the first getHAR, when the panel was first shown: it may have finished long before. */
  initial: boolean;
  /** Its notice or capture-gap record was emitted. */
  recorded?: boolean;
  /** The hook's records hold its fetch (it matched one, or the redirect that led to it did). */
  hooked?: boolean;
  /** A redirect hop whose next request was looked for in a fresh getHAR. */
  harChecked?: boolean;
}

const MAX_TRACKED = 5000;
const JUDGE_SLACK_MS = 100;
/**
 * The least time between the starts of two getHAR reads made for redirect hops: a redirect loop
 * costs at most one copy of DevTools' log a second. A hop is judged 1.5 s after it was seen (its
 * grace), so waiting up to another second delays its verdict, never its evidence (getHAR still
 * lists its next request, open or not); and the witness polls getHAR every 2 s anyway while the
 * capture is empty, so one read a second is within the cost the panel already accepts.
 */
const HOP_HAR_SPACING_MS = 1000;

/**
 * How long a getHAR read may take before the witness stops waiting for it. Its callback is
 * DevTools' to call and nothing promises it will; a read in flight holds every later one (the
 * polls and the hops' reads wait for it), so one that never answered stopped the witness's reads
 * for the panel's life. A read of a long log takes seconds at most: one this late is dropped.
 */
const HAR_READ_TIMEOUT_MS = 30_000;

const keyOf = (e: NetEntry) => `${e.request.method} ${e.request.url} ${e.startedDateTime}`;

export function startWitness(store: LiveStore, env: WitnessEnv, opts: WitnessOptions = {}): Witness {
  const now = env.now ?? (() => Date.now());
  const setTimer = env.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const grace = opts.graceMs ?? 1500;
  let stopped = false;
  let revision = 0;
  const listeners = new Set<() => void>();
  const tracked = new Map<string, Tracked>();
  /** An entry with a pageref was seen: DevTools has the page's load, so entries without are workers' (isWorkerEntry). */
  let pagerefs = false;
  /** What tells a worker's entry from a document's, now (isWorkerEntry). */
  const source = (): EntrySource => ({ pagerefs, documents: capture.documents(), ...(env.extensionUrl ? { ownCode: env.extensionUrl } : {}) });
  /**
   * The same, by URL without #fragment (a preflight is paired with a request to its URL; a hop with
   * the request it led to). A fragment is never sent on the wire: Chromium 156 lists
   * `fetch('/mcp#x')` as /mcp (test/e2e/witness-fragment.test.ts), and a hop's target is compared
   * without one, so no entry is told apart by it whatever DevTools keeps.
   */
  const byUrl = new Map<string, Set<Tracked>>();
  const urlKey = (e: NetEntry) => noFragment(e.request.url);
  /**
   * Entries dropped by Clear, a navigation or the bound: the network log still holds them, and the
   * next getHAR must not bring them back as new (their hook records are used by then: they would
   * look unseen).
   */
  const forgotten = new Set<string>();
  /** Redirect hops by the URL they lead to (redirectTarget). */
  const hopsTo = new Map<string, Set<Tracked>>();
  const untrack = (k: string, x: Tracked) => {
    tracked.delete(k);
    forgotten.add(k);
    if (forgotten.size > 20_000) forgotten.delete(forgotten.values().next().value!);
    const s = byUrl.get(urlKey(x.e));
    s?.delete(x);
    if (s && s.size === 0) byUrl.delete(urlKey(x.e));
    const to = redirectTarget(x.e);
    const h = to === null ? undefined : hopsTo.get(to);
    h?.delete(x);
    if (h && h.size === 0) hopsTo.delete(to!);
  };
  const reported = new Set<string>();
  const problems: CorsProblem[] = [];
  const capture = createCaptureIndex(store);
  const make = createWitnessRecords();
  const preflights = createPreflights({
    now,
    setTimer,
    requestsTo: (url) => byUrl.get(noFragment(url)) ?? [],
    sessionIdNear(url, t) {
      index();
      return capture.sessionIdNear(url, t);
    },
    report,
  });
  let pageT = -Infinity;

  function index() {
    const { emptied } = capture.update();
    const cleared = emptied && tracked.size > 0;
    // A new page (top navigation) without Preserve log: the witness starts over with it, as the
    // store and the Network panel do. Clear empties it too.
    const snap = store.getSnapshot();
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

  // Built when read, not per change: a change per MCP request (seen, then judged) made every
  // request walk every tracked one (issue 22: 1,000 POSTs).
  let snap: WitnessSnapshot | undefined = { revision, seen: 0, captured: 0, missing: [], checking: 0, problems: [] };
  function build(): WitnessSnapshot {
    let captured = 0;
    let checking = 0;
    const missing: MissingRequest[] = [];
    for (const x of tracked.values()) {
      if (x.state === 'captured') captured++;
      else if (x.state === 'checking') checking++;
      else if (x.missing) missing.push(x.missing);
    }
    return { revision, seen: tracked.size, captured, missing, checking, problems: problems.slice() };
  }
  function changed() {
    revision++;
    snap = undefined;
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
    emit([make.corsNotice(p, now())]);
  }

  function addBody(x: Tracked) {
    const e = x.e;
    const kind = bodyKind(e);
    const m = x.missing;
    if (!m || m.body !== 'pending') return;
    if (!kind || !e.getContent || failedBeforeAnswer(e)) {
      m.body = 'none';
      recordUnseen(x, false);
      return;
    }
    m.body = 'added';
    e.getContent((content, encoding) => {
      if (stopped) return;
      const observed = make.observed(e, kind, contentText(content, encoding), x.start);
      if (!observed) {
        m.body = 'not-kept';
        recordUnseen(x, false);
        changed();
        return;
      }
      if (observed.rebuilt) m.body = 'rebuilt';
      emit(observed.records);
      recordUnseen(x, true);
      changed();
    });
  }

  /** The page's entry of the same request answered by its Service Worker, around `x`'s time (x: the worker's fetch). */
  function viaServiceWorker(x: Tracked): Tracked | undefined {
    for (const y of byUrl.get(urlKey(x.e)) ?? []) {
      if (y === x || !y.e.pageref || !y.e.response._fetchedViaServiceWorker || y.e.request.method !== x.e.request.method) continue;
      const end = y.e.time > 0 ? y.start + y.e.time : Infinity;
      if (x.start >= y.start - JUDGE_SLACK_MS && x.start <= end + JUDGE_SLACK_MS) return y;
    }
    return undefined;
  }

  /** The redirect hop that led to `x`, if it is one's next request. */
  function hopBefore(x: Tracked): Tracked | undefined {
    for (const y of hopsTo.get(urlKey(x.e)) ?? []) if (y !== x && followsRedirect(y.e, x.e)) return y;
    return undefined;
  }
  /** The request a redirect hop led to (one that was sent: not the entry of a redirect not followed). */
  function hopAfter(x: Tracked): Tracked | undefined {
    const to = redirectTarget(x.e);
    if (to === null) return undefined;
    for (const y of byUrl.get(to) ?? []) if (y !== x && !isUnfollowedRedirect(y.e) && followsRedirect(x.e, y.e)) return y;
    return undefined;
  }
  /**
   * Hops whose next request onRequestFinished has not brought (still open), waiting for a getHAR
   * that starts after they were judged (one already in flight may have been read before their next
   * request was listed: they wait for the next one). getHAR copies DevTools' whole network log, and
   * a loop of manual redirects, or of 302s to a login page, would read it once per hop: one read at
   * a time, at least HOP_HAR_SPACING_MS after the start of the last one, for every hop waiting then.
   */
  const hopsWaiting: Tracked[] = [];
  /** getHAR reads in flight (the polls' too: a hop's read waits for theirs to end). */
  let harReading = 0;
  let hopReadArmed = false;
  /** When the last getHAR started (any: a hop's read is spaced from the polls' as well). */
  let harStartedAt = -Infinity;
  function needHar(x: Tracked) {
    hopsWaiting.push(x);
    readForHops();
  }
  function readForHops() {
    if (stopped || harReading > 0 || hopReadArmed || hopsWaiting.length === 0) return;
    // (Bounded by the spacing: a clock set back must not hold the hops for as long.)
    const wait = Math.min(HOP_HAR_SPACING_MS, harStartedAt + HOP_HAR_SPACING_MS - now());
    if (wait > 0) {
      hopReadArmed = true;
      setTimer(() => {
        hopReadArmed = false;
        readForHops();
      }, wait);
      return;
    }
    const batch = hopsWaiting.splice(0);
    void poll().finally(() => {
      for (const x of batch) later(x, 0);
      readForHops();
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
    const src = source();
    const hit = capture.match(x.e, now(), src);
    if (!hit && matchCaptured(x.e, capture.redirects, capture.usedRedirects, now(), src)) {
      x.state = 'captured';
      x.hooked = true;
      changed();
      return;
    }
    if (hit) {
      x.state = 'captured';
      x.hooked = true;
      const p = exposeProblem(x.e, capture.responseHeaders(hit));
      if (p) report(p);
      changed();
      return;
    }
    // The page's request answered by its Service Worker is two entries: the page's (its pageref,
    // `_fetchedViaServiceWorker`) and the worker's own fetch of it (no pageref), which is what the
    // page read. With the page's captured, the worker's adds nothing the capture lacks; while the
    // page's is being judged, wait for it. (Checked on Chromium 156: a pass-through worker.)
    if (isWorkerEntry(x.e, src)) {
      const page = viaServiceWorker(x);
      if (page?.state === 'captured') {
        x.state = 'captured';
        changed();
        return;
      }
      if (page?.state === 'checking' && now() - x.seenAt < 10_000) {
        later(x, 500);
        return;
      }
    }
    // Redirects. Chrome lists each hop of a fetch as an entry; the hook holds the fetch once, by
    // the URL the page gave and, on its response, the final URL (none for `redirect: 'manual'`,
    // whose 'opaqueredirect' response has the first URL).
    const prev = hopBefore(x);
    // The entry DevTools starts for the Location of a redirect the fetch did not follow, cancelled
    // before it was sent: no request of its own (its fetch is judged at the hop).
    if (prev && isUnfollowedRedirect(x.e)) {
      untrack(x.key, x);
      changed();
      return;
    }
    // (A worker's hop, without pageref, is judged as any worker request.)
    if (!isWorkerEntry(x.e, src)) {
      // A request a redirect led to is part of the fetch the hook holds when the hop before it is.
      if (prev?.hooked) {
        x.state = 'captured';
        x.hooked = true;
        changed();
        return;
      }
      if (prev?.state === 'checking' && now() - x.seenAt < 10_000) {
        later(x, 500);
        return;
      }
      // A hop whose chain goes on is judged at its last request (which matches the hook's final
      // URL, or is reported itself). One whose chain ends here (a manual redirect: no next
      // request, or only the cancelled entry) is the fetch's last request: judged as any request.
      // The next request may still be open, which onRequestFinished has not brought: looked for
      // once in getHAR, which lists open requests.
      if (isRedirectHop(x.e)) {
        if (hopAfter(x)) {
          x.state = 'captured';
          changed();
          return;
        }
        if (!x.harChecked) {
          x.harChecked = true;
          needHar(x);
          return;
        }
      }
    }
    // Until the background said whether the tab has relays, "why" is not known: wait for it.
    if (status.relays === null && now() - x.seenAt < 10_000) {
      later(x, 500);
      return;
    }
    const bufferCapAt = capture.bufferCapAt();
    const reason = likelyReason(x.e, {
      relays: status.relays,
      ...(status.installReason !== undefined ? { installReason: status.installReason } : {}),
      bypassed: capture.bypassed(),
      documents: capture.documents(),
      ...(bufferCapAt !== undefined ? { bufferCapAt } : {}),
      pagerefs,
      ...(env.extensionUrl ? { ownCode: env.extensionUrl } : {}),
    });
    x.state = 'missing';
    x.missing = { method: x.e.request.method, url: x.e.request.url, markers: x.markers, reason, reasonText: UNSEEN_REASON_TEXT[reason], t: x.start, body: 'pending' };
    const p = exposeProblem(x.e);
    if (p) report(p);
    // Finished: its record says whether the capture now holds its events (observed by the network)
    // or not. Still in flight (its response may not even have headers yet): the gap now, so that
    // an export taken meanwhile says it; its events follow once it finishes.
    if (x.finished) addBody(x);
    else {
      recordUnseen(x, false);
      if (x.initial) finishedUnseen(x);
    }
    changed();
  }

  /**
   * An entry of the first getHAR may have finished before the panel was first shown: no
   * onRequestFinished ever comes for it. Chrome's getContent gives null while a request is loading
   * and its body once it has finished (measured on Chromium 156): a body means it is done. (Only
   * for those: an entry of a later poll gets its onRequestFinished, with its final timing, and one
   * that finished between that poll and its getContent would be recorded with the poll's.)
   */
  function finishedUnseen(x: Tracked) {
    const e = x.e;
    if (!e.getContent) return;
    e.getContent((content) => {
      if (stopped || x.finished || content === null || content === undefined) return;
      x.finished = true;
      addBody(x);
      changed();
    });
  }

  /**
   * Judgements due, on one timer: a timer per MCP request (its grace period) cost the panel more
   * than the judgement itself with a page's 1,000 POSTs (issue 22). Each is judged when its time
   * has come, in time order; requests closer together than JUDGE_SLACK_MS are judged together.
   */
  const due: { at: number; x: Tracked }[] = [];
  let dueArmed = false;
  function later(x: Tracked, ms: number) {
    due.push({ at: now() + ms, x });
    armDue();
  }
  function armDue() {
    if (dueArmed || due.length === 0 || stopped) return;
    let first = Infinity;
    for (const d of due) first = Math.min(first, d.at);
    dueArmed = true;
    setTimer(runDue, Math.max(JUDGE_SLACK_MS, first - now()));
  }
  function runDue() {
    dueArmed = false;
    const t = now();
    const ready: { at: number; x: Tracked }[] = [];
    const rest: { at: number; x: Tracked }[] = [];
    for (const d of due) (d.at <= t ? ready : rest).push(d);
    due.length = 0;
    for (const d of rest) due.push(d);
    ready.sort((a, b) => a.at - b.at);
    for (const d of ready) judge(d.x);
    armDue();
  }

  /** The record that carries an unseen request into the analysis and the exports; once per request. */
  function recordUnseen(x: Tracked, held: boolean) {
    if (x.recorded || !x.missing) return;
    x.recorded = true;
    emit([make.unseen(x.e, x.missing, held, now())]);
  }

  function hopOf(to: string, x: Tracked) {
    let hs = hopsTo.get(to);
    if (!hs) hopsTo.set(to, (hs = new Set()));
    hs.add(x);
  }

  function see(e: WitnessEntry, finished: boolean, initial: boolean) {
    if (stopped || !e?.request || !e.response) return;
    if (preflights.see(e)) return;
    const k = keyOf(e);
    if (forgotten.has(k)) return;
    const old = tracked.get(k);
    if (old) {
      if (finished && !old.finished) {
        old.finished = true;
        // A hop listed while in flight gets its 3xx and Location only now: indexed by where it leads
        // from here on (the entry after a manual redirect looks for it there).
        const was = redirectTarget(old.e);
        const to = redirectTarget(e);
        old.e = e; // the finished entry has getContent and the final headers
        if (to !== was) {
          if (was !== null) hopsTo.get(was)?.delete(old);
          if (to !== null) hopOf(to, old);
        }
        if (old.state === 'missing') {
          addBody(old);
          changed();
        }
      }
      return;
    }
    if (e.pageref) pagerefs = true;
    const markers = mcpMarkers(e);
    // A failed request can be an MCP one refused by its preflight: kept when its URL had one.
    if (markers.length === 0) return;
    const x: Tracked = { e, key: k, markers, start: startedAt(e), seenAt: now(), finished, state: 'checking', grace: initial ? grace * 2 : grace, initial };
    tracked.set(k, x);
    let u = byUrl.get(urlKey(e));
    if (!u) byUrl.set(urlKey(e), (u = new Set()));
    u.add(x);
    const to = redirectTarget(e);
    if (to !== null) hopOf(to, x);
    if (tracked.size > MAX_TRACKED) {
      for (const [kk, y] of tracked) {
        if (tracked.size <= MAX_TRACKED) break;
        if (y.state !== 'checking') untrack(kk, y);
      }
    }
    preflights.pair();
    later(x, x.grace);
    changed();
  }

  env.onRequestFinished((e) => see(e, true, false));

  let polls = 0;
  async function poll() {
    if (stopped) return;
    let entries: WitnessEntry[] = [];
    harStartedAt = now();
    harReading++;
    try {
      const got = await answerWithin(env.getHar(), HAR_READ_TIMEOUT_MS, setTimer);
      if (!got) return;
      entries = got;
    } catch {
      return;
    } finally {
      harReading--;
      readForHops(); // hops that waited for this read to end (theirs is spaced from its start)
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
        if (capture.requests.size > 0) return schedule();
        // A read in flight (a hop's) brings the same entries: no second copy of the log at once.
        const go = (env.visible?.() ?? true) && harReading === 0;
        (go ? poll() : Promise.resolve()).finally(schedule);
      },
      opts.pollEmptyMs ?? 2000,
    );
  }
  void poll().finally(schedule);

  return {
    snapshot: () => (snap ??= build()),
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

// What the network witness (witness.ts) needs to know of the capture, read from the live store as
// records arrive: the hook's request records and their responses' page-visible headers (kept here
// as well, so that Clear, or a navigation that empties the view, does not make a request look
// unseen), redirects, the documents the relays saw, whether the page bypassed the hook, and when
// the relay's buffer cap last dropped records (core/witness.ts likelyReason reads the last three).

import type { CaptureRecord, Header, RequestRecord } from '../../core/record';
import { isWorkerEntry, noFragment, startedAt, type EntrySource, type NetEntry } from '../../core/witness';
import type { LiveStore } from './store';

/** The src of the records the witness adds itself (not the capture's: never indexed). */
export const WITNESS_SRC = 'network';

/** At most this many hook requests (and redirects) are kept for matching; the oldest go first. */
const MAX_INDEX = 5000;

export interface RedirectHop {
  method: string;
  url: string;
  t: number;
}

export interface CaptureIndex {
  /**
   * Read the records the store got since the last call. `emptied`: the store replaced its array
   * by an empty one (it does so only on Clear; a navigation keeps its record).
   */
  update(): { emptied: boolean };
  /** The hook's request records, and those a network entry was matched to already. */
  readonly requests: Set<RequestRecord>;
  readonly used: Set<RequestRecord>;
  /**
   * The hook's request record a network entry stands for (core/witness.ts matchCaptured), marked
   * used. Only requests not matched yet are looked at: every MCP request is judged once, so
   * scanning all of them made a page's 1,000 POSTs cost the panel a quadratic walk (issue 22).
   */
  match(e: NetEntry, now: number, source: boolean | EntrySource): RequestRecord | undefined;
  /**
   * Redirected requests: the network view has one entry per hop (the request's URL answered 3xx,
   * then the final URL), the capture one request with the final URL on its response. Each final
   * hop is matched here (same method, or GET after a 301/302/303).
   */
  readonly redirects: Set<RedirectHop>;
  readonly usedRedirects: Set<RedirectHop>;
  /** The page-visible headers of a hook request's response. */
  responseHeaders(r: RequestRecord): Header[] | undefined;
  /** The URLs of the documents the relays saw (the last 200). */
  documents(): string[];
  bypassed(): boolean;
  bufferCapAt(): number | undefined;
  /** The session id of the hook's request to `url` that started closest to `t` (within 5 s). */
  sessionIdNear(url: string, t: number): string | undefined;
}

const connKey = (r: { src: string; conn: string }) => `${r.src}\u0000${r.conn}`;

export function createCaptureIndex(store: LiveStore): CaptureIndex {
  const requests = new Set<RequestRecord>();
  const used = new Set<RequestRecord>();
  /**
   * `requests` less `used`, by method and URL (without #fragment), each list sorted by time (then
   * arrival): match() looks only at those of the entry's method and URL within its time window,
   * and picks what core/witness.ts matchCaptured would pick among all of them. The bench
   * reloads its page before every run: requests of earlier pages stay unmatched (their entries
   * are forgotten with the page), and matching walked all of them (up to MAX_INDEX) per request.
   */
  const unmatched = new Map<string, { r: RequestRecord; ord: number }[]>();
  const ordOf = new Map<RequestRecord, number>();
  let ord = 0;
  const bucketKey = (method: string, url: string) => `${method}\u0000${noFragment(url)}`;
  /** First index in a time-sorted list whose item is not before (t, o). */
  const lowerBound = (list: { r: RequestRecord; ord: number }[], t: number, o: number) => {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const x = list[mid]!;
      if (x.r.t < t || (x.r.t === t && x.ord < o)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const addUnmatched = (r: RequestRecord) => {
    if (ordOf.has(r)) return;
    const o = ord++;
    ordOf.set(r, o);
    const k = bucketKey(r.method, r.url);
    let list = unmatched.get(k);
    if (!list) unmatched.set(k, (list = []));
    const at = lowerBound(list, r.t, o);
    list.splice(at, 0, { r, ord: o });
  };
  const removeUnmatched = (r: RequestRecord) => {
    const o = ordOf.get(r);
    if (o === undefined) return;
    ordOf.delete(r);
    const k = bucketKey(r.method, r.url);
    const list = unmatched.get(k);
    if (!list) return;
    const at = lowerBound(list, r.t, o);
    if (list[at]?.r === r) list.splice(at, 1);
    if (list.length === 0) unmatched.delete(k);
  };
  const responses = new Map<string, Header[]>();
  const redirects = new Set<RedirectHop>();
  const usedRedirects = new Set<RedirectHop>();
  const requestByConn = new Map<string, RequestRecord>();
  let documents: string[] = [];
  /** Per document (src): replacements of a hooked API said (hook-bypassed), and those found to call through (hook-wrapped). */
  const replacedBy = new Map<string, [number, number]>();
  let bufferCapAt: number | undefined;
  let indexed = 0;
  let lastRecords: readonly CaptureRecord[] = [];

  function update() {
    const rs = store.getSnapshot().records;
    const emptied = rs !== lastRecords && rs.length === 0;
    if (rs !== lastRecords) {
      indexed = 0;
      replacedBy.clear(); // counted again below (the other indexes are sets)
    }
    for (let i = indexed; i < rs.length; i++) {
      const r = rs[i]!;
      if (r.src === WITNESS_SRC) continue;
      if (r.kind === 'request' && r.transport !== 'network') {
        requests.add(r);
        if (!used.has(r)) addUnmatched(r);
        requestByConn.set(connKey(r), r);
      } else if (r.kind === 'response') {
        const key = connKey(r);
        responses.set(key, r.headers);
        const q = requestByConn.get(key);
        // A response's URL (Response.url, XMLHttpRequest.responseURL) never has a #fragment, where
        // the hook keeps the one the page passed; a fragment is never sent on the wire, so
        // `fetch('/mcp#x')` answered at /mcp is no redirect (taken for one, its "final URL" made
        // another request to /mcp that the hook did not see look captured).
        if (q && r.url && noFragment(r.url) !== noFragment(q.url)) {
          redirects.add({ method: q.method, url: r.url, t: q.t });
          if (q.method !== 'GET') redirects.add({ method: 'GET', url: r.url, t: q.t });
        }
      } else if (r.kind === 'navigation') documents = [...documents.slice(-200), r.url];
      else if (r.kind === 'notice' && (r.code === 'hook-bypassed' || r.code === 'hook-wrapped')) {
        // The hook says hook-wrapped of a replacement it said hook-bypassed of, once the page's
        // wrapper called through it (hook/bypass.ts): as many of each in a document, and every
        // replacement there calls the original (a monitoring wrapper), so nothing goes around it.
        const n = replacedBy.get(r.src) ?? [0, 0];
        n[r.code === 'hook-bypassed' ? 0 : 1]++;
        replacedBy.set(r.src, n);
      }
      else if (r.kind === 'capture-gap' && r.reason === 'buffer-cap') bufferCapAt = Math.max(bufferCapAt ?? -Infinity, r.t);
    }
    indexed = rs.length;
    lastRecords = rs;
    for (const r of requests) {
      if (requests.size <= MAX_INDEX) break;
      requests.delete(r);
      used.delete(r);
      removeUnmatched(r);
      responses.delete(connKey(r));
      requestByConn.delete(connKey(r));
    }
    for (const r of redirects) {
      if (redirects.size <= MAX_INDEX) break;
      redirects.delete(r);
      usedRedirects.delete(r);
    }
    return { emptied };
  }

  return {
    update,
    requests,
    used,
    match(e, now, source) {
      if (isWorkerEntry(e, source)) return undefined; // as matchCaptured
      const list = unmatched.get(bucketKey(e.request.method, e.request.url));
      if (!list) return undefined;
      // The window matchCaptured applies; what is outside it could not match. Within it, its
      // choice (the closest in time to the entry's start, of equals the first to arrive) is found
      // by walking out from the entry's start on either side of the time-sorted list, each side
      // only as far as it can still hold a closer (or as close) request. The witness judges each
      // entry a second or two after it saw it: while a page sends a POST every few ms the window
      // holds hundreds of requests still waiting for their own entries, and a pass over all of
      // them per match (with the URL compared again for each) was the witness's largest self
      // time in a CPU profile of the panel over 1,000 POSTs (issue 22). The bucket's key holds
      // the method and URL: no request of another is in the list.
      const start = startedAt(e);
      const end = e.time > 0 ? start + e.time : now;
      const lo = start - 1000;
      const hi = Math.max(end, start) + 2000;
      let best: { r: RequestRecord; ord: number } | undefined;
      let bestD = Infinity;
      const consider = (c: { r: RequestRecord; ord: number }, d: number) => {
        if (used.has(c.r)) return;
        if (d < bestD || (d === bestD && best !== undefined && c.ord < best.ord)) {
          best = c;
          bestD = d;
        }
      };
      const at = lowerBound(list, start, -Infinity);
      for (let i = at; i < list.length; i++) {
        const c = list[i]!;
        const d = c.r.t - start;
        if (c.r.t > hi || d > bestD) break;
        consider(c, d);
      }
      for (let i = at - 1; i >= 0; i--) {
        const c = list[i]!;
        const d = start - c.r.t;
        if (c.r.t < lo || d > bestD) break;
        consider(c, d);
      }
      if (!best) return undefined;
      used.add(best.r);
      removeUnmatched(best.r);
      return best.r;
    },
    redirects,
    usedRedirects,
    responseHeaders: (r) => responses.get(connKey(r)),
    documents: () => documents,
    bypassed: () => [...replacedBy.values()].some(([replaced, wrapped]) => replaced > wrapped),
    bufferCapAt: () => bufferCapAt,
    sessionIdNear(url, t) {
      let best: RequestRecord | undefined;
      // `url` is the network's (Chromium 156 drops the #fragment, never sent), the hook's the page's.
      const u = noFragment(url);
      for (const r of requests) {
        if (noFragment(r.url) !== u || Math.abs(r.t - t) > 5000) continue;
        if (!best || Math.abs(r.t - t) < Math.abs(best.t - t)) best = r;
      }
      return best?.headers.find(([k]) => k.toLowerCase() === 'mcp-session-id')?.[1];
    },
  };
}

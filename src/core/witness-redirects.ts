// Redirects in the browser's network view (the witness, core/witness.ts): Chrome lists each hop
// of a redirected request as an entry of its own, where the page hook records the fetch once.
// Which entries are one fetch, and where a fetch's chain ends.

import { failedBeforeAnswer, netHeader, noFragment, startedAt, type NetEntry } from './witness';
import { initiatorFrames } from './witness-initiator';

/**
 * An entry answered with a redirect (3xx with a Location): it carries no body of its own, and the
 * request it leads to, if the fetch follows it, is an entry of its own. The hook records a fetch
 * once, with the URL the page gave and the final URL on its response: hops in between match no
 * captured request. A fetch with `redirect: 'manual'` stops at its hop (the page gets an
 * 'opaqueredirect' response): that hop is the fetch's last request (see followsRedirect).
 */
export function isRedirectHop(e: NetEntry): boolean {
  const s = e.response.status;
  return s >= 300 && s < 400 && s !== 304 && netHeader(e.response.headers, 'location') !== undefined;
}

/** A URL as the browser writes it, without its #fragment (null: not a URL). */
function normalUrl(u: string, base?: string): string | null {
  try {
    return noFragment(new URL(u, base).href);
  } catch {
    return null;
  }
}

/** The URL a redirect hop leads to (its Location, resolved against the request's URL). */
export function redirectTarget(e: NetEntry): string | null {
  if (!isRedirectHop(e)) return null;
  return normalUrl(netHeader(e.response.headers, 'location')!, e.request.url);
}

/**
 * Whether `next` is the request the redirect `hop` led to: Chrome lists each hop of a followed
 * redirect as an entry of its own, the next one for the hop's Location, started as the hop ended,
 * in the same page, with the same initiator (the one fetch call), the same method (or GET after a
 * 301/302/303). Checked on Chromium 156.
 */
export function followsRedirect(hop: NetEntry, next: NetEntry): boolean {
  const to = redirectTarget(hop);
  if (to === null || to !== normalUrl(next.request.url)) return false;
  if ((hop.pageref ?? '') !== (next.pageref ?? '')) return false;
  const s = hop.response.status;
  if (next.request.method !== hop.request.method && !(next.request.method === 'GET' && (s === 301 || s === 302 || s === 303))) return false;
  const start = startedAt(hop);
  const t = startedAt(next);
  if (t < start || t > start + Math.max(0, hop.time) + 1000) return false;
  const a = initiatorFrames(hop._initiator?.stack);
  const b = initiatorFrames(next._initiator?.stack);
  return a === '' || b === '' || a === b;
}

/**
 * Of an entry for a hop's Location (followsRedirect): whether it is the one Chrome lists after a
 * redirect the fetch did not follow. With `redirect: 'manual'` (or a fetch aborted at the
 * redirect) DevTools still starts an entry for the Location, then cancels it before it is sent
 * (status 0, net::ERR_ABORTED, only a Referer among its request headers, the server never sees
 * it; checked on Chromium 156). It is no request of its own: its fetch ended at the hop.
 */
export function isUnfollowedRedirect(e: NetEntry): boolean {
  return failedBeforeAnswer(e) && e.response._error === 'net::ERR_ABORTED';
}

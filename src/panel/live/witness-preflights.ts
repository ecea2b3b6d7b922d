// CORS preflights, for the network witness (witness.ts): a preflight that refused an MCP header is
// what made an MCP request fail before the page's code saw an answer (the browser never sends the
// request itself). Each preflight waits (at most PREFLIGHT_WAIT_MS) for the failed request it was
// made for: same URL, status 0, started within 5 s; the closest. Chrome reports both, in either
// order. A preflight that refused an MCP header is reported with or without it; the session id
// then comes from the capture's request to that URL.

import { failedBeforeAnswer, isPreflight, netHeader, preflightProblem, startedAt, type CorsProblem, type NetEntry } from '../../core/witness';

const PREFLIGHT_WAIT_MS = 3000;

export interface PreflightEnv {
  now(): number;
  setTimer(fn: () => void, ms: number): unknown;
  /** The MCP requests the witness tracks for this URL, with when they started. */
  requestsTo(url: string): Iterable<{ e: NetEntry; start: number }>;
  /** The session id of the capture's request to `url` closest to `t`. */
  sessionIdNear(url: string, t: number): string | undefined;
  report(p: CorsProblem): void;
}

export interface Preflights {
  /** A preflight entry: taken (true), or not a preflight (false). */
  see(e: NetEntry): boolean;
  /** Pair the waiting preflights with the requests seen so far (`force`: report them now). */
  pair(force?: boolean): void;
}

export function createPreflights(env: PreflightEnv): Preflights {
  const waiting: NetEntry[] = [];
  const seenAt = new Map<NetEntry, number>();
  const seen = new Set<string>();

  function pair(force = false) {
    for (let i = waiting.length - 1; i >= 0; i--) {
      const pf = waiting[i]!;
      const url = pf._initiator?.url ?? pf.request.url;
      const start = startedAt(pf);
      let actual: { e: NetEntry; start: number } | undefined;
      for (const x of env.requestsTo(url)) {
        if (!failedBeforeAnswer(x.e) || Math.abs(x.start - start) > 5000) continue;
        if (!actual || Math.abs(x.start - start) < Math.abs(actual.start - start)) actual = x;
      }
      const waited = env.now() - (seenAt.get(pf) ?? 0) >= PREFLIGHT_WAIT_MS;
      if (!actual && !waited && !force) continue;
      waiting.splice(i, 1);
      seenAt.delete(pf);
      const sid = actual ? undefined : env.sessionIdNear(url, start);
      const p = preflightProblem(pf, actual?.e, sid);
      if (p) env.report(p);
    }
  }

  return {
    pair,
    see(e) {
      if (!isPreflight(e)) return false;
      const k = `${e.request.method} ${e.request.url} ${e.startedDateTime}`;
      if (seen.has(k)) return true;
      seen.add(k);
      if (seen.size > 2000) seen.delete(seen.values().next().value!);
      // Only a preflight asking for an MCP header, or for a JSON POST, can concern MCP.
      const asked = (netHeader(e.request.headers, 'access-control-request-headers') ?? '').toLowerCase();
      if (!/mcp-|last-event-id|content-type/.test(asked)) return true;
      waiting.push(e);
      seenAt.set(e, env.now());
      if (waiting.length > 200) waiting.shift();
      pair();
      env.setTimer(() => pair(), PREFLIGHT_WAIT_MS + 10);
      return true;
    },
  };
}

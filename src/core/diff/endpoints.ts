// Pairing the servers of two runs. A server is its endpoint (origin + path); a second run of the
// same scenario often reaches it on another port (a test server on port 0) or host (a preview
// deployment), so endpoints without an exact counterpart are paired by host and path, then by path
// alone, when that pairing is unambiguous (one candidate on each side).
import type { EndpointPair } from './types';

function parts(endpoint: string): { host: string; path: string } {
  try {
    const u = new URL(endpoint);
    return { host: u.hostname, path: u.pathname };
  } catch {
    return { host: '', path: endpoint };
  }
}

export function pairEndpoints(base: readonly string[], head: readonly string[]): EndpointPair[] {
  const pairs: EndpointPair[] = [];
  const restB = new Set(base);
  const restH = new Set(head);
  for (const e of base) {
    if (restH.has(e)) {
      pairs.push({ base: e, head: e, how: 'exact' });
      restB.delete(e);
      restH.delete(e);
    }
  }
  const byKey = (how: 'host' | 'path') => (e: string) => {
    const p = parts(e);
    return how === 'host' ? `${p.host}\u0000${p.path}` : p.path;
  };
  for (const how of ['host', 'path'] as const) {
    const key = byKey(how);
    const groupsB = new Map<string, string[]>();
    const groupsH = new Map<string, string[]>();
    for (const e of restB) groupsB.set(key(e), [...(groupsB.get(key(e)) ?? []), e]);
    for (const e of restH) groupsH.set(key(e), [...(groupsH.get(key(e)) ?? []), e]);
    for (const [k, bs] of groupsB) {
      const hs = groupsH.get(k);
      if (bs.length !== 1 || hs?.length !== 1) continue;
      pairs.push({ base: bs[0]!, head: hs[0]!, how });
      restB.delete(bs[0]!);
      restH.delete(hs[0]!);
    }
  }
  return pairs;
}

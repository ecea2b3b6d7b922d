// Roles: what a session, request, stream, chain or finding *is* in a run, in terms that survive a
// second run of the same scenario. JSON-RPC ids, Mcp-Session-Id, connection ids and times are new
// in every run; the endpoint (origin + path), the era, the order of sessions, and the method, tool
// name and order of requests are not.
import type { AnalysisSnapshot, Era, Finding, RequestInfo, ServerEra, Session, Stream } from '../model';

export interface ReqRole {
  info: RequestInfo;
  name: string;
  method: string;
  target?: string;
  /** 1-based among requests of the same name in the session. */
  ordinal: number;
}

export interface SessionRole {
  input: number;
  session: Session;
  endpoint: string;
  era: Era;
  /** 1-based among sessions of the same endpoint and era on this side. */
  ordinal: number;
  requests: ReqRole[];
  streamRoles: Map<string, string>;
  snap: AnalysisSnapshot;
}

export interface FindingRole {
  input: number;
  finding: Finding;
  session: SessionRole | null;
  request: ReqRole | null;
  stream: string | null;
}

export interface SideIndex {
  sessions: SessionRole[];
  findings: FindingRole[];
  /** Era per endpoint, over every input of the side. */
  servers: Map<string, ServerEra>;
}

/** tools/call and prompts/get are named by their tool / prompt; other requests by the method alone. */
export function requestTarget(r: Pick<RequestInfo, 'method' | 'params'>): string | undefined {
  const p = r.params as { name?: unknown } | null | undefined;
  return (r.method === 'tools/call' || r.method === 'prompts/get') && typeof p?.name === 'string' ? p.name : undefined;
}

export const roleName = (r: Pick<ReqRole, 'name' | 'ordinal'>) => `${r.name} #${r.ordinal}`;

function mergeEra(a: ServerEra | undefined, b: ServerEra): ServerEra {
  if (a === undefined || a === 'unknown') return b;
  if (b === 'unknown' || a === b) return a;
  return 'dual';
}

/** The request a finding concerns: same JSON-RPC id, on one of that request's streams when it names a stream. */
function requestOf(f: Finding, reqs: readonly ReqRole[]): ReqRole | null {
  if (f.requestId === undefined) return null;
  const same = reqs.filter((r) => r.info.id === f.requestId);
  if (same.length <= 1 || f.streamId === undefined) return same[0] ?? null;
  return same.find((r) => r.info.streamId === f.streamId || r.info.responseStreamId === f.streamId) ?? same[0]!;
}

function streamRoles(snap: AnalysisSnapshot, s: Session, reqs: readonly ReqRole[]): Map<string, string> {
  const roles = new Map<string, string>();
  const counts = new Map<string, number>();
  const byId = new Map<string, ReqRole>();
  for (const r of reqs) if (!byId.has(r.info.id)) byId.set(r.info.id, r);
  const streams = s.streamIds.map((id) => snap.streams[id]).filter((x): x is Stream => x !== undefined);
  for (const st of streams) {
    if (st.resumes !== undefined) continue; // named after their chain's first stream, below
    const carried = st.requestIds.map((id) => byId.get(id)).filter((x): x is ReqRole => x !== undefined);
    let role: string;
    if (carried.length) role = `${st.method} ${carried.map(roleName).join(', ')}`;
    else {
      const k = `${st.method} ${st.kind}`;
      const n = (counts.get(k) ?? 0) + 1;
      counts.set(k, n);
      role = `${k} #${n}`;
    }
    roles.set(st.id, role);
  }
  // Resumes: the k-th stream after the first of its chain (in the order the chain lists them).
  for (const c of s.chains ?? []) {
    const root = roles.get(c.rootStreamId) ?? c.rootStreamId;
    c.segments.forEach((g, i) => {
      if (i > 0 && !roles.has(g.streamId)) roles.set(g.streamId, `${root} resume ${i}`);
    });
  }
  let orphan = 0;
  for (const st of streams) if (!roles.has(st.id)) roles.set(st.id, `${st.method} ${st.kind} (unlinked) #${++orphan}`);
  return roles;
}

/** Index one side (one or several inputs: their sessions in input order, then in the order they began). */
export function indexSide(snaps: readonly AnalysisSnapshot[]): SideIndex {
  const sessions: SessionRole[] = [];
  const findings: FindingRole[] = [];
  const servers = new Map<string, ServerEra>();
  const ordinals = new Map<string, number>();
  snaps.forEach((snap, input) => {
    for (const x of snap.servers ?? []) servers.set(x.endpoint, mergeEra(servers.get(x.endpoint), x.era));
    const byKey = new Map<string, SessionRole>();
    for (const s of snap.sessions) {
      const k = `${s.endpoint}\u0000${s.era}`;
      const ordinal = (ordinals.get(k) ?? 0) + 1;
      ordinals.set(k, ordinal);
      const names = new Map<string, number>();
      const requests = (snap.requests[s.key] ?? []).map((info): ReqRole => {
        const target = requestTarget(info);
        const name = target !== undefined ? `${info.method} ${target}` : info.method;
        const n = (names.get(name) ?? 0) + 1;
        names.set(name, n);
        return { info, name, method: info.method, ...(target !== undefined ? { target } : {}), ordinal: n };
      });
      const role: SessionRole = { input, session: s, endpoint: s.endpoint, era: s.era, ordinal, requests, streamRoles: streamRoles(snap, s, requests), snap };
      sessions.push(role);
      byKey.set(s.key, role);
      if (!servers.has(s.endpoint)) servers.set(s.endpoint, s.era);
    }
    for (const f of snap.findings) {
      const s = byKey.get(f.sessionKey) ?? null;
      const request = s ? requestOf(f, s.requests) : null;
      const stream = request === null && s && f.streamId !== undefined ? (s.streamRoles.get(f.streamId) ?? null) : null;
      findings.push({ input, finding: f, session: s, request, stream });
    }
  });
  return { sessions, findings, servers };
}

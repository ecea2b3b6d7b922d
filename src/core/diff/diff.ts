// diffSnapshots: what is new, gone and changed between two runs of one scenario (a base run and a
// head run), compared by role (roles.ts), never by JSON-RPC id, session id, connection id or time.
// Pure: the CLI's `diff` and `audit --baseline`, and the MCP server's `diff` tool, call it.
import type { AnalysisSnapshot, FindingCode, ReconnectChain } from '../model';
import { pairEndpoints } from './endpoints';
import { change, entry, matchFindings } from './match-findings';
import { indexSide, roleName, type ReqRole, type SessionRole, type SideIndex } from './roles';
import type { EndpointPair, FindingEntry, ResumeChange, ResumeSummary, ServerEraChange, SessionRef, SnapshotDiff, VerdictChange } from './types';

/** Findings that state what became of a request: with a changed verdict they are listed under it. */
const OUTCOME_CODES: ReadonlySet<FindingCode> = new Set<FindingCode>(['lossy-result-accepted', 'unverified-result-accepted', 'result-missing']);

export type DiffInput = AnalysisSnapshot | readonly AnalysisSnapshot[];

export const list = (x: DiffInput): readonly AnalysisSnapshot[] => (Array.isArray(x) ? (x as readonly AnalysisSnapshot[]) : [x as AnalysisSnapshot]);

function endpointsOf(side: SideIndex): string[] {
  const out = new Set<string>(side.servers.keys());
  for (const s of side.sessions) out.add(s.endpoint);
  return [...out];
}

function summary(c: ReconnectChain): ResumeSummary {
  const later = c.segments.slice(1);
  return { resumes: later.length, lastEventId: later.map((g) => g.resumedFrom !== undefined) };
}

/** The session's chains by role (the root stream's role; a second chain of one role gets ` (2)`). */
function chainsOf(s: SessionRole): Map<string, ResumeSummary> {
  const out = new Map<string, ResumeSummary>();
  for (const c of s.session.chains ?? []) {
    const role = s.streamRoles.get(c.rootStreamId) ?? c.rootStreamId;
    let k = role;
    for (let n = 2; out.has(k); n++) k = `${role} (${n})`;
    out.set(k, summary(c));
  }
  return out;
}

const sameSummary = (a: ResumeSummary, b: ResumeSummary) => a.resumes === b.resumes && a.lastEventId.join() === b.lastEventId.join();

export interface Pairing {
  B: SideIndex;
  H: SideIndex;
  endpoints: EndpointPair[];
  sessionRef: (s: SessionRole) => SessionRef;
  /** A session's key in the pairing (endpoint under its base name, era, ordinal): equal on both sides for paired sessions. */
  sessionKey: (s: SessionRole) => string;
}

/** Index both sides and pair their endpoints: what every comparison of the two runs starts from. */
export function pairSides(base: DiffInput, head: DiffInput): Pairing {
  const B = indexSide(list(base));
  const H = indexSide(list(head));
  const endpoints: EndpointPair[] = pairEndpoints(endpointsOf(B), endpointsOf(H));
  const headToBase = new Map(endpoints.map((p) => [p.head, p.base]));
  const baseEndpoints = new Set(B.sessions.map((s) => s.endpoint));
  // A head session's endpoint under its base name; an unpaired one keeps its own (marked, so that
  // it cannot meet a base endpoint of the same name that was paired elsewhere).
  const nameOf = (s: SessionRole, side: 'base' | 'head') =>
    side === 'base' ? s.endpoint : (headToBase.get(s.endpoint) ?? (baseEndpoints.has(s.endpoint) ? `${s.endpoint} (head)` : s.endpoint));
  const sideOf = new Map<SessionRole, 'base' | 'head'>();
  for (const s of B.sessions) sideOf.set(s, 'base');
  for (const s of H.sessions) sideOf.set(s, 'head');
  const sessionRef = (s: SessionRole): SessionRef => ({ endpoint: nameOf(s, sideOf.get(s)!), era: s.era, ordinal: s.ordinal });
  const sessionKey = (s: SessionRole) => JSON.stringify([nameOf(s, sideOf.get(s)!), s.era, s.ordinal]);

  return { B, H, endpoints, sessionRef, sessionKey };
}

/**
 * Compare a base run with a head run of the same scenario. Each side is one snapshot or several
 * (one per input file, in order). The result lists what is new in head, gone from base and
 * changed; `same` is true when it lists nothing.
 */
export function diffSnapshots(base: DiffInput, head: DiffInput): SnapshotDiff {
  const { B, H, endpoints, sessionRef, sessionKey } = pairSides(base, head);
  // Sessions: paired by endpoint, era and order.
  const headByKey = new Map(H.sessions.map((s) => [sessionKey(s), s]));
  const baseByKey = new Map(B.sessions.map((s) => [sessionKey(s), s]));
  const pairs: [SessionRole, SessionRole][] = [];
  const sessionsGone: SessionRef[] = [];
  const sessionsNew: SessionRef[] = [];
  for (const s of B.sessions) {
    const h = headByKey.get(sessionKey(s));
    if (h) pairs.push([s, h]);
    else sessionsGone.push(sessionRef(s));
  }
  for (const s of H.sessions) if (!baseByKey.has(sessionKey(s))) sessionsNew.push(sessionRef(s));

  // Verdicts and resumes of the paired sessions.
  const verdicts: VerdictChange[] = [];
  const verdictOf = new Map<string, VerdictChange>();
  const resumes: ResumeChange[] = [];
  for (const [b, h] of pairs) {
    const ref = sessionRef(b);
    const hByRole = new Map(h.requests.map((r) => [roleName(r), r]));
    const seen = new Set<string>();
    const push = (x: ReqRole, rb: ReqRole | undefined, rh: ReqRole | undefined) => {
      const v: VerdictChange = {
        session: ref,
        request: { name: x.name, method: x.method, ...(x.target !== undefined ? { target: x.target } : {}), ordinal: x.ordinal },
        base: rb?.info.verdict ?? null,
        head: rh?.info.verdict ?? null,
        ...(rb ? { baseId: rb.info.id } : {}),
        ...(rh ? { headId: rh.info.id } : {}),
        findings: { new: [], gone: [] },
      };
      verdicts.push(v);
      verdictOf.set(`${sessionKey(b)}\u0000${roleName(x)}`, v);
    };
    for (const rb of b.requests) {
      const rh = hByRole.get(roleName(rb));
      seen.add(roleName(rb));
      if (!rh || rh.info.verdict !== rb.info.verdict) push(rb, rb, rh);
    }
    for (const rh of h.requests) if (!seen.has(roleName(rh))) push(rh, undefined, rh);

    const cb = chainsOf(b);
    const ch = chainsOf(h);
    for (const [role, x] of cb) {
      const y = ch.get(role);
      if (!y || !sameSummary(x, y)) resumes.push({ session: ref, chain: role, base: x, head: y ?? null });
    }
    for (const [role, y] of ch) if (!cb.has(role)) resumes.push({ session: ref, chain: role, base: null, head: y });
  }

  // Findings; the outcome findings of a request whose verdict changed go under that change.
  const m = matchFindings(B.findings, H.findings, sessionKey);
  const fold = (f: (typeof m.new)[number], into: 'new' | 'gone'): boolean => {
    if (!OUTCOME_CODES.has(f.finding.code) || !f.session || !f.request) return false;
    const v = verdictOf.get(`${sessionKey(f.session)}\u0000${roleName(f.request)}`);
    if (!v) return false;
    v.findings[into].push(entry(f, sessionRef));
    return true;
  };
  const findingsNew: FindingEntry[] = m.new.filter((f) => !fold(f, 'new')).map((f) => entry(f, sessionRef));
  const findingsGone: FindingEntry[] = m.gone.filter((f) => !fold(f, 'gone')).map((f) => entry(f, sessionRef));

  // Servers: the era of each paired endpoint; endpoints only one run reached.
  const servers: ServerEraChange[] = [];
  const pairedB = new Set(endpoints.map((p) => p.base));
  const pairedH = new Set(endpoints.map((p) => p.head));
  for (const p of endpoints) {
    const x = B.servers.get(p.base) ?? 'unknown';
    const y = H.servers.get(p.head) ?? 'unknown';
    if (x !== y) servers.push({ endpoint: p.base, base: x, head: y });
  }
  for (const e of endpointsOf(B)) if (!pairedB.has(e)) servers.push({ endpoint: e, base: B.servers.get(e) ?? 'unknown', head: null });
  for (const e of endpointsOf(H)) if (!pairedH.has(e)) servers.push({ endpoint: e, base: null, head: H.servers.get(e) ?? 'unknown' });

  const changed = m.changed.map((c) => change(c, sessionRef));
  const count = findingsNew.length + findingsGone.length + changed.length + verdicts.length + resumes.length + servers.length + sessionsNew.length + sessionsGone.length;
  return {
    version: 1,
    same: count === 0,
    count,
    endpoints,
    findings: { new: findingsNew, gone: findingsGone, changed, unchanged: m.unchanged.length },
    verdicts,
    resumes,
    eras: { servers, sessions: { new: sessionsNew, gone: sessionsGone } },
  };
}

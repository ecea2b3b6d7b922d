// Matching the findings of two runs (docs/ci.md, "Identity of a finding"). A finding is the same
// in both runs when its code, its session (endpoint, era, order) and its request (method, tool
// name, order; for a finding about no request, its stream's role) are the same. Its message and
// event ids are not part of that: they name ids that are new in every run. For the two gap codes
// the missing ids do count when both runs number events with the same counter scheme (a
// `contiguous` session, same scope: ids 12–13 missing in one run and 14–15 in the other is a
// change); under any other scheme ids mean nothing across runs.
import type { FindingCode } from '../model';
import type { FindingRole, SessionRole } from './roles';
import type { FindingChange, FindingEntry, FindingRef, FindingSide, SessionRef } from './types';

const GAP_CODES: ReadonlySet<FindingCode> = new Set<FindingCode>(['replay-gap', 'live-gap']);

export interface FindingMatch {
  new: FindingRole[];
  gone: FindingRole[];
  changed: { base: FindingRole; head: FindingRole; what: ('severity' | 'ids')[] }[];
  unchanged: { base: FindingRole; head: FindingRole }[];
}

/** The session's key in the pairing: endpoint (the base side's name), era, ordinal. */
export type SessionKeyOf = (s: SessionRole) => string;

/** A gap's ids as counters: the last alphanumeric field of each (`s4-12` → `12`; a stream prefix is new per run). */
export function counterIds(ids: readonly string[]): string {
  return ids.map((id) => id.split(/[^0-9A-Za-z]/).pop() ?? id).join(',');
}

function coarseKey(f: FindingRole, sessionKey: SessionKeyOf): string {
  return JSON.stringify([f.finding.code, f.session ? sessionKey(f.session) : null, f.request ? [f.request.name, f.request.ordinal] : null, f.stream]);
}

/** Both sessions count events with one counter of the same scope: gap ids compare across the runs. */
function sameCounter(a: SessionRole | null, b: SessionRole | null): boolean {
  if (!a || !b) return false;
  const x = a.session.idScheme;
  const y = b.session.idScheme;
  return x.kind === 'contiguous' && y.kind === 'contiguous' && (x.scope ?? 'session') === (y.scope ?? 'session');
}

export function matchFindings(base: readonly FindingRole[], head: readonly FindingRole[], sessionKey: SessionKeyOf): FindingMatch {
  const out: FindingMatch = { new: [], gone: [], changed: [], unchanged: [] };
  const groups = new Map<string, { b: FindingRole[]; h: FindingRole[] }>();
  const group = (k: string) => {
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { b: [], h: [] }));
    return g;
  };
  for (const f of base) group(coarseKey(f, sessionKey)).b.push(f);
  for (const f of head) group(coarseKey(f, sessionKey)).h.push(f);
  for (const { b, h } of groups.values()) {
    const pairs: [FindingRole, FindingRole][] = [];
    const restB = b.slice();
    const restH = h.slice();
    const code = (b[0] ?? h[0])!.finding.code;
    const counted = GAP_CODES.has(code) && sameCounter(b[0]?.session ?? null, h[0]?.session ?? null);
    if (counted) {
      // Same ids first, so that one gap of two moving does not shift the pairing of the other.
      for (let i = 0; i < restB.length; i++) {
        const ids = counterIds(restB[i]!.finding.eventIds);
        const j = restH.findIndex((x) => counterIds(x.finding.eventIds) === ids);
        if (j < 0) continue;
        pairs.push([restB[i]!, restH[j]!]);
        restB.splice(i--, 1);
        restH.splice(j, 1);
      }
    }
    while (restB.length && restH.length) pairs.push([restB.shift()!, restH.shift()!]);
    for (const [x, y] of pairs) {
      const what: ('severity' | 'ids')[] = [];
      if (x.finding.severity !== y.finding.severity) what.push('severity');
      if (counted && counterIds(x.finding.eventIds) !== counterIds(y.finding.eventIds)) what.push('ids');
      if (what.length) out.changed.push({ base: x, head: y, what });
      else out.unchanged.push({ base: x, head: y });
    }
    out.gone.push(...restB);
    out.new.push(...restH);
  }
  const order = (xs: FindingRole[], all: readonly FindingRole[]) => xs.sort((p, q) => all.indexOf(p) - all.indexOf(q));
  order(out.gone, base);
  order(out.new, head);
  out.changed.sort((p, q) => head.indexOf(p.head) - head.indexOf(q.head));
  return out;
}

export function findingSide(f: FindingRole): FindingSide {
  const x = f.finding;
  return {
    input: f.input,
    severity: x.severity,
    message: x.message,
    sessionId: x.sessionId,
    sessionKey: x.sessionKey,
    ...(x.requestId !== undefined ? { requestId: x.requestId } : {}),
    ...(x.streamId !== undefined ? { streamId: x.streamId } : {}),
    ...(x.missing !== undefined ? { missing: x.missing } : {}),
    eventIds: x.eventIds.slice(),
  };
}

export function findingRef(f: FindingRole, sessionRef: (s: SessionRole) => SessionRef): FindingRef {
  return {
    code: f.finding.code,
    session: f.session ? sessionRef(f.session) : null,
    request: f.request ? { name: f.request.name, method: f.request.method, ...(f.request.target !== undefined ? { target: f.request.target } : {}), ordinal: f.request.ordinal } : null,
    stream: f.stream,
  };
}

export const entry = (f: FindingRole, sessionRef: (s: SessionRole) => SessionRef): FindingEntry => ({ ref: findingRef(f, sessionRef), at: findingSide(f) });

export const change = (c: FindingMatch['changed'][number], sessionRef: (s: SessionRole) => SessionRef): FindingChange => ({
  ref: findingRef(c.head, sessionRef),
  base: findingSide(c.base),
  head: findingSide(c.head),
  what: c.what,
});

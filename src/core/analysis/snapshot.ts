// Taking a snapshot: the growing findings get their new values, the sessions that changed are
// derived again (derive/session.ts), their derived event codes are applied to the shared event
// arrays, and the findings of all sessions are merged in capture order (appended to while every
// session only appended findings after all listed). Cost: what changed since the last snapshot.
import type { AnalysisSnapshot, Finding, RequestInfo, ServerInfo, Session, Stream } from '../model';
import { serverEra } from './eras';
import { settle } from './findings-log';
import { captureHealth } from './capture-health';
import { deriveSession, newDeriveCache } from './derive/session';
import type { DeriveCache } from './derive/cache';
import { addOverlayCode, applyOverlay, streamModel, type StreamView } from './stream-view';
import type { OrdFinding, SessionState, StreamS } from './state';
import type { AnalyzerState } from './analyzer-state';

/** What the snapshot stage keeps between snapshots (derivation caches, stream views, the merged list). */
export interface SnapshotCache {
  derived: Map<SessionState, DeriveCache>;
  views: Map<StreamS, StreamView>;
  /** The snapshot's findings so far, in ord order; global findings included. */
  out: OrdFinding[];
  outGlobal: number;
  /** The servers' model, remade when their evidence or sessions change. */
  servers: ServerInfo[];
  serversRev: number;
}

export function newSnapshotCache(): SnapshotCache {
  return { derived: new Map(), views: new Map(), out: [], outGlobal: 0, servers: [], serversRev: -1 };
}

/** Each server (origin + endpoint) with the era its evidence shows. */
function serverModels(A: AnalyzerState): ServerInfo[] {
  const out: ServerInfo[] = [];
  for (const x of A.servers.values()) out.push(Object.freeze({ endpoint: x.endpoint, origin: x.origin, era: serverEra(x), evidence: x.evidence.slice(), sessionKeys: x.sessionKeys.slice() }));
  return out;
}

function viewOf(C: SnapshotCache, st: StreamS): StreamView {
  let v = C.views.get(st);
  if (!v) C.views.set(st, (v = {}));
  return v;
}

export function takeSnapshot(A: AnalyzerState, C: SnapshotCache, revision: number, recordCount: number): AnalysisSnapshot {
  settle(A);
  const outSessions: Session[] = [];
  // Keyed by page data (session ids, stream ids): no prototype, so "__proto__" or "constructor"
  // is an ordinary key (JSON.stringify and Object.keys see it like any other).
  const outStreams: Record<string, Stream> = Object.create(null) as Record<string, Stream>;
  const outRequests: Record<string, RequestInfo[]> = Object.create(null) as Record<string, RequestInfo[]>;
  let rebuild = C.out.length === 0 && (A.globalFindings.length > 0 || A.sessions.size > 0);
  const fresh: OrdFinding[] = A.globalFindings.slice(C.outGlobal);
  C.outGlobal = A.globalFindings.length;
  // A session whose analysis reads the other sessions of its endpoint (a counter they may share,
  // ids they delivered) is derived again when one of them changed.
  for (const ep of A.endpoints.values()) {
    if (ep.sessions.length < 2 || ep.reuse > 0 || !ep.sessions.some((x) => x.dirty)) continue;
    for (const x of ep.sessions) if (C.derived.get(x)?.sharedCheck) x.dirty = true;
  }
  for (const s of A.sessions.values()) {
    let cache = C.derived.get(s);
    if (!cache) C.derived.set(s, (cache = newDeriveCache()));
    if (s.dirty || !cache.out) {
      const d = deriveSession(s, cache, A.finished, A.opts, A.lost);
      if (d.overlays) {
        for (const st of s.streams) if (applyOverlay(st, d.overlays.get(st))) st.dirty = true;
      } else {
        for (const [st, idx, code] of d.overlayAdds) if (addOverlayCode(st, idx, code)) st.dirty = true;
      }
      if (d.appended) for (const x of d.appended) fresh.push(x);
      else rebuild = true;
      cache.out = { session: d.session, requests: d.requests, findings: d.findings };
      s.dirty = false;
    }
    outSessions.push(cache.out.session);
    outRequests[s.key] = cache.out.requests;
  }
  if (!rebuild && fresh.length > 0) {
    fresh.sort((a, b) => a.ord - b.ord);
    if (C.out.length > 0 && fresh[0]!.ord <= C.out[C.out.length - 1]!.ord) rebuild = true;
    else for (const x of fresh) C.out.push(x);
  }
  if (rebuild) {
    const all: OrdFinding[] = A.globalFindings.slice();
    for (const s of A.sessions.values()) {
      const out = C.derived.get(s)?.out;
      if (out) for (const f of out.findings) all.push(f);
    }
    all.sort((a, b) => a.ord - b.ord);
    C.out = all;
  }
  for (const st of A.streamOrder) {
    if (!st.session) continue; // not yet assigned (initialize awaiting its response)
    outStreams[st.id] = streamModel(st, viewOf(C, st));
  }
  // The list holds slots; a slot's value is replaced when its finding grows, so the snapshot
  // takes the current values (a plain copy: older snapshots keep theirs).
  const findings: Finding[] = new Array<Finding>(C.out.length);
  for (let i = 0; i < C.out.length; i++) findings[i] = C.out[i]!.f;
  if (C.serversRev !== A.serversRev) {
    C.serversRev = A.serversRev;
    C.servers = serverModels(A);
  }
  return {
    version: 1,
    revision,
    finished: A.finished,
    sessions: outSessions,
    servers: C.servers,
    streams: outStreams,
    requests: outRequests,
    findings,
    markers: A.markers.slice(),
    recordCount,
    capture: captureHealth(A.health),
  };
}

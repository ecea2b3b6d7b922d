// Restrict a capture (records and snapshot) to one session, for "export selected session".

import type { AnalysisSnapshot, Session } from '../core/model';
import type { CaptureRecord } from '../core/record';
import { groupConns } from './conns';

export function filterSnapshot(snap: AnalysisSnapshot, sessionKey: string | undefined): AnalysisSnapshot {
  if (sessionKey === undefined) return snap;
  const session = snap.sessions.find((s) => s.key === sessionKey);
  if (!session) return { ...snap, sessions: [], streams: {}, requests: {}, findings: [] };
  const streams: AnalysisSnapshot['streams'] = {};
  for (const id of session.streamIds) {
    const s = snap.streams[id];
    if (s) streams[id] = s;
  }
  return {
    ...snap,
    sessions: [session],
    streams,
    requests: { [sessionKey]: snap.requests[sessionKey] ?? [] },
    findings: snap.findings.filter((f) => f.sessionKey === sessionKey),
  };
}

/**
 * The other sessions whose records the analysis of `session` reads: those of its server when its
 * event ids count across the server's sessions (a shared counter: their ids fill its gaps), and
 * those holding a stream its findings name (a replay across sessions). A file of the session's
 * records alone would be analysed to other findings and verdicts (invented gaps, lost errors).
 */
export function peerSessions(snap: AnalysisSnapshot, session: Session): Session[] {
  const own = new Set(session.streamIds);
  const named = new Set<string>();
  for (const f of snap.findings) {
    if (f.sessionKey !== session.key) continue;
    for (const id of [f.streamId, ...(f.relatedStreamIds ?? [])]) if (id !== undefined && !own.has(id)) named.add(id);
  }
  const shared = session.idScheme.scope === 'server';
  return snap.sessions.filter((x) => x !== session && ((shared && x.endpoint === session.endpoint) || x.streamIds.some((id) => named.has(id))));
}

/**
 * The records of one session, and of the sessions its analysis reads (peerSessions): connections
 * whose request matches one of their streams (same method, URL and start time, or a stream id
 * naming the connection), plus the navigation/notice records and the capture gaps that concern
 * those connections.
 */
export function filterRecords(records: readonly CaptureRecord[], snap: AnalysisSnapshot, sessionKey: string | undefined): CaptureRecord[] {
  if (sessionKey === undefined) return records.slice();
  const session = snap.sessions.find((s) => s.key === sessionKey);
  if (!session) return [];
  const sig = new Set<string>();
  const ids = new Set<string>();
  for (const id of [session, ...peerSessions(snap, session)].flatMap((x) => x.streamIds)) {
    const s = snap.streams[id];
    ids.add(id);
    if (s) sig.add(`${s.method} ${s.url} ${s.start}`);
  }
  const keep = new Set<string>();
  const present = new Set<string>();
  for (const c of groupConns(records)) {
    const r = c.request;
    present.add(`${c.src}\u0000${c.conn}`);
    const bySig = r && sig.has(`${r.method} ${r.url} ${r.t}`);
    const byId = ids.has(c.conn) || ids.has(`${c.src}:${c.conn}`) || ids.has(`${c.src}/${c.conn}`) || ids.has(`${c.src}#${c.conn}`);
    // A connection whose request the capture lost belongs to no session it can name: the ids
    // it delivered may excuse this session's gaps (lost-ids.ts), so it goes with it.
    if (bySig || byId || !r) keep.add(`${c.src}\u0000${c.conn}`);
  }
  return records.filter((r) => {
    if ('conn' in r) return keep.has(`${r.src}\u0000${r.conn}`);
    // (a gap that names only connections evicted whole may have held this session's ids too)
    if (r.kind === 'capture-gap') return r.conns.length === 0 || r.conns.some((c) => keep.has(`${r.src}\u0000${c}`) || !present.has(`${r.src}\u0000${c}`));
    return true;
  });
}

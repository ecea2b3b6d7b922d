// Restrict a capture (records and snapshot) to one session, for "export selected session".

import type { AnalysisSnapshot } from '../core/model';
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
 * The records of one session: connections whose request matches one of the session's streams
 * (same method, URL and start time, or a stream id naming the connection), plus the
 * navigation/notice records and the capture gaps that concern those connections.
 */
export function filterRecords(records: readonly CaptureRecord[], snap: AnalysisSnapshot, sessionKey: string | undefined): CaptureRecord[] {
  if (sessionKey === undefined) return records.slice();
  const session = snap.sessions.find((s) => s.key === sessionKey);
  if (!session) return [];
  const sig = new Set<string>();
  const ids = new Set<string>();
  for (const id of session.streamIds) {
    const s = snap.streams[id];
    ids.add(id);
    if (s) sig.add(`${s.method} ${s.url} ${s.start}`);
  }
  const keep = new Set<string>();
  for (const c of groupConns(records)) {
    const r = c.request;
    const bySig = r && sig.has(`${r.method} ${r.url} ${r.t}`);
    const byId = ids.has(c.conn) || ids.has(`${c.src}:${c.conn}`) || ids.has(`${c.src}/${c.conn}`) || ids.has(`${c.src}#${c.conn}`);
    if (bySig || byId) keep.add(`${c.src}\u0000${c.conn}`);
  }
  return records.filter((r) => {
    if ('conn' in r) return keep.has(`${r.src}\u0000${r.conn}`);
    if (r.kind === 'capture-gap') return r.conns.length === 0 || r.conns.some((c) => keep.has(`${r.src}\u0000${c}`));
    return true;
  });
}

// Faults injected on purpose are never confused with the server (issue 14). A fault record
// (contract/records.ts `fault`) says which connection a fault changed; a finding that would blame
// the server (a gap, a lost result, a 404 session, a rejected resume) and that lies on that
// connection's reconnect chain, or on the request whose stream it changed, is attributed to the
// fault: it keeps its code (the client's behaviour is still what it is: it accepted a lossy
// result, or it did not), gains `injected`, and its message starts with who injected the loss.
// Runs at snapshot time, only when the capture holds fault records (no cost otherwise).
import type { FaultRecord } from '../record';
import type { AnalysisSnapshot, Finding, FindingCode, InjectedBy, InjectedFault, Stream } from '../model';

/** Findings that name the server as the cause unless a fault explains them; which fault kinds can. */
const EXPLAINS: Partial<Record<FindingCode, readonly InjectedFault['fault'][]>> = {
  'replay-gap': ['withhold', 'cut', 'drop-result'],
  'live-gap': ['withhold', 'cut', 'drop-result'],
  'replay-unverifiable': ['withhold', 'cut', 'drop-result'],
  'lossy-result-accepted': ['withhold', 'cut', 'drop-result'],
  'unverified-result-accepted': ['withhold', 'cut', 'drop-result'],
  'result-missing': ['withhold', 'cut', 'drop-result', 'answer-resume', 'expire-session'],
  'truncated-event': ['cut'],
  'session-expired': ['expire-session', 'answer-resume'],
  'resume-rejected': ['answer-resume', 'expire-session'],
};

export function injectedPrefix(origin: 'panel' | 'serve', text: string): string {
  return `${origin === 'panel' ? 'Injected from the panel' : 'Injected by serve --fault'} (${text}): `;
}

/** The fault records of a capture as the snapshot lists them. */
export function injectedFaults(records: readonly FaultRecord[], snap: AnalysisSnapshot): InjectedFault[] {
  return records.map((r) => {
    const streamId = `${r.src}:${r.conn}`;
    const sessionKey = snap.streams[streamId]?.sessionKey;
    const x: InjectedFault = {
      armed: r.armed,
      fault: r.fault,
      origin: r.origin,
      text: r.text,
      t: r.t,
      streamId,
      requestIds: r.requestIds ?? [],
      eventIds: r.eventIds,
      events: r.events,
      withheld: r.withheld ?? [],
      findings: [],
    };
    if (r.label !== undefined) x.label = r.label;
    if (sessionKey !== undefined) x.sessionKey = sessionKey;
    if (r.afterEvents !== undefined) x.afterEvents = r.afterEvents;
    if (r.cursor !== undefined) x.cursor = r.cursor;
    if (r.how !== undefined) x.how = r.how;
    if (r.status !== undefined) x.status = r.status;
    if (r.serverStatus !== undefined) x.serverStatus = r.serverStatus;
    if (r.delayMs !== undefined) x.delayMs = r.delayMs;
    return x;
  });
}

function chainOf(snap: AnalysisSnapshot, streamId: string | undefined, out: Set<string>): void {
  if (streamId === undefined) return;
  const st: Stream | undefined = snap.streams[streamId];
  if (!st) {
    out.add(streamId);
    return;
  }
  const root = st.chainRoot ?? st.id;
  if (out.has(root) && out.has(streamId)) return;
  const todo = [root, streamId];
  while (todo.length) {
    const id = todo.pop()!;
    if (out.has(id)) continue;
    out.add(id);
    const s = snap.streams[id];
    if (s) for (const r of s.resumedBy) todo.push(r);
  }
}

/** The snapshot with `faults` listed and the findings they explain attributed to them. */
export function attributeFaults(snap: AnalysisSnapshot, records: readonly FaultRecord[]): AnalysisSnapshot {
  if (records.length === 0) return snap;
  const faults = injectedFaults(records, snap);
  const byStream = new Map<string, InjectedFault[]>();
  for (const f of faults) {
    let l = byStream.get(f.streamId);
    if (!l) byStream.set(f.streamId, (l = []));
    l.push(f);
  }
  const findings = snap.findings.map((f): Finding => {
    const kinds = EXPLAINS[f.code];
    if (!kinds || f.injected) return f;
    const streams = new Set<string>();
    chainOf(snap, f.streamId, streams);
    for (const r of f.relatedStreamIds ?? []) chainOf(snap, r, streams);
    if (f.requestId !== undefined) {
      const req = (snap.requests[f.sessionKey] ?? []).find((q) => q.id === f.requestId);
      if (req) {
        chainOf(snap, req.streamId, streams);
        chainOf(snap, req.responseStreamId, streams);
      }
    }
    let by: InjectedFault | undefined;
    for (const id of streams) {
      by = byStream.get(id)?.find((x) => kinds.includes(x.fault));
      if (by) break;
    }
    // A fault on another connection that names the same request (an expired session's later
    // request, a resume whose stream the analysis could not link).
    if (!by && f.requestId !== undefined) by = faults.find((x) => kinds.includes(x.fault) && x.sessionKey === f.sessionKey && x.requestIds.includes(f.requestId!));
    if (!by) return f;
    by.findings.push(f.code);
    const injected: InjectedBy = { armed: by.armed, fault: by.fault, origin: by.origin, text: by.text };
    return { ...f, injected, message: injectedPrefix(by.origin, by.text) + f.message };
  });
  // A session that lost events to a fault says so where it says why it is not lossless.
  const lossy = new Map<string, InjectedFault[]>();
  for (const f of faults) {
    if (f.sessionKey === undefined || !['withhold', 'cut', 'drop-result'].includes(f.fault) || f.findings.length === 0) continue;
    let l = lossy.get(f.sessionKey);
    if (!l) lossy.set(f.sessionKey, (l = []));
    l.push(f);
  }
  const sessions = lossy.size === 0 ? snap.sessions : snap.sessions.map((s) => {
    const l = lossy.get(s.key);
    if (!l || s.lossless) return s;
    const ids = l.flatMap((f) => f.eventIds).filter(Boolean);
    const why = `${injectedPrefix(l[0]!.origin, [...new Set(l.map((f) => f.text))].join('; ')).replace(/: $/, '')}: ${ids.length ? `ids ${ids.slice(0, 10).join(', ')}${ids.length > 10 ? '…' : ''} were withheld from the page on purpose, the server sent them` : 'the loss came from the fault, not from the server'}`;
    return { ...s, losslessReasons: [why, ...s.losslessReasons] };
  });
  return { ...snap, sessions, findings, faults };
}

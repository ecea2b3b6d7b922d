// Chrome Trace Event Format (JSON object form), readable by Perfetto (ui.perfetto.dev, legacy JSON
// importer) and chrome://tracing. One process per session, one thread per stream (plus a
// "findings" thread per session); SSE events are thread-scoped instant events, streams are
// complete ("X") slices, JSON-RPC requests are async ("b"/"e") slices, findings are instant events
// whose args carry the code, severity, ids and explanation. ts/dur are microseconds since the
// first record of the export.

import type { AnalysisSnapshot, Finding, Stream } from '../core/model';

export interface TraceEvent {
  name: string;
  ph: 'X' | 'i' | 'b' | 'e' | 'M';
  ts: number;
  pid: number;
  tid: number;
  dur?: number;
  cat?: string;
  s?: 't' | 'p' | 'g';
  id?: string;
  args?: Record<string, unknown>;
}

export interface TraceFile {
  traceEvents: TraceEvent[];
  displayTimeUnit: 'ms';
  otherData: Record<string, string>;
}

const FINDINGS_TID = 1;

function streamLabel(s: Stream): string {
  const kind = s.kind === 'resume' ? 'GET (resumed)' : s.kind === 'get' ? 'GET stream' : s.kind === 'post' ? 'POST' : `${s.method} ${s.kind}`;
  const ids = s.requestIds.length ? ` #${s.requestIds.join(',')}` : '';
  const lei = s.lastEventIdSent !== undefined ? ` Last-Event-ID: ${s.lastEventIdSent}` : '';
  return `${kind}${ids}${lei}`;
}

function cut(s: string, n = 2000): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

export function toTrace(snap: AnalysisSnapshot, opts: { createdAt?: string } = {}): TraceFile {
  const ev: TraceEvent[] = [];
  let t0 = Infinity;
  let tEnd = -Infinity;
  for (const s of Object.values(snap.streams)) {
    t0 = Math.min(t0, s.start);
    tEnd = Math.max(tEnd, s.end ?? s.start, s.events.length ? s.events[s.events.length - 1]!.t : s.start);
  }
  for (const m of snap.markers) {
    t0 = Math.min(t0, m.t);
    tEnd = Math.max(tEnd, m.t);
  }
  if (!Number.isFinite(t0)) t0 = 0;
  if (!Number.isFinite(tEnd)) tEnd = t0;
  const us = (t: number) => Math.max(0, Math.round((t - t0) * 1000));

  // pid 1: the inspector itself (navigations, capture gaps).
  ev.push({ name: 'process_name', ph: 'M', ts: 0, pid: 1, tid: 1, args: { name: 'MCP Stream Inspector (capture)' } });
  ev.push({ name: 'thread_name', ph: 'M', ts: 0, pid: 1, tid: 1, args: { name: 'navigations and capture gaps' } });
  for (const m of snap.markers) {
    ev.push({ name: m.kind === 'capture-gap' ? `capture-gap: ${m.text}` : `navigation: ${m.text}`, ph: 'i', s: 'p', ts: us(m.t), pid: 1, tid: 1, cat: m.kind, args: { kind: m.kind, text: m.text } });
  }

  snap.sessions.forEach((session, si) => {
    const pid = si + 2;
    const label = session.sessionId ? `Session ${session.sessionId}` : `(no session) ${session.endpoint}`;
    ev.push({ name: 'process_name', ph: 'M', ts: 0, pid, tid: 0, args: { name: `${label} ${session.endpoint}` } });
    ev.push({ name: 'process_sort_index', ph: 'M', ts: 0, pid, tid: 0, args: { sort_index: si + 1 } });
    ev.push({ name: 'process_labels', ph: 'M', ts: 0, pid, tid: 0, args: { labels: `lossless: ${session.lossless ? 'yes' : 'NO'}; ids: ${session.idScheme.kind}${session.protocolVersion ? `; rev ${session.protocolVersion}` : ''}` } });
    ev.push({ name: 'thread_name', ph: 'M', ts: 0, pid, tid: FINDINGS_TID, args: { name: 'findings' } });
    ev.push({ name: 'thread_sort_index', ph: 'M', ts: 0, pid, tid: FINDINGS_TID, args: { sort_index: 0 } });
    const tidOf = new Map<string, number>();
    session.streamIds.forEach((id, i) => {
      const s = snap.streams[id];
      if (!s) return;
      const tid = i + 2;
      tidOf.set(id, tid);
      ev.push({ name: 'thread_name', ph: 'M', ts: 0, pid, tid, args: { name: streamLabel(s) } });
      ev.push({ name: 'thread_sort_index', ph: 'M', ts: 0, pid, tid, args: { sort_index: i + 1 } });
      const endT = s.end ?? (s.events.length ? s.events[s.events.length - 1]!.t : s.start);
      ev.push({
        name: `${s.method} ${s.kind} ${s.state}`,
        ph: 'X',
        ts: us(s.start),
        dur: Math.max(1, us(endT) - us(s.start)),
        pid,
        tid,
        cat: 'stream',
        args: {
          streamId: s.id,
          url: s.url,
          status: s.status ?? null,
          state: s.state,
          endReason: s.endReason ?? null,
          lastEventIdSent: s.lastEventIdSent ?? null,
          resumes: s.resumes ?? null,
          events: s.events.length,
          captureIncomplete: !!s.captureIncomplete,
        },
      });
      for (const e of s.events) {
        const methods = e.messages.map((m) => m.method ?? (m.kind === 'result' || m.kind === 'error' ? `${m.kind} ${m.id ?? ''}` : m.kind));
        ev.push({
          name: `${e.id !== undefined ? `id ${e.id}` : 'no id'} ${methods.join(', ') || e.event}`,
          ph: 'i',
          s: 't',
          ts: us(e.t),
          pid,
          tid,
          cat: e.findings.length ? 'sse,finding' : 'sse',
          args: { index: e.index, id: e.id ?? null, event: e.event, data: cut(e.data), findings: e.findings, duplicate: !!e.duplicate },
        });
      }
    });
    for (const r of snap.requests[session.key] ?? []) {
      const tid = tidOf.get(r.streamId) ?? FINDINGS_TID;
      const id = `${pid}:${r.id}`;
      const name = `${r.method} #${r.id} ${r.verdict}`;
      const args = { requestId: r.id, method: r.method, verdict: r.verdict, findings: r.findings, notifications: r.notifications.length, cumulative: r.cumulativeCount, response: r.response ?? null };
      ev.push({ name, ph: 'b', ts: us(r.start), pid, tid, cat: 'request', id, args });
      ev.push({ name, ph: 'e', ts: Math.max(us(r.start), us(r.end ?? tEnd)), pid, tid, cat: 'request', id });
    }
    for (const f of snap.findings.filter((x) => x.sessionKey === session.key)) {
      ev.push({ name: `${f.severity === 'error' ? '⛔' : f.severity === 'warning' ? '⚠' : 'ℹ'} ${f.code}`, ph: 'i', s: 't', ts: us(findingTime(snap, f) ?? t0), pid, tid: FINDINGS_TID, cat: `finding,${f.severity}`, args: findingArgs(f) });
    }
  });
  return {
    traceEvents: ev,
    displayTimeUnit: 'ms',
    otherData: { producer: 'MCP Stream Inspector', createdAt: opts.createdAt ?? new Date().toISOString(), t0: new Date(t0).toISOString() },
  };
}

export function findingTime(snap: AnalysisSnapshot, f: Finding): number | undefined {
  const s = f.streamId ? snap.streams[f.streamId] : undefined;
  if (!s) return undefined;
  if (f.eventIndex !== undefined && s.events[f.eventIndex]) return s.events[f.eventIndex]!.t;
  return s.start;
}

function findingArgs(f: Finding): Record<string, unknown> {
  return {
    code: f.code,
    severity: f.severity,
    message: f.message,
    sessionId: f.sessionId,
    streamId: f.streamId ?? null,
    relatedStreamIds: f.relatedStreamIds ?? [],
    requestId: f.requestId ?? null,
    eventIds: f.eventIds,
    missing: f.missing ?? null,
  };
}

export function exportTrace(snap: AnalysisSnapshot, opts: { createdAt?: string } = {}): string {
  return JSON.stringify(toTrace(snap, opts));
}

// Chrome Trace Event Format (JSON object form), readable by Perfetto (ui.perfetto.dev, legacy JSON
// importer) and chrome://tracing. One process per session, one thread per stream (plus a
// "findings" thread per session); SSE events are thread-scoped instant events, streams are
// complete ("X") slices, JSON-RPC requests are async ("b"/"e") slices, findings are instant events
// whose args carry the code, severity, ids and explanation, and a reconnect is a flow ("s"/"f")
// from the cut stream's slice to the slice of the stream that resumed it. ts/dur are integer
// microseconds since the first stream or marker of the export.
//
// Instants use the legacy phase "I", not "i": DevTools' Performance panel (its trace engine's
// isInstant() is `ph === 'I'`) drops "i" events, while Perfetto's JSON importer (one branch for
// 'I' and 'i') and chrome://tracing read "I" exactly like "i".
//
// Perfetto's importer follows Linux semantics, which chrome://tracing does not need: a thread is
// known by its tid alone (a thread_name for tid 2 in one process renames tid 2 everywhere, and a
// tid seen under another pid starts a new thread), so every tid in the file is unique and each
// process's own track uses tid == pid; async ids are global, not per process; v1 flow ids must be
// numbers (a string id is read as hex). Metadata events ("M") carry ts 0. No displayTimeUnit
// (see TraceFile).

import { clientText } from '../core/presentation-eras';
import type { AnalysisSnapshot, Finding, SseEvent, Stream } from '../core/model';
import { visibleLine } from './escape';
import { eventsAtSnapshot, eventTime } from '../core/event-access';

export interface TraceEvent {
  name: string;
  ph: 'X' | 'I' | 'b' | 'e' | 'M' | 's' | 'f';
  ts: number;
  pid: number;
  tid: number;
  dur?: number;
  cat?: string;
  s?: 't' | 'p' | 'g';
  /** Async slices: a string unique in the file. Flows: a number (Perfetto reads a string as hex). */
  id?: string | number;
  /** Flow end: bind to the enclosing slice. */
  bp?: 'e';
  args?: Record<string, unknown>;
}

/**
 * No `displayTimeUnit`: it only picks chrome://tracing's display unit (ms is its default), but
 * Perfetto's JSON importer long scaled every ts by it ("ms": ts read as milliseconds, 1000x too
 * long) and still may in the trace processors other tools ship.
 */
export interface TraceFile {
  traceEvents: TraceEvent[];
  otherData: Record<string, string>;
}

/** The inspector's own process (navigations, capture gaps); its one thread has tid == pid. */
const CAPTURE_PID = 1;

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
    const events = eventsOf(s);
    t0 = Math.min(t0, s.start);
    tEnd = Math.max(tEnd, s.end ?? s.start, events.length ? events[events.length - 1]!.t : s.start);
  }
  for (const m of snap.markers) {
    t0 = Math.min(t0, m.t);
    tEnd = Math.max(tEnd, m.t);
  }
  if (!Number.isFinite(t0)) t0 = 0;
  if (!Number.isFinite(tEnd)) tEnd = t0;
  const us = (t: number) => Math.max(0, Math.round((t - t0) * 1000));

  // The inspector itself (navigations, capture gaps): process-scoped instants.
  ev.push({ name: 'process_name', ph: 'M', ts: 0, pid: CAPTURE_PID, tid: CAPTURE_PID, args: { name: 'MCP Stream Inspector (capture)' } });
  ev.push({ name: 'thread_name', ph: 'M', ts: 0, pid: CAPTURE_PID, tid: CAPTURE_PID, args: { name: 'navigations and capture gaps' } });
  for (const m of snap.markers) {
    ev.push({ name: m.kind === 'capture-gap' ? `capture-gap: ${m.text}` : `navigation: ${m.text}`, ph: 'I', s: 'p', ts: us(m.t), pid: CAPTURE_PID, tid: CAPTURE_PID, cat: m.kind, args: { kind: m.kind, text: m.text } });
  }

  // pids: CAPTURE_PID, then 2.. for the sessions; each session's findings thread is its main
  // thread (tid == pid); stream threads take tids after the last pid, unique in the whole file.
  let nextTid = snap.sessions.length + 2;
  let nextFlowId = 1;
  snap.sessions.forEach((session, si) => {
    const pid = si + 2;
    const findingsTid = pid;
    const label = session.sessionId ? `Session ${session.sessionId}` : session.era === 'modern' ? `Conversation ${clientText(session.client)}` : `(no session) ${session.endpoint}`;
    ev.push({ name: 'process_name', ph: 'M', ts: 0, pid, tid: pid, args: { name: `${label} ${session.endpoint}` } });
    ev.push({ name: 'process_sort_index', ph: 'M', ts: 0, pid, tid: pid, args: { sort_index: si + 1 } });
    ev.push({ name: 'process_labels', ph: 'M', ts: 0, pid, tid: pid, args: { labels: `era: ${session.era}; lossless: ${session.lossless ? 'yes' : 'NO'}; ids: ${session.idScheme.kind}${session.protocolVersion ? `; rev ${session.protocolVersion}` : ''}` } });
    ev.push({ name: 'thread_name', ph: 'M', ts: 0, pid, tid: findingsTid, args: { name: 'findings' } });
    ev.push({ name: 'thread_sort_index', ph: 'M', ts: 0, pid, tid: findingsTid, args: { sort_index: 0 } });
    const tidOf = new Map<string, number>();
    const sliceOf = new Map<string, { ts: number; dur: number }>();
    session.streamIds.forEach((id, i) => {
      const s = snap.streams[id];
      if (!s) return;
      const tid = nextTid++;
      tidOf.set(id, tid);
      const events = eventsOf(s);
      ev.push({ name: 'thread_name', ph: 'M', ts: 0, pid, tid, args: { name: streamLabel(s) } });
      ev.push({ name: 'thread_sort_index', ph: 'M', ts: 0, pid, tid, args: { sort_index: i + 1 } });
      const endT = s.end ?? (events.length ? events[events.length - 1]!.t : s.start);
      const slice = { ts: us(s.start), dur: Math.max(1, us(endT) - us(s.start)) };
      sliceOf.set(id, slice);
      ev.push({
        name: `${s.method} ${s.kind} ${s.state}`,
        ph: 'X',
        ts: slice.ts,
        dur: slice.dur,
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
          events: events.length,
          captureIncomplete: !!s.captureIncomplete,
        },
      });
      for (const e of events) {
        const methods = e.messages.map((m) => m.method ?? (m.kind === 'result' || m.kind === 'error' ? `${m.kind} ${m.id ?? ''}` : m.kind));
        ev.push({
          name: `${e.id !== undefined ? `id ${e.id}` : 'no id'} ${methods.join(', ') || e.event}`,
          ph: 'I',
          s: 't',
          ts: us(e.t),
          pid,
          tid,
          cat: e.findings.length ? 'sse,finding' : 'sse',
          args: { index: e.index, id: e.id ?? null, event: e.event, data: cut(e.data), findings: e.findings, duplicate: !!e.duplicate },
        });
      }
    });
    // A reconnect: a v1 flow from the cut stream's slice to the slice of the stream that resumed
    // it. Each end has its slice's ts, pid, tid and cat and comes after it in the file: Perfetto
    // and chrome://tracing bind a flow end to the slice enclosing it, DevTools to the event with
    // the same ts/pid/tid/cat.
    for (const id of session.streamIds) {
      const s = snap.streams[id];
      const from = s?.resumes !== undefined ? sliceOf.get(s.resumes) : undefined;
      const to = sliceOf.get(id);
      if (!s || s.resumes === undefined || !from || !to) continue;
      const flowId = nextFlowId++;
      const name = `reconnect${s.lastEventIdSent !== undefined ? ` Last-Event-ID: ${s.lastEventIdSent}` : ''}`;
      ev.push({ name, ph: 's', ts: from.ts, pid, tid: tidOf.get(s.resumes)!, cat: 'stream', id: flowId, args: { from: s.resumes, to: id, lastEventIdSent: s.lastEventIdSent ?? null } });
      ev.push({ name, ph: 'f', bp: 'e', ts: to.ts, pid, tid: tidOf.get(id)!, cat: 'stream', id: flowId });
    }
    // JSON-RPC ids can repeat within a session (sessionless endpoints, id reuse): the async id is
    // the request's position, unique in the file; args keep the JSON-RPC id.
    (snap.requests[session.key] ?? []).forEach((r, ri) => {
      const tid = tidOf.get(r.streamId) ?? findingsTid;
      const id = `request:${pid}:${ri}`;
      const name = `${r.method} #${r.id} ${r.verdict}`;
      const args = { requestId: r.id, method: r.method, verdict: r.verdict, findings: r.findings, notifications: r.notificationCount ?? r.notifications.length, cumulative: r.cumulativeCount, response: r.response ?? null };
      ev.push({ name, ph: 'b', ts: us(r.start), pid, tid, cat: 'request', id, args });
      ev.push({ name, ph: 'e', ts: Math.max(us(r.start), us(r.end ?? tEnd)), pid, tid, cat: 'request', id });
    });
    for (const f of snap.findings.filter((x) => x.sessionKey === session.key)) {
      ev.push({ name: `${f.severity === 'error' ? '⛔' : f.severity === 'warning' ? '⚠' : 'ℹ'} ${f.code}`, ph: 'I', s: 't', ts: us(findingTime(snap, f) ?? t0), pid, tid: findingsTid, cat: `finding,${f.severity}`, args: findingArgs(f) });
    }
  });
  // Findings of no session shown (the inspector's capture gaps, a stream whose request was lost):
  // on the capture's thread, not left out.
  const shown = new Set(snap.sessions.map((x) => x.key));
  for (const f of snap.findings.filter((x) => x.sessionKey === undefined || !shown.has(x.sessionKey))) {
    ev.push({ name: `${f.severity === 'error' ? '⛔' : f.severity === 'warning' ? '⚠' : 'ℹ'} ${f.code}`, ph: 'I', s: 't', ts: us(findingTime(snap, f) ?? t0), pid: CAPTURE_PID, tid: CAPTURE_PID, cat: `finding,${f.severity}`, args: findingArgs(f) });
  }
  // Names (and the process/thread names viewers show) are labels: page and server text in them
  // (event ids and types, JSON-RPC methods and ids, session ids, URLs) is made visible and one line.
  // Perfetto's tokenizer reads an event's top-level strings itself before parsing it as JSON, and
  // a raw control character there (U+007F: JSON.stringify leaves it raw) fails the whole import,
  // as a \u escape (control characters, lone surrogates) does in its older versions. `args` keep
  // the exact text.
  for (const e of ev) {
    e.name = label(e.name);
    if (e.ph === 'M' && e.args) {
      const a = e.args as { name?: unknown; labels?: unknown };
      if (typeof a.name === 'string') e.args = { ...e.args, name: label(a.name) };
      if (typeof a.labels === 'string') e.args = { ...e.args, labels: label(a.labels) };
    }
  }
  return {
    traceEvents: ev,
    otherData: { producer: 'MCP Stream Inspector', createdAt: opts.createdAt ?? new Date().toISOString(), t0: new Date(Number.isFinite(t0) ? Math.max(-8.64e15, Math.min(8.64e15, t0)) : 0).toISOString() },
  };
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** One visible line: control, bidi and invisible characters and lone surrogates as ⟨U+XXXX⟩. */
function label(text: string): string {
  return visibleLine(text, 400).replace(LONE_SURROGATE, (ch) => `⟨U+${ch.charCodeAt(0).toString(16).toUpperCase()}⟩`);
}

/** The stream's events at this snapshot (Stream.events may have grown past an older snapshot). */
export function eventsOf(s: Stream): readonly SseEvent[] {
  return eventsAtSnapshot(s);
}

export function findingTime(snap: AnalysisSnapshot, f: Finding): number | undefined {
  const s = f.streamId ? snap.streams[f.streamId] : undefined;
  if (!s) return undefined;
  const t = f.eventIndex !== undefined ? eventTime(s, f.eventIndex) : undefined;
  if (t !== undefined) return t;
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

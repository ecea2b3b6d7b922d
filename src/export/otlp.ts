// OpenTelemetry traces: a capture as one OTLP/JSON `ExportTraceServiceRequest` (the body of
// `POST /v1/traces` with `Content-Type: application/json`, and one line of the OTLP file format the
// Collector's otlpjsonfile receiver reads), following the OpenTelemetry GenAI semantic conventions
// for MCP (docs/gen-ai/mcp.md, semantic-conventions-genai; status Development).
//
// Spans (all observed from the page's side, so MCP and HTTP spans are CLIENT spans):
// - one INTERNAL span per session, "MCP session", the root of the session's trace;
// - one CLIENT span per JSON-RPC request, named `{mcp.method.name} {target}` (target: the tool or
//   prompt name, as the conventions say; the method alone otherwise) with mcp.method.name,
//   jsonrpc.request.id (the id's string form), mcp.session.id, mcp.protocol.version,
//   gen_ai.tool.name / gen_ai.operation.name "execute_tool" / gen_ai.prompt.name,
//   mcp.resource.uri, network.*, server.*, error.type and rpc.response.status_code for a JSON-RPC
//   error ("tool_error" for a CallToolResult with isError). A request whose result was accepted
//   over a lossy stream, or that never got one, has status ERROR and error.type = the finding code:
//   the call did fail, though no error said so. Parent: the session span, unless the request
//   carried W3C trace context in `params._meta.traceparent` (the conventions' propagation): then
//   the span joins that trace as a child of the `traceparent` span (with its `tracestate`), next to
//   the server's own span for the call, and links to the session span. It is not given the
//   traceparent's own span id: the page's instrumentation that injected it exports that span.
// - one CLIENT span per HTTP connection, named by its method as the HTTP conventions name client
//   spans, child of the request it carried (a resume: of its chain's request), or of the session.
// SSE events, reconnects and findings are span events (names and attributes under the
// `mcp_stream_inspector.` namespace: the conventions define none for them); a reconnect is also a
// span link from the resuming connection to the one it resumed.
//
// Ids are derived from the capture's content (FNV-1a), so an export is reproducible. Times are
// nanoseconds since the epoch as decimal strings, enums integers, trace and span ids hex, field
// names lowerCamelCase: the OTLP/JSON rules (opentelemetry-proto docs/specification.md, "JSON
// Protobuf Encoding"). Strings must be UTF-8 in protobuf: a lone surrogate in page data becomes
// U+FFFD here (the only change to page text).
import type { AnalysisSnapshot, Finding, RequestInfo, Session, SseEvent, Stream } from '../core/model';
import { visibleLine } from './escape';
import { eventsOf, findingTime } from './trace';
import { PRODUCT_NAME, PRODUCT_VERSION } from './version';

export type OtlpAnyValue =
  | { stringValue: string }
  | { boolValue: boolean }
  | { intValue: string }
  | { doubleValue: number }
  | { arrayValue: { values: OtlpAnyValue[] } };
export interface OtlpKeyValue {
  key: string;
  value: OtlpAnyValue;
}
export interface OtlpSpanEvent {
  timeUnixNano: string;
  name: string;
  attributes?: OtlpKeyValue[];
}
export interface OtlpLink {
  traceId: string;
  spanId: string;
  attributes?: OtlpKeyValue[];
}
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  traceState?: string;
  parentSpanId?: string;
  name: string;
  /** SpanKind: 1 INTERNAL, 2 SERVER, 3 CLIENT. */
  kind: 1 | 2 | 3;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes?: OtlpKeyValue[];
  events?: OtlpSpanEvent[];
  links?: OtlpLink[];
  /** StatusCode 2 = ERROR (UNSET is the default and not written). */
  status?: { code: 2; message?: string };
}
export interface OtlpTraces {
  resourceSpans: {
    resource: { attributes: OtlpKeyValue[] };
    scopeSpans: { scope: { name: string; version: string }; spans: OtlpSpan[] }[];
  }[];
}

export interface OtlpOptions {
  createdAt?: string;
}

const KIND_INTERNAL = 1;
const KIND_CLIENT = 3;
const STATUS_ERROR = 2;
const NS = 'mcp_stream_inspector.';
/** Longest SSE data kept in an event attribute (the full text is in the product's own export). */
const DATA_MAX = 4000;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const utf8 = (s: string) => s.replace(LONE_SURROGATE, '\uFFFD');
/** A span or event name: one visible line (page text in it cannot reorder or break a backend's view). */
const label = (s: string) => utf8(visibleLine(s, 200));

class Attrs {
  readonly list: OtlpKeyValue[] = [];
  str(key: string, v: string | undefined): this {
    if (v !== undefined) this.list.push({ key, value: { stringValue: utf8(v) } });
    return this;
  }
  int(key: string, v: number | undefined): this {
    if (v !== undefined && Number.isSafeInteger(v)) this.list.push({ key, value: { intValue: String(v) } });
    return this;
  }
  bool(key: string, v: boolean | undefined): this {
    if (v !== undefined) this.list.push({ key, value: { boolValue: v } });
    return this;
  }
  strs(key: string, v: readonly string[] | undefined): this {
    if (v && v.length) this.list.push({ key, value: { arrayValue: { values: v.map((x) => ({ stringValue: utf8(x) })) } } });
    return this;
  }
  out(): { attributes?: OtlpKeyValue[] } {
    return this.list.length ? { attributes: this.list } : {};
  }
}

/** FNV-1a over UTF-16 code units, 32 bits, with MurmurHash3's finalizer so similar inputs differ in every bit. */
function fnv(s: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A non-zero hex id of `bytes` bytes derived from `s` (all-zero ids are invalid in OTLP and W3C). */
function idOf(s: string, bytes: 8 | 16): string {
  let out = '';
  for (let k = 0; k < bytes / 4; k++) out += fnv(s, Math.imul(k + 1, 0x9e3779b9)).toString(16).padStart(8, '0');
  return /^0+$/.test(out) ? `${out.slice(0, -1)}1` : out;
}

/** ms since the epoch (sub-ms precision) → ns as a decimal string, exact to the microsecond. */
function nanos(ms: number): string {
  if (!Number.isFinite(ms) || ms <= 0) return '0';
  const whole = Math.floor(ms);
  const frac = Math.round((ms - whole) * 1e6);
  return (BigInt(whole) * 1_000_000n + BigInt(frac)).toString();
}

/** W3C Trace Context `traceparent` (version 00 layout; an unknown version is read the same way). */
function parseTraceparent(v: unknown): { traceId: string; parentId: string } | undefined {
  if (typeof v !== 'string') return undefined;
  const m = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/.exec(v.trim());
  if (!m || m[1] === 'ff' || (m[1] === '00' && m[5] !== undefined)) return undefined;
  if (/^0+$/.test(m[2]!) || /^0+$/.test(m[3]!)) return undefined;
  return { traceId: m[2]!, parentId: m[3]! };
}

function obj(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** server.address / server.port and the URL without userinfo (url.full must not carry credentials). */
function urlParts(url: string): { full: string; address?: string; port?: number } {
  try {
    const u = new URL(url);
    if (u.username || u.password) {
      u.username = 'REDACTED';
      u.password = u.password ? 'REDACTED' : '';
    }
    const port = u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : u.protocol === 'http:' ? 80 : undefined;
    return { full: u.href, address: u.hostname.replace(/^\[|\]$/g, ''), ...(port !== undefined ? { port } : {}) };
  } catch {
    return { full: url };
  }
}

/** The id's string form, as jsonrpc.request.id wants it: `1` for 1, `a` for "a". */
function idString(idText: string): string {
  try {
    const v: unknown = JSON.parse(idText);
    return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : idText;
  } catch {
    return idText;
  }
}

/** The JSON-RPC error or result object answering request `r`, read from its terminal event. */
function terminalMessage(snap: AnalysisSnapshot, r: RequestInfo): Record<string, unknown> | undefined {
  const s = r.responseStreamId !== undefined ? snap.streams[r.responseStreamId] : undefined;
  if (!s) return undefined;
  const ev = eventsOf(s).find((e) => e.messages.some((m) => (m.kind === 'result' || m.kind === 'error') && m.id === r.id));
  if (!ev) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(ev.data);
  } catch {
    return undefined;
  }
  const all = Array.isArray(v) ? v : [v];
  for (const m of all) {
    const o = obj(m);
    if (o && 'id' in o && JSON.stringify(o.id) === r.id && ('result' in o || 'error' in o)) return o;
  }
  return undefined;
}

function sessionEnd(snap: AnalysisSnapshot, session: Session): number {
  let end = -Infinity;
  for (const id of session.streamIds) {
    const s = snap.streams[id];
    if (!s) continue;
    const evs = eventsOf(s);
    end = Math.max(end, s.end ?? s.start, evs.length ? evs[evs.length - 1]!.t : s.start);
  }
  return end;
}

function sessionStart(snap: AnalysisSnapshot, session: Session): number {
  let start = Infinity;
  for (const id of session.streamIds) {
    const s = snap.streams[id];
    if (s) start = Math.min(start, s.start);
  }
  for (const r of snap.requests[session.key] ?? []) start = Math.min(start, r.start);
  return start;
}

function findingEvent(snap: AnalysisSnapshot, f: Finding, fallbackT: number): OtlpSpanEvent {
  const a = new Attrs()
    .str(`${NS}finding.code`, f.code)
    .str(`${NS}finding.severity`, f.severity)
    .str(`${NS}finding.message`, f.message)
    .str(`${NS}finding.stream_id`, f.streamId)
    .strs(`${NS}finding.related_stream_ids`, f.relatedStreamIds)
    .str(`${NS}finding.missing`, f.missing)
    .strs(`${NS}finding.event_ids`, f.eventIds);
  if (f.requestId !== undefined) a.str('jsonrpc.request.id', idString(f.requestId));
  return { timeUnixNano: nanos(findingTime(snap, f) ?? fallbackT), name: `${NS}finding`, ...a.out() };
}

function sseEvent(e: SseEvent): OtlpSpanEvent {
  const a = new Attrs()
    .int(`${NS}sse.index`, e.index)
    .str(`${NS}sse.id`, e.id)
    .str(`${NS}sse.type`, e.event)
    .str(`${NS}sse.data`, e.data.length > DATA_MAX ? `${e.data.slice(0, DATA_MAX)}…` : e.data)
    .int(`${NS}sse.data_length`, e.data.length)
    .strs(`${NS}sse.findings`, e.findings)
    .bool(`${NS}sse.duplicate`, e.duplicate || undefined)
    .bool(`${NS}sse.truncated`, e.truncated || undefined);
  const methods = e.messages.map((m) => m.method).filter((m): m is string => m !== undefined);
  if (methods.length === 1) a.str('mcp.method.name', methods[0]);
  else a.strs('mcp.method.name', methods.length ? methods : undefined);
  const answered = e.messages.filter((m) => (m.kind === 'result' || m.kind === 'error') && m.id !== undefined).map((m) => idString(m.id!));
  if (answered.length === 1) a.str('jsonrpc.request.id', answered[0]);
  return { timeUnixNano: nanos(e.t), name: `${NS}sse.event`, ...a.out() };
}

export function toOtlp(snap: AnalysisSnapshot, opts: OtlpOptions = {}): OtlpTraces {
  const spans: OtlpSpan[] = [];
  let t0 = Infinity;
  for (const s of Object.values(snap.streams)) t0 = Math.min(t0, s.start);
  for (const m of snap.markers) t0 = Math.min(t0, m.t);
  if (!Number.isFinite(t0)) t0 = 0;
  const seed = `${t0}`;

  snap.sessions.forEach((session) => {
    const traceId = idOf(`${seed}|trace|${session.key}`, 16);
    const sessionSpanId = idOf(`${seed}|session|${session.key}`, 8);
    const start = sessionStart(snap, session);
    const end = Math.max(start, sessionEnd(snap, session));
    const ep = urlParts(session.endpoint);
    const common = (a: Attrs) =>
      a
        .str('mcp.session.id', session.sessionId ?? undefined)
        .str('mcp.protocol.version', session.protocolVersion)
        // the inspector's own attribute (no semantic convention names an MCP era)
        .str('mcp_stream_inspector.era', session.era)
        .str('network.protocol.name', 'http')
        .str('network.transport', 'tcp');
    const findings = snap.findings.filter((f) => f.sessionKey === session.key);
    const errors = findings.filter((f) => f.severity === 'error');
    const sessionSpan: OtlpSpan = {
      traceId,
      spanId: sessionSpanId,
      name: 'MCP session',
      kind: KIND_INTERNAL,
      startTimeUnixNano: nanos(start),
      endTimeUnixNano: nanos(end),
      ...common(new Attrs())
        .str('url.full', ep.full)
        .str('server.address', ep.address)
        .int('server.port', ep.port)
        .bool(`${NS}session.lossless`, session.lossless)
        .strs(`${NS}session.lossless_reasons`, session.losslessReasons)
        .str(`${NS}session.id_scheme`, session.idScheme.kind)
        .str(`${NS}session.id_scheme_evidence`, session.idScheme.evidence)
        .bool(`${NS}session.gapless_declared`, session.gaplessDeclared)
        .str(`${NS}session.worst`, session.worst)
        .out(),
      ...(errors.length ? { status: { code: STATUS_ERROR, message: utf8(`${errors.length} error finding(s): ${[...new Set(errors.map((f) => f.code))].join(', ')}`) } } : {}),
    };
    spans.push(sessionSpan);

    // Requests.
    const reqSpan = new Map<RequestInfo, OtlpSpan>();
    const requests = snap.requests[session.key] ?? [];
    requests.forEach((r, i) => {
      const p = obj(r.params);
      const meta = obj(p?.['_meta']);
      const tp = parseTraceparent(meta?.['traceparent']);
      const target = (r.method === 'tools/call' || r.method === 'prompts/get') && typeof p?.['name'] === 'string' ? (p['name'] as string) : undefined;
      const term = terminalMessage(snap, r);
      const err = obj(term?.['error']);
      const result = obj(term?.['result']);
      const a = new Attrs().str('mcp.method.name', r.method).str('jsonrpc.request.id', idString(r.id));
      common(a);
      if (r.method === 'tools/call') a.str('gen_ai.tool.name', target).str('gen_ai.operation.name', 'execute_tool');
      if (r.method === 'prompts/get') a.str('gen_ai.prompt.name', target);
      if (/^resources\/(read|subscribe|unsubscribe)$/.test(r.method) && typeof p?.['uri'] === 'string') a.str('mcp.resource.uri', p['uri'] as string);
      const s = snap.streams[r.streamId];
      const u = urlParts(s?.url ?? session.endpoint);
      a.str('server.address', u.address).int('server.port', u.port);
      let status: OtlpSpan['status'];
      const code = err?.['code'];
      if (err) {
        const codeText = typeof code === 'number' || typeof code === 'string' ? String(code) : '_OTHER';
        a.str('error.type', codeText).str('rpc.response.status_code', codeText);
        status = { code: STATUS_ERROR, ...(typeof err['message'] === 'string' ? { message: utf8(err['message']) } : {}) };
      } else if (result?.['isError'] === true) {
        a.str('error.type', 'tool_error');
        status = { code: STATUS_ERROR, message: 'the tool reported an error (isError)' };
      } else if (r.verdict === 'lossy' || r.verdict === 'duplicated' || r.verdict === 'incomplete') {
        const code = r.verdict === 'lossy' ? 'lossy-result-accepted' : r.verdict === 'duplicated' ? 'duplicate-output-accepted' : 'result-missing';
        const f = findings.find((x) => x.requestId === r.id && x.code === code) ?? findings.find((x) => x.requestId === r.id && x.severity === 'error');
        a.str('error.type', f?.code ?? code);
        status = { code: STATUS_ERROR, message: utf8(f?.message ?? `verdict ${r.verdict}`) };
      }
      a.str(`${NS}request.verdict`, r.verdict)
        .strs(`${NS}request.findings`, r.findings)
        .int(`${NS}request.notifications`, r.notificationCount ?? r.notifications.length)
        .int(`${NS}request.cumulative_notifications`, r.cumulativeCount)
        .str(`${NS}request.stream_id`, r.streamId)
        .str(`${NS}request.response_stream_id`, r.responseStreamId);
      const carrying = session.streamIds.map((id) => snap.streams[id]).filter((x): x is Stream => !!x && (x.id === r.streamId || x.id === r.responseStreamId || (x.chainRoot !== undefined && x.chainRoot === r.streamId)));
      const lastSeen = carrying.reduce((m, x) => Math.max(m, x.end ?? x.start, ...eventsOf(x).slice(-1).map((e) => e.t)), r.start);
      const span: OtlpSpan = {
        traceId: tp?.traceId ?? traceId,
        spanId: idOf(`${seed}|request|${session.key}|${i}|${r.id}`, 8),
        ...(tp && typeof meta?.['tracestate'] === 'string' ? { traceState: utf8(meta['tracestate'] as string) } : {}),
        parentSpanId: tp?.parentId ?? sessionSpanId,
        name: label(target !== undefined ? `${r.method} ${target}` : r.method),
        kind: KIND_CLIENT,
        startTimeUnixNano: nanos(r.start),
        endTimeUnixNano: nanos(Math.max(r.start, r.end ?? lastSeen)),
        ...a.out(),
        ...(tp ? { links: [{ traceId, spanId: sessionSpanId, ...new Attrs().str(`${NS}link`, 'session').out() }] } : {}),
        ...(status ? { status } : {}),
      };
      reqSpan.set(r, span);
      spans.push(span);
    });

    // HTTP connections.
    const firstBy = new Map<string, RequestInfo>();
    const answeredOn = new Map<string, RequestInfo>();
    for (const r of requests) {
      if (!firstBy.has(r.streamId)) firstBy.set(r.streamId, r);
      if (r.responseStreamId !== undefined && !answeredOn.has(r.responseStreamId)) answeredOn.set(r.responseStreamId, r);
    }
    const streamSpan = new Map<string, OtlpSpan>();
    for (const id of session.streamIds) {
      const s = snap.streams[id];
      if (!s) continue;
      const parentReq = firstBy.get(s.id) ?? (s.chainRoot !== undefined ? firstBy.get(s.chainRoot) : undefined) ?? answeredOn.get(s.id);
      const parent = parentReq ? reqSpan.get(parentReq) : undefined;
      const evs = eventsOf(s);
      const endT = Math.max(s.start, s.end ?? (evs.length ? evs[evs.length - 1]!.t : s.start));
      const u = urlParts(s.url);
      const a = new Attrs().str('http.request.method', s.method).str('url.full', u.full).str('server.address', u.address).int('server.port', u.port).int('http.response.status_code', s.status);
      common(a);
      if (s.lastEventIdSent !== undefined) a.strs('http.request.header.last-event-id', [s.lastEventIdSent]);
      a.str(`${NS}stream.id`, s.id)
        .str(`${NS}stream.kind`, s.kind)
        .str(`${NS}stream.state`, s.state)
        .str(`${NS}stream.end_reason`, s.endReason)
        .str(`${NS}stream.content_type`, s.contentType)
        .str(`${NS}stream.transport`, s.transport)
        .int(`${NS}stream.events`, evs.length)
        .bool(`${NS}stream.capture_incomplete`, s.captureIncomplete || undefined)
        .strs(`${NS}stream.request_ids`, s.requestIds.map(idString));
      let status: OtlpSpan['status'];
      if (s.status !== undefined && s.status >= 400) {
        a.str('error.type', String(s.status));
        status = { code: STATUS_ERROR };
      } else if (s.state === 'error') {
        a.str('error.type', '_OTHER');
        status = { code: STATUS_ERROR, ...(s.endReason ? { message: utf8(s.endReason) } : {}) };
      }
      const events: OtlpSpanEvent[] = [];
      if (s.resumes !== undefined) {
        events.push({
          timeUnixNano: nanos(s.start),
          name: `${NS}reconnect`,
          ...new Attrs().str(`${NS}reconnect.resumes_stream_id`, s.resumes).str(`${NS}reconnect.last_event_id_sent`, s.lastEventIdSent).out(),
        });
      }
      for (const e of evs) events.push(sseEvent(e));
      const span: OtlpSpan = {
        traceId: parent?.traceId ?? traceId,
        spanId: idOf(`${seed}|stream|${s.id}`, 8),
        parentSpanId: parent?.spanId ?? sessionSpanId,
        name: label(s.method),
        kind: KIND_CLIENT,
        startTimeUnixNano: nanos(s.start),
        endTimeUnixNano: nanos(endT),
        ...a.out(),
        ...(events.length ? { events } : {}),
        ...(status ? { status } : {}),
      };
      streamSpan.set(s.id, span);
      spans.push(span);
    }
    // A reconnect also links the resuming connection to the connection it resumed.
    for (const id of session.streamIds) {
      const s = snap.streams[id];
      const from = s?.resumes !== undefined ? streamSpan.get(s.resumes) : undefined;
      const span = streamSpan.get(id);
      if (!s || !from || !span) continue;
      span.links = [...(span.links ?? []), { traceId: from.traceId, spanId: from.spanId, ...new Attrs().str(`${NS}link`, 'resumes').str(`${NS}reconnect.last_event_id_sent`, s.lastEventIdSent).out() }];
    }
    // Findings: on the request they concern, else the connection, else the session.
    for (const f of findings) {
      const r = f.requestId !== undefined ? (requests.find((x) => x.id === f.requestId && (f.streamId === undefined || x.streamId === f.streamId || x.responseStreamId === f.streamId)) ?? requests.find((x) => x.id === f.requestId)) : undefined;
      const target = (r && reqSpan.get(r)) ?? (f.streamId !== undefined ? streamSpan.get(f.streamId) : undefined) ?? sessionSpan;
      (target.events ??= []).push(findingEvent(snap, f, start));
    }
  });

  // The inspector's own markers (navigations, capture gaps), and the findings of no session shown
  // (the inspector's capture gaps, a stream whose request was lost): events of one capture span.
  const shown = new Set(snap.sessions.map((x) => x.key));
  const unplaced = snap.findings.filter((f) => f.sessionKey === undefined || !shown.has(f.sessionKey));
  if (snap.markers.length || unplaced.length) {
    const tEnd = unplaced.reduce((m, f) => Math.max(m, findingTime(snap, f) ?? t0), snap.markers.reduce((m, x) => Math.max(m, x.t), t0));
    spans.push({
      traceId: idOf(`${seed}|trace|capture`, 16),
      spanId: idOf(`${seed}|capture`, 8),
      name: 'MCP Stream Inspector capture',
      kind: KIND_INTERNAL,
      startTimeUnixNano: nanos(t0),
      endTimeUnixNano: nanos(tEnd),
      events: [
        ...snap.markers.map((m) => ({ timeUnixNano: nanos(m.t), name: `${NS}${m.kind === 'capture-gap' ? 'capture_gap' : 'navigation'}`, ...new Attrs().str(`${NS}marker.text`, m.text).out() })),
        ...unplaced.map((f) => findingEvent(snap, f, t0)),
      ],
    });
  }

  return {
    resourceSpans: [
      {
        resource: {
          attributes: new Attrs()
            .str('service.name', PRODUCT_NAME)
            .str('service.version', PRODUCT_VERSION)
            .str(`${NS}capture.created_at`, opts.createdAt ?? new Date().toISOString())
            .int(`${NS}capture.records`, snap.recordCount).list,
        },
        scopeSpans: [{ scope: { name: PRODUCT_NAME, version: PRODUCT_VERSION }, spans }],
      },
    ],
  };
}

/** One line (OTLP file format: JSON Lines) ending with a newline. */
export function exportOtlp(snap: AnalysisSnapshot, opts: OtlpOptions = {}): string {
  return `${JSON.stringify(toOtlp(snap, opts))}\n`;
}

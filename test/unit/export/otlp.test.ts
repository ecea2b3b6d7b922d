// The OTLP/JSON export against the official OTLP proto definitions, and its span structure.
//
// The proto classes are those OpenTelemetry JS generates from opentelemetry-proto with protobufjs
// (@opentelemetry/otlp-transformer 0.216.0, build/src/generated/root.js: the last release that
// ships them; later ones hand-write their writer and need Node 22). Each export is read the way
// the OTLP/JSON rules say (opentelemetry-proto docs/specification.md, "JSON Protobuf Encoding":
// ids hex, enums integers, 64-bit integers as decimal strings, lowerCamelCase names) into an
// `ExportTraceServiceRequest`, encoded to protobuf bytes, decoded, and turned back into JSON:
// the result must equal the file. A field the proto does not define, a wrong type or a malformed
// number does not survive that trip, so the comparison fails on it.
import fc from 'fast-check';
import { createRequire } from 'node:module';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeRecords } from '../../../src/core';
import type { AnalysisSnapshot } from '../../../src/core/model';
import type { CaptureRecord } from '../../../src/core/record';
import { exportCapture } from '../../../src/export';
import { eventsOf } from '../../../src/export/trace';
import { type OtlpAnyValue, type OtlpSpan, type OtlpTraces, toOtlp } from '../../../src/export/otlp';
import { lossyRecords } from '../../support/hand-made-lossy';
import { hostileCutCapture, orphanRecords } from './helpers';

interface ProtoType {
  fromObject(o: unknown): unknown;
  encode(m: unknown): { finish(): Uint8Array };
  decode(b: Uint8Array): unknown;
  toObject(m: unknown, o: Record<string, unknown>): unknown;
  verify(m: unknown): string | null;
}
const require = createRequire(import.meta.url);
const root = require('@opentelemetry/otlp-transformer/build/src/generated/root.js') as {
  opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: ProtoType } } } } };
};
const Request = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

const ID_FIELDS = new Set(['traceId', 'spanId', 'parentSpanId']);
/** OTLP/JSON → the proto object: hex ids become bytes (the one place OTLP/JSON differs from proto3 JSON). */
function toProtoObject(v: unknown, path = ''): unknown {
  if (Array.isArray(v)) return v.map((x) => toProtoObject(x, path));
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if (ID_FIELDS.has(k)) {
        expect(x, `${path}.${k}`).toMatch(k === 'traceId' ? /^[0-9a-f]{32}$/ : /^[0-9a-f]{16}$/);
        out[k] = Buffer.from(x as string, 'hex');
      } else out[k] = toProtoObject(x, `${path}.${k}`);
    }
    return out;
  }
  return v;
}
function idsToHex(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(idsToHex);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = ID_FIELDS.has(k) ? Buffer.from(x as string, 'base64').toString('hex') : idsToHex(x);
    return out;
  }
  return v;
}
/** Parse the file as an OTLP receiver would, through protobuf bytes, and back to OTLP/JSON. */
function throughProto(text: string): unknown {
  const message = Request.fromObject(toProtoObject(JSON.parse(text)));
  const bytes = Request.encode(message).finish();
  const decoded = Request.decode(bytes);
  expect(Request.verify(decoded)).toBeNull();
  return idsToHex(Request.toObject(decoded, { longs: String, enums: Number, bytes: String }));
}

const dir = 'test/fixtures/captures';
const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.capture.json')) : [];
const cases: [string, CaptureRecord[]][] = [
  ['sample lossy (hand-made)', lossyRecords()],
  ['a stream whose request the buffer cap evicted (hand-made)', orphanRecords()],
  ...files.map((f): [string, CaptureRecord[]] => [f, (JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')) as { records: CaptureRecord[] }).records]),
];

const spansOf = (t: OtlpTraces) => t.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
const attr = (s: { attributes?: { key: string; value: OtlpAnyValue }[] }, key: string): unknown => {
  const v = s.attributes?.find((a) => a.key === key)?.value;
  if (!v) return undefined;
  if ('stringValue' in v) return v.stringValue;
  if ('intValue' in v) return Number(v.intValue);
  if ('boolValue' in v) return v.boolValue;
  if ('arrayValue' in v) return v.arrayValue.values.map((x) => ('stringValue' in x ? x.stringValue : x));
  return v.doubleValue;
};

function checkStructure(snap: AnalysisSnapshot, t: OtlpTraces) {
  const spans = spansOf(t);
  const byId = new Map<string, OtlpSpan>();
  for (const s of spans) {
    expect(byId.has(s.spanId), `duplicate span id ${s.spanId}`).toBe(false);
    byId.set(s.spanId, s);
    expect(BigInt(s.endTimeUnixNano) >= BigInt(s.startTimeUnixNano)).toBe(true);
    for (const e of s.events ?? []) expect(BigInt(e.timeUnixNano) > 0n).toBe(true);
  }
  // Parent/child: every parent is a span of the same trace in the file (traceparent parents aside,
  // see the traceparent test), no cycles, and each session's tree hangs from its "MCP session" span.
  for (const s of spans) {
    if (s.parentSpanId === undefined) continue;
    const p = byId.get(s.parentSpanId);
    expect(p, `${s.name}: parent ${s.parentSpanId} not in the file`).toBeDefined();
    expect(p!.traceId).toBe(s.traceId);
    const seen = new Set<string>();
    for (let x: OtlpSpan | undefined = s; x?.parentSpanId !== undefined; x = byId.get(x.parentSpanId)) {
      expect(seen.has(x.spanId)).toBe(false);
      seen.add(x.spanId);
    }
  }
  const sessionSpans = spans.filter((s) => s.name === 'MCP session');
  expect(sessionSpans).toHaveLength(snap.sessions.length);
  for (const s of sessionSpans) {
    expect(s.parentSpanId).toBeUndefined();
    expect(s.kind).toBe(1);
  }
  const rootOf = (s: OtlpSpan): OtlpSpan => (s.parentSpanId === undefined ? s : rootOf(byId.get(s.parentSpanId)!));
  snap.sessions.forEach((session, i) => {
    const sessionSpan = sessionSpans[i]!;
    expect(attr(sessionSpan, 'mcp.session.id')).toBe(session.sessionId ?? undefined);
    expect(attr(sessionSpan, 'mcp_stream_inspector.session.lossless')).toBe(session.lossless);
    // One CLIENT span per JSON-RPC request, named `{mcp.method.name} {target}`, under the session.
    const requests = snap.requests[session.key] ?? [];
    const reqSpans = spans.filter((s) => rootOf(s) === sessionSpan && attr(s, 'mcp_stream_inspector.request.verdict') !== undefined);
    expect(reqSpans).toHaveLength(requests.length);
    requests.forEach((r, k) => {
      const s = reqSpans[k]!;
      expect(s.kind).toBe(3);
      expect(s.parentSpanId).toBe(sessionSpan.spanId);
      expect(attr(s, 'mcp.method.name')).toBe(r.method);
      expect(attr(s, 'jsonrpc.request.id')).toBe(String(JSON.parse(r.id)));
      expect(attr(s, 'mcp.session.id')).toBe(session.sessionId ?? undefined);
      expect(attr(s, 'mcp.protocol.version')).toBe(session.protocolVersion);
      expect(attr(s, 'mcp_stream_inspector.request.verdict')).toBe(r.verdict);
      const name = (r.params as { name?: unknown } | undefined)?.name;
      if (r.method === 'tools/call') {
        expect(s.name).toBe(`tools/call ${name as string}`);
        expect(attr(s, 'gen_ai.tool.name')).toBe(name);
        expect(attr(s, 'gen_ai.operation.name')).toBe('execute_tool');
      } else if (r.method !== 'prompts/get') expect(s.name).toBe(r.method);
      if (r.verdict === 'lossy' || r.verdict === 'incomplete') expect(s.status?.code).toBe(2);
    });
    // One CLIENT span per HTTP connection, under the request it carried (or the session); its SSE
    // events and reconnect as span events, a reconnect also as a link.
    for (const id of session.streamIds) {
      const st = snap.streams[id]!;
      const s = spans.find((x) => attr(x, 'mcp_stream_inspector.stream.id') === id)!;
      expect(s, id).toBeDefined();
      expect(s.kind).toBe(3);
      expect(s.name).toBe(st.method);
      expect(rootOf(s)).toBe(sessionSpan);
      const parent = byId.get(s.parentSpanId!)!;
      if (st.requestIds.length) expect(attr(parent, 'jsonrpc.request.id')).toBe(String(JSON.parse(st.requestIds[0]!)));
      const evs = (s.events ?? []).filter((e) => e.name === 'mcp_stream_inspector.sse.event');
      expect(evs.map((e) => attr(e, 'mcp_stream_inspector.sse.id'))).toEqual(eventsOf(st).map((e) => e.id));
      expect(evs.map((e) => BigInt(e.timeUnixNano))).toEqual([...evs.map((e) => BigInt(e.timeUnixNano))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      const reconnects = (s.events ?? []).filter((e) => e.name === 'mcp_stream_inspector.reconnect');
      if (st.resumes !== undefined) {
        expect(reconnects).toHaveLength(1);
        expect(attr(reconnects[0]!, 'mcp_stream_inspector.reconnect.last_event_id_sent')).toBe(st.lastEventIdSent);
        const cut = spans.find((x) => attr(x, 'mcp_stream_inspector.stream.id') === st.resumes)!;
        expect(s.links?.some((l) => l.spanId === cut.spanId && l.traceId === cut.traceId)).toBe(true);
      } else expect(reconnects).toHaveLength(0);
    }
  });
  // Every finding is a span event with its code and message.
  const findingEvents = spans.flatMap((s) => (s.events ?? []).filter((e) => e.name === 'mcp_stream_inspector.finding'));
  expect(findingEvents.map((e) => `${attr(e, 'mcp_stream_inspector.finding.code') as string}|${attr(e, 'mcp_stream_inspector.finding.message') as string}`).sort()).toEqual(
    snap.findings.map((f) => `${f.code}|${f.message}`).sort(),
  );
}

describe('OTLP/JSON export', () => {
  it.each(cases)('%s: an ExportTraceServiceRequest by the official proto definitions, with the MCP span structure', (_n, records) => {
    const snap = analyzeRecords(records);
    const out = exportCapture('otlp', { records, snapshot: snap, createdAt: '2026-12-01T00:00:00.000Z' });
    expect(out.filename.endsWith('.otlp.json')).toBe(true);
    expect(out.text.endsWith('\n') && !out.text.slice(0, -1).includes('\n')).toBe(true);
    const file = JSON.parse(out.text) as OtlpTraces;
    expect(throughProto(out.text)).toEqual(file);
    checkStructure(snap, file);
  });

  it('the proto round trip does catch what the file must not hold', () => {
    const snap = analyzeRecords(lossyRecords());
    const file = toOtlp(snap) as unknown as { resourceSpans: { scopeSpans: { spans: Record<string, unknown>[] }[] }[] };
    const bad = structuredClone(file);
    bad.resourceSpans[0]!.scopeSpans[0]!.spans[0]!['parentSpanID'] = 'aa';
    expect(throughProto(JSON.stringify(bad))).not.toEqual(bad);
    const bad2 = structuredClone(file);
    bad2.resourceSpans[0]!.scopeSpans[0]!.spans[0]!['startTimeUnixNano'] = '17e17';
    expect(throughProto(JSON.stringify(bad2))).not.toEqual(bad2);
  });

  it('the lossy tools/call is a failed span with error.type lossy-result-accepted and the finding as an event', () => {
    const snap = analyzeRecords(lossyRecords());
    const spans = spansOf(toOtlp(snap));
    const call = spans.find((s) => attr(s, 'mcp.method.name') === 'tools/call' && attr(s, 'mcp_stream_inspector.request.verdict') === 'lossy')!;
    expect(call).toBeDefined();
    expect(call.status).toMatchObject({ code: 2 });
    expect(attr(call, 'error.type')).toBe('lossy-result-accepted');
    expect(call.events?.some((e) => e.name === 'mcp_stream_inspector.finding' && attr(e, 'mcp_stream_inspector.finding.code') === 'lossy-result-accepted')).toBe(true);
  });

  it('W3C trace context from params._meta.traceparent: the request span joins that trace under the traceparent span, keeps tracestate, links to the session', () => {
    const u = 'http://127.0.0.1:7000/mcp';
    const tpTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const tpParent = '00f067aa0ba902b7';
    const call = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get-weather', arguments: {}, _meta: { traceparent: `00-${tpTrace}-${tpParent}-01`, tracestate: 'rojo=00f067aa0ba902b7' } } };
    const result = { jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: 'sunny' }] } };
    const recs: CaptureRecord[] = [
      { kind: 'request', seq: 1, src: 's', t: 1_700_000_000_000, conn: 'c1', transport: 'fetch', method: 'POST', url: u, headers: [['mcp-session-id', 'S1'], ['content-type', 'application/json']], body: JSON.stringify(call) },
      { kind: 'response', seq: 2, src: 's', t: 1_700_000_000_010, conn: 'c1', status: 200, statusText: 'OK', headers: [['content-type', 'text/event-stream'], ['mcp-session-id', 'S1']], url: u, redirected: false, type: 'basic', capture: 'sse' },
      { kind: 'chunk', seq: 3, src: 's', t: 1_700_000_000_020, conn: 'c1', text: `id: 1\ndata: ${JSON.stringify(result)}\n\n`, bytes: 80 },
      { kind: 'end', seq: 4, src: 's', t: 1_700_000_000_030, conn: 'c1', how: 'complete' },
    ];
    const snap = analyzeRecords(recs);
    const text = exportCapture('otlp', { records: recs, snapshot: snap }).text;
    const file = JSON.parse(text) as OtlpTraces;
    expect(throughProto(text)).toEqual(file);
    const spans = spansOf(file);
    const session = spans.find((s) => s.name === 'MCP session')!;
    const req = spans.find((s) => attr(s, 'mcp.method.name') === 'tools/call' && s.name === 'tools/call get-weather')!;
    expect(req.traceId).toBe(tpTrace);
    expect(req.parentSpanId).toBe(tpParent);
    expect(req.spanId).not.toBe(tpParent);
    expect(req.traceState).toBe('rojo=00f067aa0ba902b7');
    expect(req.links).toEqual([expect.objectContaining({ traceId: session.traceId, spanId: session.spanId })]);
    expect(attr(req, 'jsonrpc.request.id')).toBe('3');
    expect(attr(req, 'mcp.session.id')).toBe('S1');
    const post = spans.find((s) => attr(s, 'mcp_stream_inspector.stream.id') !== undefined)!;
    expect(post.traceId).toBe(tpTrace);
    expect(post.parentSpanId).toBe(req.spanId);
    expect(post.name).toBe('POST');
    expect(attr(post, 'http.response.status_code')).toBe(200);
    expect(attr(post, 'server.port')).toBe(7000);
  });

  it('a JSON-RPC error sets error.type and rpc.response.status_code to its code, the status message to its message', () => {
    const u = 'http://127.0.0.1:7000/mcp';
    const recs: CaptureRecord[] = [
      { kind: 'request', seq: 1, src: 's', t: 1_700_000_000_000, conn: 'c1', transport: 'fetch', method: 'POST', url: u, headers: [], body: JSON.stringify({ jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'x' } }) },
      { kind: 'response', seq: 2, src: 's', t: 1_700_000_000_010, conn: 'c1', status: 200, statusText: 'OK', headers: [['content-type', 'text/event-stream']], url: u, redirected: false, type: 'basic', capture: 'sse' },
      { kind: 'chunk', seq: 3, src: 's', t: 1_700_000_000_020, conn: 'c1', text: `data: ${JSON.stringify({ jsonrpc: '2.0', id: 'a', error: { code: -32602, message: 'Unknown tool: x' } })}\n\n`, bytes: 80 },
      { kind: 'end', seq: 4, src: 's', t: 1_700_000_000_030, conn: 'c1', how: 'complete' },
    ];
    const spans = spansOf(toOtlp(analyzeRecords(recs)));
    const req = spans.find((s) => attr(s, 'mcp.method.name') === 'tools/call')!;
    expect(attr(req, 'jsonrpc.request.id')).toBe('a');
    expect(attr(req, 'error.type')).toBe('-32602');
    expect(attr(req, 'rpc.response.status_code')).toBe('-32602');
    expect(req.status).toEqual({ code: 2, message: 'Unknown tool: x' });
  });

  it('hostile page text (controls, bidi, lone surrogates, huge data) still gives a valid request, names on one line', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (k) => {
        const records = hostileCutCapture(k, { hostileId: true });
        const text = exportCapture('otlp', { records, snapshot: analyzeRecords(records) }).text;
        const file = JSON.parse(text) as OtlpTraces;
        expect(throughProto(text)).toEqual(file);
        for (const span of spansOf(file)) {
          expect(span.name).not.toMatch(/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/);
          expect(span.traceId).not.toBe('0'.repeat(32));
        }
      }),
      { numRuns: 150 },
    );
  });
});

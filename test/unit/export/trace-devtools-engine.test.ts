// The trace export parsed by DevTools' own trace engine (@paulirish/trace_engine: the Performance
// panel's model, published for Lighthouse), on every generated capture and on several sessions in
// one file. The engine reads our file as a generic (non-Chrome) trace: it keeps the complete ("X")
// slices and the instants per thread, the process and thread names and the flows between slices.
// Instants must be written with the legacy phase "I": the engine's isInstant() is `ph === 'I'` and
// it drops "i" events (SSE events and findings were not in its model while the exporter wrote
// "i"). It has no place for async slices (requests), so those are not checked here
// (test/unit/export/trace-format.test.ts checks them against Perfetto's rules). The same panel
// opens the file in real Chromium in test/e2e/trace-viewer.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import * as TraceEngine from '@paulirish/trace_engine';
import { analyzeRecords } from '../../../src/core';
import type { AnalysisSnapshot } from '../../../src/core/model';
import type { CaptureRecord } from '../../../src/core/record';
import { exportTrace, type TraceFile } from '../../../src/export/trace';

// The engine uses DOMRect (a browser global) for layout-shift geometry; Node has none.
beforeAll(() => {
  const g = globalThis as { DOMRect?: unknown };
  g.DOMRect ??= class DOMRect {
    constructor(
      public x = 0,
      public y = 0,
      public width = 0,
      public height = 0,
    ) {}
    get top() {
      return this.y;
    }
    get left() {
      return this.x;
    }
    get right() {
      return this.x + this.width;
    }
    get bottom() {
      return this.y + this.height;
    }
  };
});

const dir = 'test/fixtures/captures';
const capture = (f: string) => (JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')) as { records: CaptureRecord[] }).records;
const files = readdirSync(dir).filter((f) => f.endsWith('.capture.json'));
const cases: [string, () => CaptureRecord[]][] = [
  ...files.map((f): [string, () => CaptureRecord[]] => [f, () => capture(f)]),
  ['lossy + session-404 + cross-stream in one file', () => [...capture('lossy.capture.json'), ...capture('session-404.capture.json'), ...capture('cross-stream.capture.json')]],
  // No fixture has a navigation: one in the middle of the capture gives a process-scoped instant.
  [
    'lossy + a navigation (process-scoped instant)',
    () => {
      const recs = capture('lossy.capture.json');
      const t = (recs[0]!.t + recs[recs.length - 1]!.t) / 2;
      return [...recs, { seq: 1, src: 'nav-test', t, kind: 'navigation', url: 'http://127.0.0.1/after-reload', top: true }];
    },
  ],
];

interface EngineEvent {
  ph: string;
  name: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  s?: string;
  args?: { streamId?: string; name?: string; index?: number; code?: string; kind?: string };
}

/** What a test compares of an event: the fields the exporter writes and the engine keeps. */
const key = (e: EngineEvent) => JSON.stringify([e.ph, e.name, e.ts, e.dur ?? null, e.s ?? null, e.args?.streamId ?? null, e.args?.index ?? null, e.args?.code ?? null, e.args?.kind ?? null]);

async function parse(trace: TraceFile) {
  const model = TraceEngine.TraceModel.Model.createWithAllHandlers();
  // The engine annotates the events it is given: hand it a copy.
  await model.parse(structuredClone(trace.traceEvents) as unknown as Parameters<typeof model.parse>[0]);
  const parsed = model.parsedTrace();
  if (!parsed) throw new Error('trace engine produced no parsed trace');
  return (parsed as unknown as { data?: unknown }).data ?? parsed;
}

describe.each(cases)('DevTools trace engine on the trace export: %s', (_name, load) => {
  let snap: AnalysisSnapshot;
  let trace: TraceFile;
  let data: {
    Meta: { traceIsGeneric: boolean; processNames: Map<number, EngineEvent>; threadsInProcess: Map<number, Map<number, EngineEvent>> };
    Renderer: { processes: Map<number, { threads: Map<number, { name: string | null; entries: EngineEvent[] }> }> };
    Flows: { flows: EngineEvent[][] };
    Warnings: { perEvent: Map<unknown, unknown>; perWarning: Map<unknown, unknown> };
  };
  beforeAll(async () => {
    snap = analyzeRecords(load());
    trace = JSON.parse(exportTrace(snap, { createdAt: 'test' })) as TraceFile;
    data = (await parse(trace)) as typeof data;
  });

  it('parses without warnings, as a generic trace', () => {
    expect(data.Warnings.perEvent.size).toBe(0);
    expect(data.Warnings.perWarning.size).toBe(0);
    expect(data.Meta.traceIsGeneric).toBe(true);
  });

  it('keeps every process and thread name', () => {
    for (const m of trace.traceEvents.filter((e) => e.ph === 'M' && e.name === 'process_name')) {
      expect(data.Meta.processNames.get(m.pid)?.args?.name).toBe((m.args as { name: string }).name);
    }
    for (const m of trace.traceEvents.filter((e) => e.ph === 'M' && e.name === 'thread_name')) {
      expect(data.Meta.threadsInProcess.get(m.pid)?.get(m.tid)?.args?.name, `${m.pid}/${m.tid}`).toBe((m.args as { name: string }).name);
    }
  });

  it('shows each stream as one slice on its own named thread, with the exported ts and dur', () => {
    const slices = trace.traceEvents.filter((e) => e.ph === 'X');
    expect(slices).toHaveLength(Object.keys(snap.streams).length);
    for (const x of slices) {
      const t = data.Renderer.processes.get(x.pid)?.threads.get(x.tid);
      expect(t, `thread ${x.pid}/${x.tid}`).toBeDefined();
      const name = trace.traceEvents.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.tid === x.tid)!.args as { name: string };
      expect(t!.name).toBe(name.name);
      expect(t!.entries.filter((e) => e.ph === 'X').map((e) => [e.name, e.ts, e.dur, e.args?.streamId])).toEqual([[x.name, x.ts, x.dur, (x.args as { streamId: string }).streamId]]);
    }
  });

  it('keeps every instant (SSE events, findings, navigations and capture gaps) on its thread, with the exported name, ts and scope', () => {
    const instants = trace.traceEvents.filter((e) => e.ph === 'I');
    expect(instants.filter((e) => e.cat?.startsWith('sse'))).toHaveLength(Object.values(snap.streams).reduce((n, s) => n + (s.eventCount ?? s.events.length), 0));
    expect(instants.filter((e) => e.cat?.startsWith('finding'))).toHaveLength(snap.findings.filter((f) => snap.sessions.some((s) => s.key === f.sessionKey)).length);
    expect(instants.filter((e) => e.s === 'p')).toHaveLength(snap.markers.length);
    const threads = new Set(instants.map((e) => `${e.pid}/${e.tid}`));
    for (const pt of threads) {
      const [pid, tid] = pt.split('/').map(Number) as [number, number];
      const t = data.Renderer.processes.get(pid)?.threads.get(tid);
      expect(t, `thread ${pt}`).toBeDefined();
      const written = instants.filter((e) => e.pid === pid && e.tid === tid).map((e) => key(e as EngineEvent));
      expect(t!.entries.filter((e) => e.ph === 'I').map(key).sort(), `instants on ${pt} (${t!.name})`).toEqual(written.sort());
    }
    // Nothing but what the file holds, and nothing the engine read as another kind of event.
    const all = [...data.Renderer.processes.values()].flatMap((p) => [...p.threads.values()].flatMap((t) => t.entries));
    expect(all.filter((e) => e.ph === 'I')).toHaveLength(instants.length);
    expect(all.filter((e) => e.ph !== 'I' && e.ph !== 'X')).toEqual([]);
  });

  it('links each reconnect by a flow between the two streams’ slices', () => {
    const resumed = Object.values(snap.streams).filter((s) => s.resumes !== undefined && snap.streams[s.resumes] && snap.streams[s.resumes]!.sessionKey === s.sessionKey);
    const flows = data.Flows.flows.map((f) => f.map((e) => `${e.ph}:${e.args?.streamId}`)).sort();
    expect(flows).toEqual(resumed.map((s) => [`X:${s.resumes}`, `X:${s.id}`]).sort());
  });
});

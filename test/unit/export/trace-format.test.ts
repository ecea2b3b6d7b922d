// The trace export against the rules of the consumers' JSON importers, beyond "valid JSON":
// Perfetto's legacy JSON importer (src/trace_processor/importers/json/ in Perfetto) keys a thread
// by its tid alone (thread_name updates that tid wherever it is; a tid seen under another pid starts
// a new thread), treats an async `id` as global, reads a v1 flow id as a number (a string as hex),
// and binds flow ends to the slice that encloses them; DevTools' trace engine binds a flow end to
// the event with the same ts/pid/tid/cat. Inputs: several real captures analysed together
// (several sessions in one file), and the hand-made sample with a capture gap.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { analyzeRecords } from '../../../src/core';
import type { AnalysisSnapshot } from '../../../src/core/model';
import type { CaptureRecord } from '../../../src/core/record';
import { toTrace, type TraceEvent } from '../../../src/export/trace';
import { lossyRecords, lossySnapshot } from '../../support/hand-made-lossy';
import { Capture, ev, progress, result } from '../core/helpers';

const capture = (name: string) => (JSON.parse(readFileSync(`test/fixtures/captures/${name}.capture.json`, 'utf8')) as { records: CaptureRecord[] }).records;

const multi = analyzeRecords([...capture('lossy'), ...capture('session-404'), ...capture('cross-stream'), ...lossyRecords()]);

function check(snap: AnalysisSnapshot) {
  const t = toTrace(snap, { createdAt: 'test' });
  return { t, ev: t.traceEvents };
}

describe.each([
  ['several sessions (lossy + session-404 + cross-stream + hand-made)', multi],
  ['hand-made sample with a capture gap', lossySnapshot()],
])('trace export vs the importers: %s', (_name, snap) => {
  const { ev } = check(snap);

  it('has several sessions where the test means it', () => {
    if (snap === multi) expect(snap.sessions.length).toBeGreaterThanOrEqual(3);
  });

  it('pid and tid are positive 32-bit integers; every tid belongs to one pid only', () => {
    const pidOfTid = new Map<number, number>();
    for (const e of ev) {
      for (const n of [e.pid, e.tid]) {
        expect(Number.isInteger(n)).toBe(true);
        expect(n).toBeGreaterThan(0);
        expect(n).toBeLessThan(2 ** 31);
      }
      const p = pidOfTid.get(e.tid);
      if (p === undefined) pidOfTid.set(e.tid, e.pid);
      else expect(p, `tid ${e.tid} used under pid ${p} and pid ${e.pid} (${e.name})`).toBe(e.pid);
    }
  });

  it('one thread_name per tid, one process_name per pid, and every thread with events is named', () => {
    const threadNames = ev.filter((e) => e.ph === 'M' && e.name === 'thread_name');
    const processNames = ev.filter((e) => e.ph === 'M' && e.name === 'process_name');
    expect(new Set(threadNames.map((e) => e.tid)).size).toBe(threadNames.length);
    expect(new Set(processNames.map((e) => e.pid)).size).toBe(processNames.length);
    const named = new Set(threadNames.map((e) => `${e.pid}/${e.tid}`));
    const namedPids = new Set(processNames.map((e) => e.pid));
    for (const e of ev.filter((x) => x.ph !== 'M')) {
      if (!(e.ph === 'I' && e.s === 'p')) expect(named.has(`${e.pid}/${e.tid}`), `${e.ph} ${e.name} on an unnamed thread ${e.pid}/${e.tid}`).toBe(true);
      expect(namedPids.has(e.pid)).toBe(true);
    }
    // Each process's own metadata sits on its main thread (tid == pid), never on tid 0.
    for (const e of ev.filter((x) => x.ph === 'M' && x.name.startsWith('process_'))) expect(e.tid).toBe(e.pid);
    // One process per session plus the inspector's own; one thread per stream plus findings.
    expect(processNames).toHaveLength(snap.sessions.length + 1);
    const streams = snap.sessions.reduce((n, s) => n + s.streamIds.filter((id) => snap.streams[id]).length, 0);
    expect(threadNames).toHaveLength(1 + snap.sessions.length + streams);
  });

  it('no displayTimeUnit: older Perfetto importers scaled every ts by it ("ms" read ts as milliseconds)', () => {
    const { t } = check(snap);
    expect(Object.keys(t).sort()).toEqual(['otherData', 'traceEvents']);
    expect(JSON.parse(JSON.stringify(t))).not.toHaveProperty('displayTimeUnit');
  });

  it('ts and dur are integer microseconds since the first stream or marker', () => {
    const starts = [...Object.values(snap.streams).map((s) => s.start), ...snap.markers.map((m) => m.t)];
    const t0 = Math.min(...starts);
    for (const e of ev) {
      expect(Number.isInteger(e.ts) && e.ts >= 0, `${e.ph} ${e.name} ts ${e.ts}`).toBe(true);
      if (e.dur !== undefined) expect(Number.isInteger(e.dur) && e.dur > 0).toBe(true);
    }
    for (const s of Object.values(snap.streams)) {
      const x = ev.find((e) => e.ph === 'X' && (e.args as { streamId?: string } | undefined)?.streamId === s.id);
      expect(x, s.id).toBeDefined();
      expect(x!.ts).toBe(Math.round((s.start - t0) * 1000));
      for (const [i, se] of s.events.entries()) {
        const inst = ev.find((e) => e.ph === 'I' && e.pid === x!.pid && e.tid === x!.tid && (e.args as { index?: number }).index === i);
        expect(inst?.ts, `${s.id} event ${i}`).toBe(Math.round((se.t - t0) * 1000));
      }
    }
  });

  it('instants use the legacy phase "I" with a scope: one per SSE event, per session finding, per marker', () => {
    // DevTools' trace engine reads only "I" as an instant (it drops "i"); Perfetto's importer and
    // chrome://tracing read "I" exactly like "i".
    expect(ev.filter((e) => (e.ph as string) === 'i')).toEqual([]);
    const inst = ev.filter((e) => e.ph === 'I');
    const sse = Object.values(snap.streams).reduce((n, s) => n + (s.eventCount ?? s.events.length), 0);
    const findings = snap.findings.filter((f) => snap.sessions.some((s) => s.key === f.sessionKey)).length;
    expect(inst.filter((e) => e.s === 't' && e.cat?.startsWith('sse'))).toHaveLength(sse);
    expect(inst.filter((e) => e.s === 't' && e.cat?.startsWith('finding'))).toHaveLength(findings);
    expect(inst.filter((e) => e.s === 'p' && e.pid === 1 && e.tid === 1)).toHaveLength(snap.markers.length);
    expect(inst).toHaveLength(sse + findings + snap.markers.length);
  });

  it('one complete slice per stream thread, and its instants do not start before it', () => {
    const slices = ev.filter((e) => e.ph === 'X');
    expect(new Set(slices.map((e) => e.tid)).size).toBe(slices.length);
    for (const e of ev.filter((x) => x.ph === 'I' && x.s === 't' && x.cat?.startsWith('sse'))) {
      const x = slices.find((s) => s.tid === e.tid)!;
      expect(e.ts).toBeGreaterThanOrEqual(x.ts);
    }
  });

  it('async requests: unique string ids, each b has one e with the same name, cat and pid, not earlier', () => {
    const b = ev.filter((e) => e.ph === 'b');
    const en = ev.filter((e) => e.ph === 'e');
    expect(b).toHaveLength(Object.values(snap.requests).flat().length);
    expect(new Set(b.map((e) => e.id)).size).toBe(b.length);
    for (const x of b) {
      expect(typeof x.id).toBe('string');
      const ends = en.filter((e) => e.id === x.id);
      expect(ends).toHaveLength(1);
      expect([ends[0]!.name, ends[0]!.cat, ends[0]!.pid]).toEqual([x.name, x.cat, x.pid]);
      expect(ends[0]!.ts).toBeGreaterThanOrEqual(x.ts);
    }
  });

  it('a flow per reconnect: numeric id, s on the cut stream, f (bp e) on the resuming one, each at its slice', () => {
    const flows = ev.filter((e) => e.ph === 's' || e.ph === 'f');
    const resumed = Object.values(snap.streams).filter((s) => s.resumes !== undefined && snap.streams[s.resumes]);
    expect(flows.filter((e) => e.ph === 's')).toHaveLength(resumed.length);
    const sliceOf = (id: string) => ev.findIndex((e) => e.ph === 'X' && (e.args as { streamId?: string } | undefined)?.streamId === id);
    for (const s of resumed) {
      const start = flows.find((e) => e.ph === 's' && (e.args as { to?: string } | undefined)?.to === s.id);
      expect(start, s.id).toBeDefined();
      expect(typeof start!.id).toBe('number');
      const end = flows.filter((e) => e.ph === 'f' && e.id === start!.id);
      expect(end).toHaveLength(1);
      expect(end[0]!.bp).toBe('e');
      expect([end[0]!.name, end[0]!.cat]).toEqual([start!.name, start!.cat]);
      for (const [flowEvent, streamId] of [[start!, s.resumes!], [end[0]!, s.id]] as [TraceEvent, string][]) {
        const i = sliceOf(streamId);
        const x = ev[i]!;
        expect([flowEvent.ts, flowEvent.pid, flowEvent.tid, flowEvent.cat]).toEqual([x.ts, x.pid, x.tid, x.cat]);
        expect(ev.indexOf(flowEvent)).toBeGreaterThan(i);
      }
    }
  });
});

describe('trace export: ids that repeat', () => {
  it('two requests with the same JSON-RPC id in one session get distinct async ids', () => {
    const snap = lossySnapshot();
    const key = snap.sessions[0]!.key;
    const reqs = snap.requests[key]!;
    const twin = { ...reqs[0]!, start: reqs[0]!.start + 1 };
    const t = toTrace({ ...snap, requests: { ...snap.requests, [key]: [...reqs, twin] } });
    const ids = t.traceEvents.filter((e) => e.ph === 'b' && (e.args as { requestId: string }).requestId === reqs[0]!.id).map((e) => e.id);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
  });
});

// Page and server text in the places viewers show (event ids and types, JSON-RPC methods and ids,
// session ids, Last-Event-ID): Perfetto's tokenizer reads each event's top-level strings itself
// and aborts the whole import on a raw control character (U+007F, which JSON.stringify leaves
// raw) or, in older versions, on any \u escape. Such text is shown as ⟨U+XXXX⟩ in names; args keep
// it exactly.
describe('trace export: hostile text in names', () => {
  const HOSTILE = ['del\u007f', 'nul\u0000 esc\u001b[31m', 'c1\u0085', 'bidi \u202egnp.exe', 'lone \ud800 surrogate', 'ls\u2028ps', 'nl\nx', '😀 é 中文'];
  function hostile(k: string): CaptureRecord[] {
    const c = new Capture();
    const init = c.request({ body: { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25' } } });
    c.response(init, { sessionId: k });
    c.chunk(init, ev(k, result(0, { protocolVersion: '2025-11-25', capabilities: {} })));
    c.end(init);
    const p = c.request({ sessionId: k, body: { jsonrpc: '2.0', id: k, method: `tools/call${k}`, params: { _meta: { progressToken: k } } } });
    c.response(p);
    c.chunk(p, ev(`1${k}`, progress(k, 1), `ev${k.replace(/[\r\n]/g, ' ')}`));
    c.end(p, 'network-error');
    const g = c.request({ sessionId: k, lastEventId: `1${k}` });
    c.response(g);
    c.chunk(g, ev(`2${k}`, result(k, { content: [] })));
    c.end(g);
    return c.records;
  }
  // What a tokenizer that reads top-level strings by hand can take: no control characters, and of
  // the escapes only the two-character ones (\" \\ \n …), never \uXXXX.
  const SAFE_TOP_LEVEL = /^(?:[^\u0000-\u001f\u007f-\u009f\\]|\\["\\/bfnrt])*$/u;

  it.each(HOSTILE)('%j: top-level strings are plain, names visible, args exact', (k) => {
    const snap = analyzeRecords(hostile(k));
    const text = JSON.stringify(toTrace(snap, { createdAt: 'test' }));
    const parsed = JSON.parse(text) as { traceEvents: TraceEvent[] };
    for (const e of parsed.traceEvents) {
      const { args, ...top } = e;
      const raw = JSON.stringify(top);
      expect(raw, raw).toMatch(SAFE_TOP_LEVEL);
      expect((raw as string & { isWellFormed(): boolean }).isWellFormed()).toBe(true);
      if (e.ph === 'M' && args && typeof args.name === 'string') expect(JSON.stringify(args.name)).toMatch(SAFE_TOP_LEVEL);
    }
    // The raw text is still there, exactly, in args.
    const events = parsed.traceEvents.filter((e) => e.ph === 'I' && e.cat?.startsWith('sse'));
    const ids = Object.values(snap.streams).flatMap((s) => s.events.map((x) => x.id ?? null));
    expect(events.map((e) => (e.args as { id: string | null }).id).sort()).toEqual(ids.sort());
    const call = parsed.traceEvents.find((e) => e.ph === 'b' && (e.args as { method: string }).method.startsWith('tools/call'));
    expect((call!.args as { method: string }).method).toBe(`tools/call${k}`);
  });
});

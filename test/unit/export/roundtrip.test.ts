// Export then import gives the same analysis: own JSON and HAR, on the generated real captures.
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { analyzeRecords } from '../../../src/core';
import { importText } from '../../../src/core/import';
import type { CaptureRecord } from '../../../src/core/record';
import { exportCapture, exportHar, exportJson, exportMarkdown, exportTrace } from '../../../src/export';
import { lossyRecords } from '../../support/hand-made-lossy';
import { orphanRecords, summary } from './helpers';
import { Capture, call, ev, initSession, message, progress, result } from '../core/helpers';

const dir = 'test/fixtures/captures';
const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.capture.json')) : [];
const cases: [string, CaptureRecord[]][] = [['sample lossy (hand-made)', lossyRecords()], ...files.map((f): [string, CaptureRecord[]] => [f, (JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')) as { records: CaptureRecord[] }).records])];


cases.push(['a stream whose request the buffer cap evicted (hand-made)', orphanRecords()]);

describe('export of one session', () => {
  // Every fixture with several sessions: each session exported alone (as the panel's "Export ▸
  // Selected session" and the MCP tool export_capture do) is analysed again to its own findings and
  // verdicts. A file of its records alone was not: a server-wide counter (python-shared) gave
  // invented live and replay gaps, a replay across sessions (python-cross-session) lost its errors.
  const key = (s: ReturnType<typeof analyzeRecords>, k: string) => {
    const x = s.sessions.find((y) => y.key === k)!;
    return {
      findings: s.findings.filter((f) => f.sessionKey === k).map((f) => `${f.code}|${f.severity}|${f.requestId ?? ''}|${f.missing ?? ''}`).sort(),
      verdicts: (s.requests[k] ?? []).map((r) => `${r.id}|${r.method}|${r.verdict}`).sort(),
      session: `${x.sessionId}|${x.lossless}|${x.idScheme.kind}|${x.idScheme.scope ?? ''}`,
    };
  };
  const multi = cases.filter(([, r]) => analyzeRecords(r).sessions.length > 1);
  it('covers the fixtures that share a counter or replay across sessions', () => {
    expect(multi.map(([n]) => n)).toEqual(expect.arrayContaining(['python-shared.capture.json', 'python-cross-session.capture.json']));
  });
  it.each(multi)('%s: each session exported alone (JSON and HAR) re-imports to its own analysis', (_n, records) => {
    const snap = analyzeRecords(records);
    for (const s of snap.sessions) {
      for (const kind of ['json', 'har'] as const) {
        const out = exportCapture(kind, { records, snapshot: snap, sessionKey: s.key, createdAt: '2026-12-07T00:00:00.000Z' });
        const again = analyzeRecords(importText(out.text).records);
        const same = again.sessions.find((x) => x.sessionId === s.sessionId && x.endpoint === s.endpoint);
        expect(same, `${kind} ${s.key}`).toBeDefined();
        expect(key(again, same!.key), `${kind} ${s.key}`).toEqual(key(snap, s.key));
        expect(out.filename.includes('-and-'), out.filename).toBe(again.sessions.length > 1);
      }
    }
  });
});

describe('a connection without its request record', () => {
  it('HAR export keeps its records (in _msiRecords: no entry can hold it) and re-imports them', () => {
    const records = orphanRecords();
    const streams = (snap: ReturnType<typeof analyzeRecords>) => Object.values(snap.streams).map((x) => [x.method, x.events.length, x.state]);
    const before = analyzeRecords(records);
    expect(streams(before)).toEqual([['GET', 2, 'error']]);
    const har = JSON.parse(exportHar(records)) as { log: { entries: unknown[]; _msiRecords: { kind: string }[] } };
    expect(har.log.entries).toHaveLength(0);
    expect(har.log._msiRecords.map((r) => r.kind)).toEqual(['capture-gap', 'chunk', 'chunk', 'chunk', 'end']);
    expect(streams(analyzeRecords(importText(exportHar(records)).records))).toEqual(streams(before));
  });

  it('exported with its session (Export ▸ Selected session): kept, and the gap naming the connections evicted whole', () => {
    // A jump on a stream, and a gap record naming only a connection evicted whole (no record of it
    // left): the jump may be in it (a warning). Exported alone without the gap it was an error.
    const c = new Capture();
    initSession(c);
    const a = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(a);
    c.chunk(a, ev('1', progress(2, 1)) + ev('2', message('a1')));
    const gapAt = c.records.at(-1)!.t + 1;
    c.records.push({ kind: 'capture-gap', src: 'tab1', seq: c.records.length + 1, t: gapAt, lost: 3, conns: ['c9'], reason: 'buffer-cap' });
    c.chunk(a, ev('5', message('a2')) + ev('6', result(2)));
    c.end(a);
    const withGap = c.records.map((r, i) => ({ ...r, seq: i + 1 }));
    const snap0 = analyzeRecords(withGap);
    expect(snap0.findings.find((f) => f.code === 'live-gap')?.severity).toBe('warning');
    for (const kind of ['json', 'har'] as const) {
      const out = exportCapture(kind, { records: withGap, snapshot: snap0, sessionKey: snap0.sessions[0]!.key, createdAt: '2026-12-07T00:00:00.000Z' });
      expect(summary(analyzeRecords(importText(out.text).records)), kind).toEqual(summary(snap0));
    }
    const records = orphanRecords();
    const snap = analyzeRecords(records);
    for (const s of snap.sessions) {
      for (const kind of ['json', 'har'] as const) {
        const out = exportCapture(kind, { records, snapshot: snap, sessionKey: s.key, createdAt: '2026-12-07T00:00:00.000Z' });
        const again = analyzeRecords(importText(out.text).records);
        expect(summary(again), kind).toEqual(summary(snap));
        expect(again.findings.filter((f) => f.code === 'capture-gap').length, kind).toBe(snap.findings.filter((f) => f.code === 'capture-gap').length);
      }
    }
  });
});

describe.each(cases)('%s', (_name, records) => {
  const before = summary(analyzeRecords(records));
  it('own JSON export re-imports to the same analysis', () => {
    expect(summary(analyzeRecords(importText(exportJson(records)).records))).toEqual(before);
  });
  it('trace export is valid Trace Event Format with every finding', () => {
    const snap = analyzeRecords(records);
    const t = JSON.parse(exportTrace(snap)) as { traceEvents: { ph: string; ts: number; pid: number; tid: number; id?: string; cat?: string; args?: { code?: string } }[] };
    for (const e of t.traceEvents) {
      expect(['X', 'I', 'b', 'e', 'M', 's', 'f']).toContain(e.ph);
      expect(Number.isInteger(e.ts) && e.ts >= 0).toBe(true);
      expect(Number.isInteger(e.pid) && Number.isInteger(e.tid)).toBe(true);
    }
    const b = t.traceEvents.filter((e) => e.ph === 'b').map((e) => e.id).sort();
    expect(t.traceEvents.filter((e) => e.ph === 'e').map((e) => e.id).sort()).toEqual(b);
    expect(t.traceEvents.filter((e) => e.cat?.startsWith('finding,')).map((e) => e.args!.code).sort()).toEqual(snap.findings.map((f) => f.code).sort());
  });
  it('Markdown report names every finding code', () => {
    const snap = analyzeRecords(records);
    const md = exportMarkdown(snap);
    for (const f of snap.findings) expect(md).toContain(`\`${f.code}\``);
  });
  it('HAR export re-imports to the same findings and verdicts', () => {
    expect(summary(analyzeRecords(importText(exportHar(records)).records))).toEqual(before);
  });
});

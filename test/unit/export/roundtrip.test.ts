// Export then import gives the same analysis: own JSON and HAR, on the generated real captures.
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { analyzeRecords } from '../../../src/core';
import { importText } from '../../../src/core/import';
import type { CaptureRecord } from '../../../src/core/record';
import { exportHar, exportJson, exportMarkdown, exportTrace } from '../../../src/export';
import { lossyRecords } from '../../support/hand-made-lossy';
import { orphanRecords, summary } from './helpers';

const dir = 'test/fixtures/captures';
const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.capture.json')) : [];
const cases: [string, CaptureRecord[]][] = [['sample lossy (hand-made)', lossyRecords()], ...files.map((f): [string, CaptureRecord[]] => [f, (JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')) as { records: CaptureRecord[] }).records])];


cases.push(['a stream whose request the buffer cap evicted (hand-made)', orphanRecords()]);

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

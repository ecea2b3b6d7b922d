import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { lossyRecords, lossySnapshot, SESSION } from '../../support/hand-made-lossy';
import { exportCapture, exportHar, exportJson, exportMarkdown, exportTrace, filterRecords, toHar } from '../../../src/export';
import { parseSseChunks } from '../../../src/export/sse';
import { countRange, lossDetail } from '../../../src/core/presentation';
import { mdText, visible } from '../../../src/export/escape';
import type { CaptureRecord } from '../../../src/core/record';

const records = lossyRecords();
const snap = lossySnapshot();

describe('own JSON export', () => {
  it('validates against schema/capture-file.schema.json and round-trips the records', () => {
    const schema = JSON.parse(readFileSync('schema/capture-file.schema.json', 'utf8')) as object;
    const ajv = new Ajv2020({ strict: false });
    const validate = ajv.compile(schema);
    const file = JSON.parse(exportJson(records, { createdAt: '2026-11-30T07:00:00.000Z', source: 'test' })) as { records: CaptureRecord[] };
    expect(validate(file), JSON.stringify(validate.errors)).toBe(true);
    expect(file.records).toEqual(records);
    const bad = { ...file, records: [{ seq: 1, src: 'x', t: 1, kind: 'chunk', conn: 'c' }] };
    expect(validate(bad)).toBe(false);
  });
});

describe('HAR export', () => {
  const har = JSON.parse(exportHar(records)) as ReturnType<typeof toHar>;
  it('is HAR 1.2 with the required fields on every entry', () => {
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator.name).toBeTruthy();
    expect(har.log.entries).toHaveLength(4);
    for (const e of har.log.entries) {
      expect(new Date(e.startedDateTime).toISOString()).toBe(e.startedDateTime);
      expect(typeof e.time).toBe('number');
      expect(e.time).toBeGreaterThanOrEqual(0);
      for (const k of ['method', 'url', 'httpVersion', 'cookies', 'headers', 'queryString', 'headersSize', 'bodySize'] as const) expect(e.request).toHaveProperty(k);
      for (const k of ['status', 'statusText', 'httpVersion', 'cookies', 'headers', 'content', 'redirectURL', 'headersSize', 'bodySize'] as const) expect(e.response).toHaveProperty(k);
      expect(typeof e.response.content.size).toBe('number');
      expect(typeof e.response.content.mimeType).toBe('string');
      expect(e.cache).toEqual({});
      for (const k of ['send', 'wait', 'receive'] as const) expect(e.timings[k]).toBeGreaterThanOrEqual(0);
      for (const h of [...e.request.headers, ...e.response.headers]) expect(Object.keys(h).sort()).toEqual(['name', 'value']);
    }
  });
  it('carries the SSE body and the events with ids and times', () => {
    const resume = har.log.entries.find((e) => e.request.headers.some((h) => h.name === 'Last-Event-ID'))!;
    expect(resume.request.method).toBe('GET');
    expect(resume.response.content.text).toContain('id: 14\n');
    const ids = resume._sseEvents!.map((e) => e.id);
    expect(ids[0]).toBe('14');
    expect(ids.at(-1)).toBe('46');
    expect(ids).toHaveLength(33);
    expect(resume._sseEvents![0]!.event).toBe('message');
    expect(resume._sseEvents![0]!.time).toBeGreaterThan(1.7e9);
    expect(resume._sseEvents![0]!.time).toBeLessThan(1e11); // seconds, not ms
    const cut = har.log.entries.find((e) => e._msi.conn === 'c3')!;
    expect(cut.response._error).toMatch(/network-error/);
    expect(cut.request.postData?.text).toContain('tools/call');
    // chunk boundaries allow an exact re-split
    const lens = cut._msi.chunks!.map((c) => c.length);
    expect(lens.reduce((a, b) => a + b, 0)).toBe(cut.response.content.text!.length);
  });
  it('native EventSource events become _sseEvents too', () => {
    const es: CaptureRecord[] = [
      { kind: 'request', seq: 1, src: 's', t: 1000, conn: 'e', transport: 'eventsource', method: 'GET', url: 'http://x/sse', headers: [], body: null },
      { kind: 'es-event', seq: 2, src: 's', t: 1100, conn: 'e', type: 'message', data: 'a\nb', lastEventId: '7' },
    ];
    const h = toHar(es);
    expect(h.log.entries[0]!._sseEvents).toEqual([{ id: '7', event: 'message', data: 'a\nb', time: 1.1 }]);
    expect(h.log.entries[0]!.response.content.text).toBe('id: 7\ndata: a\ndata: b\n\n');
  });
});

describe('trace export', () => {
  const trace = JSON.parse(exportTrace(snap)) as { traceEvents: Record<string, unknown>[] };
  it('every event has ph/ts/pid/tid; async slices are paired', () => {
    expect(trace.traceEvents.length).toBeGreaterThan(40);
    for (const e of trace.traceEvents) {
      expect(typeof e.ph).toBe('string');
      expect(Number.isInteger(e.ts)).toBe(true);
      expect(e.ts as number).toBeGreaterThanOrEqual(0);
      expect(Number.isInteger(e.pid)).toBe(true);
      expect(Number.isInteger(e.tid)).toBe(true);
      expect(typeof e.name).toBe('string');
      if (e.ph === 'X') expect(e.dur as number).toBeGreaterThan(0);
      if (e.ph === 'I') expect(['t', 'p', 'g']).toContain(e.s);
    }
    const b = trace.traceEvents.filter((e) => e.ph === 'b').map((e) => `${e.cat}|${e.id}`);
    const en = trace.traceEvents.filter((e) => e.ph === 'e').map((e) => `${e.cat}|${e.id}`);
    expect(b.sort()).toEqual(en.sort());
    expect(b).toHaveLength(3);
  });
  it('streams are named threads, findings are instant events with args', () => {
    const names = trace.traceEvents.filter((e) => e.name === 'thread_name').map((e) => (e.args as { name: string }).name);
    expect(names).toContain('GET (resumed) Last-Event-ID: 11');
    const f = trace.traceEvents.find((e) => (e.args as { code?: string } | undefined)?.code === 'lossy-result-accepted')!;
    expect(f.ph).toBe('I');
    expect((f.args as { missing: string }).missing).toBe('12–13');
    expect(trace.traceEvents.some((e) => e.cat === 'capture-gap')).toBe(true);
  });
});

describe('Markdown report', () => {
  const md = exportMarkdown(snap, { createdAt: 'now' });
  it('names the lossy request, the missing ids and the advice', () => {
    expect(md).toContain('`lossy-result-accepted`');
    expect(md).toContain('12–13');
    expect(md).toMatch(/Discard the accumulated state/);
    expect(md).toContain('Cumulative notifications accumulated: 20; the ids imply up to 22');
  });
  it('escapes hostile data: HTML, pipes, backticks, bidi controls', () => {
    expect(md).not.toContain('<b>');
    expect(md).not.toContain('\u202E');
    expect(md).not.toContain('\u0000');
    expect(md).toContain('⟨U+202E⟩');
    expect(md).toContain('&lt;b&gt;');
    expect(md).toContain('\\`code\\`');
    expect(md).toContain('evil \\| ');
  });
  it('keeps table rows intact with hostile method names', () => {
    const s2 = lossySnapshot();
    s2.requests[SESSION]![0]!.method = 'a|b\n| x | `y` <script>';
    const out = exportMarkdown(s2);
    const row = out.split('\n').find((l) => l.startsWith('| 0 |'))!;
    expect(row.replace(/\\\|/g, '').split('|')).toHaveLength(7);
    expect(out).not.toContain('<script>');
  });
  it('mdText escapes everything Markdown could act on', () => {
    expect(mdText('[x](javascript:alert(1))')).toBe('\\[x\\](javascript:alert(1))');
    expect(mdText('a\nb')).toBe('a⏎b');
    expect(visible('\u200Bx\u2066')).toBe('⟨U+200B⟩x⟨U+2066⟩');
  });
});

describe('helpers', () => {
  it('SSE parser handles CRLF split across chunks, comments, multi-line data', () => {
    const { events } = parseSseChunks([
      { text: ':hi\r', t: 1 },
      { text: '\nid: 1\r\ndata: a\r', t: 2 },
      { text: '\ndata: b\r\n\r', t: 3 },
      { text: '\nevent: x\ndata:c\n\n', t: 4 },
    ]);
    expect(events.map((e) => [e.id, e.event, e.data, e.time])).toEqual([
      ['1', 'message', 'a\nb', 3],
      [undefined, 'x', 'c', 4],
    ]);
  });
  it('SSE parser: an id-only block moves the next event\'s cursor; one leading BOM is stripped (WHATWG)', () => {
    const { events } = parseSseChunks([
      { text: '\uFEFFdata: a\n\n', t: 1 },
      { text: 'id: 7\n\n', t: 2 },
      { text: 'data: b\n\nid: 8\ndata: c\n\n', t: 3 },
    ]);
    expect(events.map((e) => [e.id, e.cursor, e.data, e.time])).toEqual([
      [undefined, '', 'a', 1],
      [undefined, '7', 'b', 3],
      ['8', '8', 'c', 3],
    ]);
  });
  it('countRange / lossDetail', () => {
    expect(countRange('12–13')).toBe(2);
    expect(countRange('12-13, 20')).toBe(3);
    expect(countRange('s1_12–s1_14')).toBe(3);
    expect(countRange('?')).toBeUndefined();
    const req = snap.requests[SESSION]!.find((r) => r.verdict === 'lossy')!;
    expect(lossDetail(snap, SESSION, req)).toEqual({ missing: '12–13', missingCount: 2, implied: 22, accumulated: 20 });
  });
  it('filters records of one session and exports it', () => {
    const only = filterRecords(records, snap, SESSION);
    expect(only.length).toBe(records.length);
    expect(filterRecords(records, snap, 'endpoint:http://127.0.0.1:3939/stateless').filter((r) => 'conn' in r)).toHaveLength(0);
    const r = exportCapture('markdown', { records, snapshot: snap, sessionKey: SESSION, createdAt: '2026-11-30T07:00:00.000Z' });
    expect(r.filename).toBe('mcp-capture-2026-11-30T07-00-00-session-64e82829c1d0.md');
    expect(r.text).not.toContain('No session');
  });
});

describe('record times outside Date’s range (a file the importer accepts)', () => {
  // A record's `t` is any finite number in the contract; new Date(t).toISOString() throws beyond
  // ±8.64e15 ms, and every export of such a capture threw a RangeError (a review of 2026-12-07).
  it('every export still writes a file', () => {
    const far = records.map((r) => ({ ...r, t: r.t + 1e16 }));
    for (const kind of ['json', 'har', 'trace', 'otlp', 'markdown'] as const) {
      const out = exportCapture(kind, { records: far, snapshot: snap, createdAt: '2026-11-30T07:00:00.000Z' });
      expect(out.text.length, kind).toBeGreaterThan(0);
    }
  });
});

// Real-world HAR variants: bodies HAR writers did not keep, Chrome / Firefox / Playwright field
// shapes, our own exporter's extensions, and transport variants.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importValue } from '../../../src/core/import/index';
import { analyzeRecords } from '../../../src/core/analyzer';
import type { AnalysisSnapshot } from '../../../src/core/model';

const U = 'http://127.0.0.1:3939/mcp';
const sse = (...evs: [string | undefined, unknown][]) =>
  evs.map(([id, d]) => `${id !== undefined ? `id: ${id}\n` : ''}event: message\ndata: ${typeof d === 'string' ? d : JSON.stringify(d)}\n\n`).join('');
const codes = (s: AnalysisSnapshot) => s.findings.map((f) => f.code);
const reqs = (s: AnalysisSnapshot) => Object.values(s.requests).flat();
const reqOf = (s: AnalysisSnapshot, id: string, method?: string) => reqs(s).find((r) => r.id === id && (method === undefined || r.method === method))!;

interface E {
  start: string;
  method?: string;
  url?: string;
  headers?: [string, string][];
  body?: unknown;
  postData?: unknown;
  status?: number;
  resHeaders?: [string, string][];
  content?: Record<string, unknown>;
  time?: number;
  extra?: Record<string, unknown>;
}
function entry(o: E) {
  const h = (r: [string, string][]) => r.map(([name, value]) => ({ name, value }));
  const body = o.body !== undefined ? (typeof o.body === 'string' ? o.body : JSON.stringify(o.body)) : undefined;
  return {
    startedDateTime: o.start,
    time: o.time ?? 50,
    request: {
      method: o.method ?? (body !== undefined || o.postData ? 'POST' : 'GET'),
      url: o.url ?? U,
      httpVersion: 'HTTP/1.1',
      headers: h(o.headers ?? []),
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: body?.length ?? 0,
      ...(o.postData ? { postData: o.postData } : body !== undefined ? { postData: { mimeType: 'application/json', text: body } } : {}),
    },
    response: {
      status: o.status ?? 200,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      headers: h(o.resHeaders ?? [['content-type', 'text/event-stream']]),
      cookies: [],
      content: o.content ?? { size: 0, mimeType: 'text/event-stream' },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: 2, receive: (o.time ?? 50) - 2 },
    ...(o.extra ?? {}),
  };
}
const har = (entries: unknown[], creator = 'WebInspector') => ({ log: { version: '1.2', creator: { name: creator, version: '1' }, pages: [], entries } });
const text = (t: string) => ({ size: t.length, mimeType: 'text/event-stream', text: t });
const initResult = (id: number | string = 0) => ({ jsonrpc: '2.0', id, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } } });
const init = (id: number | string = 0) => ({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } });
const call = (id: number, extra: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 't', arguments: extra, _meta: { progressToken: id } } });
const msg = (d: string) => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: d } });
const res = (id: number | string) => ({ jsonrpc: '2.0', id, result: { content: [] } });
const initEntry = (sid = 'S1', start = '2026-11-30T07:00:00.000Z') =>
  entry({ start, body: init(), resHeaders: [['content-type', 'text/event-stream'], ['mcp-session-id', sid]], content: text(sse(['1', initResult()])) });

describe('HAR bodies the file did not keep', () => {
  it('real Playwright HAR (lossy, cut streams saved without body): capture-gap, never result-missing; the resume is linked', () => {
    const h = JSON.parse(readFileSync('test/fixtures/captures/browser/lossy.playwright.har', 'utf8'));
    const s = analyzeRecords(importValue(h).records);
    expect(codes(s)).not.toContain('result-missing');
    expect(codes(s)).not.toContain('replay-gap');
    expect(codes(s)).not.toContain('resume-rejected');
    const call2 = reqOf(s, '2', 'tools/call');
    expect(call2.verdict).toBe('incomplete');
    expect(call2.findings).toEqual(['capture-gap']);
    const f = s.findings.filter((x) => x.code === 'capture-gap' && x.requestId === '2');
    expect(f.some((x) => /cannot be known/.test(x.message))).toBe(true);
    expect(f.some((x) => /HAR writers omit the bodies/.test(x.message))).toBe(true);
    // Unknowable, not lost by the inspector: warnings, so `audit` (fail-on error) does not fail on
    // what a HAR writer left out.
    expect(s.findings.filter((x) => x.code === 'capture-gap').every((x) => x.severity === 'warning')).toBe(true);
    const resume = Object.values(s.streams).find((x) => x.kind === 'resume')!;
    expect(resume.lastEventIdSent).toBe('11');
    expect(resume.captureIncomplete).toBe(true);
    expect(resume.resumes).toBe(call2.streamId); // linked to the cut POST stream
    expect(s.sessions[0]!.chains).toHaveLength(1);
  });

  it('an absent body (size -1, no text) is unknown; an empty body (size 0 or text "") is empty', () => {
    const build = (content: Record<string, unknown>) =>
      har([
        initEntry(),
        entry({ start: '2026-11-30T07:00:00.100Z', body: call(2), headers: [['mcp-session-id', 'S1']], content: text(sse(['2', msg('a')])), extra: { _failureText: 'net::ERR_INCOMPLETE_CHUNKED_ENCODING' } }),
        entry({ start: '2026-11-30T07:00:01.000Z', headers: [['mcp-session-id', 'S1'], ['last-event-id', '2']], content }),
      ]);
    const absent = analyzeRecords(importValue(build({ size: -1, mimeType: 'text/event-stream' })).records);
    expect(codes(absent)).toEqual(['capture-gap', 'capture-gap']);
    expect(reqOf(absent, '2').verdict).toBe('incomplete');
    for (const empty of [{ size: 0, mimeType: 'text/event-stream' }, { size: -1, mimeType: 'text/event-stream', text: '' }]) {
      const s = analyzeRecords(importValue(build(empty)).records);
      expect(codes(s)).toEqual(['resume-rejected', 'result-missing']);
    }
  });

  it('a missing body on a stream sharing the session counter: gaps it may explain are warnings, not the server\'s fault', () => {
    const build = (getStart: string, getTime: number) =>
      har([
        initEntry(),
        entry({ start: getStart, time: getTime, headers: [['mcp-session-id', 'S1'], ['accept', 'text/event-stream']], content: { size: -1, mimeType: 'text/event-stream' }, extra: { _failureText: 'net::ERR_ABORTED' } }),
        entry({ start: '2026-11-30T07:00:00.100Z', body: call(2), headers: [['mcp-session-id', 'S1']], content: text(sse(['2', msg('a')], ['5', msg('b')], ['6', res(2)])) }),
      ]);
    // The GET without body was open while the POST ran: ids 3–4 may be on it.
    let s = analyzeRecords(importValue(build('2026-11-30T07:00:00.050Z', 5000)).records);
    expect(codes(s)).toEqual(['capture-gap', 'live-gap', 'unverified-result-accepted']);
    const gap = s.findings.find((f) => f.code === 'live-gap')!;
    expect(gap).toMatchObject({ severity: 'warning', missing: '3–4' });
    expect(gap.message).toMatch(/which the file does not hold/);
    expect(reqOf(s, '2').verdict).toBe('complete-unverified');
    expect(s.sessions[0]!.losslessReasons.join(' ')).toMatch(/ids 3–4 delivered by no stream in the capture \(they may be in records the capture does not hold\)/);
    // It ended before the POST was sent: whatever it carried was made before, so not ids 3–4.
    s = analyzeRecords(importValue(build('2026-11-30T07:00:00.010Z', 20)).records);
    expect(codes(s)).toEqual(['capture-gap', 'live-gap', 'lossy-result-accepted']);
    expect(s.findings.find((f) => f.code === 'live-gap')).toMatchObject({ severity: 'error', missing: '3–4' });
    expect(reqOf(s, '2').verdict).toBe('lossy');
  });
});

describe("our own exporter's HAR extensions (_msi, _sseEvents)", () => {
  it('a HAR exported by the panel re-imports with the original event timing and stream end states', async () => {
    const { Capture, initSession, call: call2, ev, message, result, progress } = await import('./helpers');
    const { toHar } = await import('../../../src/export/har');
    const c = new Capture();
    initSession(c);
    const p = c.request({ sessionId: 'sess-1', body: call2(2) });
    c.response(p);
    c.chunk(p, ev('1', progress(2, 1)));
    c.t += 500;
    c.chunk(p, ev('2', message('a')) + 'id: 3\ndata: {"jsonrpc":"2.0",');
    c.t += 700;
    c.chunk(p, '"method":"notifications/message","params":{"data":"b"}}\n\n');
    c.end(p, 'network-error');
    const g = c.request({ sessionId: 'sess-1', lastEventId: '3' });
    c.response(g);
    c.t += 300;
    c.chunk(g, ev('4', result(2)));
    c.end(g, 'page-aborted');
    const open = c.request({ sessionId: 'sess-1' }); // standalone GET, still open at export
    c.response(open);
    c.chunk(open, ': keepalive\n\n');
    const live = analyzeRecords(c.records);
    const back = analyzeRecords(importValue(JSON.parse(JSON.stringify(toHar(c.records)))).records);
    expect(back.findings.map((f) => f.code)).toEqual(live.findings.map((f) => f.code));
    const a = Object.values(live.streams);
    const b = Object.values(back.streams);
    expect(b.map((x) => [x.kind, x.state, x.endReason, x.transport])).toEqual(a.map((x) => [x.kind, x.state, x.endReason, x.transport]));
    expect(b.map((x) => x.events.map((e) => e.t))).toEqual(a.map((x) => x.events.map((e) => e.t)));
    expect(b.map((x) => x.end)).toEqual(a.map((x) => x.end));
    expect(b.find((x) => x.kind === 'get')!.state).toBe('open');
    expect(reqs(back).map((r) => r.verdict)).toEqual(reqs(live).map((r) => r.verdict));
  });

  it('_sseEvents times give per-event chunk times when no _msi is present', () => {
    const body = sse(['1', msg('a')], ['2', res(2)]);
    const h = har([
      initEntry(),
      entry({
        start: '2026-11-30T07:00:01.000Z',
        body: call(2),
        headers: [['mcp-session-id', 'S1']],
        content: text(body),
        extra: { _sseEvents: [{ id: '1', event: 'message', data: JSON.stringify(msg('a')), time: Date.parse('2026-11-30T07:00:02.000Z') / 1000 }, { id: '2', event: 'message', data: JSON.stringify(res(2)), time: Date.parse('2026-11-30T07:00:03.000Z') / 1000 }] },
      }),
    ]);
    const s = analyzeRecords(importValue(h).records);
    const st = Object.values(s.streams).find((x) => x.requestIds.includes('2'))!;
    expect(st.events.map((e) => e.t)).toEqual([Date.parse('2026-11-30T07:00:02.000Z'), Date.parse('2026-11-30T07:00:03.000Z')]);
    expect(reqOf(s, '2').verdict).toBe('complete');
  });
});

describe('real HAR variants', () => {
  const b64 = (t: string) => Buffer.from(t, 'utf8').toString('base64');

  it('Chrome DevTools HAR: _resourceType/_initiator/_transferSize, HTTP/2 pseudo headers, duplicated header names, base64 bodies', () => {
    const chrome = (e: ReturnType<typeof entry>) => ({ ...e, _initiator: { type: 'script' }, _priority: 'High', _resourceType: 'fetch', _transferSize: 512, _connectionId: '123' });
    const h2 = (method: string): [string, string][] => [[':authority', '127.0.0.1:3939'], [':method', method], [':path', '/mcp'], [':scheme', 'http']];
    const h = har([
      chrome(entry({ start: '2026-11-30T07:00:00.000Z', body: init(), headers: h2('POST'), resHeaders: [[':status', '200'], ['content-type', 'text/event-stream'], ['mcp-session-id', 'S1'], ['vary', 'a'], ['vary', 'b']], content: { size: 10, mimeType: 'text/event-stream', text: b64(sse(['1', initResult()])), encoding: 'base64' } })),
      chrome(
        entry({
          start: '2026-11-30T07:00:00.100Z',
          body: call(2),
          headers: [...h2('POST'), ['mcp-session-id', 'S1'], ['accept', 'application/json'], ['accept', 'text/event-stream']],
          resHeaders: [['content-type', 'text/event-stream'], ['cache-control', 'no-cache'], ['cache-control', 'no-transform']],
          content: { size: 10, mimeType: 'text/event-stream', text: b64(sse(['2', msg('ü')], ['3', msg('b')])), encoding: 'base64' },
          extra: { _failureText: 'net::ERR_INCOMPLETE_CHUNKED_ENCODING' },
        }),
      ),
      chrome(entry({ start: '2026-11-30T07:00:01.000Z', headers: [...h2('GET'), ['mcp-session-id', 'S1'], ['last-event-id', '3']], content: { size: 10, mimeType: 'text/event-stream', text: b64(sse(['6', msg('c')], ['7', res(2)])), encoding: 'base64' } })),
    ]);
    const s = analyzeRecords(importValue(h).records);
    expect(s.sessions.map((x) => x.sessionId)).toEqual(['S1']);
    expect(codes(s)).toEqual(['replay-gap', 'lossy-result-accepted']);
    expect(reqOf(s, '2').verdict).toBe('lossy');
  });

  it('Firefox HAR (no underscore fields, postData with params and text, comment fields)', () => {
    const ff = (e: ReturnType<typeof entry>) => {
      const { _resourceType: _r, ...rest } = e as ReturnType<typeof entry> & { _resourceType?: string };
      return { ...rest, connection: '443', comment: '' };
    };
    const h = har(
      [
        ff(entry({ start: '2026-11-30T07:00:00.000Z', postData: { mimeType: 'application/json', params: [], text: JSON.stringify(init()) }, resHeaders: [['Content-Type', 'text/event-stream'], ['Mcp-Session-Id', 'S1']], content: text(sse(['1', initResult()])) })),
        ff(entry({ start: '2026-11-30T07:00:00.100Z', postData: { mimeType: 'application/json', params: [], text: JSON.stringify(call(2)) }, headers: [['Mcp-Session-Id', 'S1']], content: text(sse(['2', msg('a')], ['3', res(2)])) })),
      ],
      'Firefox',
    );
    const s = analyzeRecords(importValue(h).records);
    expect(codes(s)).toEqual([]);
    expect(reqOf(s, '2').verdict).toBe('complete');
  });

  it('POST bodies given only as postData.params are kept', () => {
    const h = har([entry({ start: '2026-11-30T07:00:00.000Z', postData: { mimeType: 'application/x-www-form-urlencoded', params: [{ name: 'a', value: '1 2' }, { name: 'b', value: 'x' }] }, status: 404, resHeaders: [], content: { size: 0, mimeType: 'text/html' } })]);
    const r = importValue(h).records.find((x) => x.kind === 'request');
    expect(r).toMatchObject({ method: 'POST', body: 'a=1 2&b=x' });
  });

  it('entries out of chronological order are sorted by startedDateTime (stable)', () => {
    const entries = [
      initEntry(),
      entry({ start: '2026-11-30T07:00:00.100Z', body: call(2), headers: [['mcp-session-id', 'S1']], content: text(sse(['2', msg('a')], ['3', msg('b')])), extra: { _failureText: 'net::ERR_INCOMPLETE_CHUNKED_ENCODING' } }),
      entry({ start: '2026-11-30T07:00:01.000Z', headers: [['mcp-session-id', 'S1'], ['last-event-id', '3']], content: text(sse(['4', msg('c')], ['5', res(2)])) }),
    ];
    const inOrder = analyzeRecords(importValue(har(entries)).records);
    const shuffled = analyzeRecords(importValue(har([entries[2], entries[0], entries[1]])).records);
    expect(codes(shuffled)).toEqual(codes(inOrder));
    expect(reqs(shuffled).map((r) => [r.id, r.verdict])).toEqual(reqs(inOrder).map((r) => [r.id, r.verdict]));
    expect(shuffled.sessions[0]!.chains).toHaveLength(1);
  });

  it('multiple pages and a session whose initialize is not in the HAR: grouped by the Mcp-Session-Id header', () => {
    const h = har([
      { ...entry({ start: '2026-11-30T07:00:00.100Z', body: call(2), headers: [['mcp-session-id', 'S9'], ['mcp-protocol-version', '2025-06-18']], content: text(sse(['12', msg('a')], ['13', msg('b')])), extra: { _failureText: 'net::ERR_ABORTED' } }), pageref: 'page_1' },
      { ...entry({ start: '2026-11-30T07:00:01.000Z', headers: [['mcp-session-id', 'S9'], ['last-event-id', '13']], content: text(sse(['16', msg('c')], ['17', res(2)])) }), pageref: 'page_2' },
      { ...entry({ start: '2026-11-30T07:00:02.000Z', body: { jsonrpc: '2.0', id: 3, method: 'tools/list' }, headers: [['mcp-session-id', 'S9']], resHeaders: [['content-type', 'application/json']], content: { size: 10, mimeType: 'application/json', text: JSON.stringify(res(3)) } }), pageref: 'page_2' },
    ]);
    (h.log.pages as unknown[]).push({ id: 'page_1', title: 'a', startedDateTime: '2026-11-30T07:00:00.000Z', pageTimings: {} }, { id: 'page_2', title: 'b', startedDateTime: '2026-11-30T07:00:00.500Z', pageTimings: {} });
    const s = analyzeRecords(importValue(h).records);
    expect(s.sessions.map((x) => [x.sessionId, x.protocolVersion])).toEqual([['S9', '2025-06-18']]);
    expect(codes(s)).toEqual(['replay-gap', 'lossy-result-accepted']);
    expect(reqOf(s, '3').verdict).toBe('complete');
  });

  it('2025-03-26 batches: a batch of requests answered on one stream, a batch response', () => {
    const h = har([
      entry({ start: '2026-11-30T07:00:00.000Z', body: [init()], resHeaders: [['content-type', 'text/event-stream'], ['mcp-session-id', 'S1']], content: text(sse(['1', [initResult()]])) }),
      entry({ start: '2026-11-30T07:00:00.100Z', body: [call(2), { jsonrpc: '2.0', id: 3, method: 'tools/list' }], headers: [['mcp-session-id', 'S1'], ['mcp-protocol-version', '2025-03-26']], content: text(sse(['2', msg('a')], ['3', [res(2), res(3)]])) }),
    ]);
    const s = analyzeRecords(importValue(h).records);
    expect(codes(s)).toEqual([]);
    expect(reqs(s).map((r) => [r.id, r.verdict])).toEqual([
      ['0', 'complete'],
      ['2', 'complete'],
      ['3', 'complete'],
    ]);
  });

  it('a stateless server (no session id, each POST numbers its events from 1): grouped by endpoint, no cross-stream claims', () => {
    const h = har([
      entry({ start: '2026-11-30T07:00:00.000Z', body: call(2), content: text(sse(['1', msg('a')], ['2', res(2)])) }),
      entry({ start: '2026-11-30T07:00:00.100Z', body: call(3), content: text(sse(['1', msg('b')], ['2', res(3)])) }),
      entry({ start: '2026-11-30T07:00:00.200Z', body: { jsonrpc: '2.0', id: 4, method: 'tools/list' }, resHeaders: [['content-type', 'application/json']], content: { size: 10, mimeType: 'application/json', text: JSON.stringify(res(4)) } }),
    ]);
    const s = analyzeRecords(importValue(h).records);
    expect(s.sessions).toHaveLength(1);
    expect(s.sessions[0]!.sessionId).toBeNull();
    expect(codes(s)).toEqual([]);
    expect(reqs(s).map((r) => r.verdict)).toEqual(['complete', 'complete', 'complete']);
  });

  it('a counter shared by concurrent POST streams of one session: interleaved ids are no gaps; a real hole is', () => {
    const h = har([
      initEntry(),
      entry({ start: '2026-11-30T07:00:00.100Z', body: call(2), headers: [['mcp-session-id', 'S1']], content: text(sse(...Array.from({ length: 15 }, (_, k): [string, unknown] => [String(2 + 2 * k), msg('a')]), ['32', res(2)])) }),
      entry({ start: '2026-11-30T07:00:00.101Z', body: call(3), headers: [['mcp-session-id', 'S1']], content: text(sse(...Array.from({ length: 15 }, (_, k): [string, unknown] => [String(3 + 2 * k), msg('x')]), ['35', res(3)])) }),
    ]);
    const s = analyzeRecords(importValue(h).records);
    expect(s.sessions[0]!.idScheme).toMatchObject({ kind: 'contiguous', scope: 'session' });
    expect(codes(s)).toEqual(['live-gap', 'lossy-result-accepted']);
    expect(s.findings[0]!.eventIds).toEqual(['33', '34']);
    expect(reqOf(s, '2').verdict).toBe('complete');
    expect(reqOf(s, '3').verdict).toBe('lossy');
  });

  it('JSON-RPC request ids reused by concurrent POST streams of one session (integers): each response goes to its own stream', () => {
    const h = har([
      initEntry(),
      entry({ start: '2026-11-30T07:00:00.100Z', body: call(1), headers: [['mcp-session-id', 'S1']], content: text(sse(['2', res(1)])) }),
      entry({ start: '2026-11-30T07:00:00.101Z', body: call(1), headers: [['mcp-session-id', 'S1']], content: text(sse(['3', msg('x')], ['4', res(1)])) }),
    ]);
    const s = analyzeRecords(importValue(h).records);
    expect(codes(s)).toEqual([]);
    const calls = reqs(s).filter((r) => r.method === 'tools/call');
    expect(calls.map((r) => [r.verdict, r.responseStreamId === r.streamId])).toEqual([
      ['complete', true],
      ['complete', true],
    ]);
  });

  it('legacy HTTP+SSE transport (GET /sse + POST /messages): responses on the GET stream', () => {
    const base = 'http://127.0.0.1:3939';
    const h = har([
      entry({
        start: '2026-11-30T07:00:00.000Z',
        url: `${base}/sse`,
        headers: [['accept', 'text/event-stream']],
        content: text(
          'event: endpoint\ndata: /messages?sessionId=abc\n\n' +
            `event: message\ndata: ${JSON.stringify(initResult())}\n\n` +
            `event: message\ndata: ${JSON.stringify(msg('a'))}\n\n` +
            `event: message\ndata: ${JSON.stringify(res(2))}\n\n`,
        ),
        time: 5000,
      }),
      entry({ start: '2026-11-30T07:00:00.100Z', url: `${base}/messages?sessionId=abc`, body: init(), status: 202, resHeaders: [], content: { size: 8, mimeType: 'text/plain', text: 'Accepted' } }),
      entry({ start: '2026-11-30T07:00:00.200Z', url: `${base}/messages?sessionId=abc`, body: call(2), status: 202, resHeaders: [], content: { size: 8, mimeType: 'text/plain', text: 'Accepted' } }),
    ]);
    const s = analyzeRecords(importValue(h).records);
    expect(s.sessions).toHaveLength(1);
    expect(codes(s)).toEqual([]);
    expect(reqs(s).map((r) => [r.method, r.verdict])).toEqual([
      ['initialize', 'complete'],
      ['tools/call', 'complete'],
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { importText, importValue, ImportError } from '../../../src/core/import/index';
import { analyzeRecords } from '../../../src/core/analyzer';
import type { CaptureRecord } from '../../../src/core/record';

const URL = 'http://127.0.0.1:3939/mcp';
const sse = (...evs: [string, unknown][]) => evs.map(([id, d]) => `id: ${id}\nevent: message\ndata: ${JSON.stringify(d)}\n\n`).join('');

function entry(o: {
  start: string;
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  status?: number;
  resHeaders?: Record<string, string>;
  text?: string;
  encoding?: 'base64';
  mime?: string;
  error?: string;
  time?: number;
  wait?: number;
  extra?: Record<string, unknown>;
}) {
  const h = (r: Record<string, string> = {}) => Object.entries(r).map(([name, value]) => ({ name, value }));
  return {
    startedDateTime: o.start,
    time: o.time ?? 50,
    _resourceType: 'fetch',
    request: {
      method: o.method ?? (o.body !== undefined ? 'POST' : 'GET'),
      url: URL,
      httpVersion: 'HTTP/1.1',
      headers: h(o.headers),
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: 0,
      ...(o.body !== undefined ? { postData: { mimeType: 'application/json', text: JSON.stringify(o.body) } } : {}),
    },
    response: {
      status: o.status ?? 200,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      headers: h(o.resHeaders ?? (o.status === 0 ? {} : { 'content-type': o.mime ?? 'text/event-stream' })),
      cookies: [],
      content: { size: o.text?.length ?? 0, mimeType: o.mime ?? 'text/event-stream', ...(o.text !== undefined ? { text: o.text } : {}), ...(o.encoding ? { encoding: o.encoding } : {}) },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
      ...(o.error ? { _error: o.error } : {}),
    },
    cache: {},
    timings: { blocked: -1, dns: -1, ssl: -1, connect: -1, send: 0, wait: o.wait ?? 2, receive: (o.time ?? 50) - (o.wait ?? 2) },
    ...(o.extra ?? {}),
  };
}
const har = (entries: unknown[]) => ({ log: { version: '1.2', creator: { name: 'WebInspector', version: '537.36' }, pages: [], entries } });

function lossyHar(opts: { base64?: boolean } = {}) {
  const init = sse(['1', { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } } }]);
  const cut = sse(['2', { jsonrpc: '2.0', method: 'notifications/message', params: { data: 'a' } }], ['3', { jsonrpc: '2.0', method: 'notifications/message', params: { data: 'b' } }]);
  const replay = sse(['6', { jsonrpc: '2.0', method: 'notifications/message', params: { data: 'é' } }], ['7', { jsonrpc: '2.0', id: 2, result: { content: [] } }]);
  const enc = (t: string) => (opts.base64 ? Buffer.from(t, 'utf8').toString('base64') : t);
  return har([
    entry({ start: '2026-11-30T07:00:00.000Z', body: { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25' } }, resHeaders: { 'Content-Type': 'text/event-stream', 'Mcp-Session-Id': 'S1' }, text: enc(init), ...(opts.base64 ? { encoding: 'base64' as const } : {}) }),
    entry({ start: '2026-11-30T07:00:00.100Z', body: { jsonrpc: '2.0', method: 'notifications/initialized' }, headers: { 'mcp-session-id': 'S1' }, status: 202, resHeaders: {}, mime: 'x-unknown', text: '' }),
    entry({ start: '2026-11-30T07:00:00.200Z', body: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 't', _meta: { progressToken: 2 } } }, headers: { 'mcp-session-id': 'S1' }, text: enc(cut), error: 'net::ERR_INCOMPLETE_CHUNKED_ENCODING', time: 300, ...(opts.base64 ? { encoding: 'base64' as const } : {}) }),
    entry({ start: '2026-11-30T07:00:01.600Z', headers: { 'mcp-session-id': 'S1', 'last-event-id': '3' }, text: enc(replay), ...(opts.base64 ? { encoding: 'base64' as const } : {}) }),
    // unrelated traffic in the same HAR
    entry({ start: '2026-11-30T07:00:01.700Z', method: 'GET', resHeaders: { 'content-type': 'image/png' }, mime: 'image/png', text: 'iVBORw0KGgo=', encoding: 'base64' }),
  ]);
}

describe('HAR import', () => {
  it('turns a Chrome-style HAR into records and finds the replay gap', () => {
    const { format, records } = importValue(lossyHar());
    expect(format).toBe('har');
    expect(records.every((r, i) => r.seq === i + 1 && r.src === 'har')).toBe(true);
    const kinds = records.filter((r) => 'conn' in r && r.conn === 'e2').map((r) => r.kind);
    expect(kinds).toEqual(['request', 'response', 'chunk', 'chunk', 'end']); // first event at the response, the rest at the end
    const end = records.find((r): r is Extract<CaptureRecord, { kind: 'end' }> => r.kind === 'end' && r.conn === 'e2')!;
    expect(end).toMatchObject({ how: 'network-error', reason: 'net::ERR_INCOMPLETE_CHUNKED_ENCODING' });
    const s = analyzeRecords(records);
    expect(s.sessions.map((x) => x.sessionId)).toEqual(['S1']);
    expect(s.findings.map((f) => f.code)).toEqual(['replay-gap', 'lossy-result-accepted']);
    expect(s.findings[0]!.missing).toBe('4–5');
  });

  it('decodes base64 bodies (UTF-8) the same way', () => {
    const a = analyzeRecords(importValue(lossyHar()).records);
    const b = analyzeRecords(importValue(lossyHar({ base64: true })).records);
    expect(b.findings).toEqual(a.findings);
    const st = Object.values(b.streams).find((x) => x.kind === 'resume')!;
    expect(st.events.at(0)!.data).toContain('é');
  });

  it('keeps requests without a response (status 0) and without a body', () => {
    const h = har([
      entry({ start: '2026-11-30T07:00:00.000Z', body: { jsonrpc: '2.0', id: 9, method: 'tools/call' }, headers: { 'mcp-session-id': 'S' }, status: 0, error: 'net::ERR_CONNECTION_REFUSED' }),
      entry({ start: '2026-11-30T07:00:00.100Z', headers: { 'mcp-session-id': 'S', accept: 'text/event-stream' }, status: 405, resHeaders: {}, mime: 'x-unknown' }),
    ]);
    const records = importValue(h).records;
    expect(records.filter((r) => r.kind === 'response')).toHaveLength(1);
    const s = analyzeRecords(records);
    expect(Object.keys(s.streams)).toHaveLength(2);
    expect(s.requests.S![0]).toMatchObject({ id: '9', verdict: 'incomplete' });
  });

  it('accepts Playwright failure fields and missing timings', () => {
    const e = entry({ start: '2026-11-30T07:00:00.000Z', body: { jsonrpc: '2.0', id: 1, method: 'tools/list' }, status: -1, extra: { _failureText: 'net::ERR_ABORTED' } });
    delete (e as { timings?: unknown }).timings;
    const records = importValue(har([e])).records;
    expect(records.map((r) => r.kind)).toEqual(['request', 'end']);
    expect(records[1]).toMatchObject({ how: 'page-aborted' });
  });

  it('marks an event-stream whose body was not saved as a capture gap', () => {
    const e = entry({ start: '2026-11-30T07:00:00.000Z', headers: { 'mcp-session-id': 'S' } });
    (e.response.content as { size: number }).size = 1234;
    const s = analyzeRecords(importValue(har([e])).records);
    expect(s.findings.map((f) => f.code)).toEqual(['capture-gap']);
  });

  it("reads Playwright's attached bodies (content._file) through readAttachment", () => {
    const h = lossyHar();
    const inline = analyzeRecords(importValue(h).records);
    const files = new Map<string, Uint8Array>();
    (h.log.entries as ReturnType<typeof entry>[]).forEach((e, i) => {
      const c = e.response.content as { text?: string; _file?: string };
      if (c.text) {
        files.set(`body${i}.txt`, new TextEncoder().encode(c.text));
        c._file = `body${i}.txt`;
        delete c.text;
      }
    });
    const attached = analyzeRecords(importValue(h, { readAttachment: (n) => files.get(n) }).records);
    expect(attached.findings).toEqual(inline.findings);
  });

  it('rejects bad base64 with a one-line error', () => {
    const h = har([entry({ start: '2026-11-30T07:00:00.000Z', headers: { 'mcp-session-id': 'S' }, text: '***', encoding: 'base64' })]);
    expect(() => importValue(h)).toThrow(ImportError);
    expect(() => importValue(h)).toThrow(/base64/);
  });
});

describe('capture file import and detection', () => {
  const file = (records: unknown[]) => ({ format: 'mcp-stream-inspector', version: 1, createdAt: '2026-11-30T07:00:00Z', records });
  const req = { seq: 1, src: 't', t: 1, kind: 'request', conn: 'c1', transport: 'fetch', method: 'GET', url: URL, headers: [], body: null };

  it('reads a valid capture file and keeps unknown extra fields', () => {
    const r = importText(JSON.stringify(file([{ ...req, extra: 1 }])));
    expect(r.format).toBe('capture');
    expect(r.records[0]).toMatchObject({ kind: 'request', extra: 1 });
  });

  it('reads a bare record array', () => {
    expect(importText(JSON.stringify([req])).format).toBe('records');
  });

  it.each([
    ['', /empty/],
    ['{not json', /not valid JSON/],
    ['{"hello":1}', /not a HAR 1\.2 file nor an mcp-stream-inspector capture/],
    ['{"log":{}}', /log\.entries/],
    [JSON.stringify({ format: 'mcp-stream-inspector', version: 2, records: [] }), /version 2 is not supported/],
    [JSON.stringify(file([{ ...req, conn: 5 }])), /records\[0\]\.conn/],
    [JSON.stringify(file([{ ...req, kind: 'bogus' }])), /records\[0\]/],
  ])('rejects %j with a clear one-line error', (text, re) => {
    let err: unknown;
    try {
      importText(text);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ImportError);
    expect((err as Error).message).toMatch(re);
    expect((err as Error).message).not.toContain('\n');
  });
});

describe('error messages quote file data briefly', () => {
  it('a version field set to a large value, a huge URL: one short line', () => {
    const big = { a: 'x'.repeat(600), b: [1, 2, 3] };
    let msg = '';
    try {
      importText(JSON.stringify({ format: 'mcp-stream-inspector', version: big, records: [] }));
    } catch (e) {
      msg = (e as Error).message;
    }
    expect(msg).toMatch(/^capture file version \{"a":"x+… is not supported/);
    expect(msg.length).toBeLessThan(200);
    const url = 'http://h/' + 'p'.repeat(5000);
    const har = { log: { version: '1.2', entries: [{ startedDateTime: '2026-01-01T00:00:00Z', time: 1, request: { method: 'GET', url, headers: [] }, response: { status: 200, headers: [{ name: 'content-type', value: 'text/event-stream' }], content: { text: '!!', encoding: 'base64' } } }] } };
    expect(() => importText(JSON.stringify(har))).toThrow(/^HAR entry 0 \(GET http:\/\/h\/p+…\): response.content.text is marked base64/);
    try {
      importText(JSON.stringify(har));
    } catch (e) {
      expect((e as Error).message.length).toBeLessThan(200);
    }
  });
});

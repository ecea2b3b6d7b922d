// A HAR entry whose content.text holds only part of the body its content.size declares (Firefox
// keeps content.size the full size and cuts the text at devtools.netmonitor.responseBodyLimit,
// 1 MB by default): the importer takes the part for the whole body, and the analysis blames the
// server (result-missing: "The server closed the stream without it"; truncated-event) for what
// the file itself says it does not hold. The same entry without any body is reported honestly
// (capture-gap, "whether a result arrived cannot be known").
import { describe, expect, it } from 'vitest';
import { importValue } from '../../../src/core/import/index';
import { analyzeRecords } from '../../../src/core/analyzer';

const U = 'http://127.0.0.1:3939/mcp';
const sse = (...evs: [string, unknown][]) => evs.map(([id, d]) => `id: ${id}\nevent: message\ndata: ${JSON.stringify(d)}\n\n`).join('');
const h = (r: [string, string][]) => r.map(([name, value]) => ({ name, value }));
function entry(start: string, body: unknown, reqHeaders: [string, string][], resHeaders: [string, string][], content: Record<string, unknown>) {
  return {
    startedDateTime: start,
    time: 50,
    request: { method: 'POST', url: U, httpVersion: 'HTTP/1.1', headers: h(reqHeaders), queryString: [], cookies: [], headersSize: -1, bodySize: -1, postData: { mimeType: 'application/json', text: JSON.stringify(body) } },
    response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', headers: h(resHeaders), cookies: [], content, redirectURL: '', headersSize: -1, bodySize: -1 },
    cache: {},
    timings: { send: 0, wait: 2, receive: 48 },
  };
}
const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } };
const initResult = { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } } };
const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't', arguments: {} } };
const msg = (d: string) => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: d } });
const result = { jsonrpc: '2.0', id: 1, result: { content: [] } };

const full = sse(['2', msg('a'.repeat(100))], ['3', msg('b'.repeat(100))], ['4', result]);
const held = full.slice(0, full.indexOf('id: 3') + 40); // the text stops inside the second event
const har = (content: Record<string, unknown>) => ({
  log: {
    version: '1.2',
    creator: { name: 'Firefox', version: '140.0' },
    pages: [],
    entries: [
      entry('2026-11-30T07:00:00.000Z', init, [], [['content-type', 'text/event-stream'], ['mcp-session-id', 'S1']], { size: Buffer.byteLength(sse(['1', initResult])), mimeType: 'text/event-stream', text: sse(['1', initResult]) }),
      entry('2026-11-30T07:00:01.000Z', call, [['mcp-session-id', 'S1']], [['content-type', 'text/event-stream']], content),
    ],
  },
});
const codes = (v: unknown) => analyzeRecords(importValue(v).records).findings.map((f) => f.code);

describe('a HAR body held only in part (content.size larger than content.text)', () => {
  it('control: no body at all is unknown, not result-missing', () => {
    const c = codes(har({ size: -1, mimeType: 'text/event-stream' }));
    expect(c).toContain('capture-gap');
    expect(c).not.toContain('result-missing');
  });

  it('the text is shorter than content.size says: the rest is unknown, not the server dropping the result', () => {
    expect(Buffer.byteLength(held)).toBeLessThan(Buffer.byteLength(full));
    const c = codes(har({ size: Buffer.byteLength(full), mimeType: 'text/event-stream', text: held }));
    expect(c).not.toContain('result-missing');
    expect(c).not.toContain('truncated-event');
    expect(c).toContain('capture-gap');
  });
});

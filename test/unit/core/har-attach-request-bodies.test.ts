// Playwright's recordHar with `content: 'attach'` (the default for a .zip HAR) stores request
// bodies beside the HAR too: playwright-core 1.65.1 (this repo's devDependency), HarTracer
// _postDataForBuffer, writes `postData: { mimeType, text: "", params: [], _file: "<sha1>.json" }`.
// The importer reads attachments for response bodies only (content._file), and takes the empty
// `postData.text` for the request body: every JSON-RPC request of such a HAR is lost.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importValue } from '../../../src/core/import/index';
import { analyzeRecords } from '../../../src/core/analyzer';
import { main } from '../../../src/cli/main';

const URL = 'http://127.0.0.1:3939/mcp';
const sse = (...evs: [string, unknown][]) => evs.map(([id, d]) => `id: ${id}\nevent: message\ndata: ${JSON.stringify(d)}\n\n`).join('');

function entry(start: string, body: unknown, reqHeaders: Record<string, string>, status: number, resHeaders: Record<string, string>, text: string, extra: Record<string, unknown> = {}) {
  const h = (r: Record<string, string>) => Object.entries(r).map(([name, value]) => ({ name, value }));
  return {
    startedDateTime: start,
    time: 50,
    _resourceType: 'fetch',
    request: {
      method: body !== undefined ? 'POST' : 'GET',
      url: URL,
      httpVersion: 'HTTP/1.1',
      headers: h(body !== undefined ? { 'content-type': 'application/json', ...reqHeaders } : reqHeaders),
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: 0,
      ...(body !== undefined ? { postData: { mimeType: 'application/json', text: JSON.stringify(body), params: [] as unknown[] } } : {}),
    },
    response: {
      status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      headers: h(resHeaders),
      cookies: [],
      content: { size: Buffer.byteLength(text), mimeType: resHeaders['content-type'] ?? 'x-unknown', text } as { size: number; mimeType: string; text?: string; _file?: string },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
      ...extra,
    },
    cache: {},
    timings: { send: 0, wait: 2, receive: 48 },
  };
}

/**
 * A cut tools/call stream resumed with a replay that skips ids 4–5: replay-gap and
 * lossy-result-accepted. `dropped`: no cut; the call's stream ends cleanly without its result.
 */
function lossyHar(dropped = false) {
  const ct = { 'content-type': 'text/event-stream' };
  const init = sse(['1', { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } } }]);
  const cut = sse(['2', { jsonrpc: '2.0', method: 'notifications/message', params: { data: 'a' } }], ['3', { jsonrpc: '2.0', method: 'notifications/message', params: { data: 'b' } }]);
  const replay = sse(['6', { jsonrpc: '2.0', method: 'notifications/message', params: { data: 'c' } }], ['7', { jsonrpc: '2.0', id: 2, result: { content: [] } }]);
  return {
    log: {
      version: '1.2',
      creator: { name: 'Playwright', version: '1.65.1' },
      pages: [],
      entries: [
        entry('2026-11-30T07:00:00.000Z', { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25' } }, {}, 200, { ...ct, 'mcp-session-id': 'S1' }, init),
        entry('2026-11-30T07:00:00.100Z', { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': 'S1' }, 202, {}, ''),
        entry('2026-11-30T07:00:00.200Z', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 't', _meta: { progressToken: 2 } } }, { 'mcp-session-id': 'S1' }, 200, ct, cut, dropped ? {} : { _failureText: 'net::ERR_INCOMPLETE_CHUNKED_ENCODING' }),
        ...(dropped ? [] : [entry('2026-11-30T07:00:01.600Z', undefined, { 'mcp-session-id': 'S1', 'last-event-id': '3' }, 200, ct, replay)]),
      ],
    },
  };
}

/** The same HAR as Playwright writes it with content: 'attach': bodies in files, request text "". */
function attached(h: ReturnType<typeof lossyHar>): { har: ReturnType<typeof lossyHar>; files: Map<string, Uint8Array> } {
  const files = new Map<string, Uint8Array>();
  h.log.entries.forEach((e, i) => {
    const pd = e.request.postData as { text: string; _file?: string } | undefined;
    if (pd) {
      files.set(`req${i}.json`, new TextEncoder().encode(pd.text));
      pd.text = '';
      pd._file = `req${i}.json`;
    }
    const c = e.response.content;
    if (c.text) {
      files.set(`res${i}.txt`, new TextEncoder().encode(c.text));
      c._file = `res${i}.txt`;
      delete c.text;
    }
  });
  return { har: h, files };
}

const summary = (s: ReturnType<typeof analyzeRecords>) => ({
  findings: s.findings.map((f) => `${f.code}|${f.severity}`),
  verdicts: Object.values(s.requests).flat().map((r) => `${r.id}|${r.method}|${r.verdict}`),
});

describe("Playwright recordHar content: 'attach' (request bodies in postData._file)", () => {
  it('the attached HAR gives the inline HAR’s findings and verdicts', () => {
    const inline = summary(analyzeRecords(importValue(lossyHar()).records));
    expect(inline.findings).toEqual(['replay-gap|error', 'lossy-result-accepted|error']);
    const { har, files } = attached(lossyHar());
    expect(summary(analyzeRecords(importValue(har, { readAttachment: (n) => files.get(n) }).records))).toEqual(inline);
  });

  it('audit of the attached HAR (files beside it) exits 1 like the inline one (a result never sent)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'msi-attach-'));
    const { har, files } = attached(lossyHar(true));
    for (const [name, bytes] of files) writeFileSync(join(dir, name), bytes);
    writeFileSync(join(dir, 'inline.har'), JSON.stringify(lossyHar(true)));
    writeFileSync(join(dir, 'attached.har'), JSON.stringify(har));
    const run = async (f: string) => {
      let out = '';
      const code = await main(['audit', join(dir, f)], { stdout: (s) => void (out += s), stderr: (s) => void (out += s) });
      return { code, out };
    };
    const inline = await run('inline.har');
    expect(inline.code).toBe(1);
    expect(inline.out).toContain('result-missing');
    const r = await run('attached.har');
    expect(r.code, r.out).toBe(1);
  });
});

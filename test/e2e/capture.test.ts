// Capture end to end: the built extension in real Chromium with real DevTools open; what the
// "MCP Streams" panel holds is read from the panel iframe.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaptureRecord } from '../../src/core/record';
import { bodyText, openInspected, waitForRecords, type Harness } from '../support/extension';
import { sse, startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let h: Harness;

const EVENTS = [
  { id: '1', data: '{"jsonrpc":"2.0","method":"notifications/message","params":{"n":1}}' },
  { id: '2', event: 'message', data: '{"jsonrpc":"2.0","id":1,"result":{"ok":true,"text":"héllo ✓"}}' },
];

beforeAll(async () => {
  server = await startTestServer();
  server.route('/mcp', sse(EVENTS));
  server.page(
    '/first.html',
    `<!doctype html><html><head><script>
      // The page's very first script: a fetch at document_start, read fully.
      window.firstResult = fetch('/mcp', { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Mcp-Session-Id': 'sess-1' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } }) })
        .then((r) => r.text());
    </script></head><body>first</body></html>`,
  );
  h = await openInspected(server.url('/first.html'));
});

afterAll(async () => {
  await h?.close();
  await server?.close();
});

describe('capture', () => {
  it('records the first fetch of an inline <head> script at document_start, as the page read it', async () => {
    const pageText = await h.evalPage<string>('window.firstResult');
    const records = await waitForRecords(h.panel, (rs) => rs.some((r) => r.kind === 'end'), 'end of /mcp');
    const req = records.find((r) => r.kind === 'request') as Extract<CaptureRecord, { kind: 'request' }>;
    expect(req.method).toBe('POST');
    expect(req.url).toBe(server.url('/mcp'));
    expect(req.headers).toContainEqual(['Mcp-Session-Id', 'sess-1']);
    expect(JSON.parse(req.body!)).toMatchObject({ method: 'tools/call' });
    const res = records.find((r) => r.kind === 'response') as Extract<CaptureRecord, { kind: 'response' }>;
    expect(res.capture).toBe('sse');
    expect(bodyText(records, '/mcp')).toBe(pageText);
    expect(records.find((r) => r.kind === 'end')).toMatchObject({ how: 'complete' });
    // seq dense from 1 within the src
    const seqs = records.filter((r) => r.src === req.src).map((r) => r.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
  });
});

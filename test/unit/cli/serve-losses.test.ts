// What `serve` sends for a body the capture does not hold whole: never text joined across a loss,
// and the loss told to the client the same way for every kind of body (the capture-loss header),
// besides what each kind can say itself (a JSON answer's -32051 error).
import { describe, expect, it } from 'vitest';
import { importText } from '../../../src/core/import/index.js';
import type { CaptureRecord } from '../../../src/core/record.js';
import { LOSS_HEADER } from '../../../src/cli/serve/recording.js';
import { serve } from './serve-helpers.js';

const URL = 'http://127.0.0.1:4320/mcp';
const call = (id: number | string, name: string) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}"}}`;

/** A sessionless capture: one POST per exchange, answered with `type` and the records in `middle`. */
function capture(exchanges: { name: string; type: string; status?: number; middle: (conn: string) => Record<string, unknown>[] }[]): CaptureRecord[] {
  const records: CaptureRecord[] = [];
  let seq = 0;
  const push = (r: Record<string, unknown>) => records.push({ seq: ++seq, src: 'p', t: 1_800_000_000_000 + seq, ...r } as CaptureRecord);
  exchanges.forEach((x, i) => {
    const conn = `c${i + 1}`;
    const capture = x.type === 'text/event-stream' ? 'sse' : x.type === 'application/json' ? 'json' : 'none';
    push({ kind: 'request', conn, transport: 'fetch', method: 'POST', url: URL, headers: [['content-type', 'application/json']], body: call(i + 1, x.name) });
    push({ kind: 'response', conn, status: x.status ?? 200, statusText: '', headers: [['content-type', x.type]], url: URL, redirected: false, type: 'basic', capture });
    for (const r of x.middle(conn)) push(r);
    push({ kind: 'end', conn, how: 'complete' });
  });
  return records;
}

const chunk = (conn: string, text: string, droppedBytes?: number) => ({ kind: 'chunk', conn, text, bytes: text.length, ...(droppedBytes ? { droppedBytes } : {}) });
const gap = (conn: string) => ({ kind: 'capture-gap', lost: 1, conns: [conn], reason: 'buffer-cap' });

async function post(url: string, body: string) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body });
  return { status: res.status, loss: res.headers.get(LOSS_HEADER), body: await res.text() };
}

describe('serve: a body that is neither JSON nor SSE, cut by a loss', () => {
  it('is served up to the loss (never joined across it), with the capture-loss header, a note and a line', async () => {
    const s = await serve(
      capture([
        { name: 'gap', type: 'text/plain', status: 500, middle: (c) => [chunk(c, 'Internal error: the database '), gap(c), chunk(c, 'is unreachable')] },
        { name: 'cap', type: 'text/html', status: 502, middle: (c) => [chunk(c, '<html><body>Bad gateway', 9000), chunk(c, '</body></html>')] },
        { name: 'trailing', type: 'text/plain', status: 500, middle: (c) => [chunk(c, 'Timeout after '), gap(c)] },
        { name: 'whole', type: 'text/plain', status: 500, middle: (c) => [chunk(c, 'Internal error'), chunk(c, ': whole')] },
        // As the inspector's hook records a text/plain answer: no body at all, so a loss cut none of it.
        { name: 'unheld', type: 'text/plain', status: 500, middle: (c) => [gap(c)] },
      ]),
    );
    try {
      expect(await post(s.url, call(1, 'gap'))).toEqual({ status: 500, loss: 'text', body: 'Internal error: the database ' });
      expect(await post(s.url, call(2, 'cap'))).toEqual({ status: 502, loss: 'text', body: '<html><body>Bad gateway' });
      // Whether the text went on after a loss at its end cannot be known: it is marked too.
      expect(await post(s.url, call(3, 'trailing'))).toEqual({ status: 500, loss: 'text', body: 'Timeout after ' });
      expect(await post(s.url, call(4, 'whole'))).toEqual({ status: 500, loss: null, body: 'Internal error: whole' });
      expect(await post(s.url, call(5, 'unheld'))).toEqual({ status: 500, loss: null, body: '' });
      expect(s.lines[0]).toBe('POST /mcp tools/call #1 → recorded c1: 500 a body the capture lost part of: served up to the loss');
      const cut = s.recording.warnings.filter((w) => w.includes('its body is cut by the loss: served up to the loss (joined, it would be text the server never sent as one)'));
      expect(cut.map((w) => w.slice(0, 14))).toEqual(['POST /mcp (c1)', 'POST /mcp (c2)', 'POST /mcp (c3)']);
    } finally {
      await s.close();
    }
  });

  it('the SSE and JSON answers the capture lost part of carry the same header', async () => {
    const event = (id: number, text: string) => `id: ${id}\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"data":"${text}"}}\n\n`;
    const result = '{"jsonrpc":"2.0","id":2,"result":{"content":[]}}';
    const s = await serve(
      capture([
        { name: 'sse', type: 'text/event-stream', middle: (c) => [chunk(c, event(1, 'a')), gap(c), chunk(c, event(2, 'b'))] },
        { name: 'json', type: 'application/json', middle: (c) => [chunk(c, result.slice(0, 20)), gap(c), chunk(c, result.slice(20))] },
        { name: 'whole', type: 'application/json', middle: (c) => [chunk(c, result.replace('"id":2', '"id":3'))] },
      ]),
    );
    try {
      const sse = await post(s.url, call(1, 'sse'));
      // After the loss, the parser cannot tell the next event's start from the middle of one: left out.
      expect([sse.loss, sse.body]).toEqual(['events', event(1, 'a')]);
      const json = await post(s.url, call(2, 'json'));
      expect([json.loss, JSON.parse(json.body).error.code]).toEqual(['answer', -32051]);
      expect((await post(s.url, call(3, 'whole'))).loss).toBeNull();
    } finally {
      await s.close();
    }
  });
});

describe('serve: a HAR entry whose JSON answer has no body (HAR writers omit them)', () => {
  const h = (pairs: [string, string][]) => pairs.map(([name, value]) => ({ name, value }));
  const entry = (i: number, body: string) => ({
    startedDateTime: `2026-11-30T07:00:0${i}.000Z`,
    time: 20,
    request: { method: 'POST', url: URL, httpVersion: 'HTTP/1.1', headers: h([['content-type', 'application/json']]), queryString: [], cookies: [], headersSize: -1, bodySize: body.length, postData: { mimeType: 'application/json', text: body } },
    // No text: the file did not keep the body (size -1, as Chrome and Playwright save it).
    response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', headers: h([['content-type', 'application/json']]), cookies: [], content: { size: -1, mimeType: 'application/json' }, redirectURL: '', headersSize: -1, bodySize: -1 },
    cache: {},
    timings: { send: 0, wait: 10, receive: 10 },
  });
  const note = '{"jsonrpc":"2.0","method":"notifications/initialized"}';

  it('each request gets the JSON-RPC error -32051 saying the capture does not hold the body; a notification is answered as recorded', async () => {
    const file = { log: { version: '1.2', creator: { name: 'WebInspector', version: '1' }, pages: [], entries: [entry(1, call(1, 'one')), entry(2, `[${call(2, 'b1')},${note}]`), entry(3, note)] } };
    const s = await serve(importText(JSON.stringify(file)).records);
    try {
      const notHeld = (id: unknown) => ({ jsonrpc: '2.0', id, error: { code: -32051, message: expect.stringContaining('the capture does not hold the body of this answer') } });
      const one = await post(s.url, call('"x"', 'one'));
      expect(one.body).not.toBe('');
      expect(JSON.parse(one.body)).toEqual(notHeld('x'));
      expect([one.status, one.loss]).toEqual([200, 'absent']);
      // A batch: its request's error, in a batch (the notification has no answer).
      expect(JSON.parse((await post(s.url, `[${call(9, 'b1')},${note}]`)).body)).toEqual([notHeld(9)]);
      expect(await post(s.url, note)).toEqual({ status: 200, loss: null, body: '' });
      expect(s.lines[0]).toBe('POST /mcp tools/call #"x" → recorded e0: 200 JSON the file holds no body for: answered with JSON-RPC error -32051');
      expect(s.recording.warnings[0]).toMatch(/^POST \/mcp \(e0\): the file holds no body for it; its JSON answer is not in the file: answered with a JSON-RPC error -32051 in its place$/);
    } finally {
      await s.close();
    }
  });
});

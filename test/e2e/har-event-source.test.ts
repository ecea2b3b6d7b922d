// A HAR with `_eventSourceMessages` written from a real Chromium, the way cypress-har-generator
// writes it (src/network/NetworkObserver.ts + EntryBuilder.ts at commit 2a745bf): one entry per
// request from CDP's Network events, each `Network.eventSourceMessageReceived` kept as
// `{time: timestamp, eventName, eventId, data}` (CDP's monotonic timestamp, as is), no body for the
// EventSource stream. A native EventSource in the page reads a stream whose ids skip 3–4 and whose
// last event has no id line; the import must find the gap from the ids alone.
//
// It also pins what the importer relies on in the real browser: `eventId` is the EventSource's
// last event id (an event without an id line reports the previous one), and `timestamp` is not
// wall-clock time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeRecords } from '../../src/core';
import { importValue } from '../../src/core/import';
import { launchBrowser, type Browser } from '../support/browser';
import { startTestServer, type TestServer } from '../support/server';
import { waitFor } from '../support/wait';

let server: TestServer;
let browser: Browser;

const msg = (n: number) => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `event ${n}` } });

beforeAll(async () => {
  server = await startTestServer();
  server.route('/sse', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    // retry: far away, so the browser does not reconnect before the page closes the source.
    res.end(`retry: 600000\nid: 1\ndata: ${msg(1)}\n\nid: 2\ndata: ${msg(2)}\n\n: a comment\n\nid: 5\ndata: ${msg(5)}\n\ndata: ${msg(6)}\n\n`);
  });
  server.page(
    '/page',
    `<!doctype html><title>es</title><script>
      const seen = [];
      const es = new EventSource('/sse');
      es.onmessage = (e) => { seen.push([e.lastEventId, e.data]); if (seen.length === 4) { es.close(); window.done = seen; } };
    </script>`,
  );
  browser = await launchBrowser({ extension: false });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('_eventSourceMessages recorded from CDP, as cypress-har-generator writes it', () => {
  it('imports as the EventSource saw it: ids, the 3–4 gap, a notice naming what the file lacks', async () => {
    const { cdp } = browser;
    const tab = await cdp.attach((await browser.pageTarget('about:blank')).targetId);
    type Req = { requestId: string; wallTime: number; timestamp: number; request: { url: string; method: string; headers: Record<string, string> }; type?: string };
    const requests = new Map<string, { will: Req; response?: { status: number; statusText: string; headers: Record<string, string>; mimeType: string }; end?: number; messages: { time: number; eventName: string; eventId: string; data: string }[] }>();
    const off = [
      cdp.on('Network.requestWillBeSent', (p: Req, s) => void (s === tab && requests.set(p.requestId, { will: p, messages: [] }))),
      cdp.on('Network.responseReceived', (p: { requestId: string; response: any }, s) => {
        const r = s === tab ? requests.get(p.requestId) : undefined;
        if (r) r.response = p.response;
      }),
      cdp.on('Network.eventSourceMessageReceived', (p: { requestId: string; timestamp: number; eventName: string; eventId: string; data: string }, s) => {
        // NetworkObserver.eventSourceMessageReceived → addEventSourceMessage(timestamp, eventName, eventId, data)
        const r = s === tab ? requests.get(p.requestId) : undefined;
        if (r) r.messages.push({ time: p.timestamp, eventName: p.eventName, eventId: p.eventId, data: p.data });
      }),
      cdp.on('Network.loadingFinished', (p: { requestId: string; timestamp: number }, s) => {
        const r = s === tab ? requests.get(p.requestId) : undefined;
        if (r) r.end = p.timestamp;
      }),
    ];
    await cdp.send('Network.enable', {}, tab);
    await cdp.send('Page.navigate', { url: server.url('/page') }, tab);
    const page = await browser.attachPage('/page');
    const seen = await waitFor(() => cdp.evaluate<[string, string][] | null>(page, 'window.done ?? null'), { message: 'the page received four events' });
    for (const o of off) o();
    // What the page's EventSource saw: lastEventId 5 stays for the event without an id line.
    expect(seen.map(([id]) => id)).toEqual(['1', '2', '5', '5']);

    const sse = [...requests.values()].find((r) => r.will.request.url.endsWith('/sse'))!;
    expect(sse, 'the EventSource request was seen').toBeDefined();
    await waitFor(() => sse.messages.length === 4, { message: 'four eventSourceMessageReceived events' });
    // CDP's eventId is the EventSource's lastEventId; its timestamp is monotonic, not epoch.
    expect(sse.messages.map((m) => m.eventId)).toEqual(['1', '2', '5', '5']);
    expect(sse.messages.map((m) => m.eventName)).toEqual(['message', 'message', 'message', 'message']);
    expect(Math.abs(sse.messages[0]!.time * 1000 - sse.will.wallTime * 1000)).toBeGreaterThan(86_400_000);

    // The HAR as cypress-har-generator's EntryBuilder shapes it (startedDateTime from wallTime,
    // headers as name/value lists, content without text, `_webSocketMessages` and
    // `_eventSourceMessages` on every entry).
    const nv = (h: Record<string, string> = {}) => Object.entries(h).map(([name, value]) => ({ name, value }));
    const entries = [...requests.values()].map((r) => {
      const wait = r.response ? 1 : 0;
      const total = r.end !== undefined ? Math.max(0, (r.end - r.will.timestamp) * 1000) : 0;
      return {
        startedDateTime: new Date(r.will.wallTime * 1000).toJSON(),
        time: total,
        timings: { blocked: -1, dns: -1, ssl: -1, connect: -1, send: 0, wait, receive: Math.max(0, total - wait) },
        request: { method: r.will.request.method, url: r.will.request.url, httpVersion: 'http/1.1', headers: nv(r.will.request.headers), queryString: [], cookies: [], headersSize: -1, bodySize: 0 },
        response: {
          status: r.response?.status ?? 0,
          statusText: r.response?.statusText ?? '',
          httpVersion: 'http/1.1',
          headers: nv(r.response?.headers),
          cookies: [],
          content: { size: -1, mimeType: r.response?.mimeType ?? 'x-unknown' },
          redirectURL: '',
          headersSize: -1,
          bodySize: -1,
          _transferSize: 0,
        },
        cache: {},
        serverIPAddress: '127.0.0.1',
        _priority: 'High',
        _resourceType: r.will.type ?? 'Other',
        _webSocketMessages: [],
        _eventSourceMessages: r.messages,
      };
    });
    const har = { log: { version: '1.2', creator: { name: 'cypress-har-generator', version: '6.1.1' }, pages: [], entries } };

    const records = importValue(JSON.parse(JSON.stringify(har))).records;
    const events = records.filter((r) => r.kind === 'es-event');
    expect(events.map((r) => r.kind === 'es-event' && r.lastEventId)).toEqual(['1', '2', '5', '5']);
    expect(events.map((r) => r.kind === 'es-event' && r.data)).toEqual(seen.map(([, d]) => d));
    const snap = analyzeRecords(records);
    expect(snap.findings.map((f) => `${f.code} ${f.missing ?? ''}`)).toContain('live-gap 3–4');
    expect(snap.findings.some((f) => f.code === 'capture-gap')).toBe(false);
    const notice = records.find((r) => r.kind === 'notice' && r.code === 'har-event-source-messages');
    expect(notice && notice.kind === 'notice' && notice.message).toMatch(/One HAR entry \(GET http:\/\/127\.0\.0\.1:\d+\/sse\).*monotonic seconds/);
  });
});

// Capture sources: iframes (same-origin and cross-origin), native EventSource with a browser
// reconnect, XMLHttpRequest event streams, a Web Worker's fetch (observed after completion via
// chrome.devtools.network), and a page forging the hook's handshake.

import { PROTOCOL_VERSION } from '../../src/extension/wire/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaptureRecord } from '../../src/core/record';
import { bodyText, navigate, openInspected, waitForRecords, type Harness } from '../support/extension';
import { sse, startTestServer, type TestServer } from '../support/server';
import { waitFor } from '../support/wait';

let server: TestServer;
let h: Harness;

const reqs = (rs: CaptureRecord[]) => rs.filter((r): r is Extract<CaptureRecord, { kind: 'request' }> => r.kind === 'request');
const fetchAtStart = (tag: string) => `<script>
  window.text = fetch('/sse?tag=${tag}', { headers: { accept: 'text/event-stream' } }).then((r) => r.text());
</script>`;

beforeAll(async () => {
  server = await startTestServer();
  server.route('/sse', (req, res) => {
    const tag = new URL(req.url!, 'http://x').searchParams.get('tag');
    sse([{ id: `${tag}-1`, data: `{"jsonrpc":"2.0","method":"hello","params":{"from":"${tag}"}}` }])(req, res, '');
  });
  server.page('/top.html', `<!doctype html><html><head>${fetchAtStart('top')}<script>
    // A script-created about:blank iframe used synchronously (a common way to get a "clean" fetch).
    const blank = document.createElement('iframe');
    document.head.appendChild(blank);
    window.blankText = blank.contentWindow.fetch('/sse?tag=blank', { headers: { accept: 'text/event-stream' } }).then((r) => r.text());
  </script></head><body>
    <iframe src="/child.html?tag=same"></iframe>
    <iframe src="${server.altUrl('/child.html?tag=cross')}"></iframe></body></html>`);
  server.route('/child.html', (req, res) => {
    const tag = new URL(req.url!, 'http://x').searchParams.get('tag')!;
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html><head>${fetchAtStart(tag)}</head><body>${tag}</body></html>`);
  });

  let esConnections = 0;
  server.route('/es', (req, res) => {
    esConnections++;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    if (esConnections === 1) {
      // first connection: two events (one named), then the server drops the connection
      res.write('retry: 50\nid: 1\ndata: {"n":1}\n\nid: 2\nevent: ping\ndata: {"n":2}\n\n');
      setTimeout(() => res.end(), 50);
    } else {
      res.write(`id: 3\ndata: {"n":3,"lastEventId":${JSON.stringify(req.headers['last-event-id'] ?? null)}}\n\n`);
    }
  });
  server.page('/es.html', `<!doctype html><html><head><script>
    window.got = [];
    const es = new EventSource('/es');
    es.onmessage = (e) => { window.got.push(['message', e.lastEventId, e.data]); if (window.got.length === 3) es.close(); };
    es.addEventListener('ping', (e) => window.got.push(['ping', e.lastEventId, e.data]));
  </script></head><body>es</body></html>`);

  server.route('/xsse', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('id: x1\ndata: {"jsonrpc":"2.0","method":"a"}\n\n');
    // Longer than Chrome's 50 ms throttle of XHR progress, so the page sees two reads.
    setTimeout(() => res.end('id: x2\ndata: {"jsonrpc":"2.0","method":"b"}\n\n'), 150);
  });
  server.page('/xhr.html', `<!doctype html><html><head><script>
    window.xhrDone = new Promise((resolve) => {
      const x = new XMLHttpRequest();
      x.open('POST', '/xsse');
      x.setRequestHeader('Content-Type', 'application/json');
      x.setRequestHeader('Accept', 'application/json, text/event-stream');
      x.onload = () => resolve(x.responseText);
      x.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    });
  </script></head><body>xhr</body></html>`);

  // An EventSource the page closes from its error handler (to reconnect itself): the browser
  // never reconnects it.
  server.route('/es-drop', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('retry: 50\nid: d1\ndata: {"n":1}\n\n');
    setTimeout(() => res.end(), 50);
  });
  server.page('/es-close.html', `<!doctype html><html><head><script>
    window.esClosed = new Promise((resolve) => {
      const es = new EventSource('/es-drop');
      es.onerror = () => { es.close(); setTimeout(() => resolve(es.readyState), 300); };
    });
  </script></head><body>es close</body></html>`);

  // One XHR object polled twice, opened again from its own load handler (long-poll code does).
  server.route('/xpoll', (req, res) => {
    const n = new URL(req.url!, 'http://x').searchParams.get('n');
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(`id: p${n}\ndata: {"jsonrpc":"2.0","method":"poll","params":{"n":${n}}}\n\n`);
  });
  server.page('/xhr-reuse.html', `<!doctype html><html><head><script>
    window.polls = new Promise((resolve) => {
      const x = new XMLHttpRequest();
      const texts = [];
      const poll = (n) => { x.open('GET', '/xpoll?n=' + n); x.setRequestHeader('Accept', 'text/event-stream'); x.send(); };
      x.onload = () => { texts.push(x.responseText); if (texts.length < 2) poll(2); else resolve(texts); };
      poll(1);
    });
  </script></head><body>xhr reuse</body></html>`);

  // abort() from a progress handler, then opened again from the readystatechange (DONE) abort() fires.
  server.route('/xhold', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('id: h1\ndata: {"jsonrpc":"2.0","method":"held"}\n\n');
  });
  server.page('/xhr-abort-reopen.html', `<!doctype html><html><head><script>
    window.reopened = new Promise((resolve) => {
      const x = new XMLHttpRequest();
      let again = false;
      x.onprogress = () => { if (!again) x.abort(); };
      x.onreadystatechange = () => { if (x.readyState === 4 && !again) { again = true; x.open('GET', '/xpoll?n=3'); x.setRequestHeader('Accept', 'text/event-stream'); x.send(); } };
      x.onload = () => resolve(x.responseText);
      x.open('GET', '/xhold'); x.setRequestHeader('Accept', 'text/event-stream'); x.send();
    });
  </script></head><body>xhr abort reopen</body></html>`);

  server.route('/worker.js', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/javascript' }).end(
      `fetch('/sse?tag=worker', { headers: { accept: 'text/event-stream' } }).then((r) => r.text()).then((t) => postMessage(t));`,
    );
  });
  server.page('/worker.html', `<!doctype html><html><head><script>
    window.workerText = new Promise((resolve) => { const w = new Worker('/worker.js'); w.onmessage = (e) => resolve(e.data); });
  </script></head><body>worker</body></html>`);

  server.page('/forge.html', `<!doctype html><html><head><script>
    const ch = new MessageChannel();
    window.postMessage({ ch: 'mcp-stream-inspector', v: ${PROTOCOL_VERSION}, type: 'hook-hello' }, '*', [ch.port2]);
    ch.port1.postMessage({ ch: 'mcp-stream-inspector', v: ${PROTOCOL_VERSION}, type: 'hook-batch', records: [{ kind: 'request', conn: 'forged', t: 1, transport: 'fetch', method: 'GET', url: 'http://forged/', headers: [], body: null }] });
  </script>${fetchAtStart('forge')}</head><body>forge</body></html>`);

  h = await openInspected(server.url('/top.html'));
});

afterAll(async () => {
  await h?.close();
  await server?.close();
});

describe('capture sources', () => {
  it('captures the first fetch of the top frame, a same-origin, a cross-origin and a script-made about:blank iframe', async () => {
    const records = await waitForRecords(h.panel, (rs) => rs.filter((r) => r.kind === 'end').length >= 4, 'four streams');
    const byTag = (tag: string) => reqs(records).find((r) => r.url.includes(`tag=${tag}`));
    const top = byTag('top')!;
    const same = byTag('same')!;
    const cross = byTag('cross')!;
    expect(top && same && cross).toBeTruthy();
    expect(cross.url.startsWith(server.altOrigin)).toBe(true);
    expect(new Set([top.src, same.src, cross.src]).size).toBe(3); // one src per document
    for (const tag of ['top', 'same', 'cross', 'blank']) expect(bodyText(records, `tag=${tag}`)).toContain(`"from":"${tag}"`);
    expect(byTag('blank')!.src).not.toBe(top.src); // the about:blank frame has its own hook and relay
    const navs = records.filter((r) => r.kind === 'navigation') as Extract<CaptureRecord, { kind: 'navigation' }>[];
    expect(navs.filter((n) => n.top).length).toBe(1);
    expect(navs.filter((n) => !n.top).map((n) => n.url).sort()).toEqual(
      ['about:blank', server.url('/child.html?tag=same'), server.altUrl('/child.html?tag=cross')].sort(),
    );
  });

  it('captures a native EventSource: message and named events, ids, and the browser reconnect with Last-Event-ID', async () => {
    await navigate(h, server.url('/es.html'));
    await waitFor(() => h.evalPage('window.got.length === 3'), { message: 'page got 3 events' });
    const got = await h.evalPage<string[][]>('window.got');
    const records = await waitForRecords(h.panel, (rs) => rs.filter((r) => r.kind === 'es-event').length >= 3 && rs.some((r) => r.kind === 'end' && r.how === 'closed'), 'es events');
    const events = records.filter((r) => r.kind === 'es-event') as Extract<CaptureRecord, { kind: 'es-event' }>[];
    expect(events.map((e) => [e.type, e.lastEventId, e.data])).toEqual(got);
    const esReqs = reqs(records).filter((r) => r.transport === 'eventsource');
    expect(esReqs.length).toBe(2);
    expect(esReqs[1]!.reconnectOf).toBe(esReqs[0]!.conn);
    expect(esReqs[1]!.headers).toContainEqual(['Last-Event-ID', '2']);
    expect(JSON.parse(got[2]![2]!).lastEventId).toBe('2'); // what the browser really sent
    const ends = records.filter((r) => r.kind === 'end') as Extract<CaptureRecord, { kind: 'end' }>[];
    expect(ends.map((e) => e.how)).toEqual(['network-error', 'closed']);
  });

  it('captures an XMLHttpRequest event stream progressively, with its request body and headers', async () => {
    await navigate(h, server.url('/xhr.html'));
    const text = await h.evalPage<string>('window.xhrDone');
    const records = await waitForRecords(h.panel, (rs) => rs.some((r) => r.kind === 'end'), 'xhr end');
    const req = reqs(records)[0]!;
    expect(req).toMatchObject({ transport: 'xhr', method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    expect(req.headers).toContainEqual(['Accept', 'application/json, text/event-stream']);
    expect(bodyText(records, '/xsse')).toBe(text);
    expect(records.filter((r) => r.kind === 'chunk').length).toBeGreaterThanOrEqual(2);
    expect(records.find((r) => r.kind === 'end')).toMatchObject({ how: 'complete' });
  });

  it('an EventSource closed by the page from its error handler: the lost connection and no reconnect the browser never made', async () => {
    await navigate(h, server.url('/es-close.html'));
    expect(await h.evalPage<number>('window.esClosed')).toBe(2);
    const records = await waitForRecords(h.panel, (rs) => rs.some((r) => r.kind === 'end'), 'es end');
    // before: a second request (reconnectOf the first, Last-Event-ID d1), then ended 'closed'
    expect(reqs(records).filter((r) => r.url.includes('/es-drop'))).toHaveLength(1);
    expect(records.filter((r) => r.kind === 'end').map((r) => (r as { how: string }).how)).toEqual(['network-error']);
  });

  it('an XMLHttpRequest opened and sent again from its load handler: each poll is its own connection, ended once', async () => {
    await navigate(h, server.url('/xhr-reuse.html'));
    const texts = await h.evalPage<string[]>('window.polls');
    const records = await waitForRecords(h.panel, (rs) => rs.filter((r) => r.kind === 'end').length >= 2, 'two xhr polls');
    const polls = reqs(records).filter((r) => r.url.includes('/xpoll'));
    expect(polls.map((r) => r.url.replace(/.*\?/, ''))).toEqual(['n=1', 'n=2']);
    polls.forEach((r, i) => {
      const of = records.filter((x) => 'conn' in x && x.conn === r.conn && x.src === r.src);
      // before: the first poll's listeners recorded the second poll's response and text into the
      // first connection, and ended the second at once
      expect(of.map((x) => x.kind), `poll ${i + 1}`).toEqual(['request', 'response', 'chunk', 'end']);
      expect(of.filter((x) => x.kind === 'chunk').map((x) => (x as { text: string }).text).join('')).toBe(texts[i]);
      expect(of.at(-1)).toMatchObject({ kind: 'end', how: 'complete' });
    });
  });

  it('an XMLHttpRequest the page aborted and opened again from the abort\'s readystatechange: the first is closed by the page', async () => {
    await navigate(h, server.url('/xhr-abort-reopen.html'));
    await h.evalPage<string>('window.reopened');
    const records = await waitForRecords(h.panel, (rs) => rs.filter((r) => r.kind === 'end').length >= 2, 'two xhr ends');
    const [held, next] = ['/xhold', '/xpoll?n=3'].map((u) => reqs(records).find((r) => r.url.endsWith(u))!);
    const endOf = (r: { conn: string; src?: string }) => records.find((x) => x.kind === 'end' && x.conn === r.conn && x.src === r.src);
    // before: recorded as a network error (DONE with status 0 looks like one from open())
    expect(endOf(held!)).toMatchObject({ how: 'closed', reason: 'XMLHttpRequest.abort() by the page' });
    expect(endOf(next!)).toMatchObject({ how: 'complete' });
  });

  it('shows a Web Worker fetch after completion, from chrome.devtools.network, marked as network', async () => {
    await navigate(h, server.url('/worker.html'));
    const text = await h.evalPage<string>('window.workerText');
    const records = await waitForRecords(h.panel, (rs) => reqs(rs).some((r) => r.url.includes('tag=worker')), 'worker request', 20_000);
    const req = reqs(records).find((r) => r.url.includes('tag=worker'))!;
    expect(req.transport).toBe('network');
    expect(bodyText(records, 'tag=worker')).toBe(text);
  });

  it('ignores a page forging the hook handshake, and says so', async () => {
    await navigate(h, server.url('/forge.html'));
    await h.evalPage('window.text');
    const records = await waitForRecords(h.panel, (rs) => rs.some((r) => r.kind === 'end'), 'forge page stream');
    expect(reqs(records).some((r) => r.url.startsWith('http://forged'))).toBe(false);
    expect(records.some((r) => r.kind === 'notice' && r.code === 'forged-hook-hello')).toBe(true);
    expect(bodyText(records, 'tag=forge')).toContain('"from":"forge"');
  });
});

// A page that fights back (issue 5): forged window messages and prototype tampering aimed at the
// hook's private channel, fetch replaced or wrapped after the hook, a strict CSP with Trusted
// Types, and sandboxed / srcdoc iframes. Capture works, or a notice says it cannot; the page never
// breaks; nothing forged reaches the panel.

import { PROTOCOL_VERSION } from '../../src/extension/wire/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaptureRecord } from '../../src/core/record';
import { bodyText, duplicateKeys, navigate, openInspected, waitForRecords, type Harness } from '../support/extension';
import { relayContext, relayStats } from '../support/relay';
import { startTestServer, type TestServer } from '../support/server';
import { waitFor } from '../support/wait';

let server: TestServer;
let h: Harness;
const cspReports: string[] = [];

type Req = Extract<CaptureRecord, { kind: 'request' }>;
const reqs = (rs: CaptureRecord[]) => rs.filter((r): r is Req => r.kind === 'request');
const notices = (rs: CaptureRecord[], code: string) => rs.filter((r) => r.kind === 'notice' && r.code === code);
const ended = (rs: CaptureRecord[], tag: string) => {
  const req = reqs(rs).find((r) => r.url.includes(`tag=${tag}`));
  return !!req && rs.some((r) => r.kind === 'end' && r.src === req.src && r.conn === req.conn);
};
function denseSeqs(rs: CaptureRecord[]) {
  const bySrc = new Map<string, number[]>();
  for (const r of rs) bySrc.set(r.src, [...(bySrc.get(r.src) ?? []), r.seq]);
  for (const [src, seqs] of bySrc) if (src !== 'network') expect(seqs, `seq of ${src}`).toEqual(seqs.map((_, i) => i + 1));
}

const readSse = (tag: string, url = `/sse?tag=${tag}`) =>
  `fetch(${JSON.stringify(url)}, { headers: { accept: 'text/event-stream' } }).then((r) => r.text())`;

beforeAll(async () => {
  server = await startTestServer();
  server.route('/sse', (req, res) => {
    const tag = new URL(req.url!, 'http://x').searchParams.get('tag');
    // CORS for sandboxed (opaque-origin) frames.
    res.writeHead(200, { 'content-type': 'text/event-stream', 'access-control-allow-origin': '*', 'access-control-allow-headers': '*' });
    res.write(`id: ${tag}-1\ndata: {"jsonrpc":"2.0","method":"hello","params":{"from":"${tag}"}}\n\n`);
    setTimeout(() => res.end(`id: ${tag}-2\ndata: {"jsonrpc":"2.0","method":"bye","params":{"from":"${tag}"}}\n\n`), 20);
  });

  // 1.5 MB in one write: read after a pause, the page's reads are large (the hook sends reads of
  // 256 KiB or more to a panel as Blobs of the page's chunks).
  server.route('/big-sse', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    let s = '';
    for (let i = 1; Buffer.byteLength(s) < 1.5 * (1 << 20); i++) s += `id: ${i}\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"text":"${'é€😀x'.repeat(50)}"}}\n\n`;
    res.end(s);
  });
  // What a page can try against the hook's synchronous channel (emitter.ts) from its first script:
  // listeners for its events, a dispatchEvent that keeps every target it sees them on, getters and
  // setters on Object.prototype for what its dictionaries and messages hold. `window.syncSeen`
  // lists anything of it the page saw; `targets` and `DE` are used by the forgeries after it.
  const SYNC_SPY = `
    window.syncSeen = [];
    const SH = 'mcp-stream-inspector-sync-hello', SM = 'mcp-stream-inspector-sync';
    for (const t of [SH, SM]) for (const at of [window, document]) for (const cap of [true, false]) at.addEventListener(t, () => window.syncSeen.push('listener:' + t), cap);
    const DE = EventTarget.prototype.dispatchEvent;
    const targets = [];
    EventTarget.prototype.dispatchEvent = function (e) { if (String(e.type).startsWith('mcp-stream-inspector')) { window.syncSeen.push('dispatch:' + e.type); targets.push(this); } return RA(DE, this, [e]); };
    const ownKey = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
    // (window.forging: the page's own forgeries below, whose dictionaries it builds itself)
    const hookish = (o) => !window.forging && o !== null && typeof o === 'object' && (o instanceof Event || ['ch', 'records', 'data', 'lastEventId', 'relatedTarget'].some((k) => ownKey(o, k)));
    for (const k of ['seq', 'relatedTarget', 'lastEventId', 'cancelable', 'data', 'origin', 'source', 'ports', 'detail']) {
      Object.defineProperty(Object.prototype, k, { configurable: true,
        get() { if (hookish(this)) window.syncSeen.push('get:' + k); return undefined; },
        set(v) { if (hookish(this)) { window.syncSeen.push('set:' + k); try { this.records && this.records.push({ kind: 'request', conn: 'forged-seq', t: 1, transport: 'fetch', method: 'GET', url: 'http://forged/seq', headers: [], body: null }); } catch {} } Object.defineProperty(this, k, { value: v, writable: true, enumerable: true, configurable: true }); } });
    }
  `;

  // A page that replaces Blob and watches array iteration after it loaded: the hook's Blob of a
  // large read is made with the Blob captured at install, from parts given as an own-property
  // iterable (natives.ts ownIterable). Chromium 156 reads a plain array of parts without calling
  // the page's iterator (a hook passing [chunk] passed this test too), so `sawBytes` guards a
  // Chromium that would; `blobs` fails for a hook that calls the global Blob.
  server.page('/iter-tamper.html', `<!doctype html><html><head><script>
    window.sawBytes = 0; window.blobs = 0; window.text = ''; window.reads = []; window.done = false;
    const RA = Reflect.apply;
    ${SYNC_SPY}
    const AI = Array.prototype[Symbol.iterator];
    Array.prototype[Symbol.iterator] = function () { for (let i = 0; i < this.length && i < 4; i++) if (this[i] instanceof Uint8Array || this[i] instanceof ArrayBuffer) window.sawBytes++; return AI.call(this); };
    const AIP = Object.getPrototypeOf([][Symbol.iterator]());
    const next = AIP.next;
    AIP.next = function () { const r = next.call(this); if (r && (r.value instanceof Uint8Array || r.value instanceof ArrayBuffer)) window.sawBytes++; return r; };
    const B = window.Blob;
    window.Blob = function (...a) { window.blobs++; return new B(...a); };
    (async () => {
      const r = await fetch('/big-sse', { headers: { accept: 'text/event-stream' } });
      await new Promise((f) => setTimeout(f, 300));
      const rd = r.body.getReader(); const dec = new TextDecoder();
      for (;;) { const x = await rd.read(); if (x.done) break; window.reads.push(x.value.byteLength); window.text += dec.decode(x.value, { stream: true }); }
      window.text += dec.decode();
      window.done = true;
    })();
  </script></head><body>iter</body></html>`);

  // 40 events, each written on its own after a pause of `ms`. Of ~4.6 KB (`?r=450`): the page's
  // reads are from 4 KiB to 256 KiB, so (a panel open) the hook sends each with the page's own
  // chunk, uncopied, on the synchronous channel (emitter.ts sendRead). Of ~190 bytes (`?r=10`): the
  // hook copies each read into its batch (fetch.ts SEND_READ_MIN), which goes at most once per 16 ms.
  server.route('/drip-sse', (req, res) => {
    const q = new URL(req.url!, 'http://x').searchParams;
    const r = Number(q.get('r'));
    const ms = Number(q.get('ms'));
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    let i = 0;
    const next = () => {
      if (++i > 40) return res.end();
      res.write(`id: ${i}\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"text":"${'é€😀x'.repeat(r)}"}}\n\n`);
      setTimeout(next, ms);
    };
    next();
  });
  // JSON-RPC answers read whole: 200 KB (the hook records it in 64 KiB pieces, views of the page's
  // buffer: copied) and 5 KB (one piece spanning the buffer: sent uncopied).
  const jsonOf = (n: number) => JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text: 'é€😀x'.repeat(Math.ceil(n / 12)) } });
  server.route('/whole-json', (req, res) => {
    const n = Number(new URL(req.url!, 'http://x').searchParams.get('n'));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(jsonOf(n));
  });
  // A page that, once it decoded a read, overwrites the chunk and then detaches its buffer (a
  // transfer): the capture must hold what the page read, so the one copy of a read's bytes is made
  // before the page has the chunk. Each part waits for the test to open its gate (the relay's
  // message count is read around it).
  server.page('/chunk-tamper.html', `<!doctype html><html><head><script>
    window.text = {}; window.reads = {}; window.readTimes = {}; window.detached = 0; window.done = false; window.gate = {};
    const RA = Reflect.apply;
    ${SYNC_SPY}
    (async () => {
      for (const [size, ms] of [[450, 8], [10, 2]]) {
        await new Promise((go) => { window.gate[size] = go; });
        const r = await fetch('/drip-sse?r=' + size + '&ms=' + ms, { headers: { accept: 'text/event-stream' } });
        const rd = r.body.getReader(); const dec = new TextDecoder();
        let text = ''; const reads = []; const times = [];
        for (;;) {
          const x = await rd.read(); if (x.done) break;
          reads.push(x.value.byteLength); times.push(performance.now()); text += dec.decode(x.value, { stream: true });
          x.value.fill(88);
          structuredClone(x.value.buffer, { transfer: [x.value.buffer] });
          if (x.value.byteLength === 0) window.detached++;
        }
        window.text[size] = text + dec.decode(); window.reads[size] = reads; window.readTimes[size] = times;
      }
      await new Promise((go) => { window.gate.whole = go; });
      window.whole = [];
      for (const n of [200000, 5000]) {
        const buf = await (await fetch('/whole-json?n=' + n, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}' })).arrayBuffer();
        window.whole.push(new TextDecoder().decode(buf));
        new Uint8Array(buf).fill(88);
        structuredClone(buf, { transfer: [buf] });
      }
      window.done = true;
    })();
  </script></head><body>chunks</body></html>`);

  // Everything a page script can try against the hook's channel, from the first inline script.
  server.page('/attack.html', `<!doctype html><html><head><script>
    window.seen = []; window.stolen = [];
    const note = (e) => window.seen.push({ type: e.data && e.data.type, ch: e.data && e.data.ch, ports: e.ports.length });
    window.addEventListener('message', note, true);
    window.addEventListener('message', note, false);
    // 1. spy on Reflect.apply / Function.prototype.call / apply for anything holding a MessagePort
    const own = new Set();
    const grab = (x) => { if (x instanceof MessagePort && !own.has(x)) window.stolen.push(x); };
    const RA = Reflect.apply;
    Reflect.apply = function (f, t, a) { grab(t); if (a) for (const x of Array.from(a)) grab(x); return RA(f, t, a); };
    const FC = Function.prototype.call;
    // 2. wrap MessagePort.prototype.postMessage: steal the port and add forged records to batches
    const MP = MessagePort.prototype.postMessage;
    MessagePort.prototype.postMessage = function (m, ...rest) {
      grab(this);
      if (m && m.type === 'hook-batch') m.records.push({ kind: 'request', conn: 'forged-mp', t: 1, transport: 'fetch', method: 'GET', url: 'http://forged/mp', headers: [], body: null });
      return RA(MP, this, [m, ...rest]);
    };
    // 3. Array.prototype.push: inject a forged chunk next to every record pushed anywhere
    const AP = Array.prototype.push;
    let busy = false;
    Array.prototype.push = function (...xs) {
      if (!busy && xs.length === 1 && xs[0] && typeof xs[0] === 'object' && typeof xs[0].conn === 'string' && typeof xs[0].kind === 'string') {
        busy = true;
        try { RA(AP, this, [{ kind: 'chunk', conn: xs[0].conn, t: 1, text: 'FORGED-push', bytes: 11 }]); } finally { busy = false; }
      }
      return RA(AP, this, xs);
    };
    // 4. setters on Object.prototype for properties records get after creation
    for (const k of ['droppedBytes', 'bodyNote', 'reconnectOf', 'bodyAsync']) {
      Object.defineProperty(Object.prototype, k, { configurable: true, set(v) { try { this.conn = 'hijacked'; this.text = 'FORGED-setter'; } catch {} Object.defineProperty(this, k, { value: v, writable: true, enumerable: true, configurable: true }); } });
    }
    // 5. forged hello with a port, forged batch on window, forged hello from a nested context
    const ch = new MessageChannel();
    own.add(ch.port1); own.add(ch.port2);
    window.postMessage({ ch: 'mcp-stream-inspector', v: ${PROTOCOL_VERSION}, type: 'hook-hello' }, '*', [ch.port2]);
    ch.port1.postMessage({ ch: 'mcp-stream-inspector', v: ${PROTOCOL_VERSION}, type: 'hook-batch', records: [{ kind: 'request', conn: 'forged-hello', t: 1, transport: 'fetch', method: 'GET', url: 'http://forged/hello', headers: [], body: null }] });
    window.postMessage({ ch: 'mcp-stream-inspector', v: ${PROTOCOL_VERSION}, type: 'hook-batch', records: [{ kind: 'request', conn: 'forged-window', t: 1, transport: 'fetch', method: 'GET', url: 'http://forged/window', headers: [], body: null }] }, '*');
    // 7. the synchronous channel (emitter.ts): see SYNC_SPY; then a forged hello with a target of
    // the page's, and messages on it (and, after the read, on every target the spy kept)
    ${SYNC_SPY}
    const fake = new EventTarget();
    const forge = (target, seq, conn) => { window.forging = true; try { DE.call(target, new MessageEvent(SM, { lastEventId: String(seq), data: { ch: 'mcp-stream-inspector', v: ${PROTOCOL_VERSION}, type: 'hook-batch', seq, records: [{ kind: 'request', conn, t: 1, transport: 'fetch', method: 'GET', url: 'http://forged/' + conn, headers: [], body: null }] } })); } finally { window.forging = false; } };
    window.forging = true;
    window.syncHelloTaken = !DE.call(window, new FocusEvent(SH, { relatedTarget: fake, cancelable: true }));
    window.forging = false;
    for (let s = 0; s < 8; s++) forge(fake, s, 'forged-sync');
    // (read once the panel takes the records: the synchronous channel is used only then)
    window.text = new Promise((f) => setTimeout(f, 300)).then(() => ${readSse('attack')}).then((t) => {
      // 6. anything stolen is used to post forged batches
      for (const p of window.stolen) try { MP.call(p, { ch: 'mcp-stream-inspector', v: ${PROTOCOL_VERSION}, type: 'hook-batch', records: [{ kind: 'chunk', conn: 'c1', t: 1, text: 'FORGED-stolen', bytes: 13 }] }); } catch {}
      for (const x of targets) for (let s = 0; s < 64; s++) forge(x, s, 'forged-stolen-target');
      return t;
    });
  </script></head><body>attack</body></html>`);

  // A JSON-RPC POST answered with JSON, read whole: the hook reads such an answer with the native
  // consumer and decodes it itself (hook/fetch.ts readWhole). Every global it could reach for is
  // tampered with first: what the page gets must be what Chrome gives, and the record the truth.
  server.route('/rpc', (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":{"tools":["réal"]}}');
  });
  server.page('/json-tamper.html', `<!doctype html><html><head><script>
    const post = () => fetch('/rpc', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    TextDecoder.prototype.decode = function () { return '{"forged":"FORGED-decode"}'; };
    JSON.parse = function () { return { forged: 'FORGED-parse' }; };
    Object.defineProperty(ArrayBuffer.prototype, 'byteLength', { configurable: true, get() { return 3; } });
    // A then that forges the text of any request body read through it (\`await\` does not call it;
    // the hook must not either: it reads a Request's or a Blob's body as a promise of text).
    const then = Promise.prototype.then;
    Promise.prototype.then = function (a, b) {
      return then.call(this, typeof a === 'function' ? (v) => a(typeof v === 'string' && v.includes('tools/list') ? '{"jsonrpc":"2.0","id":9,"method":"FORGED-then"}' : v) : a, b);
    };
    const body = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    window.got = (async () => {
      const j = await (await post()).json();
      const t = await (await post()).text();
      const b = new Uint8Array(await (await post()).arrayBuffer());
      const r = await (await fetch(new Request('/rpc', { method: 'POST', headers, body }))).json();
      const bl = await (await fetch('/rpc', { method: 'POST', headers, body: new Blob([body]) })).json();
      return { j, t, b: Array.from(b.subarray(0, 12)), n: b.length, r, bl };
    })();
  </script></head><body>json</body></html>`);

  server.page('/wrap.html', `<!doctype html><html><head><script>
    const orig = window.fetch;
    window.fetch = function fetch(...a) { return orig.apply(this, a); };
    window.text = ${readSse('wrapped')};
  </script></head><body>wrap</body></html>`);

  server.page('/replace.html', `<!doctype html><html><head><script>
    window.errors = [];
    window.addEventListener('error', (e) => window.errors.push(String(e.message)));
    // Break Reflect.apply: the page's own fetch must still work (the hook captured it at install).
    Reflect.apply = () => { throw new Error('Reflect.apply disabled by the page'); };
    window.realText = ${readSse('noreflect')};
    // Then replace fetch with a stub that never calls the original, and EventSource with a class.
    window.fetch = async () => new Response('data: stub\\n\\n', { headers: { 'content-type': 'text/event-stream' } });
    window.EventSource = class FakeEventSource {};
    window.stubText = window.fetch('/sse?tag=stub').then((r) => r.text());
  </script></head><body>replace</body></html>`);

  const csp = "script-src 'nonce-n0nce' 'strict-dynamic'; require-trusted-types-for 'script'; trusted-types 'none'; report-uri /csp-report";
  server.route('/csp-report', (_req, res, body) => {
    cspReports.push(body);
    res.writeHead(204).end();
  });
  server.route('/csp.html', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'content-security-policy': csp, 'cache-control': 'no-store' }).end(
      `<!doctype html><html><head><script nonce="n0nce">
        window.fetchText = ${readSse('csp-fetch')};
        window.esGot = new Promise((resolve) => { const es = new EventSource('/sse?tag=csp-es'); es.onmessage = (e) => { es.close(); resolve(e.data); }; });
        window.xhrText = new Promise((resolve) => { const x = new XMLHttpRequest(); x.open('GET', '/sse?tag=csp-xhr'); x.setRequestHeader('Accept', 'text/event-stream'); x.onload = () => resolve(x.responseText); x.send(); });
        // Control: one deliberate violation, so the test knows reports arrive (no fixed wait).
        window.control = Promise.all([window.fetchText, window.esGot, window.xhrText]).then(() => { try { eval('1'); } catch (e) { return e.name; } return 'eval ran'; });
      </script></head><body>csp</body></html>`,
    );
  });

  server.page('/frames.html', `<!doctype html><html><head></head><body>
    <iframe id="sb" sandbox="allow-scripts" src="/child.html?tag=sbx-src"></iframe>
    <iframe id="sd" srcdoc="<script>window.parent.srcdocText = ${readSse('srcdoc').replace(/"/g, '&quot;')};</script>"></iframe>
    <iframe id="sbsd" sandbox="allow-scripts" srcdoc="<script>${readSse('sbx-doc', server.url('/sse?tag=sbx-doc')).replace(/"/g, '&quot;')};</script>"></iframe>
    <iframe id="blank" src="about:blank"></iframe>
    <script>
      const w = document.getElementById('blank').contentWindow;
      window.blankText = w.fetch('/sse?tag=blank-src', { headers: { accept: 'text/event-stream' } }).then((r) => r.text());
    </script></body></html>`);
  server.route('/child.html', (req, res) => {
    const tag = new URL(req.url!, 'http://x').searchParams.get('tag')!;
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html><head><script>${readSse(tag, server.url(`/sse?tag=${tag}`))};</script></head><body>${tag}</body></html>`);
  });

  h = await openInspected(server.url('/attack.html'));
});

afterAll(async () => {
  await h?.close();
  await server?.close();
});

describe('a page that fights back', () => {
  it('cannot steal the hook port, inject records or see the handshake; its own stream is captured intact', async () => {
    const pageText = await h.evalPage<string>('window.text');
    expect(pageText).toContain('"from":"attack"');
    const records = await waitForRecords(h.panel, (rs) => ended(rs, 'attack') && notices(rs, 'forged-hook-hello').length === 1, 'attack stream');
    const page = await h.evalPage<{ stolen: number; seen: { type: string; ch: string; ports: number }[] }>(
      '({ stolen: window.stolen.length, seen: window.seen })',
    );
    expect(page.stolen).toBe(0); // the port never passed through anything the page can patch
    // The synchronous channel: its hello was the hook's (the page's came second, ignored and
    // counted), its events and dictionaries touched nothing the page patched, and it was used
    // (in the large-read test below: this page's stream is read in small reads, in batches that
    // transfer their bytes, on the port).
    const sync = await h.evalPage<{ seen: string[]; taken: boolean }>('({ seen: window.syncSeen, taken: window.syncHelloTaken })');
    expect(sync.seen).toEqual([]);
    expect(sync.taken).toBe(false);
    const stats = await relayStats(h.browser.cdp, h.page, await relayContext(h.browser.cdp, h.page));
    expect(stats.forgedHellos).toBeGreaterThanOrEqual(2);
    expect(page.seen.filter((m) => m.type === 'hook-hello' || m.ports > 0)).toEqual([]); // handshakes never reach page listeners
    const json = JSON.stringify(records);
    expect(json).not.toContain('FORGED');
    expect(json).not.toContain('http://forged');
    expect(json).not.toContain('hijacked');
    expect([...new Set(records.flatMap((r) => ('conn' in r ? [r.conn] : [])))]).toEqual(['c1']);
    expect(bodyText(records, 'tag=attack')).toBe(pageText);
    expect(reqs(records).map((r) => r.url)).toEqual([server.url('/sse?tag=attack')]);
    expect(duplicateKeys(records)).toEqual([]);
    denseSeqs(records);
  });

  it('a JSON answer read whole gives the page what Chrome gives and the panel the truth, whatever globals the page replaced', async () => {
    await navigate(h, server.url('/json-tamper.html'));
    const answer = '{"jsonrpc":"2.0","id":1,"result":{"tools":["réal"]}}';
    const bytes = [...new TextEncoder().encode(answer)];
    const got = await h.evalPage<{ j: unknown; t: string; b: number[]; n: number; r: unknown; bl: unknown }>('window.got');
    const parsed = { jsonrpc: '2.0', id: 1, result: { tools: ['réal'] } };
    expect(got).toEqual({ j: parsed, t: answer, b: bytes.slice(0, 12), n: bytes.length, r: parsed, bl: parsed });
    const records = await waitForRecords(h.panel, (rs) => rs.filter((r) => r.kind === 'end').length >= 5, 'the five JSON answers');
    const ends = records.filter((r): r is Extract<CaptureRecord, { kind: 'end' }> => r.kind === 'end');
    expect(ends.map((e) => e.how)).toEqual(['complete', 'complete', 'complete', 'complete', 'complete']);
    // The bodies the hook read as promises (a Request's, a Blob's) are what the page sent.
    const reqs = records.filter((r): r is Extract<CaptureRecord, { kind: 'request' }> => r.kind === 'request');
    expect(reqs.map((r) => r.body)).toEqual(Array(5).fill('{"jsonrpc":"2.0","id":1,"method":"tools/list"}'));
    for (const e of ends) expect(records.filter((r) => r.kind === 'chunk' && r.conn === e.conn).map((r) => (r as { text: string }).text).join('')).toBe(answer);
    expect(JSON.stringify(records)).not.toContain('FORGED');
    denseSeqs(records);
  });

  it('a large read sent to the panel as a Blob of the page\'s chunk passes through nothing the page patched', async () => {
    await navigate(h, server.url('/iter-tamper.html'));
    await waitFor(() => h.evalPage('window.done'), { message: 'iter-tamper stream read' });
    const page = await h.evalPage<{ sawBytes: number; blobs: number; text: string; reads: number[] }>('({ sawBytes: window.sawBytes, blobs: window.blobs, text: window.text, reads: window.reads })');
    const ended = (rs: CaptureRecord[]) => {
      const req = reqs(rs).find((r) => r.url.endsWith('/big-sse'));
      return !!req && rs.some((r) => r.kind === 'end' && r.src === req.src && r.conn === req.conn);
    };
    const records = await waitForRecords(h.panel, ended, 'big-sse end');
    const stats = await relayStats(h.browser.cdp, h.page, await relayContext(h.browser.cdp, h.page));
    expect(page.reads.some((n) => n >= 256 * 1024)).toBe(true);
    expect(stats.hookBlobs).toBe(page.reads.filter((n) => n >= 256 * 1024).length);
    expect(page.sawBytes).toBe(0); // no array of the page's bytes was iterated where the page could see it
    expect(page.blobs).toBe(0); // the hook's Blob is the native one, captured at install
    expect(bodyText(records, '/big-sse')).toBe(page.text);
    expect(stats.syncMessages).toBeGreaterThan(0); // the Blobs' batches took the synchronous channel
    expect(await h.evalPage<string[]>('window.syncSeen')).toEqual([]);
    denseSeqs(records);
  });

  it('a read of 4 KiB or more goes to the panel uncopied by the hook, a smaller one copied into its batch, and the capture holds what the page read even when the page overwrites and detaches its chunk', async () => {
    await navigate(h, server.url('/chunk-tamper.html'));
    const ctx = await relayContext(h.browser.cdp, h.page);
    const ended = (rs: CaptureRecord[], part: string) => {
      const req = reqs(rs).find((r) => r.url.includes('/drip-sse?' + part));
      return !!req && rs.some((r) => r.kind === 'end' && r.src === req.src && r.conn === req.conn);
    };
    // The relay's synchronous messages while the page reads one stream (and its end reaches the panel).
    const messagesFor = async (size: 450 | 10) => {
      await waitFor(() => h.evalPage(`!!window.gate[${size}]`), { message: `gate ${size}` });
      const before = (await relayStats(h.browser.cdp, h.page, ctx)).syncMessages;
      await h.evalPage(`(window.gate[${size}](), true)`);
      await waitFor(() => h.evalPage(`!!window.reads[${size}]`), { message: `stream ${size} read` });
      await waitForRecords(h.panel, (rs) => ended(rs, `r=${size}&`), `stream ${size} ends`);
      return (await relayStats(h.browser.cdp, h.page, ctx)).syncMessages - before;
    };
    const largeMessages = await messagesFor(450);
    const smallMessages = await messagesFor(10);
    await h.evalPage('(window.gate.whole(), true)');
    await waitFor(() => h.evalPage('window.done'), { message: 'chunk-tamper answers read' });
    type Sizes = Record<'450' | '10', string>;
    const page = await h.evalPage<{ text: Sizes; reads: Record<keyof Sizes, number[]>; times: Record<keyof Sizes, number[]>; detached: number }>('({ text: window.text, reads: window.reads, times: window.readTimes, detached: window.detached })');
    const wholeEnded = (rs: CaptureRecord[]) => reqs(rs).filter((r) => r.url.includes('/whole-json')).every((q) => rs.some((r) => r.kind === 'end' && r.src === q.src && r.conn === q.conn));
    const records = await waitForRecords(h.panel, (rs) => reqs(rs).filter((r) => r.url.includes('/whole-json')).length === 2 && wholeEnded(rs), 'the JSON answers end');
    const whole = await h.evalPage<string[]>('window.whole');
    expect(whole.map((t) => t.length > 1000)).toEqual([true, true]);
    expect(bodyText(records, '/whole-json?n=200000')).toBe(whole[0]);
    expect(bodyText(records, '/whole-json?n=5000')).toBe(whole[1]);
    const large = page.reads['450'];
    const small = page.reads['10'];
    expect(page.detached).toBe(large.length + small.length); // every chunk the page had was detached by it
    // Reads are classed by their size, not by their stream: a loaded machine may split an event of
    // the large stream over two reads or join the small stream's events into one.
    const largeUncopied = large.filter((n) => n >= 4096);
    expect(large.every((n) => n < 256 * 1024)).toBe(true);
    expect(largeUncopied.length).toBeGreaterThan(5);
    expect(small.length).toBeGreaterThan(2);
    expect(bodyText(records, '/drip-sse?r=450&')).toBe(page.text['450']);
    expect(bodyText(records, '/drip-sse?r=10&')).toBe(page.text['10']);
    // Each read of 4 KiB or more went on its own synchronous message. Small reads share messages
    // (one per 16 ms at most, emitter.ts): three small reads within 12 ms of one another (page
    // times, taken a microtask after the hook's) cannot all have had their own. The drip sends one
    // every 2 ms; a machine too loaded to read any three that close shows no sharing to check.
    expect(largeMessages).toBeGreaterThanOrEqual(largeUncopied.length);
    const st = page.times['10'];
    const burst = small.some((n, i) => i + 2 < small.length && n < 4096 && small[i + 1]! < 4096 && small[i + 2]! < 4096 && st[i + 2]! - st[i]! < 12);
    if (burst) expect(smallMessages).toBeLessThan(small.length);
    console.log(`synchronous messages: ${largeMessages} for ${largeUncopied.length} reads of 4 KiB+, ${smallMessages} for ${small.length} small reads${burst ? '' : ' (no three within 12 ms: sharing not checked)'}`);
    expect(await h.evalPage<string[]>('window.syncSeen')).toEqual([]);
    denseSeqs(records);
  });

  it('a page that wraps fetch after the hook is still captured through the wrapper, and the panel says so', async () => {
    await navigate(h, server.url('/wrap.html'));
    const text = await h.evalPage<string>('window.text');
    const records = await waitForRecords(h.panel, (rs) => ended(rs, 'wrapped') && notices(rs, 'hook-wrapped').length > 0, 'wrapped stream');
    expect(bodyText(records, 'tag=wrapped')).toBe(text);
    expect(reqs(records)[0]!.transport).toBe('fetch');
    expect(notices(records, 'hook-wrapped')[0]).toMatchObject({ level: 'info' });
  });

  it('a page that replaces fetch and EventSource (and breaks Reflect.apply) keeps working; the panel says what it cannot see', async () => {
    await navigate(h, server.url('/replace.html'));
    const real = await h.evalPage<string>('window.realText');
    expect(real).toContain('"from":"noreflect"');
    expect(await h.evalPage<string>('window.stubText')).toBe('data: stub\n\n');
    expect(await h.evalPage<string[]>('window.errors')).toEqual([]);
    const records = await waitForRecords(
      h.panel,
      (rs) => ended(rs, 'noreflect') && notices(rs, 'hook-bypassed').length >= 2,
      'bypass notices',
    );
    expect(bodyText(records, 'tag=noreflect')).toBe(real);
    const msgs = notices(records, 'hook-bypassed').map((n) => (n as { message: string }).message);
    expect(msgs.some((m) => m.includes('window.fetch'))).toBe(true);
    expect(msgs.some((m) => m.includes('window.EventSource'))).toBe(true);
    expect(reqs(records).some((r) => r.url.includes('tag=stub'))).toBe(false); // the stub made no request
  });

  it('under a strict CSP with Trusted Types, fetch, EventSource and XHR are captured and the hook causes no violation', async () => {
    cspReports.length = 0;
    await navigate(h, server.url('/csp.html'));
    expect(await h.evalPage<string>('window.control')).toBe('EvalError');
    // The EventSource's request record reaches the panel before its first event record: wait for
    // the event itself (the page has it once esGot resolves), not just the request.
    const esData = await h.evalPage<string>('window.esGot');
    const records = await waitForRecords(
      h.panel,
      (rs) => ended(rs, 'csp-fetch') && ended(rs, 'csp-xhr') && rs.some((r) => r.kind === 'es-event' && r.data === esData),
      'csp streams',
    );
    expect(bodyText(records, 'tag=csp-fetch')).toBe(await h.evalPage<string>('window.fetchText'));
    expect(bodyText(records, 'tag=csp-xhr')).toBe(await h.evalPage<string>('window.xhrText'));
    expect(esData).toContain('csp-es');
    // Exactly the page's own deliberate eval violation is reported; nothing from the hook.
    await waitFor(() => cspReports.length >= 1, { message: 'the control CSP report' });
    const reports = cspReports.map((b) => JSON.parse(b)['csp-report']);
    console.log('CSP reports:', JSON.stringify(reports.map((r) => [r['violated-directive'], r['blocked-uri'], r['source-file']])));
    expect(reports.length).toBe(1);
    expect(['eval', 'trusted-types-sink']).toContain(reports[0]['blocked-uri']);
    expect(String(reports[0]['source-file'] ?? '')).not.toContain('chrome-extension');
  });

  it('sandboxed, srcdoc and about:blank iframes: each stream is captured by that frame’s own hook', async () => {
    await navigate(h, server.url('/frames.html'));
    const tags = ['sbx-src', 'srcdoc', 'sbx-doc', 'blank-src'];
    const records = await waitForRecords(h.panel, (rs) => tags.every((t) => ended(rs, t) || reqs(rs).some((r) => r.url.includes(`tag=${t}`) && r.transport === 'network')), 'iframe streams', 20_000);
    const summary = Object.fromEntries(tags.map((t) => [t, reqs(records).find((r) => r.url.includes(`tag=${t}`))!.transport]));
    console.log('iframe capture:', JSON.stringify(summary), JSON.stringify(tags.map((t) => reqs(records).find((r) => r.url.includes(`tag=${t}`))!.src)));
    for (const t of tags) expect(bodyText(records, `tag=${t}`)).toContain(`"from":"${t}"`);
    expect(summary).toEqual({ 'sbx-src': 'fetch', srcdoc: 'fetch', 'sbx-doc': 'fetch', 'blank-src': 'fetch' });
    const top = reqs(records).find((r) => r.url.includes('tag=blank-src'))!;
    expect(new Set(tags.map((t) => reqs(records).find((r) => r.url.includes(`tag=${t}`))!.src)).size).toBe(4);
    expect(top).toBeTruthy();
    denseSeqs(records);
  });
});

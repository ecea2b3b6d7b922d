// The probe script run in the page, with and without the extension; it returns plain JSON so
// the two runs can be compared field by field. Routes it uses are installed by `installRoutes`.

import type { TestServer } from '../support/server';

export function installRoutes(server: TestServer): void {
  const events = 'id: 1\ndata: {"jsonrpc":"2.0","method":"a"}\n\nid: 2\nevent: message\ndata: {"jsonrpc":"2.0","id":1,"result":{"t":"héllo ✓"}}\n\n';
  server.route('/t/sse', (_q, res) => {
    res.writeHead(200, 'Fine Thanks', { 'Content-Type': 'Text/Event-Stream; charset=UTF-8', 'X-Extra': 'yes', 'Cache-Control': 'no-cache' });
    const buf = Buffer.from(events);
    // split inside the multi-byte character to exercise streaming decode
    const cut = buf.indexOf(Buffer.from('✓')) + 1;
    res.write(buf.subarray(0, cut));
    setTimeout(() => res.end(buf.subarray(cut)), 20);
  });
  server.route('/t/redirect', (_q, res) => res.writeHead(302, { Location: '/t/sse' }).end());
  server.route('/t/json', (_q, res, body) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: 7, result: { echo: body.length } }));
  });
  // JSON answers to JSON-RPC POSTs cut mid-body: the hook reads a JSON answer the page reads
  // whole with the native consumer (hook/fetch.ts, readWhole); its errors must be Chrome's.
  server.route('/t/jsonhang', (_q, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"jsonrpc":"2.0","id":7,"res');
  });
  server.route('/t/jsonreset', (_q, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"jsonrpc":"2.0","id":7,"res', () => setTimeout(() => res.socket?.destroy(), 50));
  });
  server.route('/t/plain', (_q, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('plain text'));
  // What headers the request came with (the hook must not use up a page's one-shot headers).
  server.route('/t/echoheaders', (q, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ accept: q.headers.accept ?? null, session: q.headers['mcp-session-id'] ?? null }));
  });
  server.route('/t/badjson', (_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{not json'));
  server.route('/t/hang', (_q, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: first\n\n');
    // never ends: the page aborts
  });
  server.route('/t/reset', (_q, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: before reset\n\n', () => setTimeout(() => res.socket?.destroy(), 50));
  });
  server.route('/t/notfound', (_q, res) => res.writeHead(404, 'Nope', { 'content-type': 'text/event-stream' }).end('data: x\n\n'));
  server.page('/t/page.html', '<!doctype html><html><head></head><body>transparency</body></html>');
}

/** Evaluated in the page (as a string). Every probe catches its own errors. */
export const PROBE = String.raw`(async () => {
  const out = {};
  const err = (e) => ({ name: e && e.name, message: e && e.message, ctor: e && e.constructor && e.constructor.name });
  const probe = async (name, fn) => { try { out[name] = await fn(); } catch (e) { out[name] = { threw: err(e) }; } };
  const meta = (r) => ({ url: r.url, redirected: r.redirected, type: r.type, status: r.status, statusText: r.statusText, ok: r.ok,
    headers: [...r.headers].filter(([k]) => k !== 'date' && k !== 'keep-alive'), bodyUsed: r.bodyUsed, bodyIsStream: r.body instanceof ReadableStream,
    sameBody: r.body === r.body, ownProps: Object.getOwnPropertyNames(r), proto: Object.getPrototypeOf(r) === Response.prototype });
  const rpc = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' });
  const post = { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: rpc };

  await probe('redirectText', async () => { const r = await fetch('/t/redirect'); const m = meta(r); const t = await r.text(); return { m, t, after: r.bodyUsed }; });
  await probe('sseMeta', async () => { const r = await fetch('/t/sse', post); const m = meta(r); await r.arrayBuffer(); return m; });
  await probe('json', async () => { const r = await fetch('/t/json', post); const j = await r.json(); return { m: meta(r), j, used: r.bodyUsed }; });
  await probe('badJson', async () => { const r = await fetch('/t/badjson', post); return await r.json(); });
  await probe('jsonUsedSync', async () => { const r = await fetch('/t/json', post); const p = r.json(); const u = [r.bodyUsed, r.body === r.body, r.body.locked]; return { u, j: await p, after: [r.bodyUsed, r.body.locked] }; });
  await probe('jsonTwice', async () => { const r = await fetch('/t/json', post); await r.json(); return await r.text(); });
  await probe('jsonCloneAfter', async () => { const r = await fetch('/t/json', post); const p = r.text(); try { r.clone(); return 'cloned'; } catch (e) { await p; return err(e); } });
  await probe('jsonBodyThenJson', async () => { const r = await fetch('/t/json', post); const b = r.body; const j = await r.json(); return { j, same: r.body === b, locked: b.locked, used: r.bodyUsed }; });
  await probe('jsonKinds', async () => { const out = []; for (const k of ['arrayBuffer', 'blob', 'bytes', 'formData']) { const r = await fetch('/t/json', post); if (!r[k]) continue; try { const v = await r[k](); out.push([k, v.constructor.name, v.byteLength ?? v.size ?? v.length ?? null, v.type ?? null]); } catch (e) { out.push([k, err(e)]); } } return out; });
  await probe('jsonAbortDuring', async () => { const ac = new AbortController(); const r = await fetch('/t/jsonhang', { ...post, signal: ac.signal }); const p = r.json(); setTimeout(() => ac.abort(), 30); return await p; });
  await probe('jsonResetMid', async () => { const r = await fetch('/t/jsonreset', post); return await r.text(); });
  await probe('arrayBuffer', async () => { const r = await fetch('/t/sse'); const b = await r.arrayBuffer(); return { n: b.byteLength, cls: b.constructor.name }; });
  await probe('bytes', async () => { const r = await fetch('/t/sse'); if (!r.bytes) return 'no bytes()'; const b = await r.bytes(); return { n: b.length, cls: b.constructor.name }; });
  await probe('blob', async () => { const r = await fetch('/t/sse'); const b = await r.blob(); return { n: b.size, type: b.type }; });
  await probe('formData', async () => { const r = await fetch('/t/sse'); return await r.formData(); });
  await probe('textTwice', async () => { const r = await fetch('/t/sse'); await r.text(); return await r.text(); });
  await probe('usedSync', async () => { const r = await fetch('/t/sse'); const p = r.text(); const u = r.bodyUsed; await p; return u; });
  await probe('clone', async () => { const r = await fetch('/t/redirect'); const c = r.clone();
    const [a, b] = await Promise.all([r.text(), c.text()]); return { a, b, cm: meta(c), used: [r.bodyUsed, c.bodyUsed] }; });
  await probe('cloneOnlyClone', async () => { const r = await fetch('/t/sse'); const c = r.clone(); return { t: await c.text(), used: [r.bodyUsed, c.bodyUsed] }; });
  await probe('cloneAfterRead', async () => { const r = await fetch('/t/sse'); await r.text(); return r.clone(); });
  await probe('cloneWhileLocked', async () => { const r = await fetch('/t/sse'); r.body.getReader(); return r.clone(); });
  await probe('textWhileLocked', async () => { const r = await fetch('/t/sse'); r.body.getReader(); return await r.text(); });
  await probe('reader', async () => { const r = await fetch('/t/sse'); const rd = r.body.getReader(); const locked = r.body.locked; const usedBefore = r.bodyUsed;
    const parts = []; for (;;) { const { done, value } = await rd.read(); if (done) break; parts.push(value.constructor.name); parts.length; out.readerChunkLen = (out.readerChunkLen || 0) + value.length; }
    return { locked, usedBefore, usedAfter: r.bodyUsed, types: [...new Set(parts)] }; });
  await probe('byob', async () => { const r = await fetch('/t/sse'); const rd = r.body.getReader({ mode: 'byob' }); let n = 0;
    for (;;) { const { done, value } = await rd.read(new Uint8Array(64)); if (done) break; n += value.length; } return n; });
  await probe('pipeThrough', async () => { const r = await fetch('/t/sse', post); const rd = r.body.pipeThrough(new TextDecoderStream()).getReader(); let s = '';
    for (;;) { const { done, value } = await rd.read(); if (done) break; s += value; } return s; });
  await probe('tee', async () => { const r = await fetch('/t/sse'); const [a, b] = r.body.tee(); const t = (s) => new Response(s).text(); return await Promise.all([t(a), t(b)]); });
  await probe('cancelBody', async () => { const r = await fetch('/t/hang'); const rd = r.body.getReader(); await rd.read(); await rd.cancel('enough'); return { used: r.bodyUsed, after: await rd.read() }; });
  await probe('abortBefore', async () => { const ac = new AbortController(); const p = fetch('/t/hang', { signal: ac.signal }); ac.abort(); return await p; });
  await probe('abortReason', async () => { const ac = new AbortController(); const p = fetch('/t/hang', { signal: ac.signal }); ac.abort(new RangeError('custom')); return await p; });
  await probe('abortDuring', async () => { const ac = new AbortController(); const r = await fetch('/t/hang', { ...post, signal: ac.signal }); const rd = r.body.getReader(); const first = new TextDecoder().decode((await rd.read()).value);
    ac.abort(); try { await rd.read(); return 'no error'; } catch (e) { return { first, e: err(e) }; } });
  await probe('abortIdle', async () => { const ac = new AbortController(); const r = await fetch('/t/hang', { ...post, signal: ac.signal }); const rd = r.body.getReader(); await rd.read();
    const closed = rd.closed.then(() => 'resolved', (e) => ['rejected', e && e.name]); ac.abort();
    return await Promise.race([closed, new Promise((res) => setTimeout(() => res('pending'), 500))]); });
  await probe('abortDuringText', async () => { const ac = new AbortController(); const r = await fetch('/t/hang', { signal: ac.signal }); const p = r.text(); setTimeout(() => ac.abort(), 30); return await p; });
  await probe('networkError', async () => await fetch('http://127.0.0.1:9/'));
  await probe('invalidUrl', async () => await fetch('http://[bad'));
  await probe('badMethod', async () => await fetch('/t/sse', { method: 'GET', body: 'x' }));
  await probe('resetMidBody', async () => { const r = await fetch('/t/reset'); return await r.text(); });
  await probe('resetMidReader', async () => { const r = await fetch('/t/reset'); const rd = r.body.getReader(); const parts = []; try { for (;;) { const { done, value } = await rd.read(); if (done) return 'done'; parts.push(value.length); } } catch (e) { return { e: err(e), parts: parts.length > 0 }; } });
  await probe('notFound', async () => { const r = await fetch('/t/notfound'); return { m: meta(r), t: await r.text() }; });
  await probe('plain', async () => { const r = await fetch('/t/plain'); return { m: meta(r), t: await r.text() }; });
  await probe('requestObject', async () => { const req = new Request('/t/json', post); const r = await fetch(req); return { j: await r.json(), reqUsed: req.bodyUsed }; });
  await probe('requestObjectTwice', async () => { const req = new Request('/t/json', post); await fetch(req); return await fetch(req); });
  await probe('headersIterators', async () => { const h = () => [['accept', 'application/json, text/event-stream'], ['mcp-session-id', 's1'], ['content-type', 'application/json']];
    const kinds = { headersEntries: () => new Headers(h()).entries(), mapEntries: () => new Map(h()).entries(), generator: () => (function* () { yield* h(); })() };
    const got = {}; for (const [k, make] of Object.entries(kinds)) { const r = await fetch('/t/echoheaders', { method: 'POST', headers: make(), body: rpc }); got[k] = await r.json(); } return got; });
  // A Request whose body is the page's own stream: Chrome fails it over HTTP/1.1 without pulling
  // the source; the hook once read a clone of it and drained the source (tee) before that.
  await probe('requestStreamBody', async () => { let pulls = 0;
    const rs = new ReadableStream({ pull(c) { pulls++; if (pulls > 20) c.close(); else c.enqueue(new TextEncoder().encode(rpc)); } }, { highWaterMark: 0 });
    const req = new Request('/t/json', { ...post, body: rs, duplex: 'half' }); let out;
    try { out = await (await fetch(req)).json(); } catch (e) { out = err(e); }
    await new Promise((r) => setTimeout(r, 50)); return { out, pulls, used: req.bodyUsed, locked: rs.locked }; });
  // The body the page held before clone() is the one the tee took: locked, and res.body is new.
  await probe('cloneAfterBody', async () => { const r = await fetch('/t/sse'); const b1 = r.body; const c = r.clone();
    const out = { same: b1 === r.body, locked: b1.locked, used: r.bodyUsed }; try { b1.getReader(); out.reader = 'ok'; } catch (e) { out.reader = err(e); }
    out.t = [await r.text(), await c.text()]; return out; });
  await probe('blobBody', async () => { const r = await fetch('/t/json', { ...post, body: new Blob([rpc], { type: 'application/json' }) }); return await r.json(); });
  await probe('illegalThis', async () => await fetch.call({}, '/t/plain'));
  await probe('newFetch', async () => new fetch('/t/plain'));
  await probe('xhr', () => new Promise((resolve) => { const x = new XMLHttpRequest(); const states = [];
    x.onreadystatechange = () => states.push(x.readyState);
    x.onloadend = () => resolve({ states: [...new Set(states)], status: x.status, statusText: x.statusText, text: x.responseText, url: x.responseURL,
      headers: x.getAllResponseHeaders().split('\r\n').filter((l) => l && !/^(date|keep-alive):/i.test(l)) });
    x.open('POST', '/t/redirect'.replace('redirect', 'sse')); x.setRequestHeader('Accept', 'text/event-stream'); x.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'x' })); }));
  await probe('xhrAbort', () => new Promise((resolve) => { const x = new XMLHttpRequest(); const ev = [];
    ['abort', 'error', 'load', 'loadend'].forEach((t) => x.addEventListener(t, () => { ev.push(t); if (t === 'loadend') resolve({ ev, rs: x.readyState, status: x.status }); }));
    x.open('GET', '/t/hang'); x.send(); setTimeout(() => x.abort(), 50); }));
  await probe('eventSource', () => new Promise((resolve) => { const es = new EventSource('/t/sse'); const got = [];
    const meta = { inst: es instanceof EventSource, ctor: es.constructor === EventSource, proto: Object.getPrototypeOf(es) === EventSource.prototype, url: es.url, rs0: es.readyState, wc: es.withCredentials };
    es.onmessage = (e) => { got.push([e.type, e.lastEventId, e.data, e.origin === location.origin]); if (got.length === 2) { es.close(); resolve({ meta, got, rs: es.readyState }); } }; }));
  await probe('eventSourceSubclass', () => { class My extends EventSource { hello() { return 'hi'; } } const m = new My('/t/sse'); const r = [m instanceof My, m instanceof EventSource, m.hello(), My.name]; m.close(); return r; });
  await probe('eventSourceBadUrl', () => new EventSource('http://[bad'));
  await probe('eventSourceCall', () => EventSource('/t/sse'));
  out.fetchName = fetch.name; out.fetchLength = fetch.length; out.fetchString = String(fetch);
  out.fetchToString = Function.prototype.toString.call(fetch); out.toStringString = String(Function.prototype.toString);
  out.fetchOwn = Object.getOwnPropertyNames(fetch).sort(); out.fetchProto = Object.getPrototypeOf(fetch) === Function.prototype;
  out.fetchDesc = (() => { const d = Object.getOwnPropertyDescriptor(window, 'fetch'); return { w: d.writable, e: d.enumerable, c: d.configurable }; })();
  out.bodyGetter = String(Object.getOwnPropertyDescriptor(Response.prototype, 'body').get);
  out.respMethods = ['text','json','clone','arrayBuffer','blob','formData','bytes'].map((k) => Response.prototype[k] ? [k, String(Response.prototype[k]), Response.prototype[k].length, Response.prototype[k].name] : [k]);
  out.esString = String(EventSource); out.esName = EventSource.name; out.esLength = EventSource.length; out.esCtor = EventSource.prototype.constructor === EventSource;
  out.xhrOpen = [String(XMLHttpRequest.prototype.open), XMLHttpRequest.prototype.open.length, XMLHttpRequest.prototype.send.length,
    String(XMLHttpRequest.prototype.abort), XMLHttpRequest.prototype.abort.length, XMLHttpRequest.prototype.abort.name];
  out.addEL = [String(EventTarget.prototype.addEventListener), EventTarget.prototype.addEventListener.length, EventTarget.prototype.addEventListener.name];
  out.windowSymbols = Object.getOwnPropertySymbols(window).length;
  return out;
})()`;

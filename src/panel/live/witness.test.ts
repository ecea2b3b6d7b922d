import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { analyzeRecords } from '../../core/analyzer';
import { importText } from '../../core/import';
import { exportHar, exportJson } from '../../export';
import type { CaptureRecord } from '../../core/record';
import { createCaptureHealth } from './health';
import { createLiveStore } from './store';
import { startWitness, type WitnessEntry } from './witness';

const T0 = 1_800_000_000_000;
const h = (o: Record<string, string>) => Object.entries(o).map(([name, value]) => ({ name, value }));

function entry(url: string, o: { t?: number; method?: string; req?: Record<string, string>; res?: Record<string, string>; status?: number; body?: string; pageref?: string | null; type?: string; initiatorUrl?: string; content?: string } = {}): WitnessEntry {
  return {
    startedDateTime: new Date(o.t ?? T0).toISOString(),
    time: 20,
    request: { method: o.method ?? 'GET', url, headers: h(o.req ?? {}), ...(o.body ? { postData: { text: o.body } } : {}) },
    response: { status: o.status ?? 200, statusText: 'OK', headers: h(o.res ?? { 'content-type': 'text/event-stream' }), bodySize: 9, _error: o.status === 0 ? 'net::ERR_FAILED' : null },
    _resourceType: o.type ?? 'fetch',
    ...(o.initiatorUrl ? { _initiator: { type: 'preflight', url: o.initiatorUrl } } : {}),
    ...(o.pageref === null ? {} : { pageref: o.pageref ?? 'page_1' }),
    getContent: (cb) => cb(o.content ?? 'data: x\n\n', ''),
  };
}
const hookReq = (url: string, t: number, conn = 'c1', method = 'GET'): CaptureRecord => ({ kind: 'request', src: 'S', seq: 1, t, conn, transport: 'fetch', method, url, headers: [], body: null });

function setup(relays: boolean | null = true, installReason?: string, firstHar: WitnessEntry[] = []) {
  const store = createLiveStore();
  let finished: (e: WitnessEntry) => void = () => {};
  let har: WitnessEntry[] = firstHar;
  const status = { relays, ...(installReason ? { installReason } : {}) };
  const w = startWitness(store, {
    onRequestFinished: (cb) => (finished = cb),
    getHar: async () => har,
    tabStatus: () => status,
    now: () => Date.now(),
    extensionUrl: 'chrome-extension://msi/',
  });
  return { store, w, finish: (e: WitnessEntry) => finished(e), setHar: (x: WitnessEntry[]) => (har = x), status, pageLoaded: () => finished(entry('http://x/page.html', { type: 'document', res: { 'content-type': 'text/html' } })) };
}
const ofSrc = (rs: readonly CaptureRecord[], src: string) => rs.filter((r) => r.src === src);

/** A preflight for `url` whose answer leaves out mcp-protocol-version, which the POST asked for. */
const refusingPreflight = (url: string) =>
  entry(url, {
    method: 'OPTIONS', type: 'preflight', initiatorUrl: url, t: T0,
    req: { 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'mcp-protocol-version,mcp-session-id' },
    res: { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'content-type, mcp-session-id' },
    status: 204,
  });

describe('network witness', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
  });
  afterEach(() => vi.useRealTimers());

  it("a worker's MCP stream the hook did not see: counted, named, a capture-gap record, and its body observed after completion", async () => {
    const { store, w, finish, pageLoaded } = setup();
    pageLoaded(); // (DevTools saw the page load: its entries have a pageref, a worker's none)
    finish(entry('http://x/mcp', { pageref: null, req: { 'mcp-session-id': 'W', Cookie: 'sid=secret' }, res: { 'content-type': 'text/event-stream', 'Set-Cookie': 'a=b' } }));
    expect(w.snapshot()).toMatchObject({ seen: 1, checking: 1, missing: [] });
    await vi.advanceTimersByTimeAsync(2000);
    const snap = w.snapshot();
    expect(snap.missing).toHaveLength(1);
    expect(snap.missing[0]).toMatchObject({ method: 'GET', url: 'http://x/mcp', reason: 'worker', body: 'added' });
    const recs = ofSrc(store.getSnapshot().records, 'network');
    // Its events held (observed by the network): a notice, not a gap.
    expect(recs.map((r) => r.kind)).toEqual(['request', 'response', 'chunk', 'end', 'notice']);
    expect(recs[0]).toMatchObject({ transport: 'network', headers: [['mcp-session-id', 'W']] }); // no cookies in the capture
    expect(recs[1]).toMatchObject({ headers: [['content-type', 'text/event-stream']] });
    expect(recs[2]).toMatchObject({ text: 'data: x\n\n' });
    expect(recs[4]).toMatchObject({ code: 'not-seen-by-hook', level: 'warning', sessionId: 'W' });
    expect(recs.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5]);
    // the analysis says it too, as a warning in the request's session
    const f = analyzeRecords(store.getSnapshot().records).findings.find((x) => x.code === 'capture-gap');
    expect(f).toMatchObject({ severity: 'warning', sessionId: 'W' });
    expect(f!.message).toContain('made by a worker');
  });

  it('judges requests seen close together on one timer, each after its grace period', async () => {
    const store = createLiveStore();
    let finished: (e: WitnessEntry) => void = () => {};
    let timers = 0;
    const w = startWitness(store, {
      onRequestFinished: (cb) => (finished = cb),
      getHar: async () => [],
      tabStatus: () => ({ relays: true }),
      now: () => Date.now(),
      setTimer: (fn, ms) => {
        timers++;
        return setTimeout(fn, ms);
      },
    });
    await vi.advanceTimersByTimeAsync(10);
    const before = timers;
    // 50 captured POSTs, one every 4 ms (a page's tool calls).
    for (let i = 0; i < 50; i++) {
      const url = `http://x/mcp?${i}`;
      store.ingest([hookReq(url, Date.now(), `c${i}`, 'POST')].map((r) => ({ ...r, seq: i + 1 })));
      finished(entry(url, { method: 'POST', t: Date.now(), req: { 'mcp-session-id': 'S' } }));
      await vi.advanceTimersByTimeAsync(4);
    }
    expect(w.snapshot()).toMatchObject({ seen: 50, checking: 50 });
    await vi.advanceTimersByTimeAsync(1400);
    expect(w.snapshot().checking).toBeGreaterThan(0);
    await vi.advanceTimersByTimeAsync(400);
    expect(w.snapshot()).toMatchObject({ seen: 50, captured: 50, checking: 0, missing: [] });
    // A timer per request would be 50; the witness's poll timer may add one or two.
    expect(timers - before).toBeLessThanOrEqual(6);
    w.stop();
  });

  it("a broken stream Chrome kept no body for: its events rebuilt from DevTools' EventStream messages; with none, a capture-gap", async () => {
    const { store, w, finish, pageLoaded } = setup();
    pageLoaded();
    const cut = { ...entry('http://x/cut', { pageref: null, content: '' }), _eventSourceMessages: [
      { time: T0 / 1000 + 0.1, eventName: 'message', eventId: '3', data: '' },
      { time: T0 / 1000 + 0.2, eventName: 'message', eventId: '4', data: '{"a":1}\n{"b":2}' },
      { time: T0 / 1000 + 0.3, eventName: 'ping', eventId: '4', data: 'x' }, // no id of its own: DevTools repeats the last one
    ] };
    cut.response._error = 'net::ERR_INCOMPLETE_CHUNKED_ENCODING';
    finish(cut);
    finish(entry('http://x/aborted', { pageref: null, content: '' }));
    await vi.advanceTimersByTimeAsync(2000);
    const byUrl = Object.fromEntries(w.snapshot().missing.map((m) => [m.url, m.body]));
    expect(byUrl).toEqual({ 'http://x/cut': 'rebuilt', 'http://x/aborted': 'not-kept' });
    const recs = ofSrc(store.getSnapshot().records, 'network');
    // As a native EventSource sees them (the HAR importer's reading of the same field)
    const events = recs.filter((r) => r.kind === 'es-event').map((r) => { const x = r as { type: string; data: string; lastEventId: string; t: number }; return [x.type, x.data, x.lastEventId, x.t - T0]; });
    expect(events).toEqual([['message', '', '3', 100], ['message', '{"a":1}\n{"b":2}', '4', 200], ['ping', 'x', '4', 300]]);
    expect(recs.find((r) => r.kind === 'end')).toMatchObject({ how: 'network-error' });
    expect(recs.filter((r) => r.kind === 'capture-gap')).toEqual([expect.objectContaining({ url: 'http://x/aborted', reason: 'not-seen-by-hook', lost: 1, why: 'worker' })]);
    expect(recs.filter((r) => r.kind === 'request').map((r) => (r as { url: string }).url)).toEqual(['http://x/cut']);
  });

  it("the witness's records go into the product's JSON export, which validates against its schema and imports back with the same findings", async () => {
    const { store, finish } = setup();
    finish(entry('http://x/mcp', { pageref: null, req: { 'mcp-session-id': 'W' } }));
    finish(entry('http://x/aborted', { pageref: null, content: '' }));
    await vi.advanceTimersByTimeAsync(2000);
    const records = store.getSnapshot().records;
    expect(records.some((r) => r.kind === 'capture-gap' && r.reason === 'not-seen-by-hook')).toBe(true);
    const text = exportJson(records, { createdAt: '2026-12-01T00:00:00.000Z', source: 'test' });
    const validate = new Ajv2020({ strict: false }).compile(JSON.parse(readFileSync('schema/capture-file.schema.json', 'utf8')) as object);
    expect(validate(JSON.parse(text)), JSON.stringify(validate.errors)).toBe(true);
    const back = importText(text);
    const codes = (rs: readonly CaptureRecord[]) => analyzeRecords(rs).findings.map((f) => `${f.code}:${f.severity}`).sort();
    expect(codes(back.records)).toEqual(codes(records));
    expect(codes(records)).toEqual(['capture-gap:error', 'capture-gap:warning']);
    // and through the HAR export (records that belong to no connection travel in its _msi part)
    const har = importText(exportHar(records));
    expect(codes(har.records)).toEqual(codes(records));
    const f = analyzeRecords(har.records).findings.find((x) => x.severity === 'warning')!;
    expect(f.sessionId).toBe('W');
  });

  it('a request the hook recorded is captured (also after Clear); a non-MCP request is not looked at', async () => {
    const { store, w, finish } = setup();
    store.ingest([hookReq('http://x/seen', T0 + 30)]);
    store.clear();
    finish(entry('http://x/seen'));
    finish(entry('http://x/page.css', { res: { 'content-type': 'text/css' } }));
    await vi.advanceTimersByTimeAsync(2000);
    expect(w.snapshot()).toMatchObject({ seen: 1, captured: 1, missing: [] });
    expect(ofSrc(store.getSnapshot().records, 'network')).toEqual([]);
  });

  it('Clear forgets what was judged, and the next getHAR (the network log still holds it) does not bring it back as unseen', async () => {
    const { store, w, finish, setHar } = setup();
    const e = entry('http://x/seen');
    store.ingest([hookReq('http://x/seen', T0 + 30)]);
    finish(e);
    await vi.advanceTimersByTimeAsync(2000);
    expect(w.snapshot()).toMatchObject({ seen: 1, captured: 1 });
    store.clear();
    expect(w.snapshot()).toMatchObject({ seen: 0, captured: 0 });
    setHar([e]);
    await w.poll();
    await vi.advanceTimersByTimeAsync(4000);
    expect(w.snapshot()).toMatchObject({ seen: 0, missing: [] });
    expect(ofSrc(store.getSnapshot().records, 'network')).toEqual([]);
  });

  it('a redirected request (one network entry per hop, one captured request with the final URL on its response) is captured', async () => {
    const { store, w, finish } = setup();
    store.ingest([
      { ...hookReq('http://x/mcp', T0 + 40, 'c1', 'POST'), body: '{"jsonrpc":"2.0","id":1,"method":"initialize"}' } as CaptureRecord,
      { kind: 'response', src: 'S', seq: 2, t: T0 + 40, conn: 'c1', status: 200, statusText: 'OK', headers: [['content-type', 'text/event-stream']], url: 'http://x/mcp/', redirected: true, type: 'basic', capture: 'sse' },
    ]);
    const rpc = '{"jsonrpc":"2.0","id":1,"method":"initialize"}';
    finish(entry('http://x/mcp', { method: 'POST', status: 307, res: { location: '/mcp/' }, body: rpc }));
    finish(entry('http://x/mcp/', { method: 'POST', t: T0 + 10, body: rpc }));
    await vi.advanceTimersByTimeAsync(2000);
    expect(w.snapshot()).toMatchObject({ seen: 2, captured: 2, missing: [] });
  });

  it('a fetch redirected twice: the hop in between is part of the captured fetch, not a request the hook missed', async () => {
    const { store, w, finish } = setup();
    const rpc = '{"jsonrpc":"2.0","id":1,"method":"initialize"}';
    store.ingest([
      { ...hookReq('http://x/r1', T0 + 40, 'c1', 'POST'), body: rpc } as CaptureRecord,
      { kind: 'response', src: 'S', seq: 2, t: T0 + 60, conn: 'c1', status: 200, statusText: 'OK', headers: [['content-type', 'text/event-stream']], url: 'http://x/mcp', redirected: true, type: 'basic', capture: 'sse' },
    ]);
    finish(entry('http://x/r1', { method: 'POST', status: 307, res: { location: '/r2' }, body: rpc }));
    finish(entry('http://x/r2', { method: 'POST', status: 307, res: { location: '/mcp' }, body: rpc, t: T0 + 5 }));
    finish(entry('http://x/mcp', { method: 'POST', t: T0 + 10, body: rpc }));
    await vi.advanceTimersByTimeAsync(4000);
    // before: "1 not captured: POST /r2", a capture-gap error muting the server's findings
    expect(w.snapshot()).toMatchObject({ seen: 3, captured: 3, missing: [] });
    expect(ofSrc(store.getSnapshot().records, 'network')).toEqual([]);
  });

  // Chromium 156 (scratch e2e): a fetch with redirect: 'manual' is the hop's entry (3xx with a
  // Location) and then an entry for the Location that DevTools cancels before sending it (status
  // 0, net::ERR_ABORTED, its body but no header other than Referer); the page gets an
  // 'opaqueredirect' response (status 0) whose URL is the first one.
  const unfollowed = (url: string, o: Parameters<typeof entry>[1] = {}) => {
    const e = entry(url, { ...o, status: 0, res: {} });
    e.response._error = 'net::ERR_ABORTED';
    e.time = 1;
    return e;
  };
  const rpc = '{"jsonrpc":"2.0","id":1,"method":"initialize"}';

  it("a fetch with redirect: 'manual' the hook recorded: its hop is captured, and the cancelled entry for the Location is no request", async () => {
    const { store, w, finish } = setup();
    store.ingest([
      { ...hookReq('http://x/r1', T0 + 2, 'c1', 'POST'), body: rpc } as CaptureRecord,
      { kind: 'response', src: 'S', seq: 2, t: T0 + 8, conn: 'c1', status: 0, statusText: '', headers: [], url: 'http://x/r1', redirected: false, type: 'opaqueredirect', capture: 'none' },
    ]);
    finish(entry('http://x/r1', { method: 'POST', status: 307, res: { location: '/mcp' }, body: rpc }));
    finish(unfollowed('http://x/mcp', { method: 'POST', body: rpc, t: T0 + 19 }));
    await vi.advanceTimersByTimeAsync(4000);
    // before: "1 not captured: POST /mcp, the cause is unknown" (the cancelled entry)
    expect(w.snapshot()).toMatchObject({ seen: 1, captured: 1, missing: [] });
    expect(ofSrc(store.getSnapshot().records, 'network')).toEqual([]);
  });

  it("a fetch with redirect: 'manual' the hook recorded, its hop listed by getHAR while in flight: the cancelled entry still finds the hop", async () => {
    const { store, w, finish, setHar } = setup();
    store.ingest([
      { ...hookReq('http://x/r1', T0 + 2, 'c1', 'POST'), body: rpc } as CaptureRecord,
      { kind: 'response', src: 'S', seq: 2, t: T0 + 8, conn: 'c1', status: 0, statusText: '', headers: [], url: 'http://x/r1', redirected: false, type: 'opaqueredirect', capture: 'none' },
    ]);
    const inFlight = { ...entry('http://x/r1', { method: 'POST', body: rpc }), time: 0 };
    inFlight.response.status = 0;
    setHar([inFlight]);
    await w.poll();
    finish(entry('http://x/r1', { method: 'POST', status: 307, res: { location: '/mcp' }, body: rpc }));
    finish(unfollowed('http://x/mcp', { method: 'POST', body: rpc, t: T0 + 19 }));
    await vi.advanceTimersByTimeAsync(4000);
    // before: the hop's Location came with its finished entry and was not indexed: "POST /mcp, the cause is unknown"
    expect(w.snapshot()).toMatchObject({ missing: [] });
    expect(ofSrc(store.getSnapshot().records, 'network')).toEqual([]);
  });

  it("a fetch with redirect: 'manual' the hook did not see is reported, by the URL the page fetched", async () => {
    const { store, w, finish } = setup();
    store.ingest([hookReq('http://x/other', T0 - 5000)]); // the hook delivers (no getHAR polling)
    finish(entry('http://x/mcp', { status: 302, req: { 'mcp-session-id': 'S' }, res: { location: 'http://x/login' } }));
    finish(unfollowed('http://x/login', { t: T0 + 19 }));
    await vi.advanceTimersByTimeAsync(4000);
    // before: its hop was taken for the middle of a followed redirect, and counted as captured
    expect(w.snapshot().missing.map((m) => [m.method, m.url, m.body])).toEqual([['GET', 'http://x/mcp', 'none']]);
    expect(ofSrc(store.getSnapshot().records, 'network')).toMatchObject([{ kind: 'capture-gap', reason: 'not-seen-by-hook', method: 'GET', url: 'http://x/mcp' }]);
  });

  it('a redirected fetch the hook did not see whose last request is still open: reported once, at its last request', async () => {
    const { store, w, finish, setHar } = setup();
    store.ingest([hookReq('http://x/other', T0 - 5000)]); // the hook delivers (no getHAR polling)
    const hop = entry('http://x/mcp', { status: 307, req: { 'mcp-session-id': 'S' }, res: { location: '/mcp/' } });
    const open = { ...entry('http://x/mcp/', { req: { 'mcp-session-id': 'S' }, t: T0 + 20 }), time: 0 };
    open.response.status = 0;
    open.response._error = null;
    setHar([hop, open]); // onRequestFinished brings the hop; the stream it led to is open
    finish(hop);
    await vi.advanceTimersByTimeAsync(8000);
    expect(w.snapshot().missing.map((m) => m.url)).toEqual(['http://x/mcp/']);
  });

  it('a loop of 50 redirects to a login page whose next request is not tracked: a bounded number of getHAR reads, one at a time, every hop judged', async () => {
    const store = createLiveStore();
    let finished: (e: WitnessEntry) => void = () => {};
    let reads = 0;
    let open = 0;
    let most = 0;
    const w = startWitness(store, {
      onRequestFinished: (cb) => (finished = cb),
      // getHAR copies DevTools' whole log: a read takes a while (here 300 ms)
      getHar: () => {
        reads++;
        most = Math.max(most, ++open);
        return new Promise((ok) => setTimeout(() => ok((open--, [])), 300));
      },
      tabStatus: () => ({ relays: true }),
      now: () => Date.now(),
    });
    store.ingest([hookReq('http://x/other', T0 - 5000)]); // the hook delivers (no getHAR polling)
    await vi.advanceTimersByTimeAsync(400);
    const first = reads;
    // A page retrying every 150 ms, each answered 302 to /login (its login page is no MCP request).
    for (let i = 0; i < 50; i++) {
      finished(entry('http://x/mcp', { t: Date.now(), status: 302, req: { 'mcp-session-id': 'S' }, res: { location: '/login' } }));
      await vi.advanceTimersByTimeAsync(150);
    }
    await vi.advanceTimersByTimeAsync(5000);
    // Every hop is the last request of a fetch the hook did not see: each reported.
    expect(w.snapshot()).toMatchObject({ seen: 50, checking: 0 });
    expect(w.snapshot().missing).toHaveLength(50);
    // before: 25 reads (one per hop, shared only by the hops judged while it was in flight). The
    // loop lasts 7.5 s: with reads at least HOP_HAR_SPACING_MS (1 s) apart, at most ~9.
    expect(reads - first).toBeLessThanOrEqual(10);
    expect(most).toBe(1);
    w.stop();
  });

  it('a getHAR that never answers does not stop the reads after it: the next poll finds the request the hook did not see', async () => {
    const store = createLiveStore();
    let reads = 0;
    const unseen = entry('http://x/mcp', { pageref: null, req: { 'mcp-session-id': 'W' } });
    const w = startWitness(store, {
      onRequestFinished: () => {},
      // The first read's callback is never called; later ones list a worker's stream.
      getHar: () => (++reads === 1 ? new Promise<WitnessEntry[]>(() => {}) : Promise.resolve([unseen])),
      tabStatus: () => ({ relays: true }),
      now: () => Date.now(),
    });
    await vi.advanceTimersByTimeAsync(20_000);
    expect(reads).toBe(1); // the polls wait for the read in flight
    await vi.advanceTimersByTimeAsync(20_000);
    // before: one read for the panel's life, the stream never seen
    expect(reads).toBeGreaterThan(1);
    expect(w.snapshot().missing.map((m) => m.url)).toEqual(['http://x/mcp']);
    w.stop();
  });

  it('a hop judged while a getHAR is in flight waits for the next read: its next request, listed after that read began, is found', async () => {
    const store = createLiveStore();
    let finished: (e: WitnessEntry) => void = () => {};
    let har: WitnessEntry[] = [];
    const w = startWitness(store, {
      onRequestFinished: (cb) => (finished = cb),
      // The log as it was when the read began, handed over 300 ms later.
      getHar: () => {
        const copy = har;
        return new Promise((ok) => setTimeout(() => ok(copy), 300));
      },
      tabStatus: () => ({ relays: true }),
      now: () => Date.now(),
    });
    store.ingest([hookReq('http://x/other', T0 - 5000)]); // the hook delivers (no getHAR polling)
    // A: a hop to a login page (its read starts when A is judged, 1.5 s on).
    finished(entry('http://x/a', { status: 302, req: { 'mcp-session-id': 'S' }, res: { location: '/login' } }));
    await vi.advanceTimersByTimeAsync(200);
    // B: a hop to a stream the hook did not see either; judged while A's read is in flight, and
    // its stream is listed (still open) only after that read began.
    const hop = entry('http://x/mcp', { t: Date.now(), status: 307, req: { 'mcp-session-id': 'S' }, res: { location: '/mcp/' } });
    finished(hop);
    await vi.advanceTimersByTimeAsync(1450);
    const open = { ...entry('http://x/mcp/', { req: { 'mcp-session-id': 'S' }, t: T0 + 220 }), time: 0 };
    open.response.status = 0;
    open.response._error = null;
    har = [hop, open];
    await vi.advanceTimersByTimeAsync(8000);
    // before: B took A's read, which did not list its stream: "GET /mcp" reported, the stream never seen
    expect(w.snapshot().missing.map((m) => m.url).sort()).toEqual(['http://x/a', 'http://x/mcp/']);
    w.stop();
  });

  it('a captured fetch aborted at its second redirect: the hop in between is part of it, the cancelled entry no request', async () => {
    const { store, w, finish } = setup();
    store.ingest([{ ...hookReq('http://x/r1', T0 + 2, 'c1', 'POST'), body: rpc } as CaptureRecord]);
    finish(entry('http://x/r1', { method: 'POST', status: 307, res: { location: '/r2' }, body: rpc }));
    finish(entry('http://x/r2', { method: 'POST', status: 307, res: { location: '/mcp' }, body: rpc, t: T0 + 20 }));
    finish(unfollowed('http://x/mcp', { method: 'POST', body: rpc, t: T0 + 40 }));
    await vi.advanceTimersByTimeAsync(4000);
    expect(w.snapshot()).toMatchObject({ seen: 2, captured: 2, missing: [] });
  });

  it("a request of a frame in another process (no pageref, the hook on its call stack) matches the hook's record: not a worker's", async () => {
    const { store, w, finish, pageLoaded } = setup();
    pageLoaded();
    store.ingest([hookReq('http://x/mcp?tag=frame', T0 + 3, 'c1', 'POST')]);
    // As Chromium 156 lists a cross-site or sandboxed iframe's fetch: no pageref, the hook's frame on top.
    const framed: WitnessEntry = { ...entry('http://x/mcp?tag=frame', { method: 'POST', pageref: null, body: rpc }), _initiator: { type: 'script', stack: { callFrames: [
      { url: 'chrome-extension://msi/src/extension/hook/hook.js', lineNumber: 0, columnNumber: 48234, functionName: 'apply' },
      { url: 'http://y/child.html', lineNumber: 0, columnNumber: 12, functionName: '' },
    ] } } };
    finish(framed);
    finish(entry('http://x/mcp?tag=worker', { method: 'POST', pageref: null, body: rpc }));
    await vi.advanceTimersByTimeAsync(4000);
    // before: "2 not captured, made by a worker", the frame's with its events added a second time
    expect(w.snapshot().missing.map((m) => [m.url, m.reason])).toEqual([['http://x/mcp?tag=worker', 'worker']]);
    expect(w.snapshot()).toMatchObject({ seen: 2, captured: 1 });
  });

  it('a worker and the page send the same request at once: the worker\'s (no pageref) is the one the hook did not see', async () => {
    const { store, w, finish } = setup();
    store.ingest([hookReq('http://x/mcp?tag=same', T0 + 150)]);
    // the worker's started first, closest in time to nothing the page's hook recorded
    finish(entry('http://x/mcp?tag=same', { pageref: null, t: T0 }));
    finish(entry('http://x/mcp?tag=same', { t: T0 + 150 }));
    await vi.advanceTimersByTimeAsync(4000);
    // before: the worker's entry took the page's record; the page's own was reported unseen (why unknown)
    expect(w.snapshot().missing.map((m) => [m.url, m.reason])).toEqual([['http://x/mcp?tag=same', 'worker']]);
    expect(w.snapshot()).toMatchObject({ seen: 2, captured: 1 });
  });

  it('a page whose fetch replacement calls through the hook (a monitoring wrapper) is not said to bypass it', async () => {
    const { store, w, finish } = setup();
    const notice = (seq: number, code: string): CaptureRecord => ({ kind: 'notice', src: 'S', seq, t: T0, level: code === 'hook-bypassed' ? 'warning' : 'info', code, message: code });
    store.ingest([notice(5, 'hook-bypassed'), notice(6, 'hook-wrapped')]);
    finish(entry('http://x/unseen', { t: T0 + 100 }));
    await vi.advanceTimersByTimeAsync(4000);
    // before: "the page replaced the hooked fetch" for every unseen request, for good
    expect(w.snapshot().missing.map((m) => m.reason)).toEqual(['unknown']);
    store.ingest([notice(7, 'hook-bypassed')]);
    finish(entry('http://x/unseen2', { t: T0 + 200 }));
    await vi.advanceTimersByTimeAsync(4000);
    expect(w.snapshot().missing.map((m) => m.reason)).toEqual(['unknown', 'hook-bypassed']);
  });

  it("the page's request answered by its Service Worker: the worker's own fetch of it is not a request the hook missed", async () => {
    const { store, w, finish } = setup();
    store.ingest([hookReq('http://x/mcp?tag=sw', T0 + 5)]);
    const page = entry('http://x/mcp?tag=sw', { t: T0 });
    const viaSw = { ...page, response: { ...page.response, _fetchedViaServiceWorker: true } };
    // the worker's fetch (no pageref) finishes first, inside the page's request
    finish(entry('http://x/mcp?tag=sw', { pageref: null, t: T0 + 8 }));
    finish(viaSw);
    await vi.advanceTimersByTimeAsync(4000);
    // before: "1 not captured, made by a worker" for every MCP request of a page with such a worker
    expect(w.snapshot()).toMatchObject({ seen: 2, captured: 2, missing: [] });
    // a worker's request of its own (no page entry answered through it) is still reported
    finish(entry('http://x/mcp?tag=own', { pageref: null, t: T0 + 3000 }));
    await vi.advanceTimersByTimeAsync(4000);
    expect(w.snapshot().missing.map((m) => [m.url, m.reason])).toEqual([['http://x/mcp?tag=own', 'worker']]);
  });

  it('DevTools opened on a loaded page (no entry has a pageref until a reload): the page\'s requests still match the hook\'s', async () => {
    const { store, w, finish } = setup();
    store.ingest([{ ...hookReq('http://x/mcp', T0 + 5, 'c1', 'POST') } as CaptureRecord]);
    finish(entry('http://x/mcp', { method: 'POST', pageref: null, req: { 'mcp-session-id': 'S1' } }));
    finish(entry('http://x/other', { pageref: null, t: T0 + 50 }));
    await vi.advanceTimersByTimeAsync(4000);
    // (a first version of the worker check took every entry without pageref for a worker's)
    expect(w.snapshot()).toMatchObject({ seen: 2, captured: 1 });
    // and an unseen one is not "made by a worker" for lack of a pageref no entry has
    expect(w.snapshot().missing.map((m) => [m.url, m.reason])).toEqual([['http://x/other', 'unknown']]);
  });

  it('a request seen in getHAR while still open: counted at once, its body added when it finishes', async () => {
    const { store, w, finish, setHar } = setup();
    // (Chrome's getContent of a request still loading gives null: measured on Chromium 156)
    const open = { ...entry('http://x/open', { pageref: null }), getContent: (cb: (c: string | null, enc: string) => void) => cb(null, '') };
    setHar([open]);
    await w.poll();
    await vi.advanceTimersByTimeAsync(4000);
    expect(w.snapshot().missing[0]).toMatchObject({ url: 'http://x/open', body: 'pending' });
    expect(ofSrc(store.getSnapshot().records, 'network').map((r) => r.kind)).toEqual(['capture-gap']);
    finish(entry('http://x/open', { pageref: null }));
    await vi.advanceTimersByTimeAsync(10);
    expect(w.snapshot().missing[0]!.body).toBe('added');
    // the gap stands (said while it was open); its events follow
    expect(ofSrc(store.getSnapshot().records, 'network').map((r) => r.kind)).toEqual(['capture-gap', 'request', 'response', 'chunk', 'end']);
  });

  it('a request that finished before the panel was first shown (only in getHAR): its body is added, not pending for ever', async () => {
    // (in the first getHAR, taken when the panel starts)
    const { store, w } = setup(true, undefined, [entry('http://x/done', { pageref: null })]);
    await vi.advanceTimersByTimeAsync(4000);
    // before: body "pending" for good (no onRequestFinished ever comes for it), the text saying it
    // would appear once the request finished
    expect(w.snapshot().missing[0]).toMatchObject({ url: 'http://x/done', body: 'added' });
    expect(ofSrc(store.getSnapshot().records, 'network').map((r) => r.kind)).toEqual(['capture-gap', 'request', 'response', 'chunk', 'end']);
  });

  it('waits for the tab status before naming the reason; no relay after a reload is extension-reloaded', async () => {
    const { w, finish, status } = setup(null, 'update');
    finish(entry('http://x/mcp', { req: { 'mcp-session-id': 'S' } }));
    await vi.advanceTimersByTimeAsync(3000);
    expect(w.snapshot().missing).toEqual([]);
    status.relays = false;
    await vi.advanceTimersByTimeAsync(600);
    expect(w.snapshot().missing[0]!.reason).toBe('extension-reloaded');
  });

  it('a preflight refusing mcp-protocol-version for a request that then failed: a cors-preflight-rejected notice, a finding in the analysis', async () => {
    const { store, w, finish } = setup();
    const url = 'http://other:9/mcp';
    store.ingest([
      hookReq(url, T0 + 5, 'c1', 'POST'),
      { kind: 'end', src: 'S', seq: 2, t: T0 + 6, conn: 'c1', how: 'network-error', reason: 'TypeError: Failed to fetch' },
    ]);
    finish(
      entry(url, {
        method: 'OPTIONS', type: 'preflight', initiatorUrl: url, t: T0,
        req: { 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,mcp-protocol-version', Origin: 'http://page:8' },
        res: { 'access-control-allow-origin': 'http://page:8', 'access-control-allow-headers': 'content-type' },
        status: 204,
      }),
    );
    finish(entry(url, { method: 'POST', t: T0 + 2, status: 0, req: { 'mcp-protocol-version': '2025-06-18', 'content-type': 'application/json' }, res: {}, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' }));
    await vi.advanceTimersByTimeAsync(2000);
    expect(w.snapshot()).toMatchObject({ seen: 1, captured: 1 });
    expect(w.snapshot().problems.map((p) => p.code)).toEqual(['cors-preflight-rejected']);
    const notice = ofSrc(store.getSnapshot().records, 'network').find((r) => r.kind === 'notice');
    expect(notice).toMatchObject({ code: 'cors-preflight-rejected', level: 'error', url });
    const f = analyzeRecords(store.getSnapshot().records).findings.find((x) => x.code === 'cors-preflight-rejected');
    expect(f?.message).toContain('mcp-protocol-version');
  });

  it('a refusing preflight whose request Chrome reports late or not at all: reported after the wait, in the session of the captured request', async () => {
    const { store, w, finish } = setup();
    const url = 'http://other:9/mcp';
    store.ingest([{ ...hookReq(url, T0 + 5, 'c1', 'POST'), headers: [['Mcp-Session-Id', 'S-7']] } as CaptureRecord]);
    finish(
      refusingPreflight(url),
    );
    await vi.advanceTimersByTimeAsync(1000);
    expect(w.snapshot().problems).toEqual([]);
    await vi.advanceTimersByTimeAsync(3000);
    expect(w.snapshot().problems).toEqual([expect.objectContaining({ code: 'cors-preflight-rejected', sessionId: 'S-7', headers: ['mcp-protocol-version'] })]);
  });

  // Chromium 156 (test/e2e/witness-fragment.test.ts): DevTools lists `fetch('/mcp#x')` as /mcp, the
  // hook records the URL the page gave (/mcp#x), and the response's URL (Response.url) has no fragment.
  it('a fetch whose URL has a #fragment: not taken for a redirect (which would count another request to its URL as captured)', async () => {
    const { store, w, finish } = setup();
    store.ingest([
      { ...hookReq('http://x/mcp#x', T0 + 2, 'c1', 'POST'), body: rpc } as CaptureRecord,
      { kind: 'response', src: 'S', seq: 2, t: T0 + 8, conn: 'c1', status: 200, statusText: 'OK', headers: [['content-type', 'text/event-stream']], url: 'http://x/mcp', redirected: false, type: 'basic', capture: 'sse' },
    ]);
    finish(entry('http://x/mcp', { method: 'POST', body: rpc }));
    // The same request from a frame the hook does not run in, just after: the hook holds none of it.
    finish(entry('http://x/mcp', { method: 'POST', body: rpc, t: T0 + 300 }));
    await vi.advanceTimersByTimeAsync(4000);
    // before: seen 2, captured 2 (the fetch's response URL, without its fragment, read as a redirect's final URL)
    expect(w.snapshot()).toMatchObject({ seen: 2, captured: 1 });
    expect(w.snapshot().missing.map((m) => [m.method, m.url])).toEqual([['POST', 'http://x/mcp']]);
  });

  it("a refusing preflight for a request whose URL has a #fragment: the captured request's session is found", async () => {
    const { store, w, finish } = setup();
    const url = 'http://other:9/mcp';
    store.ingest([{ ...hookReq(`${url}#x`, T0 + 5, 'c1', 'POST'), headers: [['Mcp-Session-Id', 'S-7']] } as CaptureRecord]);
    finish(
      refusingPreflight(url),
    );
    await vi.advanceTimersByTimeAsync(4000);
    // before: no sessionId (the hook's URL kept its fragment, the network's has none)
    expect(w.snapshot().problems).toEqual([expect.objectContaining({ code: 'cors-preflight-rejected', sessionId: 'S-7' })]);
  });

  it('a captured cross-origin response whose Mcp-Session-Id the page could not read: session-id-not-exposed, once per request URL', async () => {
    const { store, w, finish } = setup();
    const url = 'http://other:9/mcp';
    store.ingest([
      hookReq(url, T0 + 10, 'c1', 'POST'),
      { kind: 'response', src: 'S', seq: 2, t: T0 + 10, conn: 'c1', status: 200, statusText: 'OK', headers: [['content-type', 'text/event-stream']], url, redirected: false, type: 'cors', capture: 'sse' },
    ]);
    const e = entry(url, { method: 'POST', req: { Origin: 'http://page:8' }, res: { 'content-type': 'text/event-stream', 'access-control-allow-origin': 'http://page:8', 'mcp-session-id': 'S-1' } });
    finish(e);
    await vi.advanceTimersByTimeAsync(2000);
    expect(w.snapshot().problems.map((p) => p.code)).toEqual(['session-id-not-exposed']);
    expect(w.snapshot().missing).toEqual([]);
  });

  it('capture health: recording, blind when the witness disagrees, not recording without a relay', async () => {
    const { w, finish } = setup();
    let status: { relays: boolean; installedAt?: number; installReason?: string } | null = { relays: true };
    const conn = { connected: () => true, connects: () => 1, status: () => status as never, subscribe: () => () => {} };
    const health = createCaptureHealth(conn, w);
    expect(health.getSnapshot().state).toBe('recording');
    finish(entry('http://x/mcp', { pageref: null, req: { 'mcp-session-id': 'W' } }));
    await vi.advanceTimersByTimeAsync(2000);
    expect(health.getSnapshot()).toMatchObject({ state: 'blind', label: '1 not captured' });
    status = { relays: false, installedAt: T0, installReason: 'update' };
    finish(entry('http://x/mcp2', { req: { 'mcp-session-id': 'W' } }));
    await vi.advanceTimersByTimeAsync(2000);
    expect(health.getSnapshot().state).toBe('not-recording');
    expect(health.getSnapshot().detail).toContain('reload the page');
  });
});

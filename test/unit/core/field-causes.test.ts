// Issue 10: the four causes that made verdicts wrong on servers other than the TypeScript SDK's,
// each with the smallest input that shows it (hand-built captures and HAR files; the fixture
// server's field stores and their recorded captures are tested in field-servers.test.ts).
// Every test here failed on af854a8 (the commit before the fixes) and passes after.
import { describe, expect, it } from 'vitest';
import { analyzeRecords } from '../../../src/core/analyzer';
import { importValue } from '../../../src/core/import/index';
import type { AnalysisSnapshot } from '../../../src/core/model';
import { Capture, call, ev, initialize, initResult, message, progress, result } from './helpers';
import { sharedCounterCapture } from './shared-counter';

const codes = (s: AnalysisSnapshot) => s.findings.map((f) => f.code);
const reqs = (s: AnalysisSnapshot) => Object.values(s.requests).flat();
const above = (s: AnalysisSnapshot, sev: 'info' | 'warning') => s.findings.filter((f) => (sev === 'info' ? f.severity !== 'info' : f.severity === 'error'));

// ---------------------------------------------------------------- HAR builder

const U = 'http://127.0.0.1:8000/mcp';
type H = [string, string][];
interface E {
  at: number; // ms after the first entry
  method?: string;
  headers?: H;
  body?: unknown;
  status?: number;
  resHeaders?: H;
  /** Body text; undefined = the file holds none (Playwright's `size: -1`). */
  text?: string;
  mime?: string;
  time?: number;
  failure?: string;
}
const T0 = Date.parse('2026-11-30T07:00:00.000Z');
function entry(o: E) {
  const h = (r: H) => r.map(([name, value]) => ({ name, value }));
  const body = o.body === undefined ? undefined : JSON.stringify(o.body);
  const mime = o.mime ?? 'text/event-stream';
  return {
    startedDateTime: new Date(T0 + o.at).toISOString(),
    time: o.time ?? 20,
    request: {
      method: o.method ?? (body !== undefined ? 'POST' : 'GET'),
      url: U,
      httpVersion: 'HTTP/1.1',
      headers: h(o.headers ?? []),
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: body?.length ?? 0,
      ...(body !== undefined ? { postData: { mimeType: 'application/json', text: body } } : {}),
    },
    response: {
      status: o.status ?? 200,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      headers: h(o.resHeaders ?? [['content-type', mime]]),
      cookies: [],
      content: o.text === undefined ? { size: -1, mimeType: mime } : { size: o.text.length, mimeType: mime, text: o.text },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
      ...(o.failure ? { _failureText: o.failure } : {}),
    },
    cache: {},
    timings: { send: 0, wait: 2, receive: (o.time ?? 20) - 2 },
  };
}
const har = (entries: unknown[]) => analyzeRecords(importValue({ log: { version: '1.2', creator: { name: 'Playwright', version: '1.57' }, pages: [], entries } }).records);
const sse = (...evs: [string | undefined, unknown][]) =>
  evs.map(([id, d]) => `event: message\n${id !== undefined ? `id: ${id}\n` : ''}data: ${d === '' ? '' : JSON.stringify(d)}\n\n`).join('');
const sid = (s: string): H => [['mcp-session-id', s], ['mcp-protocol-version', '2025-11-25']];
/** What the Python SDK answers to DELETE and to notifications: JSON, empty, content-length 0. */
const emptyJson: H = [['content-type', 'application/json'], ['content-length', '0'], ['mcp-session-id', 'py']];

describe('cause 1: a response that cannot be an event stream is not a stream without body', () => {
  // The Python SDK with its sse_polling store (one counter): the call stream is cut after id 13, the
  // resume replays 14–17 and loses 18–19 in the replay-to-live window, sends a second priming event
  // (20) and the rest live. The client ends the session with DELETE, answered 200 / JSON /
  // content-length 0, which the HAR saved without body while the resumed GET was still open.
  const entries = () => {
    let call2 = '';
    for (let i = 4; i <= 13; i++) call2 += sse([String(i), i % 2 ? progress(2, i) : message(`part ${i}`)]);
    let replay = '';
    for (let i = 14; i <= 17; i++) replay += sse([String(i), i % 2 ? progress(2, i) : message(`part ${i}`)]);
    replay += 'id: 20\nretry: 3000\ndata: \n\n';
    for (let i = 21; i <= 30; i++) replay += sse([String(i), i % 2 ? progress(2, i) : message(`part ${i}`)]);
    replay += sse(['31', result(2)]);
    return [
      entry({ at: 0, body: initialize(0), resHeaders: [['content-type', 'text/event-stream'], ['mcp-session-id', 'py']], text: 'id: 1\nretry: 3000\ndata: \n\n' + sse(['2', initResult(0)]) }),
      entry({ at: 10, body: { jsonrpc: '2.0', method: 'notifications/initialized' }, headers: sid('py'), status: 202, resHeaders: emptyJson, mime: 'application/json' }),
      entry({ at: 20, body: call(2), headers: sid('py'), text: 'id: 3\nretry: 3000\ndata: \n\n' + call2, time: 300, failure: 'net::ERR_INCOMPLETE_CHUNKED_ENCODING' }),
      entry({ at: 400, headers: [...sid('py'), ['last-event-id', '13']], text: replay, time: 2000 }),
      entry({ at: 2300, method: 'DELETE', headers: sid('py'), resHeaders: emptyJson, mime: 'application/json', time: 5 }),
    ];
  };

  it('the DELETE answered with empty JSON is an empty answer: the lost 18–19 are a replay-gap error and the call is lossy', () => {
    const s = har(entries());
    expect(codes(s)).not.toContain('capture-gap');
    const gap = s.findings.find((f) => f.code === 'replay-gap')!;
    expect(gap).toMatchObject({ severity: 'error', missing: '18–19' });
    expect(reqs(s).find((r) => r.method === 'tools/call')!.verdict).toBe('lossy');
    expect(codes(s)).toContain('lossy-result-accepted');
    expect(s.sessions[0]!.losslessReasons.join(' ')).not.toMatch(/lost records|does not hold/);
  });

  it('the same with a JSON answer of unknown length to a notification, and to DELETE without content-length', () => {
    const e = entries();
    for (const x of [e[1]!, e[4]!]) x.response.headers = x.response.headers.filter((h) => h.name !== 'content-length');
    const s = har(e);
    expect(codes(s)).not.toContain('capture-gap');
    expect(s.findings.find((f) => f.code === 'replay-gap')).toMatchObject({ severity: 'error' });
  });

  it('an event stream the file holds no body for is still unknown (and a JSON answer that may hold a result too)', () => {
    const e = entries();
    e[3]!.response.content = { size: -1, mimeType: 'text/event-stream' };
    let s = har(e);
    expect(codes(s)).toContain('capture-gap');
    expect(reqs(s).find((r) => r.method === 'tools/call')!.verdict).toBe('incomplete');
    // A JSON-answered tools/call whose body is not in the file: its result may be in it.
    s = har([e[0]!, entry({ at: 20, body: call(2), headers: sid('py'), mime: 'application/json', resHeaders: [['content-type', 'application/json'], ['mcp-session-id', 'py']] })]);
    expect(codes(s)).toEqual(['capture-gap', 'capture-gap']);
    expect(s.findings.every((f) => f.severity === 'warning' && f.requestId === '2')).toBe(true);
    expect(s.findings[0]!.message).toMatch(/not an empty answer/);
    expect(s.findings[1]!.message).toMatch(/whether one arrived cannot be known/);
  });
});

describe('cause 2: a counter shared by several sessions is not a contiguous counter of one of them', () => {
  it('two sessions on one server-wide counter, both cut and resumed without loss: no gap, nothing lossy, both classed as a shared counter', () => {
    // Session A takes four of every five ids (coverage 0.8: read as "contiguous (session)" before),
    // session B the fifth; both call streams are cut and resumed, every id delivered once.
    const recs = sharedCounterCapture({
      owners: Array.from({ length: 60 }, (_, i) => (i % 5 === 4 ? 1 : 0)),
      sessions: 2,
      cuts: [[9], [4]],
    });
    const s = analyzeRecords(recs);
    expect(above(s, 'warning')).toEqual([]);
    expect(codes(s)).not.toContain('live-gap');
    expect(reqs(s).filter((r) => r.verdict === 'lossy')).toEqual([]);
    for (const x of s.sessions) {
      expect(x.idScheme).toMatchObject({ kind: 'sparse', scope: 'server' });
      expect(x.idScheme.evidence).toMatch(/shared/);
    }
  });

  it('ids another session of the capture delivered are never a gap, whichever session holds most of them', () => {
    for (const every of [2, 3, 5, 8, 20]) {
      const recs = sharedCounterCapture({ owners: Array.from({ length: 80 }, (_, i) => (i % every === every - 1 ? 1 : 0)), sessions: 2, cuts: [[7], []] });
      const s = analyzeRecords(recs);
      expect(above(s, 'warning'), `every ${every}`).toEqual([]);
      expect(s.sessions.map((x) => x.idScheme.scope)).toEqual(['server', 'server']);
    }
  });
});

describe('cause 3: hexadecimal and long zero-padded counters are counters', () => {
  const uuidA = '3f2a6c1e-7b4d-4e8a-9c0f-1d2e3f4a5b6c';
  const uuidB = '9b0d2e4f-6a8c-4b1d-8e2f-0a1b2c3d4e5f';
  const hex = (stream: string, n: number) => `${stream}:${n.toString(16).padStart(16, '0')}`;

  /** Cloudflare agents' McpAgent: `<streamId>:<seq as 16 hex digits>` per stream from 1. */
  function cloudflare(o: { cutAt: number; replayFrom: number; n: number }) {
    const c = new Capture();
    const init = c.request({ body: initialize(0) });
    c.response(init, { sessionId: 'cf' });
    c.chunk(init, ev(hex(uuidA, 1), initResult(0)));
    c.end(init);
    const post = c.request({ sessionId: 'cf', body: call(2) });
    c.response(post);
    const evFor = (i: number) => ev(hex(uuidB, i), i === o.n ? result(2) : i % 2 ? progress(2, i) : message(`part ${i}`));
    let text = '';
    for (let i = 1; i <= o.cutAt; i++) text += evFor(i);
    c.chunk(post, text);
    c.end(post, 'network-error');
    const get = c.request({ sessionId: 'cf', lastEventId: hex(uuidB, o.cutAt) });
    c.response(get);
    text = '';
    for (let i = o.replayFrom; i <= o.n; i++) text += evFor(i);
    c.chunk(get, text);
    c.end(get);
    return analyzeRecords(c.records);
  }

  it('per-stream hex counters: a replay that skips 8–9 is a replay-gap error, the call is lossy', () => {
    const s = cloudflare({ cutAt: 7, replayFrom: 10, n: 30 });
    expect(s.sessions[0]!.idScheme).toMatchObject({ kind: 'contiguous', scope: 'stream' });
    expect(s.sessions[0]!.idScheme.evidence).toMatch(/hexadecimal/);
    const gap = s.findings.find((f) => f.code === 'replay-gap')!;
    expect(gap).toMatchObject({ severity: 'error', eventIds: [hex(uuidB, 8), hex(uuidB, 9)] });
    expect(reqs(s).find((r) => r.id === '2')!.verdict).toBe('lossy');
  });

  it('per-stream hex counters, complete replay: nothing to report, the call is complete', () => {
    const s = cloudflare({ cutAt: 12, replayFrom: 13, n: 40 });
    expect(s.sessions[0]!.idScheme.kind).toBe('contiguous');
    expect(above(s, 'info').filter((f) => f.code !== 'replay-unverifiable')).toEqual([]);
    expect(codes(s)).toEqual([]);
    expect(reqs(s).find((r) => r.id === '2')!.verdict).toBe('complete');
  });

  it('a fixed-width field is read in base 16 on the evidence of the whole session: …0010 after …0009 is 16 once a–f appear later', () => {
    // Cut after 9; the replay left out a–f and resumed at 0x10: read as decimal that is no gap.
    const s = cloudflare({ cutAt: 9, replayFrom: 16, n: 30 });
    const gap = s.findings.find((f) => f.code === 'replay-gap')!;
    expect(gap).toMatchObject({ severity: 'error' });
    expect(gap.eventIds).toEqual([10, 11, 12, 13, 14, 15].map((n) => hex(uuidB, n)));
    expect(codes(s)).not.toContain('replay-reordered');
  });

  it('zero-padded decimal counters longer than 15 digits: a replay from 11 that starts at 14 is a replay-gap', () => {
    const c = new Capture();
    const init = c.request({ body: initialize(0) });
    c.response(init, { sessionId: 'dec' });
    c.chunk(init, ev('0'.repeat(20), initResult(0)));
    c.end(init);
    const pad = (n: number) => String(n).padStart(20, '0');
    const post = c.request({ sessionId: 'dec', body: call(2) });
    c.response(post);
    const evFor = (i: number) => ev(pad(i), i === 24 ? result(2) : i % 2 ? progress(2, i) : message(`part ${i}`));
    let text = '';
    for (let i = 1; i <= 11; i++) text += evFor(i);
    c.chunk(post, text);
    c.end(post, 'network-error');
    const get = c.request({ sessionId: 'dec', lastEventId: pad(11) });
    c.response(get);
    text = '';
    for (let i = 14; i <= 24; i++) text += evFor(i);
    c.chunk(get, text);
    c.end(get);
    const s = analyzeRecords(c.records);
    expect(s.sessions[0]!.idScheme).toMatchObject({ kind: 'contiguous', scope: 'session' });
    expect(s.sessions[0]!.idScheme.evidence).toMatch(/decimal/);
    expect(s.findings.find((f) => f.code === 'replay-gap')).toMatchObject({ severity: 'error', eventIds: [pad(12), pad(13)] });
    expect(reqs(s).find((r) => r.id === '2')!.verdict).toBe('lossy');
  });
});

describe('cause 4: another session\'s events replayed into a session are a cross-session replay', () => {
  const u = (k: string, n: number) => `${k}${String(n).padStart(3, '0')}e4b2-71c9-4d3a-9f10-5c6b7a8d9e0f`;
  /** Python SDK 2.3: streams keyed by JSON-RPC request id in one store for every session (uuid4 ids). */
  function python(o: { foreignResult: boolean }) {
    const c = new Capture();
    for (const s of ['A', 'B']) {
      const init = c.request({ body: initialize(0) });
      c.response(init, { sessionId: s });
      c.chunk(init, ev(u(s === 'A' ? 'a0' : 'b0', 0), initResult(0)));
      c.end(init);
    }
    const b = c.request({ sessionId: 'B', body: call(2) });
    c.response(b);
    const a = c.request({ sessionId: 'A', body: call(2) });
    c.response(a);
    c.chunk(a, ev(u('aa', 1), message('A1')) + ev(u('aa', 2), progress(2, 1)) + ev(u('aa', 3), message('A2')));
    c.chunk(b, ev(u('bb', 1), message('B1')) + ev(u('bb', 2), message('B2')) + ev(u('bb', 3), message('B3')) + ev(u('bb', 4), result(2, { content: [{ type: 'text', text: 'B' }] })));
    c.end(b);
    c.end(a, 'network-error');
    const g = c.request({ sessionId: 'A', lastEventId: u('aa', 3) });
    c.response(g);
    c.chunk(g, ev(u('aa', 4), message('A3')) + ev(u('bb', 2), message('B2')) + ev(u('bb', 3), message('B3')) + (o.foreignResult ? ev(u('bb', 4), result(2, { content: [{ type: 'text', text: 'B' }] })) : ev(u('aa', 5), result(2))));
    c.end(g);
    return analyzeRecords(c.records);
  }

  it('ids session B delivered, replayed on a resume in session A: an error naming both sessions, the call that accepted them lossy', () => {
    for (const foreignResult of [true, false]) {
      const s = python({ foreignResult });
      const f = s.findings.filter((x) => x.code === 'replay-cross-stream');
      expect(f.length).toBeGreaterThan(0);
      expect(f[0]!).toMatchObject({ severity: 'error', sessionId: 'A', requestId: '2' });
      expect(f[0]!.message).toMatch(/session B/);
      expect(f[0]!.message).toMatch(/session A|this session/);
      expect(f.flatMap((x) => x.eventIds)).toEqual(foreignResult ? [u('bb', 2), u('bb', 3), u('bb', 4)] : [u('bb', 2), u('bb', 3)]);
      const a2 = s.requests['A']!.find((r) => r.id === '2')!;
      expect(a2.verdict).toBe('lossy');
      expect(a2.findings).toContain('replay-cross-stream');
      // Session B itself did nothing wrong.
      expect(s.requests['B']!.find((r) => r.id === '2')!.verdict).toBe('complete');
    }
  });

  it('per-session counters (the same ids in every session, delivered fresh in each) are no cross-session replay', () => {
    const c = new Capture();
    for (const s of ['A', 'B']) {
      const init = c.request({ body: initialize(0) });
      c.response(init, { sessionId: s });
      c.chunk(init, ev('1', initResult(0)));
      c.end(init);
    }
    const b = c.request({ sessionId: 'B', body: call(2) });
    c.response(b);
    let t = '';
    for (let i = 2; i <= 12; i++) t += ev(String(i), i === 12 ? result(2) : message(`b${i}`));
    c.chunk(b, t);
    c.end(b);
    const a = c.request({ sessionId: 'A', body: call(2) });
    c.response(a);
    c.chunk(a, ev('2', message('a2')) + ev('3', message('a3')) + ev('4', message('a4')));
    c.end(a, 'network-error');
    const g = c.request({ sessionId: 'A', lastEventId: '4' });
    c.response(g);
    t = '';
    for (let i = 5; i <= 12; i++) t += ev(String(i), i === 12 ? result(2) : message(`a${i}`));
    c.chunk(g, t);
    c.end(g);
    const s = analyzeRecords(c.records);
    expect(codes(s)).toEqual([]);
    expect(s.sessions.map((x) => x.idScheme.kind)).toEqual(['contiguous', 'contiguous']);
    expect(reqs(s).filter((r) => r.method === 'tools/call').map((r) => r.verdict)).toEqual(['complete', 'complete']);
  });
});

describe('severity follows what depends on a stream the file holds no body for', () => {
  // Playwright's recordHar of the SDK client, no cut, no fault: the standalone GET was aborted when
  // the page ended and has no body; everything else is whole.
  const clean = () => {
    let t = 'id: 5\nretry: 100\ndata: \n\n';
    for (let i = 6; i <= 45; i++) t += sse([String(i), i % 2 ? message(`part ${i}`) : progress(2, i)]);
    t += sse(['46', result(2)]);
    return [
      entry({ at: 0, body: initialize(0), resHeaders: [['content-type', 'text/event-stream'], ['mcp-session-id', 'S']], text: 'id: 1\nretry: 100\ndata: \n\n' + sse(['2', initResult(0)]) }),
      entry({ at: 10, body: { jsonrpc: '2.0', method: 'notifications/initialized' }, headers: sid('S'), status: 202, resHeaders: [], mime: 'x-unknown', failure: 'net::ERR_ABORTED' }),
      entry({ at: 12, headers: [...sid('S'), ['accept', 'text/event-stream']], time: 3000, failure: 'net::ERR_ABORTED' }),
      entry({ at: 20, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers: sid('S'), text: 'id: 3\nretry: 100\ndata: \n\n' + sse(['4', result(1, { tools: [] })]) }),
      entry({ at: 40, body: call(2), headers: sid('S'), text: t, time: 900 }),
    ];
  };

  it('the clean SDK-client HAR: nothing above info, and the lossless reasons say the file does not hold the body', () => {
    const s = har(clean());
    expect(above(s, 'info')).toEqual([]);
    const gap = s.findings.find((f) => f.code === 'capture-gap')!;
    expect(gap.severity).toBe('info');
    expect(gap.message).toMatch(/nothing .*depends on it/i);
    const reasons = s.sessions[0]!.losslessReasons.join('; ');
    expect(reasons).not.toMatch(/inspector lost/);
    expect(reasons).toMatch(/the file does not hold/);
    expect(reqs(s).map((r) => r.verdict)).toEqual(['complete', 'complete', 'complete']);
  });

  it('a stream without body stays a warning when a conclusion depends on it, and names it', () => {
    const e = clean();
    // The call stream itself is cut and saved without body; its resume too.
    e[4] = entry({ at: 40, body: call(2), headers: sid('S'), time: 300, failure: 'net::ERR_INCOMPLETE_CHUNKED_ENCODING' });
    e.push(entry({ at: 400, headers: [...sid('S'), ['last-event-id', '11']], time: 600, failure: 'net::ERR_ABORTED' }));
    const s = har(e);
    const gaps = s.findings.filter((f) => f.code === 'capture-gap');
    expect(gaps.every((f) => f.severity === 'warning')).toBe(true);
    const post = gaps.find((f) => f.streamId === 'har:e4')!;
    expect(post.message).toMatch(/request 2 \(tools\/call\)/);
    const get = gaps.find((f) => f.streamId === 'har:e2')!;
    expect(get.message).toMatch(/Last-Event-ID 11/);
    expect(s.sessions[0]!.losslessReasons.join('; ')).not.toMatch(/inspector lost/);
  });
});

describe('wording that says no more than the wire shows', () => {
  it('result-missing on a resumed stream that stayed open until the client\'s DELETE does not say the server closed it', () => {
    const c = new Capture();
    const init = c.request({ body: initialize(0) });
    c.response(init, { sessionId: 'S' });
    c.chunk(init, ev('1', initResult(0)));
    c.end(init);
    const post = c.request({ sessionId: 'S', body: call(2) });
    c.response(post);
    c.chunk(post, ev('2', message('a')) + ev('3', message('b')));
    c.end(post, 'network-error');
    const get = c.request({ sessionId: 'S', lastEventId: '3' });
    c.response(get);
    const del = c.request({ sessionId: 'S', method: 'DELETE' });
    c.response(del, { json: true });
    c.end(del);
    c.end(get, 'complete');
    const s = analyzeRecords(c.records);
    const f = s.findings.find((x) => x.code === 'result-missing')!;
    expect(f.message).not.toMatch(/server closed the stream/);
    expect(f.message).toMatch(/until the client ended the session \(DELETE\)/);
  });

  it('UUID ids are called random, not "not a prefix plus a counter"; one id is too few to tell', () => {
    const ids = ['0b5e3c1a-2f4d-4c6b-8a9e-1f2d3c4b5a61', '7c1d2e3f-4a5b-4c6d-9e8f-0a1b2c3d4e5f', 'a9b8c7d6-e5f4-4a3b-8c2d-1e0f9a8b7c62', 'd4c3b2a1-0f9e-4d8c-b7a6-958473625140'];
    const c = new Capture();
    const init = c.request({ body: initialize(0) });
    c.response(init, { sessionId: 'S' });
    c.chunk(init, ev(ids[0], initResult(0)));
    c.end(init);
    let s = analyzeRecords(c.records);
    expect(s.sessions[0]!.idScheme.kind).toBe('undetermined');
    expect(s.sessions[0]!.idScheme.evidence).toMatch(/too few/);
    const post = c.request({ sessionId: 'S', body: call(2) });
    c.response(post);
    c.chunk(post, ev(ids[1], message('a')) + ev(ids[2], message('b')) + ev(ids[3], result(2)));
    c.end(post);
    s = analyzeRecords(c.records);
    expect(s.sessions[0]!.idScheme.kind).toBe('opaque');
    expect(s.sessions[0]!.idScheme.evidence).toMatch(/UUID/);
    expect(s.sessions[0]!.idScheme.evidence).not.toMatch(/not a prefix plus a counter/);
  });
});

import { describe, expect, it } from 'vitest';
import { analyzeRecords, createAnalyzer } from '../../../src/core/analyzer';
import type { AnalysisSnapshot, FindingCode } from '../../../src/core/model';
import type { CaptureRecord } from '../../../src/core/record';
import { Capture, call, cutAndResume, ev, initSession, initialize, initResult, message, progress, result } from './helpers';

const codes = (s: AnalysisSnapshot) => s.findings.map((f) => f.code);
const req = (s: AnalysisSnapshot, id: string, key = 'sess-1') => s.requests[key]!.find((r) => r.id === id)!;
const only = (s: AnalysisSnapshot, code: FindingCode) => s.findings.filter((f) => f.code === code);

describe('sessions, streams and requests', () => {
  it('assigns the initialize exchange to the session named by its response (any header case)', () => {
    const c = new Capture();
    const conn = c.request({ body: initialize(0, '2025-06-18') });
    c.response(conn, { headers: [['MCP-Session-Id', 'abc']] });
    c.chunk(conn, ev('1', initResult(0, '2025-06-18')));
    c.end(conn);
    const p = c.request({ body: { jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers: [['Mcp-Session-Id', 'abc']] });
    c.response(p, { json: true });
    c.chunk(p, JSON.stringify(result(1, { tools: [] })));
    c.end(p);
    const s = analyzeRecords(c.records);
    expect(s.sessions).toHaveLength(1);
    expect(s.sessions[0]).toMatchObject({ key: 'abc', sessionId: 'abc', protocolVersion: '2025-06-18', protocolVersionSource: 'initialize-result' });
    expect(s.requests.abc!.map((r) => [r.id, r.method, r.verdict, r.response])).toEqual([
      ['0', 'initialize', 'complete', 'result'],
      ['1', 'tools/list', 'complete', 'result'],
    ]);
    expect(s.streams[s.requests.abc![1]!.responseStreamId!]!.events.at(0)!.synthetic).toBe('json-body');
    expect(s.findings).toEqual([]);
  });

  it('a re-initialize that still carries the old session id joins the session its response names', () => {
    const c = new Capture();
    initSession(c, 'old');
    const conn = c.request({ body: initialize(5), sessionId: 'old' });
    c.response(conn, { sessionId: 'new' });
    c.chunk(conn, ev('1', initResult(5)));
    c.end(conn);
    const s = analyzeRecords(c.records);
    expect(s.sessions.map((x) => [x.key, s.requests[x.key]!.map((r) => r.id)])).toEqual([
      ['old', ['0']],
      ['new', ['5']],
    ]);
  });

  it('groups 2026-07-28 traffic without _meta into one conversation of the endpoint and labels its revision', () => {
    const c = new Capture();
    for (const id of [1, 2]) {
      const p = c.request({ body: call(id), headers: [['mcp-protocol-version', '2026-07-28'], ['mcp-method', 'tools/call'], ['mcp-name', 'long_task']] });
      c.response(p);
      c.chunk(p, ev('1', message('a')) + ev('2', result(id)));
      c.end(p);
    }
    const s = analyzeRecords(c.records);
    expect(s.sessions).toHaveLength(1);
    expect(s.sessions[0]).toMatchObject({ sessionId: null, key: 'conversation:http://127.0.0.1:3939/mcp (client not named) tab1', era: 'modern', protocolVersion: '2026-07-28' });
    // ids restart on every stream of a stateless server: not a replay
    expect(codes(s)).toEqual([]);
    expect(s.requests[s.sessions[0]!.key]!.map((r) => r.verdict)).toEqual(['complete', 'complete']);
  });

  it('decodes JSON-RPC batches (2025-03-26) and links each response', () => {
    const c = new Capture();
    initSession(c, 'sess-1', { pv: '2025-03-26' });
    const p = c.request({ sessionId: 'sess-1', body: [call(5), { jsonrpc: '2.0', id: 6, method: 'tools/list' }] });
    c.response(p);
    c.chunk(p, ev('1', [result(5), result(6)]));
    c.end(p);
    const s = analyzeRecords(c.records);
    expect(req(s, '5').verdict).toBe('complete');
    expect(req(s, '6').verdict).toBe('complete');
    expect(s.streams[req(s, '5').streamId]!.events.at(0)!.messages).toHaveLength(2);
  });

  it('links a resume to the stream whose event carried the Last-Event-ID and builds the chain', () => {
    const c = new Capture();
    initSession(c);
    const { post, get } = cutAndResume(c);
    const s = analyzeRecords(c.records);
    const a = `tab1:${post}`;
    const b = `tab1:${get}`;
    expect(s.streams[b]).toMatchObject({ kind: 'resume', resumes: a, lastEventIdSent: '11', chainRoot: a });
    expect(s.streams[a]!.resumedBy).toEqual([b]);
    expect(s.sessions[0]!.chains).toEqual([
      {
        rootStreamId: a,
        requestIds: ['2'],
        segments: [
          { streamId: a, events: 11, state: 'error', firstId: '1', lastId: '11', status: 200 },
          { streamId: b, events: 9, state: 'complete', resumedFrom: '11', firstId: '12', lastId: '20', status: 200 },
        ],
      },
    ]);
    expect(req(s, '2')).toMatchObject({ verdict: 'complete', responseStreamId: b, response: 'result' });
    // a lossless cut-and-resume with contiguous ids: verified, but the session is not "lossless"
    expect(codes(s)).toEqual([]);
    expect(s.sessions[0]!.lossless).toBe(false);
    expect(s.sessions[0]!.losslessReasons.join(' ')).toMatch(/reconnect/);
  });
});

describe('findings', () => {
  it('replay-gap and lossy-result-accepted: resume from 11, replay starts at 14', () => {
    const c = new Capture();
    initSession(c);
    cutAndResume(c, { replayFrom: 14 });
    const s = analyzeRecords(c.records);
    expect(codes(s)).toEqual(['replay-gap', 'lossy-result-accepted']);
    const gap = only(s, 'replay-gap')[0]!;
    expect(gap).toMatchObject({ severity: 'error', eventIds: ['12', '13'], missing: '12–13', requestId: '2' });
    expect(gap.message).toContain('12–13 never delivered');
    expect(req(s, '2').verdict).toBe('lossy');
    expect(req(s, '2').findings).toEqual(['replay-gap', 'lossy-result-accepted']);
    expect(s.sessions[0]!.worst).toBe('error');
    // the gap is drawn at the first event after it
    expect(s.streams[gap.streamId!]!.events.at(gap.eventIndex!)!.findings).toContain('replay-gap');
  });

  it('a gap that hit only idempotent progress is no lossy-result-accepted', () => {
    const c = new Capture();
    initSession(c);
    const p = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(p);
    c.chunk(p, ev('1', progress(2, 1)) + ev('2', progress(2, 2)));
    c.end(p, 'network-error');
    const g = c.request({ sessionId: 'sess-1', lastEventId: '2' });
    c.response(g);
    c.chunk(g, ev('4', progress(2, 4)) + ev('5', result(2)));
    c.end(g);
    const s = analyzeRecords(c.records);
    expect(codes(s)).toEqual(['replay-gap']);
    expect(req(s, '2').verdict).toBe('complete-unverified');
  });

  it('live-gap: ids missing within one connection', () => {
    const c = new Capture();
    initSession(c);
    const p = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(p);
    c.chunk(p, ev('1', message('a')) + ev('2', message('b')) + ev('5', message('e')) + ev('6', result(2)));
    c.end(p);
    const s = analyzeRecords(c.records);
    expect(codes(s)).toEqual(['live-gap', 'lossy-result-accepted']);
    expect(only(s, 'live-gap')[0]!.missing).toBe('3–4');
  });

  it('a jump filled by another stream of the session (shared counter) is no gap, even when filled later', () => {
    const c = new Capture();
    initSession(c);
    const get = c.request({ sessionId: 'sess-1' });
    c.response(get);
    const p = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(p);
    c.chunk(p, ev('1', message('a')) + ev('2', message('b')) + ev('5', message('e')) + ev('6', result(2)));
    c.end(p);
    const a = createAnalyzer();
    a.pushAll(c.records);
    // live: the GET stream is still open and could still deliver 3–4
    let s = a.snapshot();
    expect(only(s, 'live-gap')[0]!.pending).toBe(true);
    c.chunk(get, ev('3', { jsonrpc: '2.0', method: 'notifications/tools/list_changed' }) + ev('4', { jsonrpc: '2.0', method: 'notifications/tools/list_changed' }));
    a.pushAll(c.records.slice(-1));
    a.finish();
    s = a.snapshot();
    expect(codes(s)).toEqual([]);
    expect(req(s, '2').verdict).toBe('complete');
  });

  it('a priming event with a fresh id at the start of a resumed stream is no gap nor reorder', () => {
    const c = new Capture();
    initSession(c);
    const p = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(p);
    c.chunk(p, 'id: 1\nretry: 100\ndata: \n\n' + ev('2', message('a')) + ev('3', message('b')));
    c.end(p, 'network-error');
    const g = c.request({ sessionId: 'sess-1', lastEventId: '3' });
    c.response(g);
    c.chunk(g, 'id: 7\nretry: 100\ndata: \n\n' + ev('4', message('c')) + ev('5', message('d')) + ev('6', result(2)));
    c.end(g);
    const s = analyzeRecords(c.records);
    expect(codes(s)).toEqual([]);
    expect(req(s, '2').verdict).toBe('complete');
  });

  it('a server that numbers each stream from 1: ids of other streams do not fill a gap', () => {
    const c = new Capture();
    initSession(c);
    const a = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(a);
    c.chunk(a, ev('1', message('a')) + ev('2', message('b')) + ev('3', message('c')) + ev('4', message('d')) + ev('5', result(2)));
    c.end(a);
    const b = c.request({ sessionId: 'sess-1', body: call(3) });
    c.response(b);
    c.chunk(b, ev('1', message('x')) + ev('2', message('y')));
    c.end(b, 'network-error');
    const g = c.request({ sessionId: 'sess-1', lastEventId: '2' });
    c.response(g);
    c.chunk(g, ev('5', message('z')) + ev('6', result(3)));
    c.end(g);
    const s = analyzeRecords(c.records);
    expect(codes(s)).toEqual(['replay-gap', 'lossy-result-accepted']);
    expect(only(s, 'replay-gap')[0]!.missing).toBe('3–4');
    expect(s.sessions[0]!.losslessReasons.join(' ')).toMatch(/reused/);
  });

  it('replay-duplicate: an id delivered again', () => {
    const c = new Capture();
    initSession(c);
    cutAndResume(c, { replayFrom: 10 });
    const s = analyzeRecords(c.records);
    // Event 10 is a cumulative message applied twice, event 11 a progress value seen twice.
    // One finding for the run 10-11; the result built over the message applied twice (issue 19).
    expect(codes(s)).toEqual(['replay-duplicate', 'progress-regressed', 'duplicate-output-accepted']);
    expect(only(s, 'replay-duplicate')[0]!.eventIds).toEqual(['10', '11']);
    const st = s.streams[only(s, 'replay-duplicate')[0]!.streamId!]!;
    expect(st.events.at(0)!.duplicate).toBe(true);
    expect(only(s, 'replay-duplicate')[0]!.message).toContain('Cumulative notification(s) (notifications/message)');
    expect(only(s, 'replay-duplicate')[0]!.message).toContain('not trustworthy');
    expect(only(s, 'progress-regressed')[0]).toMatchObject({ eventIds: ['11'], requestId: '2' });
    expect(only(s, 'duplicate-output-accepted')[0]).toMatchObject({ eventIds: ['10'], requestId: '2', severity: 'error' });
    expect(req(s, '2').verdict).toBe('duplicated');
  });

  it('replay-duplicate of idempotent events only (progress + priming) keeps the verdict complete', () => {
    const c = new Capture();
    initSession(c);
    const p = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(p);
    c.chunk(p, ev('1', message('a')) + ev('2', progress(2, 2)));
    c.end(p, 'network-error');
    const g = c.request({ sessionId: 'sess-1', lastEventId: '2' });
    c.response(g);
    c.chunk(g, ev('2', progress(2, 2)) + ev('3', result(2)));
    c.end(g);
    const s = analyzeRecords(c.records);
    expect(codes(s)).toEqual(['replay-duplicate', 'progress-regressed']);
    expect(req(s, '2').verdict).toBe('complete');
  });

  it('a client that gave up (cancelled, or the page aborted its resume) gets result-missing in a live capture, not pending', () => {
    for (const how of ['cancelled', 'page-aborted'] as const) {
      const c = new Capture();
      initSession(c);
      const p = c.request({ sessionId: 'sess-1', body: call(2) });
      c.response(p);
      c.chunk(p, ev('1', message('a')));
      c.end(p, 'network-error');
      if (how === 'cancelled') {
        const n = c.request({ sessionId: 'sess-1', body: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } } });
        c.response(n, { status: 202 });
        c.end(n);
      } else {
        const g = c.request({ sessionId: 'sess-1', lastEventId: '1' });
        c.response(g);
        c.end(g, 'page-aborted');
      }
      const live = createAnalyzer();
      live.pushAll(c.records); // no finish(): a live capture
      const s = live.snapshot();
      expect(req(s, '2').verdict, how).toBe('incomplete');
      expect(codes(s), how).toEqual(['result-missing']);
      expect(codes(analyzeRecords(c.records)), how).toEqual(['result-missing']);
    }
    // A broken stream the client may still resume stays pending while live.
    const c = new Capture();
    initSession(c);
    const p = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(p);
    c.chunk(p, ev('1', message('a')));
    c.end(p, 'network-error');
    const live = createAnalyzer();
    live.pushAll(c.records);
    expect(req(live.snapshot(), '2').verdict).toBe('pending');
  });

  it('replay-reordered: ids going backwards, and progress out of order on a replay', () => {
    const c = new Capture();
    initSession(c);
    const p = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(p);
    c.chunk(p, ev('1', progress(2, 1)) + ev('2', message('a')));
    c.end(p, 'network-error');
    const g = c.request({ sessionId: 'sess-1', lastEventId: '2' });
    c.response(g);
    c.chunk(g, ev('4', progress(2, 4)) + ev('3', progress(2, 3)) + ev('5', result(2)));
    c.end(g);
    const s = analyzeRecords(c.records);
    expect(codes(s).sort()).toEqual(['replay-reordered', 'replay-reordered']);
    expect(req(s, '2').verdict).toBe('complete');
  });

  it('replay-cross-stream: a response to a request of another stream on the resumed stream', () => {
    const c = new Capture();
    initSession(c);
    const a = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(a);
    const b = c.request({ sessionId: 'sess-1', body: call(3) });
    c.response(b);
    c.chunk(a, ev('1', message('a1')));
    c.chunk(b, ev('2', message('b1')));
    c.end(a, 'network-error');
    const g = c.request({ sessionId: 'sess-1', lastEventId: '1' });
    c.response(g);
    c.chunk(g, ev('3', message('a2')) + ev('4', result(3)) + ev('5', result(2)));
    c.end(g);
    c.end(b, 'network-error');
    const s = analyzeRecords(c.records);
    expect(codes(s)).toContain('replay-cross-stream');
    expect(only(s, 'replay-cross-stream')[0]!.requestId).toBe('3');
    expect(req(s, '2').verdict).toBe('lossy');
  });

  it('a full replay of another stream is one replay-cross-stream finding per run, not one per event (and one replay-duplicate per run)', () => {
    const c = new Capture();
    initSession(c);
    const N = 3000;
    const a = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(a);
    let t = '';
    for (let i = 1; i < N; i++) t += ev(String(i), message(`a${i}`));
    t += ev(String(N), result(2));
    c.chunk(a, t);
    c.end(a);
    const b = c.request({ sessionId: 'sess-1', body: call(3) });
    c.response(b);
    c.chunk(b, ev(String(N + 1), message('x')) + ev(String(N + 2), message('y')));
    c.end(b, 'network-error');
    const g = c.request({ sessionId: 'sess-1', lastEventId: String(N + 2) }); // the server replays its whole log
    c.response(g);
    t = '';
    for (let i = 1; i < N; i++) t += ev(String(i), message(`a${i}`));
    t += ev(String(N), result(2));
    t += ev(String(N + 1), message('x')) + ev(String(N + 2), message('y')) + ev(String(N + 3), result(3));
    c.chunk(g, t);
    c.end(g);
    const s = analyzeRecords(c.records);
    // The replayed ids 1…N repeat too (issue 19: replay-duplicate whenever an id repeats): one run.
    expect(codes(s)).toEqual(['replay-cross-stream', 'replay-duplicate', 'replay-duplicate', 'duplicate-output-accepted', 'lossy-result-accepted']);
    expect(only(s, 'replay-duplicate')[0]!.eventIds).toHaveLength(N);
    const cross = only(s, 'replay-cross-stream')[0]!;
    expect(cross.eventIds).toHaveLength(N);
    expect(cross.eventIds[0]).toBe('1');
    expect(cross.message).toContain(`${N} events`);
    expect(cross.message).toContain(`(${N} in all)`);
    expect(cross.message.length).toBeLessThan(400);
    expect(only(s, 'replay-duplicate')[1]!.eventIds).toEqual([String(N + 1), String(N + 2)]);
    // events keep their per-event codes
    const st = s.streams[`tab1:${g}`]!;
    expect(st.events.filter((e) => e.findings.includes('replay-cross-stream'))).toHaveLength(N);
  });

  it('a run of another prefix on a resumed stream is one finding', () => {
    const c = new Capture();
    initSession(c);
    const a = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(a);
    c.chunk(a, ev('s1-1', message('a')) + ev('s1-2', message('b')));
    c.end(a, 'network-error');
    const b = c.request({ sessionId: 'sess-1', body: call(3) });
    c.response(b);
    let t = '';
    for (let i = 1; i <= 50; i++) t += ev(`s2-${i}`, message('x'));
    c.chunk(b, t + ev('s2-51', result(3)));
    c.end(b);
    const g = c.request({ sessionId: 'sess-1', lastEventId: 's1-2' });
    c.response(g);
    t = '';
    for (let i = 52; i <= 100; i++) t += ev(`s2-${i}`, message('leak'));
    c.chunk(g, t + ev('s1-3', result(2)));
    c.end(g);
    const s = analyzeRecords(c.records);
    expect(codes(s)).toEqual(['replay-cross-stream', 'lossy-result-accepted']);
    expect(only(s, 'replay-cross-stream')[0]!.eventIds).toHaveLength(49);
  });

  it('replay-cross-stream: another stream prefix on the resumed stream', () => {
    const c = new Capture();
    initSession(c);
    const a = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(a);
    c.chunk(a, ev('s1-1', message('a')) + ev('s1-2', message('b')));
    c.end(a, 'network-error');
    const b = c.request({ sessionId: 'sess-1', body: call(3) });
    c.response(b);
    c.chunk(b, ev('s2-1', message('x')) + ev('s2-2', result(3)));
    c.end(b);
    const g = c.request({ sessionId: 'sess-1', lastEventId: 's1-2' });
    c.response(g);
    c.chunk(g, ev('s2-3', message('leak')) + ev('s1-3', result(2)));
    c.end(g);
    const s = analyzeRecords(c.records);
    expect(s.sessions[0]!.idScheme).toMatchObject({ kind: 'contiguous', scope: 'stream' });
    expect(codes(s)).toEqual(['replay-cross-stream', 'lossy-result-accepted']);
  });

  it('replay-unverifiable and unverified-result-accepted with opaque ids', () => {
    const c = new Capture();
    initSession(c);
    cutAndResume(c, { idOf: (i) => `3f1c_${1700000000000 + i}_${'abcdefghijklmnopqrstuvwxyz'[i]}${i}q` });
    const s = analyzeRecords(c.records);
    expect(s.sessions[0]!.idScheme.kind).toBe('opaque');
    expect(codes(s)).toEqual(['replay-unverifiable', 'unverified-result-accepted']);
    expect(req(s, '2').verdict).toBe('complete-unverified');
  });

  it('sparse ids (timestamps): order is checked, gaps are not', () => {
    const c = new Capture();
    initSession(c);
    cutAndResume(c, { idOf: (i) => String(1700000000000 + i * 1000 + (i % 3) * 17), replayFrom: 14 });
    const s = analyzeRecords(c.records);
    expect(s.sessions[0]!.idScheme.kind).toBe('sparse');
    expect(codes(s)).toEqual(['replay-unverifiable', 'unverified-result-accepted']);
  });

  it('a gapless declaration makes an opaque replay trusted', () => {
    const c = new Capture();
    initSession(c, 'sess-1', { gapless: true });
    cutAndResume(c, { idOf: (i) => `x${i}_${i * 7919}_r${i}z` });
    const s = analyzeRecords(c.records);
    expect(s.sessions[0]!.gaplessDeclared).toBe(true);
    expect(codes(s)).toEqual([]);
    expect(req(s, '2').verdict).toBe('complete');
  });

  it('a gapless session without reconnect is lossless', () => {
    const c = new Capture();
    initSession(c, 'sess-1', { gapless: true });
    const p = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(p);
    c.chunk(p, ev('1', message('a')) + ev('2', result(2)));
    c.end(p);
    const s = analyzeRecords(c.records);
    expect(s.sessions[0]!.lossless).toBe(true);
    expect(s.sessions[0]!.losslessReasons).toEqual([]);
  });

  it('the gapless key is configurable (dotted path)', () => {
    const c = new Capture();
    const conn = c.request({ body: initialize() });
    c.response(conn, { sessionId: 'sess-1' });
    c.chunk(conn, ev('0', initResult(0, '2025-11-25', { experimental: { 'acme.example/retention': { gapless: true } } })));
    c.end(conn);
    const s = analyzeRecords(c.records, { gaplessCapabilityPath: 'experimental.acme.example/retention.gapless' });
    expect(s.sessions[0]!.gaplessDeclared).toBe(true);
  });

  it('stale-resume-cursor: the client resumed from an older id', () => {
    const c = new Capture();
    initSession(c);
    const p = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(p);
    c.chunk(p, ev('1', message('a')) + ev('2', message('b')) + ev('3', message('c')));
    c.end(p, 'network-error');
    const g = c.request({ sessionId: 'sess-1', lastEventId: '2' });
    c.response(g);
    c.chunk(g, ev('4', result(2)));
    c.end(g);
    const s = analyzeRecords(c.records);
    expect(codes(s)).toEqual(['stale-resume-cursor']);
    expect(only(s, 'stale-resume-cursor')[0]!.eventIds).toEqual(['2', '3']);
  });

  it('resume-rejected: an error status, or an empty stream closed while the request was pending', () => {
    const c = new Capture();
    initSession(c);
    const p = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(p);
    c.chunk(p, ev('1', message('a')));
    c.end(p, 'network-error');
    const g = c.request({ sessionId: 'sess-1', lastEventId: '1' });
    c.response(g, { status: 409 });
    c.end(g);
    const g2 = c.request({ sessionId: 'sess-1', lastEventId: '1' });
    c.response(g2);
    c.end(g2);
    const s = analyzeRecords(c.records);
    expect(codes(s)).toEqual(['resume-rejected', 'resume-rejected', 'result-missing']);
    expect(req(s, '2').verdict).toBe('incomplete');
  });

  it('needless-resume: the result had already arrived', () => {
    const c = new Capture();
    initSession(c);
    const p = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(p);
    c.chunk(p, ev('1', message('a')) + ev('2', { jsonrpc: '2.0', id: 2, error: { code: -1, message: 'x' } }));
    c.end(p, 'network-error');
    const g = c.request({ sessionId: 'sess-1', lastEventId: '2' });
    c.response(g);
    c.end(g, 'page-aborted');
    const s = analyzeRecords(c.records);
    expect(codes(s)).toEqual(['needless-resume']);
    expect(only(s, 'needless-resume')[0]!.severity).toBe('info');
    expect(req(s, '2')).toMatchObject({ verdict: 'complete', response: 'error' });
  });

  it('result-missing when all streams ended; pending while one is open or at the end of a live capture', () => {
    const c = new Capture();
    initSession(c);
    const p = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(p);
    c.chunk(p, ev('1', message('a')));
    const live = createAnalyzer();
    live.pushAll(c.records);
    live.finish();
    expect(codes(live.snapshot())).toEqual([]);
    expect(req(live.snapshot(), '2').verdict).toBe('pending');
    c.end(p);
    const s = analyzeRecords(c.records);
    expect(codes(s)).toEqual(['result-missing']);
    expect(req(s, '2').verdict).toBe('incomplete');
  });

  it('result-missing says when the client cancelled or re-issued the request', () => {
    const c = new Capture();
    initSession(c);
    const p = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(p);
    c.chunk(p, ev('1', message('a')));
    c.end(p, 'network-error');
    const n = c.request({ sessionId: 'sess-1', body: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } } });
    c.response(n, { status: 202 });
    c.end(n);
    const q = c.request({ sessionId: 'sess-1', body: { ...call(3), params: { ...call(3).params, _meta: { progressToken: 3 } } } });
    c.response(q);
    c.chunk(q, ev('2', result(3)));
    c.end(q);
    const s = analyzeRecords(c.records);
    // The call sent again after its cancellation: the tool may have run twice (issue 19).
    expect(codes(s)).toEqual(['result-missing', 'tool-rerun-risk']);
    expect(s.findings[0]!.message).toContain('cancelled it');
    expect(s.findings[0]!.message).toContain('re-issued as request 3');
  });

  it('a long-lived subscriptions/listen stream closed by the client is no result-missing', () => {
    const c = new Capture();
    const p = c.request({ body: { jsonrpc: '2.0', id: 1, method: 'subscriptions/listen', params: {} }, headers: [['mcp-protocol-version', '2026-07-28'], ['mcp-method', 'subscriptions/listen']] });
    c.response(p);
    c.chunk(p, ev(undefined, { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'x' } }));
    const live = analyzeRecords(c.records);
    expect(live.requests[live.sessions[0]!.key]![0]!.verdict).toBe('pending');
    c.end(p, 'page-aborted');
    const s = analyzeRecords(c.records);
    expect(codes(s)).toEqual([]);
    expect(s.requests[s.sessions[0]!.key]![0]!.verdict).toBe('complete');
  });

  it('progress-regressed', () => {
    const c = new Capture();
    initSession(c);
    const p = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(p);
    c.chunk(p, ev('1', progress(2, 1)) + ev('2', progress(2, 3)) + ev('3', progress(2, 3)) + ev('4', result(2)));
    c.end(p);
    const s = analyzeRecords(c.records);
    expect(codes(s)).toEqual(['progress-regressed']);
  });

  it('session-expired: 404 to a session id (reported once per session)', () => {
    const c = new Capture();
    initSession(c);
    for (const id of [3, 4]) {
      const p = c.request({ sessionId: 'sess-1', body: { jsonrpc: '2.0', id, method: 'tools/list' } });
      c.response(p, { status: 404 });
      c.end(p);
    }
    const s = analyzeRecords(c.records);
    expect(codes(s)).toEqual(['session-expired']);
    expect(req(s, '3')).toMatchObject({ verdict: 'incomplete', findings: ['session-expired'] });
    expect(req(s, '4').findings).toEqual(['session-expired']);
  });

  it('truncated-event: the stream ended inside an event', () => {
    const c = new Capture();
    initSession(c);
    const p = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(p);
    c.chunk(p, ev('1', message('a')) + 'id: 2\ndata: {"jsonrpc":"2.0","id":2,"result":{}}\n');
    c.end(p);
    const s = analyzeRecords(c.records);
    expect(codes(s)).toEqual(['truncated-event', 'result-missing']);
    const st = s.streams[`tab1:${p}`]!;
    expect(st.events.at(1)).toMatchObject({ id: '2', truncated: true, findings: ['truncated-event'] });
    expect(st.lastCursor).toBe('1');
  });

  it('capture-gap: the inspector lost records; the stream is marked incomplete', () => {
    const c = new Capture();
    initSession(c);
    const p = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(p);
    c.chunk(p, ev('1', message('a')));
    c.gap([p]);
    // The text up to the first blank line after a gap is dropped (see capture-gap.test.ts).
    c.chunk(p, ev('2', message('b')) + ev('3', result(2)));
    c.end(p);
    const s = analyzeRecords(c.records);
    expect(codes(s)).toEqual(['capture-gap']);
    expect(s.streams[`tab1:${p}`]!.captureIncomplete).toBe(true);
    expect(req(s, '2').verdict).toBe('complete-unverified');
    expect(s.markers.some((m) => m.kind === 'capture-gap')).toBe(true);
  });

  it('a resync event before the result: the gap is reported, the result is not lossy-accepted', () => {
    const c = new Capture();
    initSession(c);
    const p = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(p);
    c.chunk(p, ev('1', message('a')) + ev('2', message('b')));
    c.end(p, 'network-error');
    const g = c.request({ sessionId: 'sess-1', lastEventId: '2' });
    c.response(g);
    c.chunk(g, ev(undefined, { reason: 'replay-incomplete' }, 'resync') + ev('5', message('e')) + ev('6', result(2)));
    c.end(g);
    const s = analyzeRecords(c.records);
    expect(codes(s)).toEqual(['replay-gap']);
    expect(req(s, '2').verdict).toBe('complete-unverified');
    expect(s.sessions[0]!.losslessReasons.join(' ')).toMatch(/resync/);
  });

  it('cumulative / idempotent classification is configurable', () => {
    const c = new Capture();
    initSession(c);
    cutAndResume(c, { replayFrom: 14 });
    const s = analyzeRecords(c.records, { idempotentNotifications: ['notifications/progress', 'notifications/message'] });
    expect(codes(s)).toEqual(['replay-gap']);
    expect(req(s, '2').cumulativeCount).toBe(0);
  });

  it('an id scheme override per origin', () => {
    const c = new Capture();
    initSession(c);
    cutAndResume(c, { idOf: (i) => `k${(i * 37) % 11}-${i}`, replayFrom: 14 });
    expect(analyzeRecords(c.records).sessions[0]!.idScheme.kind).not.toBe('contiguous');
    const s = analyzeRecords(c.records, { idSchemeOverrides: [{ origin: 'http://127.0.0.1:3939', pattern: '^k\\d+-(?<counter>\\d+)$' }] });
    expect(s.sessions[0]!.idScheme).toMatchObject({ kind: 'contiguous', scope: 'session' });
    expect(codes(s)).toEqual(['replay-gap', 'lossy-result-accepted']);
  });

  it('EventSource records map to events directly', () => {
    const c = new Capture();
    const conn = c.request({ transport: 'eventsource', url: 'http://127.0.0.1:3939/sse' });
    c.response(conn);
    for (const id of ['1', '2', '3', '5', '6']) {
      c.records.push({ seq: 900, src: 'tab1', t: 5000, kind: 'es-event', conn, type: 'message', data: '{"jsonrpc":"2.0","method":"notifications/message","params":{}}', lastEventId: id });
    }
    const s = analyzeRecords(c.records);
    const st = Object.values(s.streams)[0]!;
    expect(st.kind).toBe('eventsource');
    expect(st.events.map((e) => e.id)).toEqual(['1', '2', '3', '5', '6']);
    expect(codes(s)).toEqual(['live-gap']);
    // The browser dispatches only the types the page listens to: id 4 may have been an event of
    // another type, which the hook never sees. A warning that says so, not the server's drop.
    expect(s.findings[0]).toMatchObject({ severity: 'warning', missing: '4' });
    expect(s.findings[0]!.message).toContain('of a type the page does not listen to');
  });

  it('an EventSource stream from a HAR (DevTools lists every event it parsed) keeps a gap an error', () => {
    const c = new Capture();
    const conn = c.request({ transport: 'import', url: 'http://127.0.0.1:3939/sse', headers: [['accept', 'text/event-stream']] });
    c.response(conn);
    for (const id of ['1', '2', '3', '5', '6']) {
      c.records.push({ seq: 900, src: 'tab1', t: 5000, kind: 'es-event', conn, type: 'message', data: '{"jsonrpc":"2.0","method":"notifications/message","params":{}}', lastEventId: id });
    }
    const s = analyzeRecords(c.records);
    expect(s.findings.map((f) => [f.code, f.severity])).toEqual([['live-gap', 'error']]);
  });
});

describe('EventSource reconnects', () => {
  it('links the browser reconnect and does not take the kept lastEventId for a new id', () => {
    const c = new Capture();
    const first = c.request({ transport: 'eventsource', url: 'http://127.0.0.1:3939/sse' });
    c.response(first);
    const es = (conn: string, lastEventId: string, data = JSON.stringify(message('x'))) =>
      c.records.push({ seq: 0, src: 'tab1', t: 0, kind: 'es-event', conn, type: 'message', data, lastEventId });
    es(first, '1');
    es(first, '2');
    c.end(first, 'network-error');
    const again = c.request({ transport: 'eventsource', url: 'http://127.0.0.1:3939/sse', reconnectOf: first });
    c.response(again);
    es(again, '2'); // an event without id: the browser still reports 2
    es(again, '3');
    const s = analyzeRecords(c.records);
    const st = s.streams[`tab1:${again}`]!;
    expect(st).toMatchObject({ kind: 'eventsource', resumes: `tab1:${first}`, lastEventIdSent: '2' });
    expect(st.events.map((e) => e.id)).toEqual([undefined, '3']);
    expect(codes(s)).toEqual([]); // 1, 2, 3: contiguous, verified
  });
});

describe('snapshot', () => {
  it('returns the same object until something changes and is JSON-serialisable', () => {
    const c = new Capture();
    initSession(c);
    const a = createAnalyzer();
    a.pushAll(c.records);
    const s1 = a.snapshot();
    expect(a.snapshot()).toBe(s1);
    expect(JSON.parse(JSON.stringify(s1))).toEqual(s1);
    cutAndResume(c);
    a.pushAll(c.records.slice(4));
    const s2 = a.snapshot();
    expect(s2).not.toBe(s1);
    expect(s2.revision).toBeGreaterThan(s1.revision!);
    // an untouched stream keeps its object
    expect(s2.streams['tab1:c1']).toBe(s1.streams['tab1:c1']);
  });
});

describe('live capture: a response the capture does not follow is not an open stream', () => {
  it('the 202 to notifications/initialized (no chunk, no end by contract) does not keep gaps pending', async () => {
    const { readFileSync } = await import('node:fs');
    const file = JSON.parse(readFileSync('test/fixtures/captures/lossy.capture.json', 'utf8'));
    const none = file.records.filter((r: CaptureRecord) => r.kind === 'response' && r.capture === 'none');
    expect(none.length).toBeGreaterThan(0); // the capture has such a response, never ended
    const a = createAnalyzer();
    a.pushAll(file.records); // no finish(): a live capture whose streams all ended
    const s = a.snapshot();
    const gap = s.findings.filter((f) => f.code === 'replay-gap' || f.code === 'lossy-result-accepted');
    expect(gap.map((f) => f.code).sort()).toEqual(['lossy-result-accepted', 'replay-gap']);
    expect(gap.every((f) => !f.pending)).toBe(true);
  });
});

describe('capture-gap wording', () => {
  it('a gap without a count never says "lost 0 records"', () => {
    const gap = (reason: 'event-size-cap' | 'extension-reloaded', seq: number): CaptureRecord => ({ kind: 'capture-gap', seq, src: 'p', t: seq, lost: 0, conns: [], reason });
    const s = analyzeRecords([gap('event-size-cap', 1), gap('extension-reloaded', 2)]);
    const msgs = s.findings.filter((f) => f.code === 'capture-gap').map((f) => f.message);
    expect(msgs).toHaveLength(2);
    expect(msgs.some((m) => /lost 0/.test(m))).toBe(false);
    expect(msgs[0]).toMatch(/size cap/);
    expect(msgs[1]).toMatch(/reloaded/);
  });
});

// Hostile JSON-RPC: data that is not JSON, batches (empty, nested junk), huge and duplicate ids,
// responses without a request, requests answered twice, notifications without params, ids of
// mixed types (1 and "1" stay different through the whole pipeline: requests, findings, CLI
// --json), and keys like __proto__ / constructor coming from the page.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeRecords, createAnalyzer } from '../../../src/core/analyzer';
import { decodeJsonRpc } from '../../../src/core/jsonrpc';
import { main } from '../../../src/cli/main';
import { toAuditJson } from '../../../src/cli/report';
import type { AnalysisSnapshot } from '../../../src/core/model';
import { Capture, call, ev, initSession, message, progress, result } from '../core/helpers';

const tmp = mkdtempSync(join(tmpdir(), 'msi-hostile-'));

async function auditJson(records: unknown[]): Promise<{ code: number; json: ReturnType<typeof toAuditJson>; stderr: string }> {
  const file = join(tmp, `c${Math.random().toString(36).slice(2)}.capture.json`);
  writeFileSync(file, JSON.stringify({ format: 'mcp-stream-inspector', version: 1, createdAt: '', records }));
  let stdout = '';
  let stderr = '';
  const code = await main(['audit', file, '--json', '--fail-on', 'never'], { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s) });
  return { code, json: JSON.parse(stdout || 'null'), stderr };
}

const reqs = (s: AnalysisSnapshot, key = 'sess-1') => s.requests[key] ?? [];

describe('decodeJsonRpc', () => {
  it('never throws, and classifies anything', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.jsonValue().map((v) => JSON.stringify(v))), (text) => {
        const d = decodeJsonRpc(text);
        expect(Array.isArray(d.messages)).toBe(true);
        if (d.error !== undefined) expect(d.messages).toEqual([]);
        for (const m of d.messages) expect(['request', 'notification', 'result', 'error', 'invalid']).toContain(m.summary.kind);
      }),
      { numRuns: 2000 },
    );
  });

  it('non-JSON data gives an error text, whether or not it looks like JSON at first', () => {
    for (const t of ['x', 'hello world', '<script>alert(1)</script>', '{', '{"a":', 'tru', '[1,', '\u0000', ' \n ', '😀']) {
      const d = decodeJsonRpc(t);
      expect(d.messages, t).toEqual([]);
      expect(typeof d.error, t).toBe('string');
    }
  });

  it('batches: empty, nested junk and valid members side by side', () => {
    expect(decodeJsonRpc('[]')).toEqual({ messages: [] });
    const d = decodeJsonRpc(JSON.stringify([[1, 2], { a: 1 }, null, 'x', 3, [], { jsonrpc: '2.0', id: 1, result: {} }, { jsonrpc: '2.0', method: 'notifications/message' }]));
    expect(d.messages.map((m) => m.summary.kind)).toEqual(['invalid', 'invalid', 'invalid', 'invalid', 'invalid', 'invalid', 'result', 'notification']);
    expect(d.messages[6]!.summary.id).toBe('1');
  });

  it('ids: 1 and "1" differ; non-finite and non-scalar ids are no ids', () => {
    expect(decodeJsonRpc('{"jsonrpc":"2.0","id":1,"result":{}}').messages[0]!.summary.id).toBe('1');
    expect(decodeJsonRpc('{"jsonrpc":"2.0","id":"1","result":{}}').messages[0]!.summary.id).toBe('"1"');
    expect(decodeJsonRpc('{"jsonrpc":"2.0","id":1e400,"method":"x"}').messages[0]!.summary.id).toBeUndefined();
    expect(decodeJsonRpc('{"jsonrpc":"2.0","id":{"a":1},"method":"x"}').messages[0]!.summary.id).toBeUndefined();
    expect(decodeJsonRpc('{"jsonrpc":"2.0","id":[1],"result":{}}').messages[0]!.summary.id).toBeUndefined();
    expect(decodeJsonRpc('{"jsonrpc":"2.0","id":null,"error":{"code":-32700}}').messages[0]!.summary).toEqual({ kind: 'error', id: 'null' });
  });
});

describe('through the analyzer', () => {
  it('data that is not JSON is kept as an event with jsonError; the result still arrives', () => {
    const c = new Capture();
    initSession(c);
    const p = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(p);
    c.chunk(p, ev('1', 'not json') + ev('2', '{"jsonrpc":') + ev('3', '<img src=x onerror=alert(1)>') + ev('4', message('m')) + ev('5', result(2)));
    c.end(p);
    const s = analyzeRecords(c.records);
    const st = s.streams[`tab1:${p}`]!;
    expect(st.events.map((e) => e.jsonError !== undefined)).toEqual([true, true, true, false, false]);
    expect(st.events.at(2)!.data).toBe('<img src=x onerror=alert(1)>');
    expect(reqs(s).find((r) => r.id === '2')).toMatchObject({ verdict: 'complete', response: 'result', cumulativeCount: 1 });
  });

  it('batches in a request body and in event data, with junk members; an empty batch', () => {
    const c = new Capture();
    initSession(c);
    const p = c.request({ sessionId: 'sess-1', body: [call(2), 'junk', [call(9)], null, call('b')] });
    c.response(p);
    c.chunk(p, ev('1', []) + ev('2', [progress(2, 1), 7, { x: 1 }, message('m')]) + ev('3', [result(2), result('b'), [result(9)]]));
    c.end(p);
    const s = analyzeRecords(c.records);
    // [call(9)] nested in the batch is junk, not a request.
    expect(reqs(s).map((r) => [r.id, r.verdict])).toEqual([
      ['0', 'complete'],
      ['2', 'complete'],
      ['"b"', 'complete'],
    ]);
    expect(s.findings.filter((f) => f.severity === 'error')).toEqual([]);
  });

  it('huge ids: beyond 2^53 (as a JavaScript client reads them), 1e400 (no id), a 100 kB string', () => {
    const big = '12345678901234567890';
    const long = 'k'.repeat(100_000);
    const c = new Capture();
    initSession(c);
    const p = c.request({ sessionId: 'sess-1', body: `[{"jsonrpc":"2.0","id":${big},"method":"tools/call","params":{}},{"jsonrpc":"2.0","id":1e400,"method":"tools/call"},${JSON.stringify(call(long))}]` });
    c.response(p);
    c.chunk(p, ev('1', `{"jsonrpc":"2.0","id":${big},"result":{}}`) + ev('2', '{"jsonrpc":"2.0","id":1e400,"result":{}}') + ev('3', result(long)));
    c.end(p);
    const s = analyzeRecords(c.records);
    const ids = reqs(s).map((r) => r.id);
    expect(ids).toEqual(['0', JSON.stringify(Number(big)), JSON.stringify(long)]);
    expect(reqs(s).every((r) => r.verdict === 'complete')).toBe(true);
  });

  it('responses without a request invent no request; a request answered twice is a duplicate', () => {
    const c = new Capture();
    initSession(c);
    const p = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(p);
    c.chunk(p, ev('1', result(99)) + ev('2', { jsonrpc: '2.0', id: 98, error: { code: 1, message: 'x' } }) + ev('3', result(2)) + ev('4', result(2, { other: true })));
    c.end(p);
    const s = analyzeRecords(c.records);
    expect(reqs(s).map((r) => r.id)).toEqual(['0', '2']);
    const dup = s.findings.filter((f) => f.code === 'replay-duplicate');
    expect(dup).toHaveLength(1);
    expect(dup[0]).toMatchObject({ requestId: '2', eventIds: ['4'] });
    expect(reqs(s)[1]).toMatchObject({ verdict: 'complete' });
  });

  it('duplicate ids in flight: each response goes to the request its own stream carried', () => {
    const c = new Capture();
    initSession(c);
    const a = c.request({ sessionId: 'sess-1', body: call(5, 'a', 'ta') });
    const b = c.request({ sessionId: 'sess-1', body: call(5, 'b', 'tb') });
    c.response(a);
    c.response(b);
    c.chunk(a, ev('1', result(5)));
    c.end(a);
    c.chunk(b, ev('2', result(5)));
    c.end(b);
    const s = analyzeRecords(c.records);
    const fives = reqs(s).filter((r) => r.id === '5');
    expect(fives.map((r) => [r.streamId, r.responseStreamId, r.verdict])).toEqual([
      [`tab1:${a}`, `tab1:${a}`, 'complete'],
      [`tab1:${b}`, `tab1:${b}`, 'complete'],
    ]);
    expect(s.findings).toEqual([]);
  });

  it('notifications without params (progress without a token, message without data) break nothing', () => {
    const c = new Capture();
    initSession(c);
    const p = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(p);
    c.chunk(p, ev('1', { jsonrpc: '2.0', method: 'notifications/progress' }) + ev('2', { jsonrpc: '2.0', method: 'notifications/message' }) + ev('3', { jsonrpc: '2.0', method: 'notifications/progress', params: null }) + ev('4', { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 2 } }) + ev('5', result(2)));
    c.end(p);
    const s = analyzeRecords(c.records);
    const r = reqs(s).find((x) => x.id === '2')!;
    expect(r.verdict).toBe('complete');
    expect(r.notifications.length).toBe(4);
    expect(r.cumulativeCount).toBe(1);
    expect(s.findings).toEqual([]);
  });

  it('ids 1 and "1" stay different: requests, responses, findings and CLI --json', async () => {
    const c = new Capture();
    initSession(c);
    const a = c.request({ sessionId: 'sess-1', body: call(1, 'one', 't1') });
    const b = c.request({ sessionId: 'sess-1', body: call('1', 'str', 't2') });
    c.response(a);
    c.response(b);
    // "1" answered (on a's stream, wrongly), 1 never: a stays without a result.
    c.chunk(a, ev('1', result('1')));
    c.end(a);
    c.end(b);
    const s = analyzeRecords(c.records);
    const r = reqs(s);
    expect(r.map((x) => [x.id, x.verdict])).toEqual([
      ['0', 'complete'],
      ['1', 'incomplete'],
      ['"1"', 'complete'],
    ]);
    expect(s.findings.filter((f) => f.code === 'result-missing').map((f) => f.requestId)).toEqual(['1']);
    const { json, code } = await auditJson(c.records);
    expect(code).toBe(0);
    expect(json.sessions[0]!.requests.map((x) => [x.id, typeof x.id, x.verdict])).toEqual([
      [0, 'number', 'complete'],
      [1, 'number', 'incomplete'],
      ['1', 'string', 'complete'],
    ]);
    expect(json.findings.find((f) => f.code === 'result-missing')!.requestId).toBe(1);
    // progress tokens: 1 and "1" are different tokens too
    const d = new Capture();
    initSession(d);
    const x = d.request({ sessionId: 'sess-1', body: call(7, 'x', 1) });
    const y = d.request({ sessionId: 'sess-1', body: call(8, 'y', '1') });
    d.response(x);
    d.response(y);
    d.chunk(x, ev('1', progress('1', 5)) + ev('2', progress(1, 3)));
    d.chunk(y, ev('3', progress('1', 6)));
    const t = analyzeRecords(d.records);
    expect(reqs(t).find((q) => q.id === '7')!.notifications).toEqual([[`tab1:${x}`, 1]]);
    expect(reqs(t).find((q) => q.id === '8')!.notifications).toEqual([
      [`tab1:${x}`, 0],
      [`tab1:${y}`, 0],
    ]);
    expect(t.findings.filter((f) => f.code === 'progress-regressed')).toEqual([]);
  });
});

describe('page data as object keys', () => {
  const KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '__defineGetter__', 'valueOf'];

  it('session ids, ids, methods, tokens, headers and event names named like Object.prototype members', async () => {
    for (const k of KEYS) {
      const c = new Capture();
      const init = c.request({ body: { jsonrpc: '2.0', id: k, method: 'initialize', params: { protocolVersion: k } }, headers: [[k, k]] });
      c.response(init, { sessionId: k, headers: [[k, k]] });
      c.chunk(init, ev(k, { jsonrpc: '2.0', id: k, result: { protocolVersion: '2025-11-25', capabilities: { experimental: { [k]: true } } } }, k === '__proto__' ? undefined : undefined));
      c.end(init);
      const p = c.request({ sessionId: k, body: { jsonrpc: '2.0', id: k, method: k, params: { _meta: { progressToken: k } } }, headers: [[k, k]] });
      c.response(p, { headers: [[k, k]] });
      c.chunk(p, ev('1', { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: k, progress: 1 } }) + ev('2', { jsonrpc: '2.0', method: k, params: { [k]: k } }, k) + ev('3', { jsonrpc: '2.0', id: k, result: { [k]: 1 } }));
      c.end(p);
      const g = c.request({ sessionId: k, lastEventId: k });
      c.response(g, { status: 404 });
      c.end(g);
      const s = analyzeRecords(c.records);
      expect(Object.keys(s.requests), k).toEqual([k]);
      expect(Object.prototype.hasOwnProperty.call(s.requests, k), k).toBe(true);
      expect(s.requests[k]!.map((r) => [r.id, r.method, r.verdict]), k).toEqual([
        [JSON.stringify(k), 'initialize', 'complete'],
        [JSON.stringify(k), k, 'complete'],
      ]);
      expect(s.sessions.map((x) => x.sessionId)).toEqual([k]);
      // JSON keeps the key as an own property, and reading it back gives the same snapshot.
      const back = JSON.parse(JSON.stringify(s)) as AnalysisSnapshot;
      expect(back.requests[k]).toEqual(s.requests[k]);
      const { json } = await auditJson(c.records);
      expect(json.sessions.map((x) => [x.sessionId, x.requests.length])).toEqual([[k, 2]]);
      expect(json.findings.every((f) => f.sessionId === k)).toBe(true);
    }
    // nothing leaked into Object.prototype
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(Object.prototype)).toEqual([]);
  });

  it('a missing key reads as missing, not as an Object.prototype member', () => {
    const s = createAnalyzer().snapshot();
    expect(s.requests['constructor']).toBeUndefined();
    expect(s.streams['toString']).toBeUndefined();
    expect(s.requests['__proto__']).toBeUndefined();
  });

  it('a gapless capability path naming __proto__ or constructor does not find Object.prototype', () => {
    for (const path of [['__proto__'], ['constructor'], ['experimental', 'constructor'], ['toString']]) {
      const c = new Capture();
      initSession(c);
      const a = createAnalyzer({ gaplessCapabilityPath: path });
      a.pushAll(c.records);
      a.finish();
      expect(a.snapshot().sessions[0]!.gaplessDeclared, path.join('.')).toBe(false);
    }
  });

  it('JSON with a "__proto__" key pollutes nothing when decoded and analyzed', () => {
    const c = new Capture();
    initSession(c);
    const p = c.request({ sessionId: 'sess-1', body: '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"__proto__":{"polluted":1},"_meta":{"__proto__":{"progressToken":9}}}}' });
    c.response(p);
    c.chunk(p, ev('1', '{"jsonrpc":"2.0","method":"notifications/progress","params":{"__proto__":{"progressToken":9,"progress":1}}}') + ev('2', '{"__proto__":{"jsonrpc":"2.0","id":2,"result":{}}}') + ev('3', result(2)));
    c.end(p);
    const s = analyzeRecords(c.records);
    const r = reqs(s).find((x) => x.id === '2')!;
    // The token hidden under __proto__ is no token; the result under __proto__ is no result.
    expect(r.progressToken).toBeUndefined();
    expect(r.responseStreamId).toBe(`tab1:${p}`);
    expect(s.findings.filter((f) => f.code === 'replay-duplicate')).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).progressToken).toBeUndefined();
  });
});

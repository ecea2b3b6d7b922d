// Issue 19, items 3-6, on hand-built captures (each fails on main: the codes did not exist). The
// same cases from real SDK clients: test/unit/fixtures/client-use-fixtures.test.ts.
import { describe, expect, it } from 'vitest';
import { analyzeRecords, createAnalyzer } from '../../../src/core/analyzer';
import type { Header } from '../../../src/core/record';
import { Capture, call, ev, initSession, message, progress, result } from './helpers';

const codes = (s: ReturnType<typeof analyzeRecords>) => s.findings.map((f) => f.code);
const PV = '2026-07-28';
const meta = { 'io.modelcontextprotocol/protocolVersion': PV, 'io.modelcontextprotocol/clientInfo': { name: 'agent', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
const rpc = (id: number | string, method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } });
const mh = (method: string, name?: string): Header[] => [['mcp-protocol-version', PV], ['mcp-method', method], ...(name ? ([['mcp-name', name]] as Header[]) : [])];
function mpost(c: Capture, body: ReturnType<typeof rpc>, events: unknown[], how: 'complete' | 'network-error' = 'complete', status?: number) {
  const p = c.request({ body, headers: mh(body.method, (body.params as { name?: string }).name) });
  c.response(p, status ? { status } : {});
  for (const e of events) c.chunk(p, ev(undefined, e));
  c.end(p, how);
  return p;
}
const H: Header[] = [['mcp-protocol-version', '2025-11-25']];

describe('resume-cursor-lost (item 3, typescript-sdk #2499)', () => {
  function lostCursor(getStatus: number, resultOnGet: boolean) {
    const c = new Capture();
    initSession(c);
    const post = c.request({ sessionId: 'sess-1', body: call(2), headers: H });
    c.response(post);
    c.chunk(post, ev('1', '') + ev('2', progress(2, 1)) + ev('3', message('part 1')));
    c.end(post, 'network-error');
    const g1 = c.request({ sessionId: 'sess-1', lastEventId: '3', headers: H });
    c.response(g1);
    c.end(g1, 'network-error'); // dropped before any id-bearing event
    const g2 = c.request({ sessionId: 'sess-1', headers: H }); // no Last-Event-ID
    c.response(g2, getStatus === 200 ? {} : { status: getStatus });
    if (getStatus === 200 && resultOnGet) c.chunk(g2, ev('9', result(2, { content: [{ type: 'text', text: 'done' }] })));
    c.end(g2, 'page-aborted');
    return { snap: analyzeRecords(c.records), g1, g2 };
  }
  it('a resumed stream cut before any id, then a GET without Last-Event-ID: one finding naming both streams and the cursor', () => {
    const { snap } = lostCursor(200, false);
    const f = snap.findings.filter((x) => x.code === 'resume-cursor-lost');
    expect(f).toHaveLength(1);
    expect(f[0]!.severity).toBe('warning');
    expect(f[0]!.requestId).toBe('2');
    expect(f[0]!.eventIds).toEqual(['3']);
    expect(f[0]!.message).toMatch(/WITHOUT Last-Event-ID/);
    expect(f[0]!.message).toMatch(/new standalone stream/);
    expect(f[0]!.message).toMatch(/never arrived/);
  });
  it('says what the server answered (409) and does not claim a result the capture holds never arrived', () => {
    expect(lostCursor(409, false).snap.findings.find((x) => x.code === 'resume-cursor-lost')!.message).toMatch(/409 Conflict/);
    const m = lostCursor(200, true).snap.findings.find((x) => x.code === 'resume-cursor-lost')!.message;
    expect(m).toMatch(/arrived on/);
    expect(m).not.toMatch(/never arrived/);
  });
  it('a resume with the cursor is no finding', () => {
    const c = new Capture();
    initSession(c);
    const post = c.request({ sessionId: 'sess-1', body: call(2), headers: H });
    c.response(post);
    c.chunk(post, ev('1', progress(2, 1)));
    c.end(post, 'network-error');
    const g = c.request({ sessionId: 'sess-1', lastEventId: '1', headers: H });
    c.response(g);
    c.chunk(g, ev('2', result(2)));
    c.end(g);
    expect(codes(analyzeRecords(c.records))).not.toContain('resume-cursor-lost');
  });
});

describe('listen-narrowed (item 6, typescript-sdk #2650)', () => {
  const listen = (c: Capture, id: string, asked: Record<string, unknown>, honoured: Record<string, unknown>, end: boolean) => {
    const sub = { 'io.modelcontextprotocol/subscriptionId': id };
    const evs: unknown[] = [{ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: honoured, _meta: sub } }];
    if (end) evs.push(result(id, { resultType: 'complete', _meta: sub }));
    return mpost(c, rpc(id, 'subscriptions/listen', { notifications: asked }), evs);
  };
  it('an empty honoured set is an error; a smaller one a warning naming what will never arrive; an equal one nothing', () => {
    const c = new Capture();
    mpost(c, rpc('probe', 'server/discover'), [result('probe', { supportedVersions: [PV], capabilities: {} })]);
    listen(c, 'listen:0', { promptsListChanged: true }, {}, true);
    listen(c, 'listen:1', { toolsListChanged: true, promptsListChanged: true }, { toolsListChanged: true }, true);
    listen(c, 'listen:2', { toolsListChanged: true }, { toolsListChanged: true }, true);
    const s = analyzeRecords(c.records);
    const f = s.findings.filter((x) => x.code === 'listen-narrowed');
    expect(f.map((x) => [x.requestId, x.severity])).toEqual([
      ['"listen:0"', 'error'],
      ['"listen:1"', 'warning'],
    ]);
    expect(f[0]!.message).toMatch(/EMPTY honoured set/);
    expect(f[1]!.message).toMatch(/prompts\/list/);
    expect(f[1]!.message).not.toMatch(/tools\/list,/);
    expect(f[0]!.eventIndex).toBe(0);
  });
});

describe('client-retry-loop (item 5)', () => {
  it('a 2026-07-28 re-issue after every break: one finding with the count and the intervals', () => {
    const c = new Capture();
    mpost(c, rpc('probe', 'server/discover'), [result('probe', { supportedVersions: [PV], capabilities: {} })]);
    for (let i = 1; i <= 4; i++) mpost(c, rpc(i, 'tools/call', { name: 'long_task', arguments: { n: 3 } }), [message(`part ${i}`)], 'network-error');
    const s = analyzeRecords(c.records);
    const f = s.findings.filter((x) => x.code === 'client-retry-loop');
    expect(f).toHaveLength(1);
    expect(f[0]!.requestId).toBe('4');
    expect(f[0]!.relatedRequestIds).toEqual(['1', '2', '3']);
    expect(f[0]!.message).toMatch(/4 times in a row, re-issuing it after each broken attempt, without success/);
    expect(f[0]!.message).toMatch(/NO growing back-off/);
  });
  it('two attempts are no loop; attempts with a growing back-off that succeed are none either', () => {
    const c = new Capture();
    mpost(c, rpc('probe', 'server/discover'), [result('probe', { supportedVersions: [PV], capabilities: {} })]);
    mpost(c, rpc(1, 'tools/call', { name: 'x', arguments: {} }), [], 'network-error');
    mpost(c, rpc(2, 'tools/call', { name: 'x', arguments: {} }), [result(2)]);
    expect(codes(analyzeRecords(c.records))).not.toContain('client-retry-loop');
    const d = new Capture();
    mpost(d, rpc('probe', 'server/discover'), [result('probe', { supportedVersions: [PV], capabilities: {} })]);
    for (let i = 1; i <= 3; i++) {
      d.t += 1000 * 2 ** i;
      mpost(d, rpc(i, 'tools/call', { name: 'x', arguments: {} }), [], 'network-error');
    }
    d.t += 20_000;
    mpost(d, rpc(4, 'tools/call', { name: 'x', arguments: {} }), [result(4)]);
    expect(codes(analyzeRecords(d.records))).not.toContain('client-retry-loop');
  });
  it('intervals that grow by a few tens of ms (each attempt re-issued at once) are no back-off', () => {
    const c = new Capture();
    mpost(c, rpc('probe', 'server/discover'), [result('probe', { supportedVersions: [PV], capabilities: {} })]);
    for (const [i, gap] of [[1, 0], [2, 58], [3, 79]] as const) {
      c.t += gap;
      mpost(c, rpc(i, 'tools/call', { name: 'x', arguments: {} }), [], 'network-error');
    }
    const f = analyzeRecords(c.records).findings.filter((x) => x.code === 'client-retry-loop');
    expect(f).toHaveLength(1);
    expect(f[0]!.message).toMatch(/NO growing back-off/);
    expect(f[0]!.message).toMatch(/back off exponentially/i);
    // The same attempts a back-off apart (each interval 50 ms and 20 % longer than the one before) that then succeed: no finding.
    const d = new Capture();
    mpost(d, rpc('probe', 'server/discover'), [result('probe', { supportedVersions: [PV], capabilities: {} })]);
    for (const [i, gap] of [[1, 0], [2, 100], [3, 160]] as const) {
      d.t += gap;
      mpost(d, rpc(i, 'tools/call', { name: 'x', arguments: {} }), [], 'network-error');
    }
    d.t += 300;
    mpost(d, rpc(4, 'tools/call', { name: 'x', arguments: {} }), [result(4)]);
    expect(codes(analyzeRecords(d.records))).not.toContain('client-retry-loop');
  });
  it('a reconnect chain resumed again and again without a new event: one finding', () => {
    const c = new Capture();
    initSession(c);
    const post = c.request({ sessionId: 'sess-1', body: call(2), headers: H });
    c.response(post);
    c.chunk(post, ev('1', progress(2, 1)));
    c.end(post, 'network-error');
    for (let i = 0; i < 4; i++) {
      const g = c.request({ sessionId: 'sess-1', lastEventId: '1', headers: H });
      c.response(g);
      c.end(g, 'network-error');
    }
    const f = analyzeRecords(c.records).findings.filter((x) => x.code === 'client-retry-loop');
    expect(f).toHaveLength(1);
    expect(f[0]!.message).toMatch(/reconnected stream .* 4 times in a row after failures without success/);
  });
});

describe('lossy-output-carried (item 4)', () => {
  const LONG = 'The quarterly revenue grew by 12 percent in the northern region';
  it('a broken attempt\'s partial output fed into the next tool call: linked both ways, with the characters counted', () => {
    const c = new Capture();
    mpost(c, rpc('probe', 'server/discover'), [result('probe', { supportedVersions: [PV], capabilities: {} })]);
    mpost(c, rpc(1, 'tools/call', { name: 'long_task', arguments: {} }), [message(LONG)], 'network-error');
    mpost(c, rpc(2, 'tools/call', { name: 'summarize', arguments: { text: `Summarize: ${LONG}.` } }), [result(2)]);
    const s = analyzeRecords(c.records);
    const f = s.findings.filter((x) => x.code === 'lossy-output-carried');
    expect(f).toHaveLength(1);
    expect(f[0]!.severity).toBe('warning');
    expect(f[0]!.requestId).toBe('2');
    expect(f[0]!.relatedRequestIds).toEqual(['1']);
    expect(f[0]!.message).toContain(`arguments carry ${LONG.length} characters of request 1 (tools/call long_task)'s broken attempt's partial output`);
    const key = s.sessions[0]!.key;
    const reqs = s.requests[key]!;
    expect(reqs.find((r) => r.id === '2')!.carriesFrom).toBe('1');
    expect(reqs.find((r) => r.id === '1')!.carriedInto).toBe('2');
    expect(s.sessions[0]!.links!.find((l) => l.kind === 'carried')).toMatchObject({ from: '1', to: '2', chars: LONG.length });
  });
  it('an echo of what the page itself sent earlier, and short strings, are no finding', () => {
    const c = new Capture();
    mpost(c, rpc('probe', 'server/discover'), [result('probe', { supportedVersions: [PV], capabilities: {} })]);
    mpost(c, rpc(1, 'tools/call', { name: 'echo', arguments: { text: LONG } }), [message(LONG), message('short')], 'network-error');
    mpost(c, rpc(2, 'tools/call', { name: 'echo', arguments: { text: `${LONG} short` } }), [result(2)]);
    expect(codes(analyzeRecords(c.records))).not.toContain('lossy-output-carried');
  });
});

describe('issue 19, more shapes', () => {
  it('resume-cursor-lost: the same request sent again on a new POST instead of a resume', () => {
    const c = new Capture();
    initSession(c);
    const post = c.request({ sessionId: 'sess-1', body: call(2), headers: H });
    c.response(post);
    c.chunk(post, ev('1', '') + ev('2', progress(2, 1)));
    c.end(post, 'network-error');
    const again = c.request({ sessionId: 'sess-1', body: call(3, 'long_task', 3), headers: H });
    c.response(again);
    c.chunk(again, ev('3', result(3)));
    c.end(again);
    const f = analyzeRecords(c.records).findings.filter((x) => x.code === 'resume-cursor-lost');
    expect(f).toHaveLength(1);
    expect(f[0]!.message).toMatch(/sent the request again on POST .* instead of resuming/);
    expect(f[0]!.message).toMatch(/Last-Event-ID: 2/);
  });

  it('resume-cursor-lost: not for the standalone GET reconnecting after it broke too, nor after a cancellation', () => {
    const c = new Capture();
    initSession(c);
    const sa = c.request({ sessionId: 'sess-1', headers: H });
    c.response(sa);
    const post = c.request({ sessionId: 'sess-1', body: call(2), headers: H });
    c.response(post);
    c.chunk(post, ev('1', progress(2, 1)));
    c.end(post, 'network-error');
    c.end(sa, 'network-error');
    const sa2 = c.request({ sessionId: 'sess-1', headers: H });
    c.response(sa2);
    c.end(sa2, 'page-aborted');
    expect(codes(analyzeRecords(c.records))).not.toContain('resume-cursor-lost');
    const d = new Capture();
    initSession(d);
    const p2 = d.request({ sessionId: 'sess-1', body: call(2), headers: H });
    d.response(p2);
    d.chunk(p2, ev('1', progress(2, 1)));
    d.end(p2, 'network-error');
    const cancel = d.request({ sessionId: 'sess-1', body: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } }, headers: H });
    d.response(cancel, { status: 202 });
    const g = d.request({ sessionId: 'sess-1', headers: H });
    d.response(g);
    d.end(g, 'page-aborted');
    expect(codes(analyzeRecords(d.records))).not.toContain('resume-cursor-lost');
  });

  it('client-retry-loop: a re-listen after every drop (MCP Inspector #2097), one finding', () => {
    const c = new Capture();
    mpost(c, rpc('probe', 'server/discover'), [result('probe', { supportedVersions: [PV], capabilities: {} })]);
    const ack = (id: string) => ({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: { toolsListChanged: true }, _meta: { 'io.modelcontextprotocol/subscriptionId': id } } });
    for (let i = 0; i < 5; i++) mpost(c, rpc(`listen:${i}`, 'subscriptions/listen', { notifications: { toolsListChanged: true } }), [ack(`listen:${i}`)], 'network-error');
    const f = analyzeRecords(c.records).findings.filter((x) => x.code === 'client-retry-loop');
    expect(f).toHaveLength(1);
    expect(f[0]!.message).toMatch(/listened with subscriptions\/listen .* 5 times in a row, again after each drop, without success/);
  });

  it('client-retry-loop: a 2025 application retry after every error answer; the standalone GET reopened after every refusal', () => {
    const c = new Capture();
    initSession(c);
    for (let i = 2; i <= 4; i++) {
      const p = c.request({ sessionId: 'sess-1', body: { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'add', arguments: { a: 1 } } }, headers: H });
      c.response(p, { json: true });
      c.chunk(p, JSON.stringify({ jsonrpc: '2.0', id: i, error: { code: -32603, message: 'boom' } }));
      c.end(p);
    }
    for (let i = 0; i < 4; i++) {
      const g = c.request({ sessionId: 'sess-1', headers: H });
      c.response(g, { status: 409 });
    }
    const f = analyzeRecords(c.records).findings.filter((x) => x.code === 'client-retry-loop');
    expect(f.map((x) => /sent tools\/call add .* 3 times in a row, again after each failure/.test(x.message) || /reconnected the standalone GET stream .* 3 times/.test(x.message))).toEqual([true, true]);
  });

  it('lossy-output-carried: a legacy lossy result, fed into an MRTR-style retry and into the page\'s answer to a sampling request', () => {
    const c = new Capture();
    initSession(c);
    const LOST = 'Revenue figures for the northern region, partial list';
    const post = c.request({ sessionId: 'sess-1', body: call(2), headers: H });
    c.response(post);
    c.chunk(post, ev('1', progress(2, 1)) + ev('2', message(LOST)) + ev('3', progress(2, 2)));
    c.end(post, 'network-error');
    const get = c.request({ sessionId: 'sess-1', lastEventId: '3', headers: H });
    c.response(get);
    c.chunk(get, ev('6', progress(2, 4)) + ev('7', result(2, { content: [{ type: 'text', text: 'done' }] })));
    c.end(get);
    const retry = c.request({ sessionId: 'sess-1', body: { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'confirm', arguments: {}, inputResponses: { q: { content: { text: LOST } } } } }, headers: H });
    c.response(retry, { json: true });
    c.chunk(retry, JSON.stringify(result(5)));
    c.end(retry);
    const answer = c.request({ sessionId: 'sess-1', body: { jsonrpc: '2.0', id: 'srv-1', result: { role: 'assistant', content: { type: 'text', text: `Based on: ${LOST}` } } }, headers: H });
    c.response(answer, { status: 202 });
    const s = analyzeRecords(c.records);
    expect(codes(s)).toContain('lossy-result-accepted');
    const f = s.findings.filter((x) => x.code === 'lossy-output-carried');
    expect(f.map((x) => [x.severity, x.requestId])).toEqual([
      ['error', '5'],
      ['error', '2'],
    ]);
    expect(f[0]!.message).toMatch(/MRTR answers \(inputResponses\) carry 53 characters of request 2/);
    expect(f[1]!.message).toMatch(/^The page's answer to the server's request "srv-1" carries 53 characters of request 2 \(tools\/call long_task\)'s lossy result/);
  });

  it('listen-narrowed: resource subscriptions left out are named', () => {
    const c = new Capture();
    mpost(c, rpc('probe', 'server/discover'), [result('probe', { supportedVersions: [PV], capabilities: {} })]);
    const sub = { 'io.modelcontextprotocol/subscriptionId': 'l' };
    mpost(c, rpc('l', 'subscriptions/listen', { notifications: { toolsListChanged: true, resourceSubscriptions: ['file:///a.txt'] } }), [
      { jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: { toolsListChanged: true }, _meta: sub } },
    ]);
    const f = analyzeRecords(c.records).findings.filter((x) => x.code === 'listen-narrowed');
    expect(f).toHaveLength(1);
    expect(f[0]!.message).toMatch(/resources\/read file:\/\/\/a\.txt/);
  });
});

describe('issue 19: what is no finding', () => {
  it('lossy-output-carried: an identifier of the partial output (a uuid, a URI, a token) handed back is reuse, not carried text', () => {
    const c = new Capture();
    mpost(c, rpc('probe', 'server/discover'), [result('probe', { supportedVersions: [PV], capabilities: {} })]);
    const ID = '8f14e45f-ceea-467f-a9f0-3b5e2d1c0a77';
    const URI = 'https://example.test/reports/quarterly/2026/northern-region.pdf';
    mpost(c, rpc(1, 'tools/call', { name: 'start', arguments: {} }), [message(ID), message(URI)], 'network-error');
    mpost(c, rpc(2, 'tools/call', { name: 'status', arguments: { id: ID, uri: URI } }), [result(2)]);
    expect(codes(analyzeRecords(c.records))).not.toContain('lossy-output-carried');
  });

  it('client-retry-loop: the same failing request used again minutes apart is no loop', () => {
    const c = new Capture();
    mpost(c, rpc('probe', 'server/discover'), [result('probe', { supportedVersions: [PV], capabilities: {} })]);
    for (let i = 1; i <= 4; i++) {
      c.t += 5 * 60_000;
      mpost(c, rpc(i, 'resources/list'), [{ jsonrpc: '2.0', id: i, error: { code: -32601, message: 'Method not found' } }]);
    }
    expect(codes(analyzeRecords(c.records))).not.toContain('client-retry-loop');
  });
});

describe('client-retry-loop: a new session after every cut (hand-built: no fixture client re-initialises by itself)', () => {
  function reinit(n: number, lastOk: boolean) {
    const c = new Capture();
    for (let k = 1; k <= n; k++) {
      initSession(c, `sess-${k}`);
      const post = c.request({ sessionId: `sess-${k}`, body: call(2), headers: H });
      c.response(post);
      if (k === n && lastOk) {
        c.chunk(post, ev('1', result(2)));
        c.end(post);
      } else {
        c.chunk(post, ev('1', progress(2, 1)));
        c.end(post, 'network-error');
      }
      c.t += 100;
    }
    return c.records;
  }
  it('four sessions, each initialised after the previous one broke: one finding, on the last session, with three re-initialisations', () => {
    const s = analyzeRecords(reinit(4, false));
    const f = s.findings.filter((x) => x.code === 'client-retry-loop' && /new session/.test(x.message));
    expect(f).toHaveLength(1);
    expect(f[0]!.sessionId).toBe('sess-4');
    expect(f[0]!.message).toMatch(/initialised a new session at .* 3 times in a row, after each cut or expiry, without success; intervals between attempts: \d+ ms, \d+ ms, \d+ ms \(NO growing back-off\)/);
  });
  it('incremental equals fresh after every record (the earlier session drops the finding when the run grows)', () => {
    const records = reinit(5, false);
    const a = createAnalyzer();
    for (let i = 0; i < records.length; i++) {
      a.push(records[i]!);
      const fresh = createAnalyzer();
      fresh.pushAll(records.slice(0, i + 1));
      expect(a.snapshot().findings).toEqual(fresh.snapshot().findings);
    }
    a.finish();
    expect(a.snapshot().findings).toEqual(analyzeRecords(records).findings);
    expect(a.snapshot().findings.filter((x) => x.code === 'client-retry-loop')).toHaveLength(1);
  });
  it('two re-initialisations are no loop', () => {
    expect(codes(analyzeRecords(reinit(3, false)))).not.toContain('client-retry-loop');
  });
});

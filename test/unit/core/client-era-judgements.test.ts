// Client and era judgements in scenarios where the capture itself disproves a finding (a review of
// 2026-12-07 found each; every test failed on the code before).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeRecords } from '../../../src/core/analyzer';
import { importText } from '../../../src/core/import/index';
import type { Header } from '../../../src/core/record';
import { Capture, call, ev, initSession, message, result } from './helpers';

const codes = (s: ReturnType<typeof analyzeRecords>) => s.findings.map((f) => f.code);

const PV = '2026-07-28';
const meta = () => ({
  'io.modelcontextprotocol/protocolVersion': PV,
  'io.modelcontextprotocol/clientInfo': { name: 'agent', version: '1.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
});
const rpc = (id: number | string, method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta() } });
const headersFor = (method: string, name?: string): Header[] => [['mcp-protocol-version', PV], ['mcp-method', method], ...(name !== undefined ? ([['mcp-name', name]] as Header[]) : [])];
/** A modern POST answered with SSE `events`, left open. */
function open(c: Capture, body: ReturnType<typeof rpc>, events: unknown[]) {
  const p = c.request({ body, headers: headersFor(body.method, (body.params as { name?: string }).name) });
  c.response(p);
  for (const e of events) c.chunk(p, ev(undefined, e));
  return p;
}
function post(c: Capture, body: ReturnType<typeof rpc>, events: unknown[], how: 'complete' | 'network-error' | 'page-aborted' = 'complete') {
  const p = open(c, body, events);
  c.end(p, how);
  return p;
}
const discover = (c: Capture) => post(c, rpc('probe', 'server/discover'), [result('probe', { supportedVersions: [PV], capabilities: {} })]);

describe('MRTR retries (modern.ts mrtrKey linking)', () => {
  it('an input_required the user dismissed, then the same call again answered with ITS requestState: no request-state-altered; the dismissed one is the one not answered', () => {
    const c = new Capture();
    discover(c);
    const confirm = (id: number) => rpc(id, 'tools/call', { name: 'confirm_task', arguments: { task: 7 } });
    const ir = (id: number, rs: string) => result(id, { resultType: 'input_required', requestState: rs, inputRequests: { confirm: { method: 'elicitation/create' } } });
    post(c, confirm(1), [ir(1, 'rs-1')]); // dismissed: never retried
    post(c, confirm(2), [ir(2, 'rs-2')]); // the user tries again
    post(c, rpc(3, 'tools/call', { name: 'confirm_task', arguments: { task: 7 }, inputResponses: { confirm: { action: 'accept' } }, requestState: 'rs-2' }), [result(3)]);
    const s = analyzeRecords(c.records);
    expect(codes(s)).not.toContain('request-state-altered');
    expect(s.findings.filter((f) => f.code === 'input-not-answered').map((f) => f.requestId)).toEqual(['1']);
  });
});

describe('subscriptions/listen (modern.ts outage)', () => {
  it('a listen dropped while a second listen for the same list, opened before the drop, stays open and delivers: not "never listened again"', () => {
    const c = new Capture();
    discover(c);
    const ack = { jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: { toolsListChanged: true } } };
    const listen = (id: string) => rpc(id, 'subscriptions/listen', { notifications: { toolsListChanged: true } });
    const l1 = open(c, listen('l1'), [ack]);
    const l2 = open(c, listen('l2'), [ack]); // opened before l1 drops
    c.end(l1, 'network-error');
    c.chunk(l2, ev(undefined, { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: {} })); // delivered during the "outage"
    post(c, rpc(5, 'tools/list'), [result(5, { tools: [] })]);
    c.end(l2, 'page-aborted');
    const s = analyzeRecords(c.records);
    const f = s.findings.find((x) => x.code === 'subscription-dropped');
    expect(f?.message ?? '').not.toContain('never listened again');
    // a drop, but nothing of tools/list was lost: information, no outage, not a lossless reason
    // (string JSON-RPC ids are shown as JSON: "l1")
    expect(f).toMatchObject({ severity: 'info', requestId: '"l1"' });
    const sub = s.sessions[0]!.subscriptions!.find((x) => x.requestId === '"l1"')!;
    expect(sub).toMatchObject({ state: 'dropped', coveredBy: '"l2"' });
    expect(sub.outage).toBeUndefined();
    expect(codes(s)).not.toContain('lists-not-refetched');
  });
});

describe('tool re-run (client-reruns.ts) after attempts the browser never sent', () => {
  it('DevTools HAR: two tools/call attempts, each refused by the CORS preflight (status 0, net::ERR_FAILED): the capture says the browser never sent them', () => {
    const har = JSON.parse(readFileSync(new URL('../../fixtures/captures/browser/cors-preflight-rejected.devtools.har', import.meta.url), 'utf8')) as { log: { entries: Record<string, any>[] } };
    const entries = har.log.entries;
    const preflight = entries.at(-2)!; // OPTIONS answered without mcp-protocol-version allowed
    const failed = entries.at(-1)!; // the POST it refused (status 0, _error net::ERR_FAILED)
    const at = (ms: number) => new Date(Date.parse(failed.startedDateTime) + ms).toISOString();
    for (const [id, ms] of [[1, 1000], [2, 3000]] as const) {
      const pf = structuredClone(preflight);
      pf.startedDateTime = at(ms);
      const p = structuredClone(failed);
      p.startedDateTime = at(ms);
      p.request.postData.text = JSON.stringify({ method: 'tools/call', params: { name: 'purge_task', arguments: { id: 7 } }, jsonrpc: '2.0', id });
      p.request.bodySize = p.request.postData.text.length;
      entries.push(pf, p);
    }
    const s = analyzeRecords(importText(JSON.stringify(har)).records);
    expect(codes(s)).toContain('cors-preflight-rejected');
    expect(codes(s)).not.toContain('tool-rerun-risk');
    // nor did their streams break: no result was due from a server that never saw them
    expect(s.findings.filter((f) => f.code === 'result-missing' && (f.requestId === '1' || f.requestId === '2'))).toEqual([]);
    expect(Object.values(s.requests).flat().filter((r) => r.id === '1' || r.id === '2').map((r) => r.verdict)).toEqual(['incomplete', 'incomplete']);
  });
});

describe('result-not-taken (client-results.ts)', () => {
  it('a cancellation sent after the result arrived, and the next call carries that result verbatim: the client took it', () => {
    const c = new Capture();
    initSession(c);
    const text = 'report 8c1f7e2a-5d4b-4e0f-9a3c-71b2d9e4f6a8 ready for review';
    const p = c.request({ sessionId: 'sess-1', body: call(2, 'make_report') });
    c.response(p);
    c.chunk(p, ev('1', result(2, { content: [{ type: 'text', text }] })));
    c.end(p);
    const n = c.request({ sessionId: 'sess-1', body: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'timeout' } } });
    c.response(n, { status: 202 });
    c.end(n);
    const q = c.request({ sessionId: 'sess-1', body: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'send_report', arguments: { text } } } });
    c.response(q);
    c.chunk(q, ev('2', result(3)));
    c.end(q);
    const s = analyzeRecords(c.records);
    expect(codes(s)).not.toContain('result-not-taken');
  });
});

describe('resume-cursor-lost (client-cursor.ts)', () => {
  const build = (getEnd: 'complete' | 'network-error') => {
    const c = new Capture();
    initSession(c);
    const get = c.request({ sessionId: 'sess-1' }); // standalone GET, no ids on it
    c.response(get);
    const p = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(p);
    c.chunk(p, ev('1', message('a')) + ev('2', message('b')));
    c.end(p, 'network-error');
    c.end(get, getEnd);
    const get2 = c.request({ sessionId: 'sess-1' }); // the standalone stream reopened
    c.response(get2);
    return analyzeRecords(c.records);
  };
  it('control: the standalone GET broke and was reopened: not the POST chain losing its cursor (deliberate exclusion, passes)', () => {
    expect(codes(build('network-error'))).not.toContain('resume-cursor-lost');
  });
  it('the standalone GET closed cleanly (an idle close) and was reopened: no more the POST chain losing its cursor', () => {
    expect(codes(build('complete'))).not.toContain('resume-cursor-lost');
  });
  it("a GET refused with 405 is no standalone stream to reopen: the GET without a cursor after the break is the chain's (use-mcp)", () => {
    const c = new Capture();
    initSession(c);
    const p = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(p);
    const probe = c.request({ sessionId: 'sess-1' }); // the client's standalone GET, refused while the call runs
    c.response(probe, { status: 405, json: true });
    c.end(probe);
    c.chunk(p, ev('1', message('a')) + ev('2', message('b')));
    c.end(p, 'network-error');
    const bare = c.request({ sessionId: 'sess-1' }); // the broken call's reconnect, without its cursor
    c.response(bare);
    const s = analyzeRecords(c.records);
    expect(s.findings.filter((f) => f.code === 'resume-cursor-lost').map((f) => f.requestId)).toEqual(['2']);
  });
});

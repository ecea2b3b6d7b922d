// The 2026-07-28 stages (issue 12) on hand-built captures: what the SDK v2 fixtures do not produce
// (a non-SDK client's headers, a client's own cancellation, an input_required never retried, a
// re-listen without refetch while the capture is live, several clients on one endpoint, a GET
// answered 405 by a modern-only server, a session header on a modern request).
import { describe, expect, it } from 'vitest';
import { analyzeRecords, createAnalyzer } from '../../../src/core/analyzer';
import type { Header } from '../../../src/core/record';
import { Capture, ev, message, result } from './helpers';

const PV = '2026-07-28';
const meta = (client = 'agent') => ({
  'io.modelcontextprotocol/protocolVersion': PV,
  'io.modelcontextprotocol/clientInfo': { name: client, version: '1.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
});
const rpc = (id: number | string, method: string, params: Record<string, unknown> = {}, client = 'agent') => ({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta(client) } });
const headersFor = (method: string, name?: string, extra: Header[] = []): Header[] => [
  ['mcp-protocol-version', PV],
  ['mcp-method', method],
  ...(name !== undefined ? ([['mcp-name', name]] as Header[]) : []),
  ...extra,
];

/** A modern POST answered with SSE `events`, ended `how`. */
function post(c: Capture, body: ReturnType<typeof rpc>, events: unknown[], how: 'complete' | 'network-error' | 'page-aborted' = 'complete', headers?: Header[]) {
  const name = (body.params as { name?: string }).name;
  const p = c.request({ body, headers: headers ?? headersFor(body.method, name) });
  c.response(p);
  for (const e of events) c.chunk(p, ev(undefined, e));
  c.end(p, how);
  return p;
}

const discover = (c: Capture, client = 'agent') => post(c, rpc('probe', 'server/discover', {}, client), [result('probe', { supportedVersions: [PV], capabilities: {} })]);
const codes = (s: ReturnType<typeof analyzeRecords>) => s.findings.map((f) => f.code);

describe('2026-07-28 conversations', () => {
  it('groups by endpoint and _meta clientInfo: two clients of one page are two conversations of one modern server', () => {
    const c = new Capture();
    discover(c, 'a');
    discover(c, 'b');
    post(c, rpc(1, 'tools/list', {}, 'a'), [result(1, { tools: [] })]);
    const s = analyzeRecords(c.records);
    expect(s.sessions.map((x) => [x.era, x.client?.name])).toEqual([
      ['modern', 'a'],
      ['modern', 'b'],
    ]);
    expect(s.servers).toEqual([expect.objectContaining({ era: 'modern', sessionKeys: s.sessions.map((x) => x.key) })]);
    expect(s.requests[s.sessions[0]!.key]!.map((r) => r.method)).toEqual(['server/discover', 'tools/list']);
  });

  it('a stream the page closed itself is a cancellation: incomplete, no request-abandoned, no result-missing', () => {
    const c = new Capture();
    discover(c);
    post(c, rpc(1, 'tools/call', { name: 'long_task', arguments: {} }), [message('a')], 'page-aborted');
    const s = analyzeRecords(c.records);
    expect(codes(s)).toEqual([]);
    expect(s.requests[s.sessions[0]!.key]!.find((r) => r.id === '1')?.verdict).toBe('incomplete');
  });

  it('a re-issue without partial output: request-reissued only; a chain of two re-issues links each to the next', () => {
    const c = new Capture();
    discover(c);
    const call = (id: number) => rpc(id, 'tools/call', { name: 'long_task', arguments: { n: 1 } });
    post(c, call(1), [], 'network-error');
    post(c, call(2), [], 'network-error');
    post(c, call(3), [result(3)]);
    const s = analyzeRecords(c.records);
    // Each re-issue of long_task (no tools/list in the capture) may run it again (issue 19).
    expect(codes(s)).toEqual(['request-reissued', 'tool-rerun-risk', 'request-reissued', 'tool-rerun-risk']);
    expect(s.sessions[0]!.links!.map((l) => [l.from, l.to])).toEqual([
      ['1', '2'],
      ['2', '3'],
    ]);
    expect(s.requests[s.sessions[0]!.key]!.map((r) => r.verdict)).toEqual(['complete', 'incomplete', 'incomplete', 'complete']);
  });

  it('a different argument is no re-issue: the broken call is abandoned', () => {
    const c = new Capture();
    discover(c);
    post(c, rpc(1, 'tools/call', { name: 'long_task', arguments: { n: 1 } }), [message('a')], 'network-error');
    post(c, rpc(2, 'tools/call', { name: 'long_task', arguments: { n: 2 } }), [result(2)]);
    expect(codes(analyzeRecords(c.records))).toEqual(['request-abandoned']);
  });
});

describe('2026-07-28 findings', () => {
  it('input-not-answered: pending while live, a warning at the end', () => {
    const c = new Capture();
    discover(c);
    post(c, rpc(1, 'tools/call', { name: 'confirm_task', arguments: {} }), [result(1, { resultType: 'input_required', requestState: 'rs-1', inputRequests: { confirm: { method: 'elicitation/create' } } })]);
    const a = createAnalyzer();
    a.pushAll(c.records);
    expect(a.snapshot().findings).toEqual([expect.objectContaining({ code: 'input-not-answered', pending: true })]);
    a.finish();
    const f = a.snapshot().findings;
    expect(f).toEqual([expect.objectContaining({ code: 'input-not-answered', severity: 'warning' })]);
    expect(f[0]!.pending).toBeUndefined();
    expect(f[0]!.message).toContain('input requests confirm');
  });

  it('lists-not-refetched is pending while the capture is live; refetched lists clear it', () => {
    const listen = (id: string) => rpc(id, 'subscriptions/listen', { notifications: { toolsListChanged: true } });
    const ack = { jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: {} };
    const build = (refetch: boolean) => {
      const c = new Capture();
      discover(c);
      post(c, listen('l1'), [ack], 'network-error');
      post(c, listen('l2'), [ack], 'page-aborted');
      if (refetch) post(c, rpc(5, 'tools/list'), [result(5, { tools: [] })]);
      return c.records;
    };
    const live = createAnalyzer();
    live.pushAll(build(false));
    expect(live.snapshot().findings.map((f) => [f.code, !!f.pending])).toEqual([
      ['subscription-dropped', false],
      ['lists-not-refetched', true],
    ]);
    expect(codes(analyzeRecords(build(true)))).toEqual(['subscription-dropped']);
    const sub = analyzeRecords(build(true)).sessions[0]!.subscriptions![0]!;
    expect(sub).toMatchObject({ state: 'dropped', lists: ['tools/list'], outage: { relistenRequestId: '"l2"' } });
  });

  it('header-mismatch from the captured headers: Mcp-Method, MCP-Protocol-Version, a base64 Mcp-Name that agrees', () => {
    const c = new Capture();
    discover(c);
    post(c, rpc(1, 'tools/call', { name: 'long_task', arguments: {} }), [result(1)], 'complete', [
      ['mcp-protocol-version', '2025-11-25'],
      ['mcp-method', 'tools/list'],
      ['mcp-name', 'long_task'],
    ]);
    // "héllo" as =?base64?…?= agrees with the body: no finding.
    post(c, rpc(2, 'tools/call', { name: 'héllo', arguments: {} }), [result(2)], 'complete', headersFor('tools/call', `=?base64?${Buffer.from('héllo').toString('base64')}?=`));
    const s = analyzeRecords(c.records);
    expect(codes(s)).toEqual(['header-mismatch']);
    expect(s.findings[0]!.message).toContain('MCP-Protocol-Version "2025-11-25" but _meta names 2026-07-28');
    expect(s.findings[0]!.message).toContain('Mcp-Method "tools/list" but the body calls tools/call');
    expect(s.findings[0]!.requestId).toBe('1');
  });

  it('era-mismatch: a GET answered 405 by a modern-only server, and a modern request still carrying Mcp-Session-Id', () => {
    const c = new Capture();
    discover(c);
    const g = c.request({ method: 'GET' });
    c.response(g, { status: 405 });
    c.end(g);
    post(c, rpc(1, 'tools/list'), [result(1, { tools: [] })], 'complete', headersFor('tools/list', undefined, [['mcp-session-id', 'old-session']]));
    const s = analyzeRecords(c.records);
    expect(s.servers.map((x) => x.era)).toEqual(['modern']);
    const em = s.findings.filter((f) => f.code === 'era-mismatch');
    expect(em).toHaveLength(2);
    expect(em.map((f) => f.message).join('\n')).toMatch(/answered the GET with 405/);
    expect(em.map((f) => f.message).join('\n')).toMatch(/Mcp-Session-Id old-session, which a 2026-07-28 server ignores/);
  });

  it('a GET answered 405 by a stateless 2025 server is no era-mismatch', () => {
    const c = new Capture();
    const p = c.request({ body: { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } } });
    c.response(p);
    c.chunk(p, ev(undefined, result(0, { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } })));
    c.end(p);
    const g = c.request({ method: 'GET' });
    c.response(g, { status: 405 });
    c.end(g);
    const s = analyzeRecords(c.records);
    expect(codes(s)).toEqual([]);
    expect(s.sessions.map((x) => x.era)).toEqual(['legacy']);
  });
});

// Cases of the 2026-07-28 era and of the client judgements found in a review (2026-12-07): each
// failed on the build before its fix.
import { describe, expect, it } from 'vitest';
import { analyzeRecords } from '../../../src/core/analyzer';
import { subscriptionText } from '../../../src/core/presentation-eras';
import type { Header } from '../../../src/core/record';
import { Capture, ev, message, progress, result } from './helpers';

const PV = '2026-07-28';
const meta = (extra: Record<string, unknown> = {}) => ({
  'io.modelcontextprotocol/protocolVersion': PV,
  'io.modelcontextprotocol/clientInfo': { name: 'agent', version: '1.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
  ...extra,
});
const rpc = (id: number | string, method: string, params: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta(extra) } });
const hdr = (body: { method: string; params: Record<string, unknown> }): Header[] => {
  const h: Header[] = [['mcp-protocol-version', PV], ['mcp-method', body.method]];
  const n = body.params.name ?? body.params.uri;
  if (typeof n === 'string') h.push(['mcp-name', n]);
  return h;
};
function post(c: Capture, body: ReturnType<typeof rpc>, events: unknown[], how: 'complete' | 'network-error' | 'page-aborted' = 'complete', status?: number) {
  const p = c.request({ body, headers: hdr(body) });
  c.response(p, status ? { status } : {});
  for (const e of events) c.chunk(p, ev(undefined, e));
  c.end(p, how);
  return p;
}
const discover = (c: Capture) => post(c, rpc('probe', 'server/discover'), [result('probe', { supportedVersions: [PV], capabilities: {} })]);
const codes = (s: ReturnType<typeof analyzeRecords>) => s.findings.map((f) => f.code);
const ack = { jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: {} };

describe('modern era and client judgements: review cases', () => {
  it('F1 a re-issue whose params list the same members in another order is still the re-issue', () => {
    const c = new Capture();
    discover(c);
    post(c, rpc(1, 'tools/call', { name: 'transfer', arguments: { from: 'A', to: 'B', amount: 10 } }), [message('working')], 'network-error');
    post(c, rpc(2, 'tools/call', { arguments: { amount: 10, from: 'A', to: 'B' }, name: 'transfer' }), [result(2)]);
    const s = analyzeRecords(c.records);
    expect(codes(s)).not.toContain('request-abandoned'); // observed: request-abandoned (error)
    expect(codes(s)).toContain('request-reissued');
    expect(codes(s)).toContain('tool-rerun-risk'); // observed: missing
  });

  it('F2 text the client got from a complete re-issue result is not "partial output carried"', () => {
    const LONG = 'The quarterly revenue grew by 12 percent in the northern region';
    const c = new Capture();
    discover(c);
    post(c, rpc(1, 'tools/call', { name: 'report', arguments: { q: 'Q3' } }), [message(LONG)], 'network-error');
    post(c, rpc(2, 'tools/call', { name: 'report', arguments: { q: 'Q3' } }), [message(LONG), result(2, { content: [{ type: 'text', text: LONG }] })]);
    post(c, rpc(3, 'tools/call', { name: 'summarize', arguments: { text: LONG } }), [result(3)]);
    const s = analyzeRecords(c.records);
    expect(s.requests[s.sessions[0]!.key]!.find((r) => r.id === '2')!.verdict).toBe('complete');
    expect(codes(s)).not.toContain('lossy-output-carried'); // observed: warning accusing request 3
  });

  it('F3 a later listen for other things is not the re-listen of a dropped listen', () => {
    const c = new Capture();
    discover(c);
    post(c, rpc('A', 'subscriptions/listen', { notifications: { toolsListChanged: true } }), [ack], 'network-error');
    post(c, rpc('B', 'subscriptions/listen', { notifications: { resourceSubscriptions: ['file:///notes.txt'] } }), [ack], 'page-aborted');
    const s = analyzeRecords(c.records);
    const a = s.sessions[0]!.subscriptions!.find((x) => x.requestId === '"A"')!;
    expect(a.outage?.to).toBeUndefined(); // observed: outage ends at listen B
    expect(codes(s)).not.toContain('lists-not-refetched'); // observed: "after listening again (B)"
  });

  it('F4 a listen the server refused is neither "closed by the client" nor "ended with its complete result"', () => {
    const c = new Capture();
    discover(c);
    post(c, rpc('l1', 'subscriptions/listen', { notifications: { toolsListChanged: true } }), [], 'complete', 503);
    post(c, rpc('l2', 'subscriptions/listen', { notifications: { toolsListChanged: true } }), [{ jsonrpc: '2.0', id: 'l2', error: { code: -32603, message: 'internal error' } }]);
    const s = analyzeRecords(c.records);
    const subs = s.sessions[0]!.subscriptions!;
    // before: l1 'closed' ("closed by the client"), l2 'complete' ("ended with its complete result")
    expect(subs.map((x) => [x.requestId, x.state, x.refusal])).toEqual([
      ['"l1"', 'refused', { status: 503 }],
      ['"l2"', 'refused', { code: -32603, message: 'internal error' }],
    ]);
    expect(subs.map(subscriptionText)).toEqual([
      'listen "l1" (tools/list): REFUSED by the server: the client is not listening (HTTP 503), 0 change notification(s)',
      'listen "l2" (tools/list): REFUSED by the server: the client is not listening (error -32603: internal error), 0 change notification(s)',
    ]);
  });

  it('F4b a listen acknowledged, then ended by a JSON-RPC error: it was listening (no "never listened")', () => {
    const c = new Capture();
    discover(c);
    post(c, rpc('l3', 'subscriptions/listen', { notifications: { toolsListChanged: true } }), [ack, { jsonrpc: '2.0', id: 'l3', error: { code: -32603, message: 'gone' } }]);
    const s = analyzeRecords(c.records);
    const sub = s.sessions[0]!.subscriptions![0]!;
    expect(sub.state).toBe('refused');
    expect(subscriptionText(sub)).toContain('ENDED WITH AN ERROR from the server after listening (error -32603: gone)');
  });

  it('F5 progress on a request\'s own stream belongs to that request, whatever another request used as token', () => {
    const c = new Capture();
    discover(c);
    // two SDK Client instances of one page (same clientInfo, ids from 1, progressToken = id), concurrent calls
    const call = (tool: string) => rpc(1, 'tools/call', { name: tool, arguments: {} }, { progressToken: 1 });
    const x = c.request({ body: call('build'), headers: hdr(call('build')) });
    c.response(x);
    const y = c.request({ body: call('deploy'), headers: hdr(call('deploy')) });
    c.response(y);
    c.chunk(x, ev(undefined, progress(1, 1)));
    c.chunk(x, ev(undefined, progress(1, 2)));
    c.chunk(y, ev(undefined, progress(1, 1)));
    c.chunk(x, ev(undefined, progress(1, 3)));
    c.chunk(x, ev(undefined, result(1)));
    c.end(x);
    c.chunk(y, ev(undefined, progress(1, 2)));
    c.chunk(y, ev(undefined, result(1)));
    c.end(y);
    const s = analyzeRecords(c.records);
    expect(codes(s)).not.toContain('progress-regressed'); // observed: 2 warnings
    const reqs = s.requests[s.sessions[0]!.key]!;
    expect(reqs.find((r) => r.streamId === `tab1:${x}`)!.notificationCount).toBe(3); // observed: 0 (all 5 on the other request)
  });

  it('F6 two identical calls sent concurrently: the second was not "sent again after" the first failed', () => {
    const c = new Capture();
    discover(c);
    const call = (id: number) => rpc(id, 'tools/call', { name: 'send_email', arguments: { to: 'a' } });
    const p1 = c.request({ body: call(1), headers: hdr(call(1)) });
    c.response(p1);
    const p2 = c.request({ body: call(2), headers: hdr(call(2)) });
    c.response(p2);
    c.end(p1, 'network-error'); // request 1 breaks AFTER request 2 was sent
    c.chunk(p2, ev(undefined, result(2)));
    c.end(p2);
    const s = analyzeRecords(c.records);
    // observed: request-abandoned ("never re-issued") AND tool-rerun-risk ("sent ... again ... after its request failed"): contradictory
    const f = s.findings.find((x) => x.code === 'tool-rerun-risk')!;
    expect(f.message).not.toMatch(/after its request failed/);
    expect(f.message).toContain('after request 1 (tools/call send_email), while the first was still in flight (it later failed with a network error before the client had a result): two identical calls at once');
  });
});

// A 2026-07-28 subscriptions/listen stream whose records the inspector
// lost. Its `complete` result may be in the lost records; the capture says so (capture-gap), yet
// the listen is called "dropped … ended without its complete result: an unexpected disconnect".
// A tools/call in the same situation is `incomplete` with a capture-gap naming it (never
// result-missing): docs/findings.md, capture-gap, "whether its result arrived cannot be known".
import { describe, expect, it } from 'vitest';
import { analyzeRecords } from '../../../src/core/analyzer';
import type { Header } from '../../../src/core/record';
import { Capture, ev, message, result } from './helpers';

const PV = '2026-07-28';
const meta = { 'io.modelcontextprotocol/protocolVersion': PV, 'io.modelcontextprotocol/clientInfo': { name: 'agent', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
const rpc = (id: number | string, method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } });
const mh = (method: string, name?: string): Header[] => [['mcp-protocol-version', PV], ['mcp-method', method], ...(name ? ([['mcp-name', name]] as Header[]) : [])];
const codes = (s: ReturnType<typeof analyzeRecords>) => s.findings.map((f) => f.code);

function discover(c: Capture): void {
  const d = c.request({ body: rpc('probe', 'server/discover'), headers: mh('server/discover') });
  c.response(d);
  c.chunk(d, ev(undefined, result('probe', { supportedVersions: [PV], capabilities: {} })));
  c.end(d);
}

describe('a 2026-07-28 stream whose records the inspector lost', () => {
  it('control: a tools/call is incomplete with a capture-gap naming it, not result-missing (passes today)', () => {
    const c = new Capture();
    discover(c);
    const p = c.request({ body: rpc(1, 'tools/call', { name: 'long_task', arguments: {} }), headers: mh('tools/call', 'long_task') });
    c.response(p);
    c.chunk(p, ev(undefined, message('working')));
    c.gap([p], 2); // the relay's buffer cap evicted the rest of the body, the result included
    c.end(p, 'complete');
    const s = analyzeRecords(c.records);
    expect(codes(s)).not.toContain('result-missing');
    expect(s.requests[s.sessions[0]!.key]!.find((r) => r.id === '1')!.findings).toContain('capture-gap');
  });

  it('a listen: not "dropped, ended without its complete result" when its end is in the lost records', () => {
    const c = new Capture();
    discover(c);
    const sub = { 'io.modelcontextprotocol/subscriptionId': 'L1' };
    const l = c.request({ body: rpc('L1', 'subscriptions/listen', { notifications: { toolsListChanged: true } }), headers: mh('subscriptions/listen') });
    c.response(l);
    c.chunk(l, ev(undefined, { jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: { toolsListChanged: true }, _meta: sub } }));
    c.gap([l], 2); // the relay's buffer cap evicted the rest of the body: its complete result may be there
    c.end(l, 'complete'); // the server closed the stream cleanly
    const s = analyzeRecords(c.records);
    expect(codes(s)).toContain('capture-gap');
    // observed: warning subscription-dropped "… ended without its complete result (the server
    // closed the stream): an unexpected disconnect …", subscription state 'dropped' with an outage
    expect(codes(s)).not.toContain('subscription-dropped');
    expect(s.sessions[0]!.subscriptions![0]!.state).not.toBe('dropped');
  });
});

// lossy-output-carried (issue 19, item 4): the rule does not fire on coincidence. Over generated
// traffic — a broken attempt's partial output and an unanswered legacy call's output, then later
// requests with unrelated text, shared short values (tool names, ids, "ok"), and the page's own
// earlier text echoed back by the server — no finding; with one whole string value of the
// output copied into a later request, exactly one, counting its characters.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeRecords } from '../../../src/core/analyzer';
import type { Header } from '../../../src/core/record';
import { MIN_CHARS } from '../../../src/core/analysis/derive/client-carried';
import { Capture, ev, result } from './helpers';

const PV = '2026-07-28';
const meta = { 'io.modelcontextprotocol/protocolVersion': PV, 'io.modelcontextprotocol/clientInfo': { name: 'agent', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
const rpc = (id: number | string, method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } });
const mh = (method: string, name?: string): Header[] => [['mcp-protocol-version', PV], ['mcp-method', method], ...(name ? ([['mcp-name', name]] as Header[]) : [])];
const note = (data: unknown) => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', logger: 'tool', data } });

function post(c: Capture, body: ReturnType<typeof rpc>, events: unknown[], how: 'complete' | 'network-error') {
  const p = c.request({ body, headers: mh(body.method, (body.params as { name?: string }).name) });
  c.response(p);
  for (const e of events) c.chunk(p, ev(undefined, e));
  c.end(p, how);
}

/** Text as agents send and servers stream it: words, some long, some short and shared. */
const text = fc.lorem({ maxCount: 12 });
const shared = fc.constantFrom('ok', 'long_task', 'summarize', 'eu-west', 'done', '1', 'text', 'The operation completed.');
const value = fc.oneof({ weight: 3, arbitrary: text }, { weight: 1, arbitrary: shared });
const args = fc.dictionary(fc.constantFrom('text', 'query', 'note', 'q', 'body'), value, { maxKeys: 4 });

interface Traffic {
  own: string;
  output: string[];
  later: Record<string, string>[];
}
const traffic = fc.record({ own: text, output: fc.array(value, { minLength: 1, maxLength: 6 }), later: fc.array(args, { minLength: 1, maxLength: 5 }) });

function build(t: Traffic, copy?: { into: number; value: string }) {
  const c = new Capture();
  post(c, rpc('probe', 'server/discover'), [result('probe', { supportedVersions: [PV], capabilities: {} })], 'complete');
  // The page's own text: sent first, echoed back in the broken attempt's output (not the server's output).
  post(c, rpc(1, 'tools/call', { name: 'echo', arguments: { text: t.own } }), [result(1, { content: [{ type: 'text', text: t.own }] })], 'complete');
  post(c, rpc(2, 'tools/call', { name: 'long_task', arguments: {} }), [note(t.own), ...t.output.map((o) => note({ chunk: o }))], 'network-error');
  t.later.forEach((a, i) => {
    const argsI: Record<string, unknown> = { ...a, echoed: t.own };
    if (copy && copy.into === i) argsI.text = `Summarise this: ${copy.value} (thanks)`;
    post(c, rpc(10 + i, 'tools/call', { name: 'summarize', arguments: argsI }), [result(10 + i, { content: [{ type: 'text', text: 'ok' }] })], 'complete');
  });
  return analyzeRecords(c.records);
}

const carried = (s: ReturnType<typeof analyzeRecords>) => s.findings.filter((f) => f.code === 'lossy-output-carried');

describe('lossy-output-carried: no finding on coincidence (property)', () => {
  it('unrelated later requests, shared short values and the page\'s own text echoed back: never a finding', () => {
    fc.assert(
      fc.property(traffic, (t) => {
        // Generated independently: unrelated text shares words and short values, never a whole value of MIN_CHARS.
        expect(carried(build(t))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('one whole output value of MIN_CHARS or more copied into a later request: exactly one finding, its characters counted', () => {
    fc.assert(
      fc.property(traffic, fc.nat(), fc.nat(), (t, pick, into) => {
        const long = t.output.filter((o) => o.length >= MIN_CHARS && !t.own.includes(o));
        fc.pre(long.length > 0);
        const v = long[pick % long.length]!;
        const i = into % t.later.length;
        const f = carried(build(t, { into: i, value: v }));
        expect(f.length).toBeGreaterThanOrEqual(1);
        expect(f[0]!.requestId).toBe(String(10 + i));
        expect(f[0]!.relatedRequestIds).toEqual(['2']);
        const chars = Number(/carry (\d+) characters/.exec(f[0]!.message)![1]);
        expect(chars).toBeGreaterThanOrEqual(v.length);
      }),
      { numRuns: 200 },
    );
  });

  it('a value shorter than MIN_CHARS copied over is no finding (the minimum length)', () => {
    const t: Traffic = { own: 'my own words', output: ['short chunk of output'], later: [{ text: 'x' }] };
    expect('short chunk of output'.length).toBeLessThan(MIN_CHARS);
    expect(carried(build(t, { into: 0, value: 'short chunk of output' }))).toEqual([]);
  });
});

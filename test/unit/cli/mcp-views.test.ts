// The MCP server's lookups (src/cli/mcp/views.ts) on hand-built captures: request ids the client
// wrote as a number and as a string, and an id it used twice.
import { describe, expect, it } from 'vitest';
import { analyzeRecords } from '../../../src/core/analyzer';
import { findRequest } from '../../../src/cli/mcp/views';
import { Capture, ev, initSession, result } from '../core/helpers';

const call = (id: number | string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 't', arguments: {} } });

function capture(ids: (number | string)[]) {
  const c = new Capture();
  initSession(c);
  for (const id of ids) {
    const p = c.request({ sessionId: 'sess-1', body: call(id) });
    c.response(p);
    c.chunk(p, ev(undefined, result(id)));
    c.end(p);
  }
  return analyzeRecords(c.records);
}

describe('findRequest', () => {
  it('2 and "2" in one session: the id written as its JSON text picks one; a bare 2 the number', () => {
    const snap = capture([2, '2']);
    // before: both were "in 2 sessions (s1, s1)", neither reachable
    expect(findRequest(snap, '2', 's1').request.id).toBe('2');
    expect(findRequest(snap, '"2"', 's1').request.id).toBe('"2"');
  });

  it('an id the client used twice in one session: the refusal says so, not "in 2 sessions"', () => {
    const snap = capture([5, 5]);
    expect(() => findRequest(snap, '5', 's1')).toThrow(/2 requests of session s1 have id 5 \(the client used it again\)/);
  });
});

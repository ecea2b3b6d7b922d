// The 2024-11-05 HTTP+SSE transport (GET /sse announces the endpoint,
// POST /messages is answered 202, every response and notification arrives on the GET stream). A
// request's verdict looks only at its own chain (the 202 POST), so what the stream that carried
// its result lost between its request and its result never reaches the verdict: `complete`.
import { describe, expect, it } from 'vitest';
import { analyzeRecords } from '../../../src/core/analyzer';
import { Capture, call, ev, initialize, initResult, message, progress, result } from './helpers';

const BASE = 'http://127.0.0.1:3939';
const verdictOf = (s: ReturnType<typeof analyzeRecords>, id: string) => Object.values(s.requests).flat().find((r) => r.id === id)!;

/** GET /sse, initialize and tools/call 2 (progress token 2) over POST /messages (202). */
function legacy(c: Capture, ids: boolean): string {
  const g = c.request({ method: 'GET', url: BASE + '/sse' });
  c.response(g);
  c.chunk(g, 'event: endpoint\ndata: /messages?sessionId=abc\n\n');
  const i = c.request({ body: initialize(0, '2024-11-05'), url: BASE + '/messages?sessionId=abc' });
  c.response(i, { status: 202, json: true });
  c.end(i);
  c.chunk(g, ev(ids ? '0' : undefined, initResult(0, '2024-11-05'), 'message'));
  const p = c.request({ body: call(2), url: BASE + '/messages?sessionId=abc' });
  c.response(p, { status: 202, json: true });
  c.end(p);
  return g;
}

describe('legacy HTTP+SSE: losses on the GET stream that carries the results', () => {
  it('a live-gap between two of the request\'s own progress events, before its result: not complete', () => {
    const c = new Capture();
    const g = legacy(c, true);
    c.chunk(g, ev('1', progress(2, 1), 'message') + ev('2', message('part 1'), 'message') + ev('3', progress(2, 2), 'message'));
    c.chunk(g, ev('6', progress(2, 5), 'message') + ev('7', message('part 3'), 'message') + ev('8', result(2, { content: [{ type: 'text', text: 'done' }] }), 'message'));
    c.end(g, 'page-aborted');
    const s = analyzeRecords(c.records);
    expect(s.findings.find((f) => f.code === 'live-gap')).toMatchObject({ severity: 'error', missing: '4–5' });
    // observed: 'complete' with no finding, although ids 4–5 (between its progress 2 and 5) never arrived
    expect(verdictOf(s, '2').verdict).not.toBe('complete');
  });

  it('records of the GET stream lost by the inspector between the request and its result: not complete', () => {
    const c = new Capture();
    const g = legacy(c, false);
    c.chunk(g, ev(undefined, progress(2, 1), 'message') + ev(undefined, message('part 1'), 'message'));
    c.gap([g], 3); // the relay's buffer cap
    c.chunk(g, ev(undefined, progress(2, 5), 'message') + ev(undefined, result(2, { content: [{ type: 'text', text: 'done' }] }), 'message'));
    c.end(g, 'page-aborted');
    const s = analyzeRecords(c.records);
    expect(s.findings.find((f) => f.code === 'capture-gap')).toMatchObject({ severity: 'error' });
    // docs/findings.md (capture-gap): "The affected streams are marked 'capture incomplete' and
    // their requests cannot be better than complete-unverified". observed: 'complete'
    expect(verdictOf(s, '2').verdict).not.toBe('complete');
  });
});

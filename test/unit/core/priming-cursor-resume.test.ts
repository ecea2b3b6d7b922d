// A resume whose Last-Event-ID is a priming id that every stream of the
// session repeats (rust-sdk #791: "0"). The cursor names several streams; the analyzer links the
// resume to the last one primed with it as if that were certain, and then blames the server for a
// cross-stream replay (and a request for a lossy result) the capture does not show.
import { describe, expect, it } from 'vitest';
import { analyzeRecords } from '../../../src/core/analyzer';
import { Capture, call, ev, initialize, initResult, message, result } from './helpers';

const PRIME = 'id: 0\ndata: \n\n';
const verdicts = (s: ReturnType<typeof analyzeRecords>) => Object.fromEntries(Object.values(s.requests).flat().map((r) => [r.id, r.verdict]));
const errors = (s: ReturnType<typeof analyzeRecords>) => s.findings.filter((f) => f.severity === 'error').map((f) => `${f.code}: ${f.message}`);

function init(c: Capture): void {
  const i = c.request({ body: initialize(0) });
  c.response(i, { sessionId: 'sess-1' });
  c.chunk(i, `data: ${JSON.stringify(initResult(0))}\n\n`);
  c.end(i);
}

/** One connection of the session: a POST of `body` (or a GET resuming from `lastEventId`), its body `text`, its end. */
function conn(c: Capture, req: { body?: unknown; lastEventId?: string }, text: string, how: 'complete' | 'network-error' = 'complete'): string {
  const x = c.request({ sessionId: 'sess-1', ...req });
  c.response(x);
  c.chunk(x, text);
  c.end(x, how);
  return x;
}

describe('a resume from a constant priming id (rust-sdk #791)', () => {
  it('one stream still waiting: the resume continues it, no cross-stream replay, no needless resume', () => {
    const c = new Capture();
    init(c);
    // A: primed with "0", cut before anything else.
    const a = conn(c, { body: call(2, 'slow') }, PRIME, 'network-error');
    // B: primed with "0" too, answered in full on its own stream.
    conn(c, { body: call(3, 'fast') }, PRIME + ev('1', message('b1')) + ev('2', result(3)));
    // The client resumes A (the only stream still waiting) with the only cursor it has: "0".
    const g = conn(c, { lastEventId: '0' }, ev('3', message('a1')) + ev('4', result(2)));
    const s = analyzeRecords(c.records);
    expect(errors(s)).toEqual([]); // observed: replay-cross-stream "delivered the response to request 2 … sent on another stream"
    expect(s.findings.map((f) => f.code)).not.toContain('needless-resume'); // observed: on request 3
    expect(s.findings.map((f) => f.code)).not.toContain('stale-resume-cursor'); // observed: "the last id it had received on this stream was 2"
    expect(Object.values(s.streams).find((x) => x.id === `tab1:${g}`)!.resumes).toBe(`tab1:${a}`); // observed: tab1:c3 (B)
  });

  it('two streams cut after priming, each resumed with "0" and each replaying its own events: no request is lossy', () => {
    const c = new Capture();
    init(c);
    conn(c, { body: call(2, 'slow') }, PRIME, 'network-error');
    conn(c, { body: call(3, 'fast') }, PRIME, 'network-error');
    conn(c, { lastEventId: '0' }, ev('1', message('a1')) + ev('2', result(2)));
    conn(c, { lastEventId: '0' }, ev('3', message('b1')) + ev('4', result(3)));
    const s = analyzeRecords(c.records);
    // Every id 1..4 delivered once, each request got its own message and its own result.
    expect(errors(s)).toEqual([]); // observed: replay-cross-stream + lossy-result-accepted ("another stream's events mixed in … 2 cumulative notification(s)")
    expect(verdicts(s)['3']).not.toBe('lossy'); // observed: lossy
  });
});

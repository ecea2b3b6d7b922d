// Legacy-era id cases found in a review (2026-12-07), each a capture where nothing was lost that
// the build before accused of a loss: a priming id every stream repeats, and ids that restart per
// stream with a resume. Each failed on the build before its fix.
import { describe, expect, it } from 'vitest';
import { analyzeRecords } from '../../../src/core/analyzer';
import { Capture, call, ev, initialize, initResult, message, progress, result } from './helpers';

const PRIME = 'id: 0\ndata: \n\n';
const codes = (s: ReturnType<typeof analyzeRecords>) => s.findings.map((f) => f.code);
const verdicts = (s: ReturnType<typeof analyzeRecords>) => Object.fromEntries(Object.values(s.requests).flat().map((r) => [r.id, r.verdict]));

function init(c: Capture, sid: string): void {
  const i = c.request({ body: initialize(0) });
  c.response(i, { sessionId: sid });
  c.chunk(i, `data: ${JSON.stringify(initResult(0))}\n\n`);
  c.end(i);
}

/**
 * Two calls of one session on one counter: A reads ids 1 and 2, B then gets `bText` and ends as
 * `bEnd`, and A goes on with `aRest`.
 */
function twoCalls(bText: string, bEnd: 'page-aborted' | 'complete', aRest: string) {
  const c = new Capture();
  init(c, 'sess-1');
  const a = c.request({ sessionId: 'sess-1', body: call(2, 'slow') });
  c.response(a);
  c.chunk(a, ev('1', progress(2, 1)) + ev('2', message('a1')));
  const b = c.request({ sessionId: 'sess-1', body: call(3, 'other') });
  c.response(b);
  c.chunk(b, bText);
  c.end(b, bEnd);
  c.chunk(a, aRest);
  c.end(a);
  return { s: analyzeRecords(c.records), b };
}

describe('legacy ids: review cases', () => {
  it('a priming id "0" on every stream (rust-sdk #791) does not hide ids another stream of the session carried', () => {
    const c = new Capture();
    init(c, 'sess-1');
    const a = c.request({ sessionId: 'sess-1', body: call(2, 'slow') });
    c.response(a);
    c.chunk(a, PRIME + ev('1', progress(2, 1)) + ev('2', message('a1')));
    const b = c.request({ sessionId: 'sess-1', body: call(3, 'fast') });
    c.response(b);
    c.chunk(b, PRIME + ev('3', message('b1')) + ev('4', result(3)));
    c.end(b);
    c.chunk(a, ev('5', message('a2')) + ev('6', result(2)));
    c.end(a);
    const s = analyzeRecords(c.records);
    expect(codes(s)).not.toContain('live-gap');
    expect(codes(s)).not.toContain('lossy-result-accepted');
    expect(verdicts(s)['2']).toBe('complete');
  });

  it('the same across two sessions of one server-wide counter, each stream primed with "0"', () => {
    const c = new Capture();
    init(c, 'A');
    init(c, 'B');
    const a = c.request({ sessionId: 'A', body: call(2) });
    c.response(a);
    const b = c.request({ sessionId: 'B', body: call(2) });
    c.response(b);
    c.chunk(a, PRIME + ev('1', progress(2, 1)) + ev('2', message('a1')));
    c.chunk(b, PRIME + ev('3', message('b1')) + ev('4', result(2)));
    c.end(b);
    c.chunk(a, ev('5', message('a2')) + ev('6', message('a3')) + ev('7', result(2)));
    c.end(a);
    const s = analyzeRecords(c.records);
    expect(codes(s)).not.toContain('live-gap');
    expect(Object.values(s.requests).flat().filter((r) => r.method === 'tools/call').map((r) => r.verdict)).toEqual(['complete', 'complete']);
  });

  it('a counter the streams share, one stream closed by the page before its result: a jump after that is no proven drop', () => {
    const { s, b } = twoCalls(ev('3', message('b1')), 'page-aborted', ev('5', message('a2')) + ev('6', result(2)));
    // before: live-gap and lossy-result-accepted errors, request 2 lossy
    const gap = s.findings.find((f) => f.code === 'live-gap')!;
    expect(gap).toMatchObject({ severity: 'warning', missing: '4' });
    expect(gap.message).toContain(`after its stream tab1:${b} was closed by the page`);
    expect(codes(s)).not.toContain('lossy-result-accepted');
    expect(verdicts(s)['2']).toBe('complete-unverified');
  });

  it('the same jump with the other stream answered (not abandoned) stays an error', () => {
    const { s } = twoCalls(ev('3', message('b1')) + ev('4', result(3)), 'complete', ev('6', message('a2')) + ev('7', result(2)));
    expect(s.findings.find((f) => f.code === 'live-gap')).toMatchObject({ severity: 'error', missing: '5' });
    expect(verdicts(s)['2']).toBe('lossy');
  });

  it('a resume primed with the constant id "0" again: a replay-duplicate that says what it does (a cursor taken back), not "applies it twice"', () => {
    const c = new Capture();
    init(c, 'sess-1');
    const a = c.request({ sessionId: 'sess-1', body: call(2, 'slow') });
    c.response(a);
    c.chunk(a, PRIME + ev('3', progress(2, 1)) + ev('4', message('a1')));
    c.end(a, 'network-error');
    const g = c.request({ sessionId: 'sess-1', lastEventId: '4' });
    c.response(g);
    c.chunk(g, PRIME + ev('5', message('a2')) + ev('6', result(2)));
    c.end(g);
    const s = analyzeRecords(c.records);
    const dups = s.findings.filter((f) => f.code === 'replay-duplicate');
    expect(dups).toHaveLength(1);
    expect(dups[0]).toMatchObject({ severity: 'warning', eventIds: ['0'] });
    expect(dups[0]!.message).toContain('in a priming event (an id with no data');
    expect(dups[0]!.message).not.toContain('applies it twice');
    expect(verdicts(s)['2']).toBe('complete');
  });

  it('ids that restart per stream: a resume continues the cut stream still waiting for its result, not the last one to deliver the cursor', () => {
    const c = new Capture();
    init(c, 'sess-1');
    const a = c.request({ sessionId: 'sess-1', body: call(2, 'slow') });
    c.response(a);
    c.chunk(a, ev('1', progress(2, 1)) + ev('2', message('a1')) + ev('3', message('a2')));
    c.end(a, 'network-error');
    const b = c.request({ sessionId: 'sess-1', body: call(3, 'fast') });
    c.response(b);
    c.chunk(b, ev('1', progress(3, 1)) + ev('2', message('b1')) + ev('3', message('b2')) + ev('4', result(3)));
    c.end(b);
    const g = c.request({ sessionId: 'sess-1', lastEventId: '3' });
    c.response(g);
    c.chunk(g, ev('4', message('a3')) + ev('5', result(2)));
    c.end(g);
    const s = analyzeRecords(c.records);
    expect(s.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(codes(s)).not.toContain('replay-duplicate');
    expect(verdicts(s)['2']).toMatch(/^complete/);
    expect(verdicts(s)['3']).toBe('complete');
    const get = Object.values(s.streams).find((x) => x.id === `tab1:${g}`)!;
    expect(get.resumes).toBe(`tab1:${a}`);
  });
});

// The hook records an MCP request when the page sends it (not when its response comes): a capture
// holds requests still waiting for their response, and some never answered. What the analysis
// makes of them: the request is pending, and nothing is judged of a replay that has not begun.
import { describe, expect, it } from 'vitest';
import { analyzeRecords, createAnalyzer } from '../../../src/core/analyzer';
import type { AnalysisSnapshot } from '../../../src/core/model';
import { Capture, call, ev, initSession, message, progress, result } from './helpers';

const codes = (s: AnalysisSnapshot) => s.findings.map((f) => f.code).sort();
const live = (c: Capture) => {
  const a = createAnalyzer();
  a.pushAll(c.records);
  return a.snapshot();
};
// Opaque ids: a replay after them cannot be checked for gaps (replay-unverifiable once it replays).
const opaque = (i: number) => `k${(i * 7919).toString(36)}x`;

/** tools/call 2 on a POST stream with opaque ids, cut after 5 events; then its resume sent, unanswered. */
function cutThenResumeSent(c: Capture) {
  initSession(c);
  const post = c.request({ sessionId: 'sess-1', body: call(2) });
  c.response(post);
  let text = '';
  for (let i = 1; i <= 5; i++) text += ev(opaque(i), i % 2 ? progress(2, i) : message(`part ${i}`));
  c.chunk(post, text);
  c.end(post, 'network-error');
  const get = c.request({ sessionId: 'sess-1', lastEventId: opaque(5) });
  return { post, get };
}

describe('requests recorded before their response', () => {
  it('a resume the server has not answered: the call is pending, its replay not judged; judged once it replays', () => {
    const c = new Capture();
    const { get } = cutThenResumeSent(c);
    for (const s of [live(c), analyzeRecords(c.records)]) {
      expect(codes(s)).toEqual([]);
      expect(s.requests['sess-1']!.find((r) => r.id === '2')!.verdict).toBe('pending');
      const resume = Object.values(s.streams).find((x) => x.kind === 'resume')!;
      expect(resume.state).toBe('open');
      expect(resume.status).toBeUndefined();
    }
    // The answer comes, with an event: whether it left events out cannot be checked.
    c.response(get);
    c.chunk(get, ev(opaque(6), result(2, { content: [{ type: 'text', text: 'done' }] })));
    c.end(get);
    const s = analyzeRecords(c.records);
    expect(codes(s)).toContain('replay-unverifiable');
    expect(s.requests['sess-1']!.find((r) => r.id === '2')!.verdict).not.toBe('pending');
  });

  it('an answered resume with no event yet is judged as before (its ids cannot show a gap)', () => {
    const c = new Capture();
    const { get } = cutThenResumeSent(c);
    c.response(get);
    expect(codes(live(c))).toEqual(['replay-unverifiable']);
  });

  it('a POST with no response: its request is pending and nothing is found', () => {
    const c = new Capture();
    initSession(c);
    c.request({ sessionId: 'sess-1', body: call(3) });
    for (const s of [live(c), analyzeRecords(c.records)]) {
      expect(codes(s)).toEqual([]);
      const r = s.requests['sess-1']!.find((x) => x.id === '3')!;
      expect(r.verdict).toBe('pending');
      expect(s.streams[r.streamId!]!.status).toBeUndefined();
    }
  });
});

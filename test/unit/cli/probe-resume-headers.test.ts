// resume-prompt: how long a resume held the endpoint's GETs before its response headers (or its end).
import { describe, expect, it } from 'vitest';
import type { ProbeConn } from '../../../src/cli/probe/conns';
import { resumeHeaderEvidence } from '../../../src/cli/probe/resume-headers';

const resume = (lastEventId: string, t: number, more: Partial<ProbeConn>): ProbeConn => ({ conn: `c${lastEventId}`, method: 'GET', url: 'http://127.0.0.1/mcp', reqHeaders: [], body: null, lastEventId, events: [], t, ...more });
const id = (x: string) => x;

describe('resume-prompt evidence', () => {
  it('a resume that never got its headers and was given up after 3 s fails it, whatever the others did', () => {
    const ev = resumeHeaderEvidence([resume('5', 0, { respondedAt: 4 }), resume('9', 100, { end: 'page-aborted', endedAt: 3100 })], id);
    // before: only the answered resume counted: a pass "within 4 ms"
    expect(ev).toEqual([expect.objectContaining({ on: 'resume-prompt', verdict: 'fail', events: ['9'] })]);
    expect(ev[0]!.text).toBe('the resume from 9 got no response headers in the 3.0 s before it ended (the probe gave up on it): in a browser every later GET of the page to this endpoint waits that long behind it (one GET per URL waits for its headers at a time)');
  });

  it('a resume that failed at once without headers says nothing of a hold', () => {
    expect(resumeHeaderEvidence([resume('5', 0, { respondedAt: 4 }), resume('9', 100, { end: 'network-error', endReason: 'ECONNRESET', endedAt: 130 })], id)).toEqual([
      expect.objectContaining({ verdict: 'pass', text: 'the resume from 5 got its response headers within 4 ms' }),
    ]);
    expect(resumeHeaderEvidence([resume('9', 100, { end: 'network-error', endedAt: 130 })], id)).toEqual([]);
  });

  it('answered late and never answered are both listed', () => {
    const ev = resumeHeaderEvidence([resume('5', 0, { respondedAt: 1500 }), resume('9', 0, { end: 'network-error', endReason: 'socket hang up', endedAt: 2000 })], id);
    expect(ev.map((e) => [e.verdict, e.events])).toEqual([['fail', ['5']], ['fail', ['9']]]);
    expect(ev[1]!.text).toMatch(/in the 2\.0 s before it ended \(socket hang up\)/);
  });
});

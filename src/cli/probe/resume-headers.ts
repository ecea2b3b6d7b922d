// How long the server took to answer a resume's request with its headers. A browser lets one GET
// per URL wait for its response headers at a time (Chromium's HTTP cache lock; the core's
// request-stalled, docs/findings.md): a server that holds a resume's headers while its store
// looks up or waits for events holds every later GET of the page to the endpoint, the resume of
// another call still waiting for its result included. The TypeScript SDK's transport sends a
// resume's headers only once the event store's replayEventsAfter has returned.

import type { ProbeConn } from './conns';
import type { Evidence } from './types';

/** A hold worth reporting: the panel's request-stalled counts waits from 1 s (the core's STALL_MIN_MS). */
const HELD_MS = 1000;
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Evidence on resume-prompt from the resumes of one experiment: those answered, and those that
 * ended (the probe's timeout, a network error) at least HELD_MS after they were sent without
 * response headers, which held the endpoint's GETs at least that long (the prompt answers of
 * others do not make up for them). One that ended sooner without headers says nothing of a hold.
 */
export function resumeHeaderEvidence(resumes: readonly ProbeConn[], shortId: (id: string) => string): Evidence[] {
  const answered = resumes.filter((r) => r.respondedAt !== undefined);
  const unanswered = resumes.filter((r) => r.respondedAt === undefined && r.endedAt !== undefined && r.endedAt - r.t >= HELD_MS);
  if (answered.length === 0 && unanswered.length === 0) return [];
  const held = answered.filter((r) => r.respondedAt! - r.t >= HELD_MS);
  const cursor = (r: ProbeConn) => (r.lastEventId !== undefined ? shortId(r.lastEventId) : '(none)');
  const behind = 'in a browser every later GET of the page to this endpoint waits that long behind it (one GET per URL waits for its headers at a time)';
  if (held.length || unanswered.length) {
    const events = (r: ProbeConn) => (r.lastEventId !== undefined ? { events: [r.lastEventId] } : {});
    return [
      ...held.map((r) => ({ on: 'resume-prompt' as const, verdict: 'fail' as const, text: `the resume from ${cursor(r)} got its response headers ${secs(r.respondedAt! - r.t)} after it was sent: ${behind}`, ...events(r) })),
      ...unanswered.map((r) => ({
        on: 'resume-prompt' as const,
        verdict: 'fail' as const,
        text: `the resume from ${cursor(r)} got no response headers in the ${secs(r.endedAt! - r.t)} before it ended (${r.end === 'page-aborted' ? 'the probe gave up on it' : (r.endReason ?? r.end ?? 'ended')}): ${behind}`,
        ...events(r),
      })),
    ];
  }
  const slowest = Math.max(...answered.map((r) => r.respondedAt! - r.t));
  return [{ on: 'resume-prompt', verdict: 'pass', text: `${answered.length === 1 ? 'the resume' : `${answered.length} resumes`} from ${[...new Set(answered.map(cursor))].join(', ')} got ${answered.length === 1 ? 'its' : 'their'} response headers within ${Math.round(slowest)} ms` }];
}

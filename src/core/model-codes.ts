// Finding codes and severities: public interface (users search for the codes, CI filters on them;
// docs/findings.md has a section for each). Part of the analysis model (model.ts re-exports it).

export type Severity = 'error' | 'warning' | 'info';

export type FindingCode =
  | 'replay-gap'
  | 'live-gap'
  | 'replay-duplicate'
  | 'replay-reordered'
  | 'replay-cross-stream'
  | 'replay-unverifiable'
  | 'stale-resume-cursor'
  | 'resume-rejected'
  | 'needless-resume'
  | 'request-stalled'
  | 'lossy-result-accepted'
  | 'unverified-result-accepted'
  | 'result-missing'
  | 'progress-regressed'
  | 'session-expired'
  | 'truncated-event'
  | 'capture-gap'
  | 'cors-preflight-rejected'
  | 'session-id-not-exposed'
  // The 2026-07-28 revision ("modern era"): no sessions, no resumption (issue 12).
  | 'request-reissued'
  | 'reissued-over-partial-output'
  | 'request-abandoned'
  | 'subscription-dropped'
  | 'lists-not-refetched'
  | 'header-mismatch'
  | 'request-state-altered'
  | 'input-not-answered'
  | 'era-mismatch'
  // What the page's client did with what it got (issue 19; docs/findings.md "Findings about the client").
  | 'tool-rerun-risk'
  | 'destructive-tool-rerun'
  | 'result-not-taken'
  | 'duplicate-output-accepted'
  // What the client did with the stream (issue 19, items 3-6).
  | 'resume-cursor-lost'
  | 'lossy-output-carried'
  | 'client-retry-loop'
  | 'listen-narrowed';

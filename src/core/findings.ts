// Finding codes: severities and one-line titles (the long form is docs/findings.md).
import type { Finding, FindingCode, Severity } from './model';

/** What a finding site supplies; `severity` overrides the code's default where the cause differs. */
export type FindingInput = Omit<Finding, 'code' | 'severity' | 'sessionKey' | 'sessionId'> & { severity?: Severity };

export const SEVERITY: Record<FindingCode, Severity> = {
  'replay-gap': 'error',
  'live-gap': 'error',
  'replay-duplicate': 'warning',
  'replay-reordered': 'warning',
  'replay-cross-stream': 'error',
  'replay-unverifiable': 'warning',
  'stale-resume-cursor': 'warning',
  'resume-rejected': 'warning',
  'needless-resume': 'info',
  'lossy-result-accepted': 'error',
  'unverified-result-accepted': 'warning',
  'result-missing': 'error',
  'progress-regressed': 'warning',
  'session-expired': 'warning',
  'truncated-event': 'warning',
  'capture-gap': 'error',
  // From the network witness (witness.ts): CORS misconfigurations only the browser shows.
  'cors-preflight-rejected': 'error',
  'session-id-not-exposed': 'error',
};

export const TITLE: Record<FindingCode, string> = {
  'replay-gap': 'Events missing from a replay after reconnect',
  'live-gap': 'Events missing within one connection',
  'replay-duplicate': 'Event delivered twice',
  'replay-reordered': 'Events out of order',
  'replay-cross-stream': "Replay delivered another stream's events",
  'replay-unverifiable': 'Replay cannot be checked for gaps',
  'stale-resume-cursor': 'Client resumed from an older event id',
  'resume-rejected': 'Resume refused by the server',
  'needless-resume': 'Resume after the result had arrived',
  'lossy-result-accepted': 'Result accepted over a lossy stream',
  'unverified-result-accepted': 'Result accepted over an unverifiable replay',
  'result-missing': 'No result arrived',
  'progress-regressed': 'Progress did not increase',
  'session-expired': 'Session expired (404)',
  'truncated-event': 'Stream ended inside an event',
  'capture-gap': 'The inspector lost records',
  'cors-preflight-rejected': 'CORS preflight refused an MCP request',
  'session-id-not-exposed': 'Mcp-Session-Id hidden from the page by CORS',
};

export const ALL_CODES = Object.keys(SEVERITY) as FindingCode[];

export const SEVERITY_RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };

export function worstOf(a: Severity | undefined, b: Severity): Severity {
  return a === undefined || SEVERITY_RANK[b] > SEVERITY_RANK[a] ? b : a;
}

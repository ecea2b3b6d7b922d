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
  'request-stalled': 'warning',
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
  // The 2026-07-28 revision: a broken stream loses the in-flight request; subscriptions drop.
  'request-reissued': 'info',
  'reissued-over-partial-output': 'warning',
  'request-abandoned': 'error',
  'subscription-dropped': 'warning',
  'lists-not-refetched': 'warning',
  'header-mismatch': 'error',
  'request-state-altered': 'error',
  'input-not-answered': 'warning',
  'era-mismatch': 'warning',
  // The client (issue 19): a tool that may have run twice, a result it did not take, duplicated output.
  'tool-rerun-risk': 'warning',
  'destructive-tool-rerun': 'error',
  'result-not-taken': 'warning',
  'duplicate-output-accepted': 'error',
  // What the client did with the stream (issue 19).
  'resume-cursor-lost': 'warning',
  'lossy-output-carried': 'error',
  'client-retry-loop': 'warning',
  'listen-narrowed': 'warning',
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
  'request-stalled': 'GET held by the browser behind another to the same URL',
  'lossy-result-accepted': 'Result accepted over a lossy stream',
  'unverified-result-accepted': 'Result accepted over an unverifiable replay',
  'result-missing': 'No result arrived',
  'progress-regressed': 'Progress did not increase',
  'session-expired': 'Session expired (404)',
  'truncated-event': 'Stream ended inside an event',
  'capture-gap': 'The inspector lost records',
  'cors-preflight-rejected': 'CORS preflight refused an MCP request',
  'session-id-not-exposed': 'Mcp-Session-Id hidden from the page by CORS',
  'request-reissued': 'Request re-issued after its stream broke',
  'reissued-over-partial-output': 'Re-issued over the broken attempt’s output',
  'request-abandoned': 'Broken request never re-issued',
  'subscription-dropped': 'Subscription stream dropped',
  'lists-not-refetched': 'Lists not fetched again after a re-listen',
  'header-mismatch': 'MCP headers refused or disagree with the body',
  'request-state-altered': 'MRTR retry changed the requestState',
  'input-not-answered': 'input_required never answered',
  'era-mismatch': 'Client and server speak different eras',
  'tool-rerun-risk': 'Tool call sent again: it may have run twice',
  'destructive-tool-rerun': 'Destructive tool sent again after it reached the server',
  'result-not-taken': 'Result delivered but not taken by the client',
  'duplicate-output-accepted': 'Result accepted over duplicated output',
  'resume-cursor-lost': 'Client reconnected without its Last-Event-ID',
  'lossy-output-carried': 'Lost or partial output fed into a later request',
  'client-retry-loop': 'Client repeated a failing request or reconnect',
  'listen-narrowed': 'Listen acknowledged for less than requested',
};

export const ALL_CODES = Object.keys(SEVERITY) as FindingCode[];

export const SEVERITY_RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };

export function worstOf(a: Severity | undefined, b: Severity): Severity {
  return a === undefined || SEVERITY_RANK[b] > SEVERITY_RANK[a] ? b : a;
}

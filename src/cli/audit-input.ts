// What each output format of `audit` is given: per input file, its analysis (with its capture
// health: what the inspector lost or did not keep, and the capture notices its records carry, e.g.
// an import's "the file lacks this" or the relay's own notices in our exports), plus the --fail-on
// level that decides what fails. The words and the order come from src/core/presentation.ts.
import { SEVERITY_RANK, worstForRequest } from '../core/presentation';
import type { AnalysisSnapshot, Finding, RequestInfo, Severity } from '../core/model';
import type { BaselineStatus } from '../core/diff/index';

export interface AuditNotice {
  level: 'info' | 'warning' | 'error';
  code: string;
  message: string;
  count: number;
}

export interface AuditInput {
  file: string;
  /** 'HAR', 'capture' or 'records'. */
  format: string;
  snap: AnalysisSnapshot;
  notices: AuditNotice[];
}

export type FailOn = Severity | 'never';

/** The capture's notices (snapshot.capture), one per distinct code and message, with how often it came. */
export function noticesOf(snap: AnalysisSnapshot): AuditNotice[] {
  const byKey = new Map<string, AuditNotice>();
  for (const x of snap.capture.items) {
    if (x.kind !== 'notice') continue;
    const key = `${x.code}\u0000${x.message}`;
    const n = byKey.get(key);
    if (n) n.count += x.count;
    else byKey.set(key, { level: x.level, code: x.code, message: x.message, count: x.count });
  }
  return [...byKey.values()];
}

/** Whether a finding is at or above --fail-on. */
export function fails(f: Pick<Finding, 'severity'>, failOn: FailOn): boolean {
  return failOn !== 'never' && SEVERITY_RANK[f.severity] >= SEVERITY_RANK[failOn];
}

/** With --baseline, a finding fails when it is new, or when the baseline had it below --fail-on and now it is at or above. */
export function failsAgainst(x: BaselineStatus, failOn: FailOn): boolean {
  if (!fails(x.finding, failOn)) return false;
  return x.state === 'new' || (x.baseSeverity !== undefined && !fails({ severity: x.baseSeverity }, failOn));
}

/** The findings of a session that concern request `r` (same JSON-RPC id, on its streams when said). */
export function findingsOfRequest(findings: readonly Finding[], r: RequestInfo, requests: readonly RequestInfo[]): Finding[] {
  return findings.filter((f) => {
    if (f.requestId !== r.id) {
      // As the analysis lists a request's findings (RequestInfo.findings): those that name it
      // among their related requests, and those of no request it files under it (a session's
      // expiry, under the requests it broke).
      if (f.relatedRequestIds?.includes(r.id)) return true;
      return f.requestId === undefined && r.findings.includes(f.code);
    }
    if (f.streamId === undefined || f.streamId === r.streamId || f.streamId === r.responseStreamId) return true;
    // Another request with this id owns the stream (id reuse): not this one's.
    return !requests.some((o) => o !== r && o.id === r.id && (o.streamId === f.streamId || o.responseStreamId === f.streamId));
  });
}

/** `tools/call get_weather #2`: the method, the tool or prompt name, the JSON-RPC id. */
export function requestName(r: RequestInfo): string {
  const p = r.params as { name?: unknown } | undefined;
  const target = (r.method === 'tools/call' || r.method === 'prompts/get') && typeof p?.name === 'string' ? ` ${p.name}` : '';
  return `${r.method}${target} #${r.id}`;
}

export function sessionName(s: AnalysisSnapshot['sessions'][number]): string {
  return `${s.sessionId !== null ? `session ${s.sessionId}` : 'no session'} ${s.endpoint}`;
}

/** The most severe finding; among equals, the one about the request's outcome, then the first. */
export const worst = worstForRequest;

// What each output format of `audit` is given: per input file, its analysis and the capture
// notices its records carry (an import's "the file lacks this", the relay's own notices in our
// exports), plus the --fail-on level that decides what fails.
import { SEVERITY_RANK } from '../core/findings';
import type { AnalysisSnapshot, Finding, RequestInfo, Severity } from '../core/model';
import type { CaptureRecord } from '../core/record';

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

/** The capture's notice records, one per distinct code and message, with how often it came. */
export function noticesOf(records: readonly CaptureRecord[]): AuditNotice[] {
  const byKey = new Map<string, AuditNotice>();
  for (const r of records) {
    if (r.kind !== 'notice') continue;
    const key = `${r.code}\u0000${r.message}`;
    const n = byKey.get(key);
    if (n) n.count++;
    else byKey.set(key, { level: r.level, code: r.code, message: r.message, count: 1 });
  }
  return [...byKey.values()];
}

/** Whether a finding is at or above --fail-on. */
export function fails(f: Pick<Finding, 'severity'>, failOn: FailOn): boolean {
  return failOn !== 'never' && SEVERITY_RANK[f.severity] >= SEVERITY_RANK[failOn];
}

/** The findings of a session that concern request `r` (same JSON-RPC id, on its streams when said). */
export function findingsOfRequest(findings: readonly Finding[], r: RequestInfo, requests: readonly RequestInfo[]): Finding[] {
  return findings.filter((f) => {
    if (f.requestId !== r.id) return false;
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

/** Codes that say what became of the request itself: named first among findings of one severity. */
const OUTCOME = new Set(['lossy-result-accepted', 'result-missing', 'unverified-result-accepted']);

/** The most severe finding; among equals, the one about the request's outcome, then the first. */
export function worst(fs: readonly Finding[]): Finding | undefined {
  let w: Finding | undefined;
  for (const f of fs) {
    if (!w || SEVERITY_RANK[f.severity] > SEVERITY_RANK[w.severity] || (SEVERITY_RANK[f.severity] === SEVERITY_RANK[w.severity] && OUTCOME.has(f.code) && !OUTCOME.has(w.code))) w = f;
  }
  return w;
}

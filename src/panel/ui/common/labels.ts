import type { AnalysisSnapshot, Finding, FindingCode, RequestInfo, Severity, SseEvent, Stream } from '../../../core/model';

export const SEV_ICON: Record<Severity, string> = { error: '⛔', warning: '⚠', info: 'ℹ' };

const ERROR_CODES = new Set<FindingCode>(['replay-gap', 'live-gap', 'replay-cross-stream', 'lossy-result-accepted', 'result-missing', 'capture-gap']);
export function codeSeverity(code: FindingCode): Severity {
  if (ERROR_CODES.has(code)) return 'error';
  if (code === 'needless-resume') return 'info';
  return 'warning';
}

const RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };
const bySnapshotFindings = new WeakMap<readonly Finding[], Map<string, Severity>>();

/**
 * An event's severity per code, from the findings themselves: the core can set a finding below
 * its code's usual severity (a live-gap/replay-gap whose ids may be in records the inspector lost
 * is a warning), so a mark must follow the finding, not the code. Keyed by stream + event index
 * (+ stream alone for findings without an event); the worst finding wins. Built once per findings
 * array (the snapshot's).
 */
function severities(findings: readonly Finding[]): Map<string, Severity> {
  let m = bySnapshotFindings.get(findings);
  if (!m) {
    m = new Map();
    const put = (k: string, sev: Severity) => {
      const prev = m!.get(k);
      if (!prev || RANK[sev] > RANK[prev]) m!.set(k, sev);
    };
    for (const f of findings) {
      if (!f.streamId) continue;
      put(`${f.streamId}\u0000${f.eventIndex ?? ''}\u0000${f.code}`, f.severity);
      put(`${f.streamId}\u0000\u0000${f.code}`, f.severity);
    }
    bySnapshotFindings.set(findings, m);
  }
  return m;
}

/** Severity of `code` on event `index` of stream `streamId`, given the snapshot's findings. */
export function eventCodeSeverity(findings: readonly Finding[], streamId: string, index: number, code: FindingCode): Severity {
  const m = severities(findings);
  return m.get(`${streamId}\u0000${index}\u0000${code}`) ?? m.get(`${streamId}\u0000\u0000${code}`) ?? codeSeverity(code);
}

/** Worst severity among an event's codes (see eventCodeSeverity). */
export function eventSeverity(findings: readonly Finding[], streamId: string, index: number, e: SseEvent): Severity | undefined {
  let w: Severity | undefined;
  for (const c of e.findings) {
    const s = eventCodeSeverity(findings, streamId, index, c);
    if (!w || RANK[s] > RANK[w]) w = s;
  }
  return w;
}

export function requestsById(snap: AnalysisSnapshot, sessionKey: string): Map<string, RequestInfo> {
  const m = new Map<string, RequestInfo>();
  for (const r of snap.requests[sessionKey] ?? []) m.set(r.id, r);
  return m;
}

/** "POST #2 tools/call", "GET (resumed) ← 11", "GET stream". */
export function streamLabel(s: Stream, reqs?: Map<string, RequestInfo>): string {
  if (s.kind === 'resume') return `GET resumed${s.lastEventIdSent !== undefined ? ` (Last-Event-ID ${s.lastEventIdSent})` : ''}`;
  if (s.kind === 'get') return 'GET stream';
  if (s.kind === 'eventsource') return 'EventSource';
  const ids = s.requestIds;
  if (ids.length === 0) return `${s.method}`;
  const m = ids.map((id) => reqs?.get(id)?.method).filter(Boolean);
  return `${s.method} #${ids.join(',')}${m.length ? ` ${m.join(', ')}` : ''}`;
}

export function eventMethods(e: SseEvent): string {
  return e.messages
    .map((m) => m.method ?? (m.kind === 'result' ? 'result' : m.kind === 'error' ? 'error' : m.kind === 'invalid' ? 'invalid JSON-RPC' : ''))
    .filter(Boolean)
    .join(', ');
}

export function eventRpcIds(e: SseEvent): string {
  return e.messages
    .map((m) => m.id)
    .filter((x): x is string => x !== undefined)
    .join(', ');
}


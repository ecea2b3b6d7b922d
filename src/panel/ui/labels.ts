import type { AnalysisSnapshot, FindingCode, RequestInfo, Severity, SseEvent, Stream } from '../../core/model';

export const SEV_ICON: Record<Severity, string> = { error: '⛔', warning: '⚠', info: 'ℹ' };

const ERROR_CODES = new Set<FindingCode>(['replay-gap', 'live-gap', 'replay-cross-stream', 'lossy-result-accepted', 'result-missing', 'capture-gap']);
export function codeSeverity(code: FindingCode): Severity {
  if (ERROR_CODES.has(code)) return 'error';
  if (code === 'needless-resume') return 'info';
  return 'warning';
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

export function worstSeverity(codes: readonly FindingCode[]): Severity | undefined {
  let w: Severity | undefined;
  for (const c of codes) {
    const s = codeSeverity(c);
    if (s === 'error') return 'error';
    if (s === 'warning') w = 'warning';
    else if (!w) w = 'info';
  }
  return w;
}

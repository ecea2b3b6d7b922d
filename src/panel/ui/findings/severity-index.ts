// An event's severity from the findings themselves: the core can set a finding below its code's
// usual severity (a live-gap/replay-gap whose ids may be in records the inspector lost is a
// warning), so a mark must follow the finding, not the code. Built once per snapshot by the store
// (view-model.ts), keyed by stream + event index (+ stream alone for findings without an event);
// the worst finding wins.

import type { Finding, FindingCode, Severity, SseEvent } from '../../../core/model';
import { codeSeverity, worse } from '../common/severity';

export interface SeverityIndex {
  /** Severity of `code` on event `index` of stream `streamId`. */
  codeAt(streamId: string, index: number, code: FindingCode): Severity;
  /** Worst severity among an event's codes; undefined for an event without findings. */
  eventAt(streamId: string, index: number, e: SseEvent): Severity | undefined;
}

export function createSeverityIndex(findings: readonly Finding[]): SeverityIndex {
  const m = new Map<string, Severity>();
  const put = (k: string, sev: Severity) => m.set(k, worse(m.get(k), sev));
  for (const f of findings) {
    if (!f.streamId) continue;
    put(`${f.streamId}\u0000${f.eventIndex ?? ''}\u0000${f.code}`, f.severity);
    put(`${f.streamId}\u0000\u0000${f.code}`, f.severity);
  }
  const codeAt = (streamId: string, index: number, code: FindingCode): Severity =>
    m.get(`${streamId}\u0000${index}\u0000${code}`) ?? m.get(`${streamId}\u0000\u0000${code}`) ?? codeSeverity(code);
  return {
    codeAt,
    eventAt(streamId, index, e) {
      let w: Severity | undefined;
      for (const c of e.findings) w = worse(w, codeAt(streamId, index, c));
      return w;
    },
  };
}

// Severity order and icons, in one place for the panel. The core's issue 11 moves presentation
// rules (severity rank, sort order) into the core's snapshot; until then this is the panel's only
// copy (findings-index.ts, the severity index and the views read it from here).

import type { FindingCode, Severity } from '../../../core/model';

/** Higher is worse. */
export const SEV_RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };

export const SEV_ICON: Record<Severity, string> = { error: '⛔', warning: '⚠', info: 'ℹ' };

export function worse(a: Severity | undefined, b: Severity): Severity {
  return a === undefined || SEV_RANK[b] > SEV_RANK[a] ? b : a;
}

const ERROR_CODES = new Set<FindingCode>(['replay-gap', 'live-gap', 'replay-cross-stream', 'lossy-result-accepted', 'result-missing', 'capture-gap']);

/** A code's usual severity (a finding carries its own, which wins: see findings/severity-index.ts). */
export function codeSeverity(code: FindingCode): Severity {
  if (ERROR_CODES.has(code)) return 'error';
  if (code === 'needless-resume') return 'info';
  return 'warning';
}

// Severity icons for the panel; the order and each code's severity are the core's presentation
// rules (src/core/presentation.ts), shared with the Markdown report and `audit`.

import type { FindingCode, Severity } from '../../../core/model';
import { SEVERITY, SEVERITY_RANK, worstOf } from '../../../core/presentation';

/** Higher is worse. */
export const SEV_RANK: Record<Severity, number> = SEVERITY_RANK;

export const SEV_ICON: Record<Severity, string> = { error: '⛔', warning: '⚠', info: 'ℹ' };

export const worse: (a: Severity | undefined, b: Severity) => Severity = worstOf;

/** A code's usual severity (a finding carries its own, which wins: see findings/severity-index.ts). */
export function codeSeverity(code: FindingCode): Severity {
  return SEVERITY[code];
}

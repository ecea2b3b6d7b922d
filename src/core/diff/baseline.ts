// `audit --baseline`: each finding of the audited run, with whether the baseline run has it. The
// identity is diffSnapshots' (match-findings.ts): a finding the diff would list as new is new; one
// it would list as changed (another severity, a counter gap at other ids) is in the baseline, with
// the baseline's severity, so that the CLI can still fail on a severity that rose past --fail-on.
import type { Finding, Severity } from '../model';
import { pairSides, type DiffInput } from './diff';
import { matchFindings } from './match-findings';

export interface BaselineStatus {
  /** Index of the audited input the finding is from, and the finding itself (the same object). */
  input: number;
  finding: Finding;
  /** new: the baseline does not have it; unchanged: it does, as it is; updated: it does, with another severity or gap ids. */
  state: 'new' | 'unchanged' | 'updated';
  /** The baseline's severity of it (unchanged, updated). */
  baseSeverity?: Severity;
}

/** The head's findings in their order (input by input), each with its baseline state. */
export function baselineStates(baseline: DiffInput, head: DiffInput): BaselineStatus[] {
  const { B, H, sessionKey } = pairSides(baseline, head);
  const m = matchFindings(B.findings, H.findings, sessionKey);
  const state = new Map<Finding, BaselineStatus>();
  for (const f of m.new) state.set(f.finding, { input: f.input, finding: f.finding, state: 'new' });
  for (const c of m.unchanged) state.set(c.head.finding, { input: c.head.input, finding: c.head.finding, state: 'unchanged', baseSeverity: c.base.finding.severity });
  for (const c of m.changed) state.set(c.head.finding, { input: c.head.input, finding: c.head.finding, state: 'updated', baseSeverity: c.base.finding.severity });
  return H.findings.map((f) => state.get(f.finding)!);
}

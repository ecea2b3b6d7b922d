// `audit --baseline`: how the audited findings stand against a baseline run of the same scenario
// (src/core/diff baselineStates), in the text report and the --json output.
import type { BaselineStatus } from '../core/diff/index';
import { failsAgainst, requestName, type AuditInput, type FailOn } from './audit-input';
import { terminalSafe } from './report';

export interface BaselineRun {
  files: string[];
  states: BaselineStatus[];
}

export interface BaselineJson {
  files: string[];
  /** Findings the baseline has (as they are, or with another severity or gap ids): they fail only when their severity rose to --fail-on. */
  suppressed: number;
  /** Findings the baseline does not have. */
  new: number;
  /** Findings that make the exit status 1. */
  failing: number;
  /** Per finding of `findings`, in the same order: new, unchanged or updated. */
  states: BaselineStatus['state'][];
}

export function baselineJson(b: BaselineRun, failOn: FailOn): BaselineJson {
  return {
    files: b.files.slice(),
    suppressed: b.states.filter((x) => x.state !== 'new').length,
    new: b.states.filter((x) => x.state === 'new').length,
    failing: b.states.filter((x) => failsAgainst(x, failOn)).length,
    states: b.states.map((x) => x.state),
  };
}

export function renderBaselineSummary(b: BaselineRun, audited: readonly AuditInput[], failOn: FailOn): string {
  const j = baselineJson(b, failOn);
  const L = ['', `Baseline ${b.files.join(', ')}: ${j.suppressed} finding(s) the baseline has (suppressed), ${j.new} new, ${j.failing} failing at --fail-on ${failOn}.`];
  for (const x of b.states) {
    if (x.state === 'unchanged') continue;
    const a = audited[x.input]!;
    const reqs = a.snap.requests[x.finding.sessionKey] ?? [];
    const r = x.finding.requestId !== undefined ? reqs.find((q) => q.id === x.finding.requestId) : undefined;
    const what = x.state === 'new' ? 'new' : `in the baseline as ${x.baseSeverity}`;
    const fail = failsAgainst(x, failOn) ? ' (fails)' : '';
    L.push(`  ${x.state === 'new' ? '+' : '~'} ${x.finding.code} ${x.finding.severity}${r ? ` in ${requestName(r)}` : ''} (${a.file}): ${what}${fail}`);
  }
  return L.map(terminalSafe).join('\n') + '\n';
}

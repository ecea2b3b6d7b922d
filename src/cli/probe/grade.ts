// The report card: each condition's verdict from the experiments' evidence. A failure anywhere
// fails the condition; a pass needs at least one passing observation and no failure; otherwise
// unknown. Overall: clients can trust Last-Event-ID resumption only when every condition that
// matters passed (a gap the server signals is not trusted resumption: the client must resync).

import { CHECKS, CONDITIONS, TITLES, type CheckKey, type ConditionGrade, type ConditionKey, type ExperimentResult, type Overall, type ReportCard } from './types';

/** --fail-on: what makes the run fail (exit 1). */
export type FailOn = 'fail' | 'not-yes' | 'never';

/** Checks about browsers and resumability from the start: a failure warns, it does not make the answer "no". */
export const WARNING_ONLY: ReadonlySet<ConditionKey | CheckKey> = new Set(['priming', 'resume-prompt']);

/** The conditions the answer "yes" needs shown (gap signalled aside: a gap nobody met needs no signal). */
const TRUST_NEEDS: readonly ConditionKey[] = ['gapless-retention', 'terminal-pinned', 'session-scoping', 'drops-only-idempotent'];

export function gradeOf(key: ConditionKey | CheckKey, experiments: readonly ExperimentResult[]): ConditionGrade {
  const because: (ConditionGrade['because'][number] & { v: string })[] = [];
  let fail = false;
  let pass = false;
  for (const x of experiments) {
    for (const e of x.evidence) {
      if (e.on !== key) continue;
      if (e.verdict === 'fail') fail = true;
      if (e.verdict === 'pass') pass = true;
      because.push({ v: e.verdict, experiment: x.name, text: e.text, ...(e.events?.length ? { events: e.events } : {}) });
    }
  }
  const verdict = fail ? 'fail' : pass ? 'pass' : 'unknown';
  // What decided it first (the failures of a failed condition), then the rest.
  const rank = (v: string) => (v === verdict ? 0 : 1);
  because.sort((p, q) => rank(p.v) - rank(q.v));
  return { key, title: TITLES[key], verdict, because: because.map(({ v: _v, ...b }) => b) };
}

export function grade(experiments: readonly ExperimentResult[]): { conditions: ConditionGrade[]; checks: ConditionGrade[]; overall: Overall } {
  const conditions = CONDITIONS.map((k) => gradeOf(k, experiments));
  const checks = CHECKS.map((k) => gradeOf(k, experiments));
  const v = (k: ConditionKey) => conditions.find((c) => c.key === k)!.verdict;
  let overall: Overall;
  if (conditions.some((c) => c.verdict === 'fail') || checks.find((c) => c.key === 'ids-unique')!.verdict === 'fail') overall = 'no';
  else if (TRUST_NEEDS.every((k) => v(k) === 'pass')) overall = 'yes';
  else overall = 'not shown';
  return { conditions, checks, overall };
}

/**
 * Whether a condition or check fails the run at --fail-on. The exit status and every format that
 * can fail something (JUnit's test cases) follow this one rule, so that a CI report never shows a
 * failure the exit status ignores, nor a failed run without the case that failed it.
 */
export function failsRun(g: ConditionGrade, failOn: FailOn): boolean {
  if (failOn === 'never') return false;
  if (g.verdict === 'fail') return !WARNING_ONLY.has(g.key);
  // Not shown is what --fail-on not-yes fails: the conditions "yes" needed and did not get.
  return failOn === 'not-yes' && g.verdict === 'unknown' && (TRUST_NEEDS as readonly string[]).includes(g.key);
}

/** Exit 1 or not: a grade that fails the run, or a security finding (unless --fail-on never). */
export function runFails(card: Pick<ReportCard, 'conditions' | 'checks' | 'security'>, failOn: FailOn): boolean {
  if (failOn === 'never') return false;
  return card.security.length > 0 || [...card.conditions, ...card.checks].some((g) => failsRun(g, failOn));
}

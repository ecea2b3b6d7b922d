// The report card: each condition's verdict from the experiments' evidence. A failure anywhere
// fails the condition; a pass needs at least one passing observation and no failure; otherwise
// unknown. Overall: clients can trust Last-Event-ID resumption only when every condition that
// matters passed (a gap the server signals is not trusted resumption: the client must resync).

import { CHECKS, CONDITIONS, TITLES, type CheckKey, type ConditionGrade, type ConditionKey, type ExperimentResult, type Overall } from './types';

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
  else if (v('gapless-retention') === 'pass' && v('terminal-pinned') === 'pass' && v('session-scoping') === 'pass' && v('drops-only-idempotent') === 'pass') overall = 'yes';
  else overall = 'not shown';
  return { conditions, checks, overall };
}

// The report card as text (for people), JSON and JUnit XML (one test case per condition and check,
// and one per security finding, failing when it fails the run at --fail-on). Every string goes
// through the redaction of the user's header values.

import { terminalSafe } from '../report';
import { attr, stamp, text, token } from '../format-junit';
import { failsRun, WARNING_ONLY, type FailOn } from './grade';
import { redactDeep, redactText } from './redact';
import { CHECKS, type ConditionGrade, type ReportCard } from './types';
import { shortId } from './exp-stream';

const MARK = { pass: 'pass   ', fail: 'FAIL   ', unknown: 'unknown' } as const;

function gradeLines(g: ConditionGrade, out: string[]): void {
  // As JUnit and SARIF say it: a check that only warns does not fail the run (grade.ts).
  out.push(`  ${MARK[g.verdict]}  ${g.title}${g.verdict === 'fail' && WARNING_ONLY.has(g.key) ? ' (a warning: it does not fail the run)' : ''}`);
  for (const b of g.because.slice(0, 4)) out.push(`             ${b.experiment}: ${b.text}${b.events?.length ? ` [events ${b.events.map(shortId).join(', ')}]` : ''}`);
  if (g.because.length > 4) out.push(`             … ${g.because.length - 4} more (--format json)`);
}

export function renderText(card: ReportCard, secrets: readonly string[]): string {
  const c = redactDeep(card, secrets);
  const out: string[] = [];
  out.push(`Probe of ${c.url} (${c.era === 'legacy' ? '2025 era' : '2026-07-28 era'}${c.protocolVersion ? `, protocol ${c.protocolVersion}` : ''})`);
  out.push(`Tool: ${c.tool ?? '(none)'} · session ${c.sessions[0]}${c.gaplessDeclared ? ' · declares gapless retention' : ''}`);
  out.push('');
  out.push('Conditions (the design note\'s, for sound Last-Event-ID resumption):');
  for (const g of c.conditions) gradeLines(g, out);
  out.push('Checks:');
  for (const g of c.checks) gradeLines(g, out);
  if (c.security.length) {
    out.push('');
    for (const f of c.security) out.push(`SECURITY ${f.code}: ${f.message}${f.events.length ? ` [events ${f.events.slice(0, 8).join(', ')}]` : ''}`);
  }
  out.push('');
  out.push('Experiments:');
  for (const x of c.experiments) {
    out.push(`  ${x.status === 'skipped' ? 'skipped' : 'ran    '}  ${x.name}: ${x.summary}`);
    if (x.provoked && x.findings?.length) {
      out.push(`             the core: ${x.findings.length} finding(s) on what the probe provoked here (${[...new Set(x.findings.map((f) => f.code))].join(', ')}; --format json, or audit the capture)`);
      continue;
    }
    // What the ids cannot show, the probe checked by content against the baseline: say so.
    const checked = x.evidence.some((e) => e.on === 'gapless-retention' && e.verdict === 'pass');
    for (const f of x.findings ?? []) {
      const note = checked && (f.code === 'replay-unverifiable' || f.code === 'unverified-result-accepted') ? ' (the probe compared this replay with the baseline by content: complete)' : '';
      out.push(`             ${f.severity.toUpperCase()} ${f.code}${f.eventIds.length ? ` (ids ${f.eventIds.slice(0, 6).map(shortId).join(', ')})` : ''}: ${f.message}${note}`);
    }
  }
  for (const n of c.notes) out.push(`  note: ${n}`);
  out.push('');
  out.push(`Clients can trust Last-Event-ID resumption with this server: ${c.overall}`);
  return out.map((l) => terminalSafe(redactText(l, secrets))).join('\n') + '\n';
}

export function renderJson(c: ReportCard, secrets: readonly string[]): string {
  return JSON.stringify({ version: 1, ...redactDeep(c, secrets) }, null, 2) + '\n';
}

/**
 * JUnit XML, valid against the Jenkins and Ant schemas as `audit --format junit` is (its escaping
 * reused): one suite, one test case per condition and check, and one per security finding. A case
 * fails exactly when it fails the run at --fail-on (grade.ts's failsRun, which the exit status
 * follows): a CI report that shows failures must come with exit 1, and exit 1 with the case that
 * caused it. Ant's schema has no <skipped> and no output per case: what does not fail the run (an
 * unknown condition, a failed check that only warns, anything at --fail-on never) passes its case,
 * and the suite's <system-out> says what each case rests on.
 */
export function renderJunit(card: ReportCard, secrets: readonly string[], failOn: FailOn = 'fail', t0 = Date.now()): string {
  const c = redactDeep(card, secrets);
  const cases: string[] = [];
  const out: string[] = [];
  let failures = 0;
  const line = (b: ConditionGrade['because'][number]) => `${b.experiment}: ${b.text}${b.events?.length ? ` [events ${b.events.join(', ')}]` : ''}`;
  const spared = ` (${failOn === 'never' ? '--fail-on never' : 'a warning'}: it does not fail the run)`;
  for (const g of [...c.conditions, ...c.checks]) {
    const head = `    <testcase name="${token(g.title, 'condition')}" classname="probe.${(CHECKS as readonly string[]).includes(g.key) ? 'checks' : 'conditions'}" time="0"`;
    const fails = failsRun(g, failOn);
    out.push(`${g.verdict.toUpperCase()} ${g.title}${g.verdict === 'fail' && !fails ? spared : ''}`, ...g.because.map((b) => `  ${line(b)}`));
    if (!fails) {
      cases.push(`${head}/>`);
      continue;
    }
    failures++;
    const message = g.verdict === 'fail' ? (g.because[0]?.text ?? 'failed') : `unknown: not shown by this probe, which --fail-on not-yes fails${g.because[0] ? ` (${g.because[0].text})` : ''}`;
    cases.push(`${head}>\n      <failure message="${attr(message)}" type="${attr(g.key)}">${text(g.because.map(line).join('\n') || message)}</failure>\n    </testcase>`);
  }
  for (const f of c.security) {
    const head = `    <testcase name="${token(`SECURITY ${f.code}`, 'security')}" classname="probe.security" time="0"`;
    if (failOn === 'never') {
      out.push(`SECURITY ${f.code}: ${f.message}${spared}`);
      cases.push(`${head}/>`);
      continue;
    }
    failures++;
    cases.push(`${head}>\n      <failure message="${attr(f.message)}" type="${attr(f.code)}">${text(`${f.message}\nsessions: ${f.sessions.join(', ')}\nevents: ${f.events.join(', ')}`)}</failure>\n    </testcase>`);
  }
  let host = 'localhost';
  try {
    host = new URL(c.url).hostname || host;
  } catch {
    // the URL was checked before the probe ran
  }
  const props: [string, string][] = [
    ['url', c.url],
    ['era', c.era],
    ['tool', c.tool ?? '(none)'],
    ['mcp.session.id', c.sessions[0] ?? ''],
    ['overall', c.overall],
  ];
  const xml = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<testsuites>',
    `  <testsuite name="${token(`probe ${c.url}`, 'probe')}" package="${token('mcp-stream-inspector probe', 'probe')}" id="0" timestamp="${stamp(t0)}" hostname="${token(host, 'localhost')}" tests="${cases.length}" failures="${failures}" errors="0" time="0">`,
    `    <properties>\n${props.map(([n, v]) => `      <property name="${token(n, 'property')}" value="${attr(v)}"/>`).join('\n')}\n    </properties>`,
    ...cases,
    `    <system-out>${text([...out, `Clients can trust Last-Event-ID resumption with this server: ${c.overall}`].join('\n'))}</system-out>`,
    '    <system-err></system-err>',
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
  return xml;
}

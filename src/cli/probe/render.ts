// The report card as text (for people), JSON and JUnit XML (one test case per condition and check,
// failing when it failed; a security finding fails its own case). Every string goes through the
// redaction of the user's header values.

import { terminalSafe } from '../report';
import { redactText } from './redact';
import type { ConditionGrade, ReportCard } from './types';
import { shortId } from './exp-stream';

const MARK = { pass: 'pass   ', fail: 'FAIL   ', unknown: 'unknown' } as const;

function gradeLines(g: ConditionGrade, out: string[]): void {
  out.push(`  ${MARK[g.verdict]}  ${g.title}`);
  for (const b of g.because.slice(0, 4)) out.push(`             ${b.experiment}: ${b.text}${b.events?.length ? ` [events ${b.events.map(shortId).join(', ')}]` : ''}`);
  if (g.because.length > 4) out.push(`             … ${g.because.length - 4} more (--format json)`);
}

export function renderText(c: ReportCard, secrets: readonly string[]): string {
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
    for (const f of x.findings ?? []) out.push(`             ${f.severity.toUpperCase()} ${f.code}${f.eventIds.length ? ` (ids ${f.eventIds.slice(0, 6).join(', ')})` : ''}: ${f.message}`);
  }
  for (const n of c.notes) out.push(`  note: ${n}`);
  out.push('');
  out.push(`Clients can trust Last-Event-ID resumption with this server: ${c.overall}`);
  return out.map((l) => terminalSafe(redactText(l, secrets))).join('\n') + '\n';
}

export function renderJson(c: ReportCard, secrets: readonly string[]): string {
  return redactText(JSON.stringify({ version: 1, ...c }, null, 2), secrets) + '\n';
}

const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const xml = (s: string) => s.replace(NOT_XML, '?').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function renderJunit(c: ReportCard, secrets: readonly string[]): string {
  const cases: string[] = [];
  let failures = 0;
  for (const g of [...c.conditions, ...c.checks]) {
    const body = g.because.map((b) => `${b.experiment}: ${b.text}${b.events?.length ? ` [events ${b.events.join(', ')}]` : ''}`).join('\n');
    if (g.verdict === 'fail') {
      failures++;
      cases.push(`    <testcase name="${xml(g.title)}" classname="probe.conditions" time="0"><failure message="${xml(g.because[0]?.text ?? 'failed')}" type="${xml(g.key)}">${xml(body)}</failure></testcase>`);
    } else if (g.verdict === 'unknown') cases.push(`    <testcase name="${xml(g.title)}" classname="probe.conditions" time="0"><skipped message="not shown"/><system-out>${xml(body)}</system-out></testcase>`);
    else cases.push(`    <testcase name="${xml(g.title)}" classname="probe.conditions" time="0"><system-out>${xml(body)}</system-out></testcase>`);
  }
  for (const f of c.security) {
    failures++;
    cases.push(`    <testcase name="${xml(`security ${f.code}`)}" classname="probe.security" time="0"><failure message="${xml(f.message)}" type="${f.code}">${xml(f.message)}</failure></testcase>`);
  }
  const out = `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n  <testsuite name="${xml(`probe ${c.url}`)}" tests="${cases.length}" failures="${failures}" errors="0" time="0">\n${cases.join('\n')}\n    <system-out>${xml(`Clients can trust Last-Event-ID resumption with this server: ${c.overall}`)}</system-out>\n  </testsuite>\n</testsuites>\n`;
  return redactText(out, secrets);
}

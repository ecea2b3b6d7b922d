// `diff` for people: what is new (+), gone (-) and changed (~) between the base and the head run,
// by section (findings, verdicts, resumes, eras), then one summary line. Page data goes through
// terminalSafe like every report line.
import type { FindingEntry, RequestRef, ResumeSummary, SessionRef, SnapshotDiff } from '../core/diff/index';
import { ERA_BADGE } from '../core/presentation-eras';
import { terminalSafe } from './report';

const HOW = { exact: 'same endpoint', host: 'same host and path, another port', path: 'same path, another origin' } as const;

const sessionText = (s: SessionRef | null) => (s ? `session ${s.ordinal} of ${s.endpoint} (${ERA_BADGE[s.era]})` : 'the capture');
const requestText = (r: RequestRef | null) => (r ? `${r.name} #${r.ordinal}` : '');

function where(ref: FindingEntry['ref']): string {
  const what = ref.request ? requestText(ref.request) : ref.stream ? ref.stream : '';
  return `${what ? `${what}, ` : ''}${sessionText(ref.session)}`;
}

function findingLines(sign: string, e: FindingEntry, indent = '  '): string[] {
  const at = e.at;
  const ids = at.missing ? `  missing ${at.missing}` : '';
  return [`${indent}${sign} ${e.ref.code}  ${at.severity}  ${where(e.ref)}${ids}`, `${indent}    ${at.message}`];
}

const resumeText = (r: ResumeSummary | null) =>
  r === null ? 'no reconnect chain' : `${r.resumes} resume(s), Last-Event-ID ${r.lastEventId.every(Boolean) ? 'sent on each' : r.lastEventId.some(Boolean) ? `sent on ${r.lastEventId.filter(Boolean).length} of ${r.resumes}` : 'never sent'}`;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function renderDiff(d: SnapshotDiff, base: readonly string[], head: readonly string[]): string {
  const L: string[] = [];
  L.push(`base: ${base.join(', ')}`);
  L.push(`head: ${head.join(', ')}`);
  for (const p of d.endpoints) if (p.how !== 'exact') L.push(`  endpoint ${p.base} matched with ${p.head} (${HOW[p.how]})`);
  const f = d.findings;
  if (f.new.length || f.gone.length || f.changed.length) {
    L.push('', 'Findings:');
    for (const e of f.new) L.push(...findingLines('+', e));
    for (const e of f.gone) L.push(...findingLines('-', e));
    for (const c of f.changed) {
      const parts = [
        c.what.includes('severity') ? `severity ${c.base.severity} → ${c.head.severity}` : '',
        c.what.includes('ids') ? `missing ${c.base.missing ?? c.base.eventIds.join(',')} → ${c.head.missing ?? c.head.eventIds.join(',')}` : '',
      ].filter(Boolean);
      L.push(`  ~ ${c.ref.code}  ${where(c.ref)}: ${parts.join('; ')}`, `      ${c.head.message}`);
    }
  }
  if (d.verdicts.length) {
    L.push('', 'Verdicts:');
    for (const v of d.verdicts) {
      const sign = v.base === null ? '+' : v.head === null ? '-' : '~';
      const what = v.base === null ? `sent only in head, ${v.head}` : v.head === null ? `sent only in base, was ${v.base}` : `${v.base} → ${v.head}`;
      L.push(`  ${sign} ${requestText(v.request)} (${sessionText(v.session)}): ${what}`);
      for (const e of v.findings.new) L.push(`      + ${e.ref.code}  ${e.at.severity}: ${e.at.message}`);
      for (const e of v.findings.gone) L.push(`      - ${e.ref.code}  ${e.at.severity}: ${e.at.message}`);
    }
  }
  if (d.resumes.length) {
    L.push('', 'Resumes:');
    for (const r of d.resumes) L.push(`  ${r.base === null ? '+' : r.head === null ? '-' : '~'} ${r.chain} (${sessionText(r.session)}): ${resumeText(r.base)} → ${resumeText(r.head)}`);
  }
  const e = d.eras;
  if (e.servers.length || e.sessions.new.length || e.sessions.gone.length) {
    L.push('', 'Eras:');
    for (const s of e.servers) {
      if (s.base === null) L.push(`  + server ${s.endpoint}: only in head (${s.head})`);
      else if (s.head === null) L.push(`  - server ${s.endpoint}: only in base (${s.base})`);
      else L.push(`  ~ server ${s.endpoint}: ${s.base} → ${s.head}`);
    }
    for (const s of e.sessions.new) L.push(`  + ${sessionText(s)}: only in head`);
    for (const s of e.sessions.gone) L.push(`  - ${sessionText(s)}: only in base`);
  }
  L.push('');
  if (d.same) L.push(`No difference (${plural(f.unchanged, 'finding')} in both runs).`);
  else {
    const outcome = (k: 'new' | 'gone') => d.verdicts.reduce((n, v) => n + v.findings[k].length, 0);
    const parts = [
      [f.new.length, 'new finding'],
      [f.gone.length, 'gone finding'],
      [f.changed.length, 'changed finding'],
      [d.verdicts.length, 'changed verdict'],
      [d.resumes.length, 'changed reconnect chain'],
      [e.servers.length, 'server era change'],
      [e.sessions.new.length + e.sessions.gone.length, 'session only in one run', 'sessions only in one run'],
    ] as const;
    const listed = parts.filter(([n]) => n > 0).map(([n, one, many]) => plural(n, one, many));
    const folded = outcome('new') + outcome('gone');
    L.push(`${plural(d.count, 'difference')}: ${listed.join(', ')}${folded ? ` (and ${plural(folded, 'outcome finding')}, listed with ${d.verdicts.length === 1 ? 'its verdict' : 'their verdicts'})` : ''}; ${f.unchanged} finding(s) the same.`);
  }
  return L.map(terminalSafe).join('\n') + '\n';
}

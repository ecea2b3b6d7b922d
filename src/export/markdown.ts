// A Markdown report to paste into a bug. Every piece of page/server data goes through mdText(),
// which escapes Markdown syntax, HTML and table pipes and makes control/bidi characters visible;
// only our own fixed vocabulary (finding codes, verdicts) is written in code spans.

import type { AnalysisSnapshot, Session } from '../core/model';
import { ADVICE_DUPLICATED, ADVICE_LOSSY, adviceFor, captureItemText, captureSummary, lossDetail, sortFindings, VERDICT_TEXT } from '../core/presentation';
import { ERA_LABEL, linkText, serverOf, sessionTitle as titleOf, subscriptionText } from '../core/presentation-eras';
import { mdHeadingText, mdText } from './escape';

export interface MarkdownOptions {
  createdAt?: string;
  source?: string;
  /** Max findings listed per session (the rest are counted). */
  maxFindings?: number;
}

const SEV_ICON = { error: '⛔ error', warning: '⚠ warning', info: 'ℹ info' } as const;
const toolName = (params: unknown) => {
  const n = (params as { name?: unknown } | undefined)?.name;
  return typeof n === 'string' ? ` ${n}` : '';
};
const code = (c: string) => `\`${c.replace(/`/g, '')}\``;

function sessionTitle(s: Session): string {
  if (s.sessionId) return `Session ${mdHeadingText(s.sessionId, 80)}`;
  return s.era === 'modern' ? mdHeadingText(titleOf(s), 200) : `No session (endpoint ${mdText(s.endpoint, 200)})`;
}

export function exportMarkdown(snap: AnalysisSnapshot, opts: MarkdownOptions = {}): string {
  const max = opts.maxFindings ?? 200;
  const out: string[] = [];
  const errors = snap.findings.filter((f) => f.severity === 'error').length;
  const warnings = snap.findings.filter((f) => f.severity === 'warning').length;
  out.push('# MCP Stream Inspector report', '');
  out.push(`- Generated: ${mdText(opts.createdAt ?? new Date().toISOString())}`);
  if (opts.source) out.push(`- Source: ${mdText(opts.source, 300)}`);
  out.push(`- ${snap.sessions.length} session(s), ${snap.recordCount} capture records, ${snap.findings.length} finding(s): ${errors} error(s), ${warnings} warning(s)`);
  // Capture health: what the inspector lost or did not keep, in the words the panel and audit use.
  const health = snap.capture;
  out.push(`- Capture: ${health.worst ? `${SEV_ICON[health.worst]} ` : ''}${mdText(captureSummary(health), 300)}`);
  for (const x of health.items.slice(0, 20)) out.push(`  - ${SEV_ICON[x.level]} ${code(x.code)}: ${mdText(captureItemText(x), 400)}`);
  if (health.items.length > 20) out.push(`  - … and ${health.items.length - 20} more`);
  // Faults injected on purpose (issue 14): the findings they explain say so too.
  const faults = snap.faults ?? [];
  if (faults.length) {
    out.push(`- Injected faults: ${faults.length} (findings they explain are marked "Injected from the panel", not blamed on the server)`);
    for (const f of faults.slice(0, 20)) {
      const what = f.fault === 'cut' ? `cut after ${f.afterEvents ?? 0} event(s)${f.cursor !== undefined ? `, last id ${mdText(f.cursor, 80)}` : ''}` : f.eventIds.length ? `event ids ${mdText(f.eventIds.slice(0, 10).join(', '), 200)}` : f.status !== undefined ? `answered ${f.status} instead of ${f.serverStatus ?? '?'}` : '';
      out.push(`  - ${code(f.fault)} from the ${f.origin === 'panel' ? 'panel' : 'serve --fault'}: ${mdText(f.text, 200)}${what ? ` (${what})` : ''}${f.findings.length ? `; explains ${[...new Set(f.findings)].map(code).join(', ')}` : ''}`);
    }
    if (faults.length > 20) out.push(`  - … and ${faults.length - 20} more`);
  }
  const worst = sortFindings(snap.findings)[0];
  if (worst) out.push('', `**Worst finding:** ${SEV_ICON[worst.severity]} ${code(worst.code)} — ${mdText(worst.message)}`);
  out.push('');

  for (const s of snap.sessions) {
    out.push(`## ${sessionTitle(s)}`, '');
    out.push(`- Endpoint: ${mdText(s.endpoint, 300)}`);
    if (s.protocolVersion) out.push(`- Protocol revision: ${mdText(s.protocolVersion, 40)}`);
    const srv = serverOf(snap, s);
    out.push(`- Era: ${ERA_LABEL[s.era]} — ${mdText(s.eraEvidence, 300)}${srv ? `; server: ${ERA_LABEL[srv.era]}${srv.evidence.length ? ` (${mdText(srv.evidence.join('; '), 600)})` : ''}` : ''}`);
    out.push(`- Event ids: ${mdText(s.idScheme.kind)}${s.idScheme.scope ? ` (${mdText(s.idScheme.scope)} scope)` : ''} — ${mdText(s.idScheme.evidence, 300)}`);
    out.push(`- Lossless: ${s.lossless ? 'yes' : `**NO** — ${s.losslessReasons.map((r) => mdText(r, 300)).join('; ') || 'no reason given'}`}`);
    out.push(`- Gapless retention declared by the server: ${s.gaplessDeclared ? 'yes' : 'no'}`);
    out.push(`- ${s.streamIds.length} stream(s), ${s.requestIds.length} request(s)`);
    for (const c of s.chains ?? []) {
      const segs = c.segments
        .map((g, i) => `${i ? `→ Last-Event-ID ${g.resumedFrom ?? '(none)'} ` : ''}${g.status !== undefined ? `[${g.status}] ` : ''}${g.events ? `ids ${g.firstId ?? '?'}…${g.lastId ?? '?'}` : 'no events'} (${g.state})`)
        .join(' ');
      out.push(`- Reconnect chain${c.requestIds.length ? ` (request ${mdText(c.requestIds.join(', '), 200)})` : ''}: ${mdText(segs, 600)}`);
    }
    for (const l of s.links ?? []) out.push(`- ${l.kind === 'reissue' ? 'Re-issue' : l.kind === 'carried' ? 'Output carried forward' : 'MRTR retry'}: ${mdText(linkText(l), 400)}`);
    for (const x of s.subscriptions ?? []) out.push(`- Subscription: ${mdText(subscriptionText(x), 400)}`);
    out.push('');

    const reqs = snap.requests[s.key] ?? [];
    if (reqs.length) {
      out.push('| Request id | Method | Verdict | Notifications | Findings |', '|---|---|---|---|---|');
      for (const r of reqs) {
        out.push(`| ${mdText(r.id, 60)} | ${mdText(r.method + toolName(r.params), 120)} | ${code(r.verdict)} | ${r.notifications.length} | ${r.findings.map(code).join(', ')} |`);
      }
      out.push('');
    }
    for (const r of reqs.filter((x) => x.verdict === 'lossy')) {
      const d = lossDetail(snap, s.key, r);
      out.push(`### ⛔ Request ${mdHeadingText(r.id, 60)} (${mdText(r.method + toolName(r.params), 120)}) — result accepted over a lossy stream`, '');
      out.push(`- Verdict ${code('lossy')}: ${VERDICT_TEXT.lossy}.`);
      if (d.missing) out.push(`- Missing event ids: ${mdText(d.missing, 300)}${d.missingCount !== undefined ? ` (${d.missingCount} event(s))` : ''}`);
      out.push(`- Cumulative notifications accumulated: ${d.accumulated}${d.implied !== undefined ? `; the ids imply up to ${d.implied}` : ''}`);
      out.push(`- What to do: ${ADVICE_LOSSY}`, '');
    }
    for (const r of reqs.filter((x) => x.verdict === 'duplicated')) {
      const f = snap.findings.find((x) => x.sessionKey === s.key && x.requestId === r.id && x.code === 'duplicate-output-accepted');
      out.push(`### ⛔ Request ${mdHeadingText(r.id, 60)} (${mdText(r.method + toolName(r.params), 120)}) — result accepted over duplicated output`, '');
      out.push(`- Verdict ${code('duplicated')}: ${VERDICT_TEXT.duplicated}.`);
      if (f?.eventIds.length) out.push(`- Event ids delivered twice: ${mdText(f.eventIds.slice(0, 20).join(', '), 300)}${f.eventIds.length > 20 ? ' …' : ''}`);
      out.push(`- What to do: ${mdText(ADVICE_DUPLICATED)}`, '');
    }
    const fs = sortFindings(snap.findings.filter((f) => f.sessionKey === s.key));
    if (fs.length) {
      out.push('### Findings', '');
      for (const f of fs.slice(0, max)) {
        const where: string[] = [];
        if (f.requestId) where.push(`request ${mdText(f.requestId, 60)}`);
        if (f.streamId) where.push(`stream ${mdText(f.streamId, 80)}`);
        if (f.missing) where.push(`missing ids ${mdText(f.missing, 200)}`);
        else if (f.eventIds.length) where.push(`event ids ${mdText(f.eventIds.slice(0, 20).join(', '), 300)}${f.eventIds.length > 20 ? ' …' : ''}`);
        out.push(`- ${SEV_ICON[f.severity]} ${code(f.code)}${where.length ? ` (${where.join(', ')})` : ''}: ${mdText(f.message)}`);
        // The client findings (issue 19) carry their advice; lossy-result-accepted has its section.
        const advice = f.code !== 'lossy-result-accepted' ? adviceFor(f.code) : undefined;
        if (advice) out.push(`  - What to do: ${mdText(advice)}`);
      }
      if (fs.length > max) out.push(`- … and ${fs.length - max} more`);
      out.push('');
    } else out.push('No findings.', '');
  }
  return out.join('\n');
}

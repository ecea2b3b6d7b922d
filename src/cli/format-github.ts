// `audit --format github`: GitHub Actions workflow commands, one annotation per finding
// (`::error` / `::warning` / `::notice` by severity, `file=` the audited file, `title=` the code and
// the request), one for the file's capture health and one per capture notice, then one plain
// summary line; with --baseline, a finding the baseline run has is a notice marked so. Written
// exactly as the Actions toolkit writes them (@actions/core's issueCommand: properties in the order title, file; `%`, CR
// and LF escaped in the message, and `:` and `,` too in properties), so page text cannot end the
// line and start another command (test/unit/cli/format-github.test.ts compares with @actions/core).
import type { Finding, Severity } from '../core/model';
import { adviceFor, captureSummary } from '../core/presentation';
import { findingsOfRequest, requestName, sessionName, type AuditInput } from './audit-input';
import { terminalSafe } from './report';

/**
 * Page text (a method, a tool name, event data in a message) with its controls shown as code points
 * (report.ts terminalSafe: an ESC would reach the log's terminal rendering); its CR and LF are
 * left to escapeData, which encodes them as the toolkit does.
 */
const pageSafe = (s: string) => s.replace(/[^\r\n]+/g, terminalSafe);
const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

const COMMAND: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'notice' };

export function annotation(command: string, props: { title?: string; file?: string }, message: string): string {
  const p = (['title', 'file'] as const).filter((k) => props[k]).map((k) => `${k}=${escapeProperty(props[k]!)}`);
  return `::${command}${p.length ? ` ${p.join(',')}` : ''}::${escapeData(message)}`;
}

function where(f: Finding): string {
  return [f.streamId ? `stream ${f.streamId}` : '', f.missing ? `missing ${f.missing}` : ''].filter(Boolean).join(', ');
}

/** `known`: findings a --baseline run has: annotated as notices, "(in the baseline)" in the title. */
export function renderGithub(inputs: readonly AuditInput[], known: ReadonlySet<Finding> = new Set()): string {
  const lines: string[] = [];
  const count: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  let inBaseline = 0;
  for (const { file, snap, notices } of inputs) {
    // Capture health, once per file: at the level of its worst item (a notice when complete).
    lines.push(annotation(COMMAND[snap.capture.worst ?? 'info'], { title: 'capture health', file }, pageSafe(captureSummary(snap.capture))));
    for (const n of notices) lines.push(annotation(n.level === 'info' ? 'notice' : n.level, { title: pageSafe(`capture notice ${n.code}`), file }, pageSafe(n.message)));
    for (const f of snap.findings) {
      count[f.severity]++;
      const s = snap.sessions.find((x) => x.key === f.sessionKey);
      const reqs = s ? (snap.requests[s.key] ?? []) : [];
      const r = f.requestId !== undefined ? reqs.find((x) => findingsOfRequest([f], x, reqs).length > 0) : undefined;
      const title = `${f.code}${r ? ` in ${requestName(r)}` : f.requestId !== undefined ? ` in request #${f.requestId}` : ''}`;
      const w = where(f);
      const isKnown = known.has(f);
      if (isKnown) inBaseline++;
      const advice = f.severity !== 'info' ? adviceFor(f.code) : undefined;
      lines.push(annotation(isKnown ? 'notice' : COMMAND[f.severity], { title: pageSafe(isKnown ? `${title} (in the baseline)` : title), file }, pageSafe(`${f.message}${s ? ` (${sessionName(s)}${w ? `; ${w}` : ''})` : w ? ` (${w})` : ''}${advice ? ` What to do: ${advice}` : ''}`)));
    }
  }
  lines.push(`mcp-stream-inspector audit: ${inputs.length} file(s), ${count.error} error(s), ${count.warning} warning(s), ${count.info} info${known.size ? `; ${inBaseline} in the baseline` : ''}`);
  return lines.join('\n') + '\n';
}

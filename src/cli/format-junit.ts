// `audit --format junit`: JUnit XML for CI test reports (Jenkins, GitLab, GitHub test-report
// actions, Azure DevOps…). One <testsuite> per session of each file, one <testcase> per JSON-RPC
// request; a request fails when it has a finding at or above --fail-on, its <failure> carrying the
// findings' text. Findings tied to no request get a test case of their own, per session and per
// file. Capture notices and findings below --fail-on go to the suite's <system-out>.
//
// The file validates against both schemas consumers hold it to (test/unit/cli/format-junit.test.ts):
// Jenkins' JUnit schema (dtkit junit-4.xsd) and Apache Ant's (the stricter one): so no attributes on
// <testsuites>, every suite with `package`, `id`, `timestamp` (no zone), `hostname`, `tests`,
// `failures`, `errors`, `time`, a <properties> with at least one <property>, and <system-out> and
// <system-err>; at most one <failure> per test case; `name` and `classname` are xs:token (one
// line, single spaces). Characters XML 1.0 cannot carry (most C0 controls, U+FFFE/F, lone
// surrogates) are written as ⟨U+XXXX⟩; everything else is escaped, never dropped.
import type { AnalysisSnapshot, Finding } from '../core/model';
import { adviceFor, captureItemText, captureSummary } from '../core/presentation';
import { fails, findingsOfRequest, requestName, sessionName, worst, type AuditInput, type FailOn } from './audit-input';
import { eventCountAtSnapshot, eventTime } from '../core/event-access';

const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const shown = (s: string) => s.replace(NOT_XML, (c) => `⟨U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩`);

export function text(s: string): string {
  return shown(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
export function attr(s: string): string {
  return text(s).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');
}
/** An xs:token attribute: one line, no edge or double spaces (a parser would collapse them anyway). */
export function token(s: string, fallback: string): string {
  const t = s.replace(/[\t\n\r]+/g, ' ').replace(/ {2,}/g, ' ').trim();
  return attr(t || fallback);
}

const secs = (ms: number) => (Number.isFinite(ms) && ms > 0 ? (ms / 1000).toFixed(3) : '0');
/** Ant's schema wants xs:dateTime without a zone or fraction: UTC, to the second. */
export const stamp = (t: number) => new Date(Number.isFinite(t) && t > 0 && t < 8.64e15 ? t : 0).toISOString().slice(0, 19);

function host(url: string): string {
  try {
    return new URL(url).hostname || 'localhost';
  } catch {
    return 'localhost';
  }
}

function findingText(f: Finding): string {
  const where = [f.streamId ? `stream ${f.streamId}` : '', f.missing ? `missing ${f.missing}` : f.eventIds.length ? `ids ${f.eventIds.slice(0, 10).join(', ')}${f.eventIds.length > 10 ? ' …' : ''}` : '']
    .filter(Boolean)
    .join(', ');
  const advice = f.severity !== 'info' ? adviceFor(f.code) : undefined;
  return `${f.severity.toUpperCase()} ${f.code}${where ? ` (${where})` : ''}\n  ${f.message}${advice ? `\n  What to do: ${advice}` : ''}`;
}

interface Case {
  name: string;
  classname: string;
  time: string;
  findings: Finding[];
}

function caseXml(c: Case, isFailing: (f: Finding) => boolean): { xml: string; failed: boolean } {
  const failing = c.findings.filter(isFailing);
  const head = `    <testcase name="${token(c.name, 'request')}" classname="${token(c.classname, 'mcp')}" time="${c.time}"`;
  if (failing.length === 0) return { xml: `${head}/>`, failed: false };
  const w = worst(failing)!;
  const body = c.findings.map(findingText).join('\n');
  return { xml: `${head}>\n      <failure message="${attr(`${w.code}: ${w.message}`)}" type="${attr(w.code)}">${text(body)}</failure>\n    </testcase>`, failed: true };
}

function suiteXml(o: { id: number; pkg: string; name: string; start: number; end: number; hostname: string; props: [string, string][]; cases: Case[]; out: string[] }, failing: (f: Finding) => boolean): string {
  const cases = o.cases.map((c) => caseXml(c, failing));
  const failures = cases.filter((c) => c.failed).length;
  const props = o.props.map(([n, v]) => `      <property name="${token(n, 'property')}" value="${attr(v)}"/>`).join('\n');
  return [
    `  <testsuite name="${token(o.name, 'mcp')}" package="${token(o.pkg, 'mcp')}" id="${o.id}" timestamp="${stamp(o.start)}" hostname="${token(o.hostname, 'localhost')}" tests="${cases.length}" failures="${failures}" errors="0" time="${secs(o.end - o.start)}">`,
    `    <properties>\n${props}\n    </properties>`,
    ...cases.map((c) => c.xml),
    `    <system-out>${text(o.out.join('\n'))}</system-out>`,
    '    <system-err></system-err>',
    '  </testsuite>',
  ].join('\n');
}

function span(snap: AnalysisSnapshot, streamIds: readonly string[]): { start: number; end: number } {
  let start = Infinity;
  let end = -Infinity;
  for (const id of streamIds) {
    const s = snap.streams[id];
    if (!s) continue;
    start = Math.min(start, s.start);
    const n = eventCountAtSnapshot(s);
    const last = n ? eventTime(s, n - 1)! : s.start;
    end = Math.max(end, s.end ?? s.start, last);
  }
  return Number.isFinite(start) ? { start, end: Math.max(start, end) } : { start: 0, end: 0 };
}

/** `known`: findings a --baseline run has (they fail no test case; listed among those below --fail-on). */
export function renderJunit(inputs: readonly AuditInput[], failOn: FailOn, known: ReadonlySet<Finding> = new Set()): string {
  const failing = (f: Finding) => fails(f, failOn) && !known.has(f);
  const suites: string[] = [];
  let id = 0;
  for (const { file, format, snap, notices } of inputs) {
    // The file's capture health and notices, once: in its first suite.
    const health = [`Capture health: ${captureSummary(snap.capture)}`, ...snap.capture.items.filter((x) => x.kind === 'gap').map((x) => `Capture: ${x.level.toUpperCase()} ${x.code}: ${captureItemText(x)}`)];
    let noteLines = [...health, ...notices.map((n) => `Capture notice: ${n.level.toUpperCase()} ${n.code}${n.count > 1 ? ` (×${n.count})` : ''}: ${n.message}`)];
    const takeNotes = () => {
      const l = noteLines;
      noteLines = [];
      return l;
    };
    for (const s of snap.sessions) {
      const requests = snap.requests[s.key] ?? [];
      const findings = snap.findings.filter((f) => f.sessionKey === s.key);
      const classname = `${file} ${sessionName(s)}`;
      const used = new Set<Finding>();
      const cases: Case[] = requests.map((r) => {
        const fs = findingsOfRequest(findings, r, requests);
        for (const f of fs) used.add(f);
        return { name: requestName(r), classname, time: secs((r.end ?? r.start) - r.start), findings: fs };
      });
      const rest = findings.filter((f) => !used.has(f));
      if (rest.length) cases.push({ name: 'findings not tied to a request', classname, time: '0', findings: rest });
      const t = span(snap, s.streamIds);
      const below = findings.filter((f) => !failing(f)).map((f) => `${known.has(f) ? '(in the baseline) ' : ''}${findingText(f)}`);
      suites.push(
        suiteXml(
          {
            id: id++,
            pkg: file,
            name: `${file} ${sessionName(s)}`,
            start: t.start,
            end: t.end,
            hostname: host(s.endpoint),
            props: [
              ['file', file],
              ['format', format],
              ['capture', captureSummary(snap.capture)],
              ...(s.sessionId !== null ? ([['mcp.session.id', s.sessionId]] as [string, string][]) : []),
              ['endpoint', s.endpoint],
              ...(s.protocolVersion ? ([['mcp.protocol.version', s.protocolVersion]] as [string, string][]) : []),
              ['id-scheme', s.idScheme.kind],
              ['lossless', s.lossless ? 'yes' : `no (${s.losslessReasons.join('; ')})`],
            ],
            cases,
            out: [...(below.length ? [`Findings below --fail-on ${failOn}:`, ...below] : []), ...takeNotes()],
          },
          failing,
        ),
      );
    }
    // The file itself: findings outside any session (the inspector's capture gaps), or no MCP traffic.
    const global = snap.findings.filter((f) => !snap.sessions.some((s) => s.key === f.sessionKey));
    if (global.length || snap.sessions.length === 0) {
      suites.push(
        suiteXml(
          {
            id: id++,
            pkg: file,
            name: `${file} capture`,
            start: snap.markers.reduce((m, x) => Math.min(m, x.t), Infinity),
            end: snap.markers.reduce((m, x) => Math.max(m, x.t), -Infinity),
            hostname: 'localhost',
            props: [
              ['file', file],
              ['format', format],
              ['records', String(snap.recordCount)],
              ['capture', captureSummary(snap.capture)],
            ],
            cases: global.length ? [{ name: 'capture findings', classname: `${file} capture`, time: '0', findings: global }] : [],
            out: [...(snap.sessions.length === 0 ? ['no MCP traffic found'] : []), ...takeNotes()],
          },
          failing,
        ),
      );
    }
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n${suites.join('\n')}\n</testsuites>\n`;
}

// `audit --format sarif`: SARIF 2.1.0 for GitHub code scanning and other SARIF readers.
// One run; one rule per finding code (id = the code, its title, its one-line summary and its
// explanation from docs/findings.md via the core's FINDING_HELP); one result per finding, at the
// audited file (a HAR or capture has no source line: line 1) and at logical locations naming the
// session and the request by their role. partialFingerprints carry the finding's identity as `diff`
// and `audit --baseline` match it (code + session + request by method, tool name and order), so
// code scanning follows one finding across runs although ids and ports change. With --baseline,
// each result has its baselineState. Capture health goes to the invocation's notifications.
// test/unit/cli/format-sarif.test.ts validates the output against the SARIF 2.1.0 JSON schema.
import { findingIdentities, type BaselineStatus } from '../core/diff/index';
import { ALL_CODES, FINDING_HELP, SEVERITY, TITLE } from '../core/index';
import type { Finding, FindingCode, Severity } from '../core/model';
import { captureSummary } from '../core/presentation';
import type { AuditInput } from './audit-input';
import { sessionName } from './audit-input';
import { artifactUri, fingerprint, ruleName, sarifLog } from './sarif';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note' };

function rule(code: FindingCode) {
  const help = FINDING_HELP[code];
  return {
    id: code,
    name: ruleName(code),
    shortDescription: { text: TITLE[code] },
    fullDescription: { text: help.summary },
    help: { text: `${help.text}\n\nSee docs/findings.md#${code}.`, markdown: `${help.markdown}\n\nSee docs/findings.md, section ${code}.` },
    defaultConfiguration: { level: LEVEL[SEVERITY[code]] },
    properties: { tags: ['mcp', 'streamable-http', code.startsWith('replay') || code.endsWith('-gap') ? 'event-ids' : 'protocol'] },
  };
}

export interface SarifOptions {
  /** With --baseline: each finding's state against the baseline run, and the baseline's files. */
  baseline?: { files: string[]; states: readonly BaselineStatus[] };
}

export function renderSarif(inputs: readonly AuditInput[], opts: SarifOptions = {}): string {
  const rules = ALL_CODES.map(rule);
  const ruleIndex = new Map(ALL_CODES.map((c, i) => [c, i]));
  const ids = findingIdentities(inputs.map((a) => a.snap));
  const stateOf = new Map<Finding, BaselineStatus>((opts.baseline?.states ?? []).map((s) => [s.finding, s]));
  const results = ids.map(({ input, finding: f, ref, key }) => {
    const a = inputs[input]!;
    const s = a.snap.sessions.find((x) => x.key === f.sessionKey);
    const logical: { name: string; fullyQualifiedName: string; kind: string }[] = [];
    if (s) logical.push({ name: sessionName(s), fullyQualifiedName: `${s.endpoint}/${s.era}/session ${ref.session?.ordinal ?? 0}`, kind: 'module' });
    if (ref.request) {
      logical.push({ name: `${ref.request.name} #${ref.request.ordinal}`, fullyQualifiedName: `${s?.endpoint ?? ''}/${s?.era ?? ''}/session ${ref.session?.ordinal ?? 0}/${ref.request.name} #${ref.request.ordinal}`, kind: 'function' });
    } else if (ref.stream) logical.push({ name: ref.stream, fullyQualifiedName: `${s?.endpoint ?? ''}/${s?.era ?? ''}/session ${ref.session?.ordinal ?? 0}/${ref.stream}`, kind: 'resource' });
    const st = stateOf.get(f);
    return {
      ruleId: f.code,
      ruleIndex: ruleIndex.get(f.code)!,
      level: LEVEL[f.severity],
      message: { text: f.message },
      locations: [
        {
          physicalLocation: { artifactLocation: { uri: artifactUri(a.file), index: input }, region: { startLine: 1 } },
          ...(logical.length ? { logicalLocations: logical } : {}),
        },
      ],
      partialFingerprints: fingerprint('mcpStreamInspectorFinding/v1', key),
      ...(st ? { baselineState: st.state } : {}),
      properties: {
        severity: f.severity,
        sessionId: f.sessionId,
        sessionKey: f.sessionKey,
        ...(f.requestId !== undefined ? { requestId: f.requestId } : {}),
        ...(f.streamId !== undefined ? { streamId: f.streamId } : {}),
        ...(f.missing !== undefined ? { missing: f.missing } : {}),
        eventIds: f.eventIds.slice(),
        ...(f.pending ? { pending: true } : {}),
        ...(st?.baseSeverity !== undefined && st.baseSeverity !== f.severity ? { baselineSeverity: st.baseSeverity } : {}),
      },
    };
  });
  const notifications = inputs.flatMap((a, i) => [
    {
      level: a.snap.capture.worst ? LEVEL[a.snap.capture.worst] : 'note',
      message: { text: `${a.file}: capture health: ${captureSummary(a.snap.capture)}` },
      locations: [{ physicalLocation: { artifactLocation: { uri: artifactUri(a.file), index: i } } }],
    },
    ...a.notices.map((n) => ({ level: LEVEL[n.level], message: { text: `${a.file}: capture notice ${n.code}${n.count > 1 ? ` (×${n.count})` : ''}: ${n.message}` }, descriptor: { id: n.code } })),
  ]);
  return sarifLog({
    rules,
    invocations: [{ executionSuccessful: true, toolExecutionNotifications: notifications }],
    artifacts: inputs.map((a) => ({ location: { uri: artifactUri(a.file) }, description: { text: `${a.format}, ${a.snap.recordCount} records` } })),
    results,
    ...(opts.baseline
      ? { properties: { baseline: { files: opts.baseline.files, suppressed: opts.baseline.states.filter((x) => x.state !== 'new').length, new: opts.baseline.states.filter((x) => x.state === 'new').length } } }
      : {}),
  });
}

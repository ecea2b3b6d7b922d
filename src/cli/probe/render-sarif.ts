// `probe --format sarif`: the report card as SARIF 2.1.0 (GitHub code scanning, any SARIF reader).
// One rule per condition of sound resumption and per check, and one for the security finding.
// Results are what the user must act on or should know:
// - a failed condition or check: one result per experiment that showed it (its evidence, with the
//   events, in the message), level error (warning for "priming events present" and "resumes
//   answered promptly", which do not fail the probe's exit status on their own);
// - a security finding (a cross-session leak): level error, tagged `security`; it stands for the
//   session-scoping failure it shows (not reported a second time under that rule);
// - an unknown condition or check: one `note` (nothing the probe could do showed it: unknown is
//   not "fine", principle 3), with what the experiments saw; in the 2026-07-28 era, none for the
//   conditions and checks that era makes moot (no sessions, no Last-Event-ID).
// Passing conditions give no result (a code-scanning alert is something to look at); every
// verdict is in the run's properties. Locations: the experiment's capture file when the captures
// are saved (--out), else the endpoint; logical locations name the server and the experiment.
// partialFingerprints key on rule + tool + experiment (never ids, ports or session ids), so code
// scanning follows a failure across runs. test/unit/cli/probe-sarif.test.ts validates the output
// against the SARIF 2.1.0 schema on real probe runs.
import { join } from 'node:path';
import { artifactUri, fingerprint, ruleName, sarifLog, type SarifLevel } from '../sarif';
import { WARNING_ONLY } from './grade';
import { redactDeep, REDACTED } from './redact';
import { CHECKS, CONDITIONS, TITLES, type CheckKey, type ConditionGrade, type ConditionKey, type ExperimentResult, type ReportCard, type SecurityFinding } from './types';

type Key = ConditionKey | CheckKey;
const SECURITY_RULE = 'probe/cross-session-replay';
const ruleId = (k: Key) => `probe/${k}`;
const FP = 'mcpStreamInspectorProbe/v1';
const MODERN_NOT_APPLICABLE = new Set<Key>(['gapless-retention', 'gap-signalled', 'session-scoping', 'priming', 'ids-unique', 'resume-prompt']);

/** What each condition and check means and what to do (docs/probe.md has the table). */
const HELP: Record<Key, { holds: string; act: string }> = {
  'gapless-retention': {
    holds: 'A resume from any cursor replays exactly what the stream carried after it: the same notifications, the result once, nothing of another stream, in order.',
    act: 'Keep every event of a stream from its first id to its result (or until the client cannot resume any more), and replay from the cursor exactly; when events were evicted, say so (a 4xx or a resync event) instead of replaying what is left.',
  },
  'drops-only-idempotent': {
    holds: 'Nothing whose absence changes what the client accumulates is ever dropped (progress notifications, superseded by the next, may be).',
    act: 'Under backpressure, slow the producer (await the socket\'s drain) or drop only notifications the next one supersedes; never log messages or partial results.',
  },
  'terminal-pinned': {
    holds: 'The result reaches the client exactly once: through a slow reader and after every resume.',
    act: 'Exempt the result from any drop or eviction policy, and replay it once after a resume from a cursor before it.',
  },
  'gap-signalled': {
    holds: 'When events are lost, the server says so (a 4xx, a resync event, a JSON-RPC error) instead of a silent 200.',
    act: 'Answer a cursor you cannot replay from exactly with an error or a resync event, so that the client re-fetches instead of accepting an incomplete result.',
  },
  'session-scoping': {
    holds: 'A cursor of one session replays nothing of it to another session.',
    act: 'Scope the event store by session: look a cursor up only among the events of the session that asks.',
  },
  priming: {
    holds: 'A stream opens with an id-bearing (priming) event, so that it can be resumed from its start.',
    act: 'Write an event with an id (and empty data) before anything else on each stream.',
  },
  'ids-unique': {
    holds: 'No event id repeats across the streams of a session: a repeated id is an ambiguous cursor.',
    act: 'Make event ids unique per session (a stream prefix and a counter, or a random id).',
  },
  'resume-prompt': {
    holds: 'A resume gets its response headers at once (under 1 s): a browser lets one GET per URL wait for its headers at a time, so a held resume holds every later GET stream of the page to the endpoint, the resume of a call still waiting for its result included.',
    act: 'Send a resumed stream\'s headers before looking up or waiting for the events to replay (with the TypeScript SDK, keep replayEventsAfter fast: it answers the resume only once that has returned).',
  },
};

function rule(k: Key) {
  const h = HELP[k];
  const security = k === 'session-scoping';
  return {
    id: ruleId(k),
    name: ruleName(ruleId(k)),
    shortDescription: { text: TITLES[k] },
    fullDescription: { text: h.holds },
    help: { text: `${h.holds}\n\nWhat to do. ${h.act}\n\nSee docs/probe.md.`, markdown: `${h.holds}\n\n**What to do.** ${h.act}\n\nSee docs/probe.md.` },
    defaultConfiguration: { level: (WARNING_ONLY.has(k) ? 'warning' : 'error') as SarifLevel },
    properties: { tags: ['mcp', 'streamable-http', (CONDITIONS as readonly string[]).includes(k) || k === 'resume-prompt' ? 'resumption' : 'event-ids', ...(security ? ['security'] : [])] },
  };
}

const securityRule = {
  id: SECURITY_RULE,
  name: ruleName(SECURITY_RULE),
  shortDescription: { text: 'another session\'s events replayed (cross-session leak)' },
  fullDescription: { text: 'A second session that resumed with the first session\'s cursor was sent the first session\'s messages: the event store is not scoped by session.' },
  help: {
    text: 'Any client that presents (or guesses) a cursor of another session receives that session\'s notifications and results.\n\nWhat to do. Scope the event store by session: look a cursor up only among the events of the session that asks.\n\nSee docs/probe.md.',
    markdown: 'Any client that presents (or guesses) a cursor of another session receives that session\'s notifications and results.\n\n**What to do.** Scope the event store by session: look a cursor up only among the events of the session that asks.\n\nSee docs/probe.md.',
  },
  defaultConfiguration: { level: 'error' as SarifLevel },
  // GitHub code scanning ranks security alerts by this score: another session's data disclosed, high.
  properties: { tags: ['security', 'mcp', 'streamable-http', 'resumption'], 'security-severity': '7.5' },
};

export interface ProbeSarifOptions {
  /** --out: the directory the captures are saved in (probe-<capture>.msi.json). */
  out?: string;
  /** The names of the captures saved there. */
  captures?: readonly string[];
}

const eventsText = (events: readonly string[] | undefined) => (events?.length ? ` [events ${events.slice(0, 8).join(', ')}${events.length > 8 ? ', …' : ''}]` : '');

export function renderSarif(card: ReportCard, secrets: readonly string[], opts: ProbeSarifOptions = {}): string {
  const c = redactDeep(card, secrets);
  const keys: Key[] = [...CONDITIONS, ...CHECKS];
  const rules = [...keys.map(rule), securityRule];
  const ruleIndex = new Map<string, number>(rules.map((r, i) => [r.id, i]));
  const grades = new Map<Key, ConditionGrade>([...c.conditions, ...c.checks].map((g) => [g.key, g]));
  // Artifacts: the saved captures, or the endpoint itself. A URI holds no space nor bracket: the
  // marker standing for a credential of the URL (credentials.ts) is percent-encoded there.
  const endpointUri = c.url.split(REDACTED).join(encodeURIComponent(REDACTED));
  const files = opts.out !== undefined ? (opts.captures ?? []).map((n) => ({ name: n, uri: artifactUri(join(opts.out!, `probe-${n}.msi.json`)) })) : [];
  const artifacts = files.length
    ? files.map((f) => ({ location: { uri: f.uri }, description: { text: `the probe's capture ${f.name} (open it in the panel or audit it)` } }))
    : [{ location: { uri: endpointUri }, description: { text: 'the probed MCP endpoint (save the captures with --out to locate results in files)' } }];
  const location = (x: ExperimentResult | undefined) => {
    const i = x?.capture !== undefined ? files.findIndex((f) => f.name === x.capture) : -1;
    const server = { name: c.url, fullyQualifiedName: `${c.url} (${c.era === 'legacy' ? '2025 era' : '2026-07-28 era'})`, kind: 'module' };
    return {
      physicalLocation: i >= 0 ? { artifactLocation: { uri: files[i]!.uri, index: i }, region: { startLine: 1 } } : { artifactLocation: { uri: artifacts[0]!.location.uri, index: 0 } },
      logicalLocations: x ? [server, { name: x.name, fullyQualifiedName: `${c.url}/${x.name}`, kind: 'function' }] : [server],
    };
  };
  const common = (x: ExperimentResult | undefined) => ({ tool: c.tool ?? '(none)', experiment: x?.name ?? '', capture: x?.capture ?? '' });

  const results: unknown[] = [];
  for (const x of c.experiments) {
    for (const f of x.security ?? []) results.push(securityResult(f, x));
    for (const k of keys) {
      if (k === 'session-scoping' && x.security?.length) continue; // the security result says it
      const failed = x.evidence.filter((e) => e.on === k && e.verdict === 'fail');
      if (!failed.length) continue;
      const events = [...new Set(failed.flatMap((e) => e.events ?? []))];
      results.push({
        ruleId: ruleId(k),
        ruleIndex: ruleIndex.get(ruleId(k))!,
        level: WARNING_ONLY.has(k) ? 'warning' : 'error',
        message: { text: `${TITLES[k]}: FAIL in "${x.name}": ${failed.map((e) => e.text).join('; ')}${eventsText(events)}` },
        locations: [location(x)],
        partialFingerprints: fingerprint(FP, JSON.stringify([ruleId(k), common(x).tool, x.name])),
        properties: { verdict: 'fail', condition: k, ...common(x), eventIds: events },
      });
    }
  }
  for (const k of keys) {
    const g = grades.get(k);
    if (g?.verdict !== 'unknown') continue;
    // The 2026-07-28 era has no sessions and no Last-Event-ID: these cannot be shown by design (a
    // note of the card says so, in the notifications), not for want of an experiment.
    if (c.era === 'modern' && MODERN_NOT_APPLICABLE.has(k)) continue;
    const first = c.experiments.find((x) => x.name === g.because[0]?.experiment);
    const seen = g.because.length ? g.because.map((b) => `${b.experiment}: ${b.text}${eventsText(b.events)}`).join('; ') : 'no experiment bore on it';
    results.push({
      ruleId: ruleId(k),
      ruleIndex: ruleIndex.get(ruleId(k))!,
      level: 'note',
      message: { text: `${TITLES[k]}: unknown (not shown by this probe). ${seen}` },
      locations: [location(first)],
      partialFingerprints: fingerprint(FP, JSON.stringify([ruleId(k), common(undefined).tool, 'unknown'])),
      properties: { verdict: 'unknown', condition: k, ...common(first), eventIds: [...new Set(g.because.flatMap((b) => b.events ?? []))] },
    });
  }

  function securityResult(f: SecurityFinding, x: ExperimentResult) {
    return {
      ruleId: SECURITY_RULE,
      ruleIndex: ruleIndex.get(SECURITY_RULE)!,
      level: 'error',
      message: { text: `SECURITY ${f.code}: ${f.message} (sessions ${f.sessions.join(' and ')})${eventsText(f.events)}` },
      locations: [location(x)],
      partialFingerprints: fingerprint(FP, JSON.stringify([SECURITY_RULE, common(x).tool, x.name])),
      properties: { tags: ['security'], verdict: 'fail', condition: 'session-scoping', code: f.code, ...common(x), sessions: f.sessions, eventIds: f.events },
    };
  }

  const notifications = [
    ...c.experiments.filter((x) => x.status === 'skipped').map((x) => ({ level: 'note', message: { text: `skipped: ${x.name}: ${x.summary}` } })),
    ...c.notes.map((n) => ({ level: 'note', message: { text: `note: ${n}` } })),
  ];
  return sarifLog({
    rules,
    invocations: [{ executionSuccessful: true, toolExecutionNotifications: notifications }],
    artifacts,
    results,
    properties: {
      probe: {
        url: c.url,
        era: c.era,
        tool: c.tool ?? '(none)',
        overall: c.overall,
        answer: `Clients can trust Last-Event-ID resumption with this server: ${c.overall}`,
        verdicts: Object.fromEntries([...c.conditions, ...c.checks].map((g) => [g.key, g.verdict])),
      },
    },
  });
}

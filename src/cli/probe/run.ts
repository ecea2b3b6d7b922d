// The probe's run: session A (baseline, cuts, slow reader, standalone stream), resumes with chosen
// cursors, a second session; each capture analysed by the core; the report card.

import { analyzeRecords } from '../../core/analyzer';
import type { CaptureRecord } from '../../core/record';
import type { Finding, FindingCode } from '../../core/model';
import { openSession, type ProbeSession } from './client';
import { openV2Session, type V2Session } from './client-v2';
import { listenExperiment, reissueExperiment } from './exp-modern';
import { isResponse } from './conns';
import { baselineExperiment, cutExperiment, cutPoints, slowExperiment, streams, type Baseline } from './exp-stream';
import { crossSessionExperiment, cursorExperiment, idsExperiment, standaloneExperiment } from './exp-cursors';
import { grade } from './grade';
import { candidates, type ListedTool } from './tool-choice';
import type { ProbeSettings } from './settings';
import type { ConditionKey, ExperimentResult, ProbeCapture, ReportCard } from './types';

export class ProbeError extends Error {}

const skipped = (name: string, summary: string): ExperimentResult => ({ name, status: 'skipped', summary, evidence: [] });

function coreFindings(records: readonly CaptureRecord[]) {
  const snap = analyzeRecords(records);
  return { snap, findings: snap.findings.filter((f) => !f.injected) };
}

/** What a core finding on a call says about a condition (docs/findings.md has the codes). */
const CODE_CONDITION: Partial<Record<FindingCode, ConditionKey>> = {
  'live-gap': 'drops-only-idempotent',
  'replay-gap': 'gapless-retention',
  'replay-duplicate': 'gapless-retention',
  'replay-reordered': 'gapless-retention',
  'replay-cross-stream': 'gapless-retention',
  'stale-resume-cursor': 'gapless-retention',
  'lossy-result-accepted': 'gap-signalled',
  'result-missing': 'terminal-pinned',
};

/** Hands the core's findings on session A to the experiments whose calls they name, as evidence. */
function attribute(experiments: ExperimentResult[], findings: readonly Finding[], asEvidence: boolean): Finding[] {
  const rest: Finding[] = [];
  for (const f of findings) {
    const x = (f.requestId !== undefined ? experiments.find((e) => e.requestIds?.includes(f.requestId!)) : undefined) ?? (experiments.length === 1 ? experiments[0] : undefined);
    if (!x) {
      rest.push(f);
      continue;
    }
    // A call the probe cut before any id cannot get its result: that, and only that, is expected.
    const expected = (x.causedByProbe === true || x.timedOut === true) && (f.code === 'result-missing' || f.code === 'request-abandoned');
    const why = x.timedOut ? 'the probe gave up at --timeout: raise it to let the tool finish' : "the probe's own cut before any id: expected";
    (x.findings ??= []).push({ code: f.code, severity: f.severity, message: expected ? `${f.message} (${why})` : f.message, eventIds: f.eventIds });
    const on = CODE_CONDITION[f.code];
    if (asEvidence && on && !expected && f.severity !== 'info') x.evidence.push({ on, verdict: f.severity === 'error' ? 'fail' : 'unknown', text: `the core: ${f.code}: ${f.message}`, ...(f.eventIds.length ? { events: f.eventIds.slice(0, 8) } : {}) });
  }
  return rest;
}

type Outcome = { card: ReportCard; captures: ProbeCapture[] };

/** --era: legacy probes the 2025 era with the SDK v1 client; auto and modern ask the SDK v2 client's negotiation first. */
export async function runProbe(s: ProbeSettings): Promise<Outcome> {
  if (s.era !== 'legacy') {
    let v2: V2Session | undefined;
    try {
      v2 = await openV2Session(s, 'probe-session-a', 'auto');
    } catch (e) {
      if (s.era === 'modern') throw new ProbeError(`cannot connect to ${s.url} (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`);
    }
    if (v2?.era === 'modern') return runModern(s, v2);
    await v2?.close();
    if (s.era === 'modern') throw new ProbeError('the server does not speak the 2026-07-28 revision (the SDK v2 client settled on 2025): probe it with --era legacy');
  }
  return runLegacy(s);
}

/** Lists the tools and runs the baseline on the one to use (the named one, or the first read-only or allowed one that streams). */
async function chooseAndBaseline(a: ProbeSession, s: ProbeSettings, experiments: ExperimentResult[], notes: string[]): Promise<{ tool?: ListedTool; baseline?: Baseline }> {
  const listed = (await a.listTools()) as ListedTool[];
  const { tools, refused } = candidates(listed, s.tool, s.allowTools);
  if (s.tool !== undefined && tools.length === 0) {
    const names = listed.slice(0, 12).map((t) => t.name).join(', ') + (listed.length > 12 ? ', …' : '');
    throw new ProbeError(`the server lists no tool "${s.tool}" (${listed.length ? `it lists: ${names}` : 'it lists no tools'})`);
  }
  for (const t of tools) {
    const r = await baselineExperiment(a, s, t.name);
    if (s.tool !== undefined || (r.baseline && streams(r.baseline.messages))) {
      experiments.push(r.result);
      // A baseline that lost events itself (a live drop, or a cut the server made whose replay
      // left ids out) is no measure of what a later run should hold beyond it.
      const gaps = r.baseline ? coreFindings(a.recorder.records).findings.filter((f) => f.code === 'live-gap' || f.code === 'replay-gap') : [];
      if (r.baseline && gaps.length) {
        r.baseline.lossy = gaps.map((f) => f.code).join(', ');
        notes.push(`the baseline call itself lost events (the core: ${r.baseline.lossy}): later runs are compared with an incomplete baseline, so what they hold beyond it is not called another stream's`);
      }
      return { tool: t, ...(r.baseline ? { baseline: r.baseline } : {}) };
    }
    notes.push(`${t.name} (read-only) streams no progress or log notifications: not used`);
  }
  experiments.push(skipped('baseline', `no tool the probe may call streams notifications${refused.length ? ` (not called, not annotated readOnlyHint: ${refused.join(', ')}; name one with --tool or --allow-tool)` : ''}`));
  // Everything else rests on the baseline: say so plainly, where a newcomer reads first.
  notes.push(`nothing was probed: no tool the probe may call streams, so every condition is unknown. Name a tool that streams progress or log notifications: --tool NAME --args JSON (the probe calls it for real, up to six times)`);
  return {};
}

async function slowIn(session: ProbeSession, s: ProbeSettings, tool: string, baseline: Baseline, experiments: ExperimentResult[], captures: ProbeCapture[]) {
  // In a session of its own: what earlier experiments left behind (a buffer still full, a
  // session the server ended) does not count against it.
  try {
    experiments.push({ ...(await slowExperiment(session, s, tool, baseline)), capture: 'slow-reader' });
  } finally {
    await session.close();
  }
  captures.push({ name: 'slow-reader', records: session.recorder.records });
}

async function runModern(s: ProbeSettings, a: V2Session): Promise<Outcome> {
  const experiments: ExperimentResult[] = [];
  const captures: ProbeCapture[] = [];
  const notes = ['the 2026-07-28 revision has no sessions and no Last-Event-ID: a broken stream is re-issued, a dropped listen loses notifications by design; gapless retention, gap signalled and session scoping do not apply, so the answer is "not shown"'];
  let tool: ListedTool | undefined;
  let baseline: Baseline | undefined;
  try {
    ({ tool, baseline } = await chooseAndBaseline(a, s, experiments, notes));
    // Streams of this era carry no ids by design: no priming event to look for.
    for (const x of experiments) x.evidence = x.evidence.filter((e) => e.on !== 'priming');
  } finally {
    await a.close();
  }
  captures.push({ name: 'session-a', records: a.recorder.records });
  const complete = !!baseline && baseline.messages.filter(isResponse).length === 1;
  if (tool && baseline && complete) {
    await slowIn(await openV2Session(s, 'probe-slow-reader'), s, tool.name, baseline, experiments, captures);
    const r = await reissueExperiment(s, tool, baseline);
    experiments.push(r.result);
    captures.push(r.capture);
  } else {
    experiments.push(skipped('slow reader', baseline ? 'the baseline call did not complete' : 'no baseline'));
    experiments.push(skipped('broken request stream, then a re-issue', baseline ? 'the baseline call did not complete' : 'no baseline'));
  }
  const l = await listenExperiment(s);
  experiments.push(l.result);
  if (l.capture) captures.push(l.capture);
  return finish(s, 'modern', a, tool?.name, experiments, captures, notes);
}

async function runLegacy(s: ProbeSettings): Promise<Outcome> {
  const experiments: ExperimentResult[] = [];
  const captures: ProbeCapture[] = [];
  const notes: string[] = [];
  let a;
  try {
    a = await openSession(s, 'probe-session-a');
  } catch (e) {
    throw new ProbeError(`cannot open a 2025-era session with ${s.url} (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`);
  }
  let tool: string | undefined;
  let baseline: Baseline | undefined;
  try {
    const chosen = await chooseAndBaseline(a, s, experiments, notes);
    tool = chosen.tool?.name;
    baseline = chosen.baseline;
    const ids = baseline?.ids ?? [];
    if (baseline && ids.length === 0) notes.push('the tool\'s stream carries no event ids: Last-Event-ID resumption is not offered');
    const complete = !!baseline && baseline.messages.filter((m) => 'result' in m || 'error' in m).length === 1;
    if (baseline && !complete) notes.push('the baseline call did not complete: the cut and slow-reader runs have nothing to be compared with');
    if (baseline && tool && ids.length && complete) {
      for (const k of cutPoints(baseline)) {
        if (k > 0) {
          experiments.push(await cutExperiment(a, s, tool, baseline, k));
          continue;
        }
        // A cut before any id leaves the call without its result, by construction: in a session
        // and a capture of its own, so that session A's capture shows only what the server did.
        const own = await openSession(s, 'probe-cut-before-id');
        try {
          experiments.push({ ...(await cutExperiment(own, s, tool, baseline, 0)), capture: 'cut-before-id' });
        } finally {
          await own.close();
        }
        captures.push({ name: 'cut-before-id', records: own.recorder.records });
      }
    } else experiments.push(skipped('cut and resume', !baseline ? 'no baseline' : !complete ? 'the baseline call did not complete' : 'the stream carries no ids: nothing to resume from'));
    if (baseline && tool && complete) await slowIn(await openSession(s, 'probe-slow-reader'), s, tool, baseline, experiments, captures);
    else experiments.push(skipped('slow reader', baseline ? 'the baseline call did not complete' : 'no baseline'));
    experiments.push(await standaloneExperiment(a, s));
    experiments.push(idsExperiment(a));
    if (baseline && ids.length) {
      for (const which of ['unknown', 'malformed', 'evicted'] as const) {
        if (which === 'evicted' && !s.slow) {
          experiments.push(skipped('resume with an evicted cursor', `needs --slow (waits ${s.retentionMs} ms past the server's retention)`));
          continue;
        }
        const r = await cursorExperiment(a, s, baseline, which, `probe-cursor-${which}`);
        experiments.push({ ...r.result, capture: `cursor-${which}` });
        captures.push({ name: `cursor-${which}`, records: r.recorder.records });
      }
      const x = await crossSessionExperiment(a, s, baseline, 'probe-cross-session');
      experiments.push({ ...x.result, capture: 'cross-session' });
      captures.push({ name: 'cross-session', records: x.recorders.flatMap((r) => r.records) });
    } else {
      experiments.push(skipped('resume with chosen cursors', 'no ids to shape a cursor on'));
      experiments.push(skipped('resume from a second session', 'no ids: nothing to resume'));
    }
  } finally {
    await a.close();
  }
  captures.unshift({ name: 'session-a', records: a.recorder.records });
  return finish(s, 'legacy', a, tool, experiments, captures, notes);
}

function finish(s: ProbeSettings, era: 'legacy' | 'modern', a: ProbeSession, tool: string | undefined, experiments: ExperimentResult[], captures: ProbeCapture[], notes: string[]): Outcome {
  // The core's analysis of each capture (what `audit` shows for its file): the findings go to the
  // experiments of the requests they name. Those of session A and of the slow reader are evidence;
  // the resumes with chosen cursors provoke some on purpose (an unknown cursor is "stale"): listed only.
  for (const x of experiments) x.capture ??= 'session-a';
  let sessionA;
  for (const cap of captures) {
    const { snap, findings: all } = coreFindings(cap.records);
    if (cap.name === 'session-a') sessionA = snap.sessions[0];
    const mine = experiments.filter((x) => x.capture === cap.name && x.status === 'ran');
    const asEvidence = cap.name === 'session-a' || cap.name === 'slow-reader';
    if (!asEvidence) for (const x of mine) x.provoked = true;
    const rest = attribute(mine, all, asEvidence).map((f) => ({ code: f.code, severity: f.severity, message: f.message, eventIds: f.eventIds }));
    if (rest.length) experiments.push({ name: `analysis of ${cap.name} (the core, as \`audit\` shows it)`, status: 'ran', capture: cap.name, summary: `${rest.length} more finding(s): ${[...new Set(rest.map((f) => f.code))].join(', ')}`, evidence: [], findings: rest });
  }
  const { conditions, checks, overall } = grade(experiments);
  const security = experiments.flatMap((x) => x.security ?? []);
  return {
    card: {
      url: s.url,
      era,
      ...(a.protocolVersion ? { protocolVersion: a.protocolVersion } : {}),
      sessions: [a.sessionId ?? '(none)', ...security.map((f) => f.sessions[1])],
      ...(tool ? { tool } : {}),
      ...(sessionA ? { gaplessDeclared: sessionA.gaplessDeclared } : {}),
      conditions,
      checks,
      overall,
      experiments,
      security,
      notes,
    },
    captures,
  };
}

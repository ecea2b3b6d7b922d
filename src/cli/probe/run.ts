// The probe's run: session A (baseline, cuts, slow reader, standalone stream), resumes with chosen
// cursors, a second session; each capture analysed by the core; the report card.

import { analyzeRecords } from '../../core/analyzer';
import type { CaptureRecord } from '../../core/record';
import { openSession } from './client';
import { baselineExperiment, cutExperiment, cutPoints, slowExperiment, streams, type Baseline } from './exp-stream';
import { crossSessionExperiment, cursorExperiment, idsExperiment, standaloneExperiment } from './exp-cursors';
import { grade } from './grade';
import { candidates, type ListedTool } from './tool-choice';
import type { ProbeSettings } from './settings';
import type { ExperimentResult, ProbeCapture, ReportCard } from './types';

export class ProbeError extends Error {}

const skipped = (name: string, summary: string): ExperimentResult => ({ name, status: 'skipped', summary, evidence: [] });

function coreFindings(records: readonly CaptureRecord[]) {
  const snap = analyzeRecords(records);
  return { snap, findings: snap.findings.filter((f) => !f.injected).map((f) => ({ code: f.code, severity: f.severity, message: f.message, eventIds: f.eventIds })) };
}

export async function runProbe(s: ProbeSettings): Promise<{ card: ReportCard; captures: ProbeCapture[] }> {
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
    const listed = (await a.client.listTools()).tools as ListedTool[];
    const { tools, refused } = candidates(listed, s.tool, s.allowTools);
    if (s.tool !== undefined && tools.length === 0) throw new ProbeError(`the server lists no tool "${s.tool}"`);
    for (const t of tools) {
      const r = await baselineExperiment(a, s, t.name);
      if (s.tool !== undefined || (r.baseline && streams(r.baseline.messages))) {
        tool = t.name;
        experiments.push(r.result);
        baseline = r.baseline;
        break;
      }
      notes.push(`${t.name} (read-only) streams no progress or log notifications: not used`);
    }
    if (!tool) {
      experiments.push(skipped('baseline', `no tool the probe may call streams notifications${refused.length ? ` (not called, not annotated readOnlyHint: ${refused.join(', ')}; name one with --tool or --allow-tool)` : ''}`));
    }
    const ids = baseline?.ids ?? [];
    if (baseline && ids.length === 0) notes.push('the tool\'s stream carries no event ids: Last-Event-ID resumption is not offered');
    if (baseline && tool && ids.length) {
      for (const k of cutPoints(baseline)) experiments.push(await cutExperiment(a, s, tool, baseline, k));
    } else experiments.push(skipped('cut and resume', baseline ? 'the stream carries no ids: nothing to resume from' : 'no baseline'));
    if (baseline && tool) experiments.push(await slowExperiment(a, s, tool, baseline));
    else experiments.push(skipped('slow reader', 'no baseline'));
    experiments.push(await standaloneExperiment(a, s));
    experiments.push(idsExperiment(a));
    if (baseline && ids.length) {
      for (const which of ['unknown', 'malformed', 'evicted'] as const) {
        if (which === 'evicted' && !s.slow) {
          experiments.push(skipped('resume with an evicted cursor', `needs --slow (waits ${s.retentionMs} ms past the server's retention)`));
          continue;
        }
        const r = await cursorExperiment(a, s, baseline, which, `probe-cursor-${which}`);
        experiments.push(r.result);
        captures.push({ name: `cursor-${which}`, records: r.recorder.records });
      }
      const x = await crossSessionExperiment(a, s, baseline, 'probe-cross-session');
      experiments.push(x.result);
      captures.push({ name: 'cross-session', records: x.recorders.flatMap((r) => r.records) });
    } else {
      experiments.push(skipped('resume with chosen cursors', 'no ids to shape a cursor on'));
      experiments.push(skipped('resume from a second session', 'no ids: nothing to resume'));
    }
  } finally {
    await a.close();
  }
  captures.unshift({ name: 'session-a', records: a.recorder.records });
  // The core's analysis of session A: its findings, on the experiments of the requests they name.
  const { snap, findings } = coreFindings(a.recorder.records);
  const sessionA = snap.sessions[0];
  if (findings.length) experiments.push({ name: 'analysis of session A (the core, as `audit` shows it)', status: 'ran', summary: `${findings.length} finding(s): ${[...new Set(findings.map((f) => f.code))].join(', ')}`, evidence: [], findings });
  const { conditions, checks, overall } = grade(experiments);
  const security = experiments.flatMap((x) => x.security ?? []);
  return {
    card: {
      url: s.url,
      era: 'legacy',
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

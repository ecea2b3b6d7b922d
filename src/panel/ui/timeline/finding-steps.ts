// Next / previous finding on the timeline: the session's findings that point at an event, in the
// time order of those events (ties: the order the findings were listed in, worst first).

import type { AnalysisSnapshot, Finding } from '../../../core/model';
import { findingTarget } from '../findings/finding-target';
import type { EventRef } from '../navigation/state';

export interface Step {
  finding: Finding;
  at: EventRef;
  t: number;
}

export function findingSteps(snap: AnalysisSnapshot, findings: readonly Finding[]): Step[] {
  const out: Step[] = [];
  for (const f of findings) {
    const at = findingTarget(snap, f);
    const t = at ? snap.streams[at.streamId]?.events.at(at.index)?.t : undefined;
    if (at && t !== undefined) out.push({ finding: f, at, t });
  }
  return out.map((s, i) => [s, i] as const).sort((a, b) => a[0].t - b[0].t || a[1] - b[1]).map(([s]) => s);
}

/** The step after (dir 1) or before (-1) the one at `t` (the selection's time, else the view's centre); wraps around. */
export function nextStep(steps: readonly Step[], t: number, dir: 1 | -1, current?: Finding): Step | undefined {
  if (!steps.length) return undefined;
  const i = current ? steps.findIndex((s) => s.finding === current) : -1;
  if (i >= 0) return steps[(i + dir + steps.length) % steps.length];
  if (dir > 0) return steps.find((s) => s.t > t) ?? steps[0];
  for (let k = steps.length - 1; k >= 0; k--) if (steps[k]!.t < t) return steps[k];
  return steps[steps.length - 1];
}

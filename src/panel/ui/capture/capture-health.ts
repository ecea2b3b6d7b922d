// The seam between the analysis and the capture-health strip (CaptureNotices.tsx): the snapshot's
// capture health (`snapshot.capture`: every notice and capture-gap record, counted per source and
// reason), in the words the Markdown report and `audit` print too (src/core/presentation.ts).
// Nothing in the UI reads records for capture health.

import type { AnalysisSnapshot, CaptureHealthItem, Severity } from '../../../core/model';
import type { CaptureRecord } from '../../../core/record';
import { captureSummary, healthOf } from '../../../core/presentation';

export interface CaptureIssues {
  /** The strip's headline: the core's one-line capture health. */
  summary: string;
  /** One entry per (source, reason or code and message), worst first; repeats are counted. */
  items: readonly CaptureHealthItem[];
  notices: number;
  gaps: number;
  /** Records the inspector lost (buffer cap, eviction, reload...). */
  lost: number;
  /** Records missing by the user's setting or an imported file's limits: not the inspector's loss. */
  notKept: number;
  worst: Severity | undefined;
}

function issuesOf(c: AnalysisSnapshot['capture']): CaptureIssues {
  const count = (kind: CaptureHealthItem['kind']) => c.items.reduce((n, x) => n + (x.kind === kind ? x.count : 0), 0);
  return { summary: captureSummary(c), items: c.items, notices: count('notice'), gaps: count('gap'), lost: c.lost, notKept: c.notKept + c.bodiesAbsent, worst: c.worst };
}

/** The issues of a part of the items (e.g. without the network witness's own gaps), in the same words. */
export function summarizeIssues(items: readonly CaptureHealthItem[]): CaptureIssues {
  return issuesOf(healthOf(items));
}

export function createCaptureHealth(): (snap: AnalysisSnapshot, records: readonly CaptureRecord[]) => CaptureIssues {
  let last: { capture: AnalysisSnapshot['capture']; issues: CaptureIssues } | undefined;
  return (snap) => {
    const c = snap.capture;
    if (last?.capture === c) return last.issues;
    last = { capture: c, issues: issuesOf(c) };
    return last.issues;
  };
}

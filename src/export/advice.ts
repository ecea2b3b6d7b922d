// Plain-words texts shared by the panel and the Markdown report.

import type { AnalysisSnapshot, Finding, RequestInfo, Verdict } from '../core/model';

export const ADVICE_LOSSY =
  'Discard the accumulated state (the notifications collected for this request), then re-issue the request or read the state explicitly. A terminal result after a lossy replay is not evidence of completeness.';

export const VERDICT_TEXT: Record<Verdict, string> = {
  complete: 'every event that contributed to the result was received',
  'complete-unverified': 'the result arrived, but the event ids cannot prove nothing was lost',
  lossy: 'the result was accepted although events of this request were lost',
  incomplete: 'the request’s streams ended without a terminal response',
  pending: 'still waiting for a terminal response',
};

/** Count the ids in a range text like "12–13, 20" or "12-13". Unknown parts count 0. */
export function countRange(missing: string | undefined): number | undefined {
  if (!missing) return undefined;
  let n = 0;
  let known = false;
  for (const part of missing.split(/[,;]\s*/)) {
    const m = /^\s*(?:(.*?)(\d+))\s*(?:[–—-]\s*(?:(.*?)(\d+)))?\s*$/.exec(part);
    if (!m) continue;
    const a = Number(m[2]);
    const b = m[4] !== undefined ? Number(m[4]) : a;
    if (b >= a) {
      n += b - a + 1;
      known = true;
    }
  }
  return known ? n : undefined;
}

export interface LossDetail {
  missing?: string;
  missingCount?: number;
  accumulated: number;
  /** What the ids imply: accumulated + missing ids (an upper bound: a missing id may not be cumulative). */
  implied?: number;
}

/** What a lossy request is missing, from its findings. */
export function lossDetail(snap: AnalysisSnapshot, sessionKey: string, req: RequestInfo): LossDetail {
  const fs = snap.findings.filter((f) => f.sessionKey === sessionKey && f.requestId === req.id);
  const withMissing = fs.find((f) => f.code === 'lossy-result-accepted' && f.missing) ?? fs.find((f) => f.missing);
  const missing = withMissing?.missing;
  const gapIds = fs.filter((f) => f.code === 'replay-gap' || f.code === 'live-gap').reduce((n, f) => n + f.eventIds.length, 0);
  const missingCount = countRange(missing) ?? (gapIds || undefined);
  return {
    ...(missing !== undefined ? { missing } : {}),
    ...(missingCount !== undefined ? { missingCount, implied: req.cumulativeCount + missingCount } : {}),
    accumulated: req.cumulativeCount,
  };
}

const SEV_RANK = { error: 0, warning: 1, info: 2 } as const;

/** Findings sorted worst first (severity, then lossy-result-accepted first, then time order). */
export function sortFindings(fs: readonly Finding[]): Finding[] {
  return fs
    .map((f, i) => [f, i] as const)
    .sort((a, b) => SEV_RANK[a[0].severity] - SEV_RANK[b[0].severity] || Number(b[0].code === 'lossy-result-accepted') - Number(a[0].code === 'lossy-result-accepted') || a[1] - b[1])
    .map(([f]) => f);
}

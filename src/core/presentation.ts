// How findings, verdicts and capture health are ranked and said: one place for the panel, the
// Markdown report and `audit` (text, JSON, JUnit, GitHub), so the three faces agree. Each medium
// chooses its icons and layout; the order, the words and the advice come from here.
import type { AnalysisSnapshot, CaptureHealth, CaptureHealthItem, Finding, FindingCode, RequestInfo, Severity, Verdict } from './model';
import { SEVERITY_RANK } from './findings';

export { SEVERITY, SEVERITY_RANK, worstOf } from './findings';

/** Severity as a word, for media without icons. */
export const SEVERITY_WORD: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'info' };

/** Whether `a` is at least as severe as `b`. */
export const atLeast = (a: Severity, b: Severity): boolean => SEVERITY_RANK[a] >= SEVERITY_RANK[b];

/** The worst severity of a list of findings (undefined when empty). */
export function worstSeverity(fs: Iterable<Pick<Finding, 'severity'>>): Severity | undefined {
  let w: Severity | undefined;
  for (const f of fs) if (w === undefined || SEVERITY_RANK[f.severity] > SEVERITY_RANK[w]) w = f.severity;
  return w;
}

/** Sort bucket: severity first, then lossy-result-accepted before the others of its severity. */
export function findingBucket(f: Pick<Finding, 'severity' | 'code'>): number {
  return (2 - SEVERITY_RANK[f.severity]) * 2 + (f.code === 'lossy-result-accepted' ? 0 : 1);
}

/** Findings sorted worst first (severity, then lossy-result-accepted first, then capture order). Stable. */
export function sortFindings(fs: readonly Finding[]): Finding[] {
  return fs
    .map((f, i) => [f, i] as const)
    .sort((a, b) => findingBucket(a[0]) - findingBucket(b[0]) || a[1] - b[1])
    .map(([f]) => f);
}

/** Codes that say what became of the request itself: named first among findings of one severity. */
const OUTCOME = new Set(['lossy-result-accepted', 'result-missing', 'unverified-result-accepted', 'duplicate-output-accepted', 'result-not-taken', 'destructive-tool-rerun']);

/** The finding to name for a request: the most severe; among equals the one about its outcome, then the first. */
export function worstForRequest(fs: readonly Finding[]): Finding | undefined {
  let w: Finding | undefined;
  for (const f of fs) {
    if (!w || SEVERITY_RANK[f.severity] > SEVERITY_RANK[w.severity] || (SEVERITY_RANK[f.severity] === SEVERITY_RANK[w.severity] && OUTCOME.has(f.code) && !OUTCOME.has(w.code))) w = f;
  }
  return w;
}

// ---------------------------------------------------------------- verdicts and advice

export const VERDICT_TEXT: Record<Verdict, string> = {
  complete: 'every event that contributed to the result was received',
  'complete-unverified': 'the result arrived, but the event ids cannot prove nothing was lost',
  lossy: 'the result was accepted although events of this request were lost',
  duplicated: 'the result was accepted although events of this request were delivered twice before it',
  incomplete: 'the request’s streams ended without a terminal response',
  pending: 'still waiting for a terminal response',
};

/** Every verdict, in the order above (output schemas list them from here, not by hand). */
export const VERDICTS = Object.keys(VERDICT_TEXT) as [Verdict, ...Verdict[]];

export const ADVICE_DUPLICATED =
  'Discard the accumulated state (parts were applied twice), or de-duplicate what the request accumulated by event id and by content, then re-issue the request or read the state explicitly.';

/** What to do about a tool that may have run twice (tool-rerun-risk, destructive-tool-rerun). */
export const ADVICE_RERUN =
  'Before re-issuing a tool call whose first attempt may have run, read the state it changes; give the call an idempotency key in _meta that the server honours; declare idempotentHint / destructiveHint truthfully so clients can decide.';

/** What to do about a result the client did not take (result-not-taken). */
export const ADVICE_NOT_TAKEN =
  'Send every response as an SSE "message" event (or with no event field) on the request’s own stream; a client should keep reading the stream it resumes, and give a slow call a longer timeout (progress notifications can reset it) instead of cancelling and re-sending it.';

export const ADVICE_LOSSY =
  'Discard the accumulated state (the notifications collected for this request), then re-issue the request or read the state explicitly. A terminal result after a lossy replay is not evidence of completeness.';

/** The 'what to do' of a finding code, where it has one of its own (the panel, Markdown, audit). */
export function adviceFor(code: FindingCode): string | undefined {
  switch (code) {
    case 'lossy-result-accepted':
      return ADVICE_LOSSY;
    case 'duplicate-output-accepted':
      return ADVICE_DUPLICATED;
    case 'tool-rerun-risk':
    case 'destructive-tool-rerun':
      return ADVICE_RERUN;
    case 'result-not-taken':
      return ADVICE_NOT_TAKEN;
    default:
      return undefined;
  }
}

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

// ---------------------------------------------------------------- capture health

/** The capture health of a capture with no gap and no notice. */
export const EMPTY_CAPTURE: CaptureHealth = Object.freeze({ lost: 0, notKept: 0, bodiesAbsent: 0, unknownLoss: 0, unseen: 0, items: Object.freeze([]) as unknown as CaptureHealthItem[] }) as CaptureHealth;

/**
 * Capture health from its items (worst first, then in time order), with the totals: records the
 * inspector lost, not kept by the user's setting, bodies a file lacks, losses of unknown size, MCP
 * requests only the network view saw. Also for a part of the items (the panel shows the network
 * witness's own gaps apart).
 */
export function healthOf(items: readonly CaptureHealthItem[]): CaptureHealth {
  const sorted = [...items].sort((a, b) => SEVERITY_RANK[b.level] - SEVERITY_RANK[a.level] || a.t - b.t);
  const out = { lost: 0, notKept: 0, bodiesAbsent: 0, unknownLoss: 0, unseen: 0, items: Object.freeze(sorted) as CaptureHealthItem[] } as CaptureHealth;
  let worst: Severity | undefined;
  for (const x of sorted) {
    if (!worst || SEVERITY_RANK[x.level] > SEVERITY_RANK[worst]) worst = x.level;
    if (x.kind !== 'gap') continue;
    const reason = x.code.slice('capture-gap:'.length);
    if (reason === 'import') out.bodiesAbsent += x.conns;
    else if (reason === 'not-recording') out.notKept += x.lost;
    else if (reason === 'not-seen-by-hook') out.unseen += x.count;
    else if (x.lost > 0) out.lost += x.lost;
    else out.unknownLoss += x.count;
  }
  if (worst) out.worst = worst;
  return Object.freeze(out);
}

/** Capture health in one line: what the inspector lost or did not keep, and how many notices. */
export function captureSummary(c: CaptureHealth): string {
  const parts: string[] = [];
  if (c.lost > 0) parts.push(`the inspector lost ${c.lost} record(s)`);
  if (c.unknownLoss > 0) parts.push(`the inspector lost records ${c.unknownLoss === 1 ? 'once' : `${c.unknownLoss} times`}, how many is unknown`);
  if (c.notKept > 0) parts.push(`${c.notKept} record(s) were not kept (recording began only when DevTools opened)`);
  if (c.bodiesAbsent > 0) parts.push(`the file holds no body for ${c.bodiesAbsent} response(s)`);
  if (c.unseen > 0) parts.push(`the browser's network view saw ${c.unseen} MCP request(s) the capture hook did not`);
  const notices = c.items.filter((x) => x.kind === 'notice').reduce((n, x) => n + x.count, 0);
  if (notices > 0) parts.push(`${notices} capture notice(s)`);
  if (parts.length === 0) return 'complete: the inspector lost no records and has no notice about capture';
  const s = parts.join('; ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** One capture health item in words, with its count. */
export function captureItemText(x: CaptureHealthItem): string {
  return `${x.message}${x.kind === 'notice' && x.count > 1 ? ` (×${x.count})` : ''}`;
}

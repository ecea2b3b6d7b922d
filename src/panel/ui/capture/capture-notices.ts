// The inspector's own capture problems, read from the records: `notice` records (hook bypassed,
// hook wrapped, forged hello, extension reloaded...) and `capture-gap` records (records the
// inspector lost: the page relay's buffer cap, the panel store's eviction...). The analyzer turns
// a gap into a finding only when it can tie it to a session and ignores notices, so the UI reads
// them here: where the inspector lost records it must say so, session or not.
// Incremental: the live store appends to one array in place, so each call scans only new records.

import type { CaptureGapRecord, CaptureNoticeRecord, CaptureRecord } from '../../../core/record';

export type CaptureIssue =
  | { kind: 'notice'; level: CaptureNoticeRecord['level']; code: string; message: string; src: string; t: number; count: number }
  | { kind: 'gap'; level: 'error' | 'warning'; code: string; message: string; src: string; t: number; count: number; lost: number; notLost: boolean; conns: number };

export interface CaptureIssues {
  /** One entry per (kind, src, code/reason, message) — repeats are counted, not listed. */
  items: CaptureIssue[];
  notices: number;
  gaps: number;
  /** Records the inspector lost (buffer cap, eviction, reload...). */
  lost: number;
  /** Records missing by the user's setting or an imported file's limits: not the inspector's loss. */
  notKept: number;
  worst: 'info' | 'warning' | 'error' | undefined;
}

interface Scan {
  records: readonly CaptureRecord[];
  scanned: number;
  byKey: Map<string, CaptureIssue>;
  result: CaptureIssues;
}

const EMPTY: CaptureIssues = Object.freeze({ items: [], notices: 0, gaps: 0, lost: 0, notKept: 0, worst: undefined }) as CaptureIssues;
const MAX_ITEMS = 200;
const RANK = { info: 0, warning: 1, error: 2 } as const;

/** Records looked at by `scanCaptureIssues` since the module loaded (tests count work with it). */
export const scanStats = { recordsScanned: 0 };

/**
 * Gaps that are not the inspector's loss: `not-recording` (capture while DevTools is closed was
 * off, the user's choice) and `import` (a HAR file without the body). They stay visible, as
 * warnings: the events there are unknown, but nothing was dropped that the inspector had.
 */
const notLoss = (r: CaptureGapRecord) => r.reason === 'not-recording' || r.reason === 'import';

function gapMessage(r: CaptureGapRecord, lost = r.lost, conns = r.conns.length): string {
  const range = r.fromSeq !== undefined ? `, records ${r.fromSeq}–${r.toSeq ?? r.fromSeq}` : '';
  const where = r.src === 'panel' || r.src === 'panel-store' ? 'the panel' : r.src;
  if (r.reason === 'not-recording')
    return `${lost} record(s) of ${conns} connection(s) open before DevTools inspected the tab were not kept in ${where}: "Capture while DevTools is closed" is off. Their earlier events cannot be checked.`;
  if (r.reason === 'import') return `The imported file holds no body for ${conns} response(s): their events are unknown, not empty.`;
  return `The inspector lost ${r.lost} record(s) (${r.reason}${range}) in ${where}${r.conns.length ? `; ${r.conns.length} connection(s) incomplete` : ''}.`;
}

export function createCaptureIssueScanner(): (records: readonly CaptureRecord[]) => CaptureIssues {
  let scan: Scan | undefined;
  return (records) => {
    if (!scan || scan.records !== records || records.length < scan.scanned) {
      scan = { records, scanned: 0, byKey: new Map(), result: EMPTY };
    }
    if (scan.scanned === records.length) return scan.result;
    let changed = false;
    for (let i = scan.scanned; i < records.length; i++) {
      scanStats.recordsScanned++;
      const r = records[i]!;
      if (r.kind !== 'notice' && r.kind !== 'capture-gap') continue;
      changed = true;
      const key = r.kind === 'notice' ? `n\u0000${r.src}\u0000${r.code}\u0000${r.message}` : `g\u0000${r.src}\u0000${r.reason}`;
      const prev = scan.byKey.get(key);
      if (prev) {
        prev.count++;
        prev.t = r.t;
        if (prev.kind === 'gap' && r.kind === 'capture-gap') {
          prev.lost += r.lost;
          prev.conns += r.conns.length;
          prev.message = gapMessage(r, prev.lost, prev.conns);
        }
        continue;
      }
      if (scan.byKey.size >= MAX_ITEMS) continue;
      const item: CaptureIssue =
        r.kind === 'notice'
          ? { kind: 'notice', level: r.level, code: String(r.code), message: String(r.message), src: String(r.src), t: r.t, count: 1 }
          : {
              kind: 'gap',
              level: notLoss(r) ? 'warning' : 'error',
              code: `capture-gap:${r.reason}`,
              message: gapMessage(r),
              src: String(r.src),
              t: r.t,
              count: 1,
              lost: r.lost,
              notLost: notLoss(r),
              conns: r.conns.length,
            };
      scan.byKey.set(key, item);
    }
    scan.scanned = records.length;
    if (changed) {
      const items = [...scan.byKey.values()].map((x) => ({ ...x }));
      items.sort((a, b) => RANK[b.level] - RANK[a.level] || a.t - b.t);
      let notices = 0, gaps = 0, lost = 0, notKept = 0;
      let worst: CaptureIssues['worst'];
      for (const x of items) {
        if (x.kind === 'notice') notices += x.count;
        else {
          gaps += x.count;
          if (x.notLost) notKept += x.lost;
          else lost += x.lost;
        }
        if (!worst || RANK[x.level] > RANK[worst]) worst = x.level;
      }
      scan.result = { items, notices, gaps, lost, notKept, worst };
    }
    return scan.result;
  };
}

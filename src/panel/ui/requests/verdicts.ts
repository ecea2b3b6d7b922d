// How a request's verdict is shown, and where its terminal response is.

import type { AnalysisSnapshot, RequestInfo, Verdict } from '../../../core/model';
import { terminalIndex } from '../common/labels';

export const VERDICT_ICON: Record<Verdict, string> = { complete: '✓', 'complete-unverified': '≈', lossy: '', duplicated: '', incomplete: '✗', pending: '…' };
export const VERDICT_CLASS: Record<Verdict, string> = { complete: 'ok', 'complete-unverified': 'sev-warning', lossy: 'sev-error', duplicated: 'sev-error', incomplete: 'sev-error', pending: 'dim' };

/** A verdict shown as an error row (the result is wrong or missing). */
export const isErrorVerdict = (v: Verdict): boolean => v === 'lossy' || v === 'duplicated' || v === 'incomplete';

/** The event carrying a request's terminal response, if it is in the capture. */
export function responseEvent(snap: AnalysisSnapshot, r: RequestInfo): { streamId: string; index: number } | undefined {
  const st = r.responseStreamId ? snap.streams[r.responseStreamId] : undefined;
  const i = st ? terminalIndex(st.events, r.id) : -1;
  return st && i >= 0 ? { streamId: st.id, index: i } : undefined;
}


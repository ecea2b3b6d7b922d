// The network witness's notices (src/core/witness.ts; the panel's live witness and HAR files
// DevTools saved): what only the browser's network view shows becomes a finding of the session of
// the request it names, or of no session when it names no URL. A CORS problem keeps its code
// (`cors-preflight-rejected`, `session-id-not-exposed`); a request the network saw and the hook did
// not, whose events the witness supplied, is a capture-gap warning: how the page read them is unknown.
import type { CaptureNoticeRecord } from '../record';
import { isWitnessFindingCode, UNSEEN_NOTICE_CODE } from '../witness';
import { addFinding } from './findings-log';
import { getSession } from './sessions';
import type { AnalyzerState } from './analyzer-state';

/** Files a witness notice as a finding; returns false for any other notice. */
export function onWitnessNotice(A: AnalyzerState, r: CaptureNoticeRecord): boolean {
  const witness = isWitnessFindingCode(r.code);
  if (!witness && r.code !== UNSEEN_NOTICE_CODE) return false;
  const s = typeof r.url === 'string' && r.url ? getSession(A, typeof r.sessionId === 'string' ? r.sessionId : null, r.url) : undefined;
  if (s && r.code === 'cors-preflight-rejected' && typeof r.url === 'string') {
    (s.corsRefused ??= new Set()).add(r.url);
    s.dirty = true;
  }
  if (witness) addFinding(A, s, ++A.ord, r.code as Parameters<typeof addFinding>[3], { eventIds: [], message: String(r.message) });
  else addFinding(A, s, ++A.ord, 'capture-gap', { severity: 'warning', eventIds: [], message: String(r.message) });
  return true;
}

// The seam between the analysis and the capture-health strip (CaptureNotices.tsx).
//
// Today the panel reads the inspector's own `notice` and `capture-gap` records itself
// (capture-notices.ts, an incremental scan of the records). The core's issue 11 puts capture
// health into the snapshot (`snapshot.capture`, worded once for the panel, the Markdown report and
// `audit`): when it lands, this function reads it from the snapshot instead, and
// capture-notices.ts goes. Nothing else in the UI reads records for capture health.

import type { AnalysisSnapshot } from '../../../core/model';
import type { CaptureRecord } from '../../../core/record';
import { createCaptureIssueScanner, type CaptureIssues } from './capture-notices';

export type { CaptureIssues };

export function createCaptureHealth(): (snap: AnalysisSnapshot, records: readonly CaptureRecord[]) => CaptureIssues {
  const scan = createCaptureIssueScanner();
  return (_snap, records) => scan(records);
}

// Pure exporters: no DOM, no chrome.*. The panel turns the returned text into a download.

import type { AnalysisSnapshot } from '../core/model';
import type { CaptureRecord } from '../core/record';
import { exportHar } from './har';
import { exportJson } from './json';
import { exportMarkdown } from './markdown';
import { exportOtlp } from './otlp';
import { filterRecords, filterSnapshot, peerSessions } from './select';
import { exportTrace } from './trace';

export type ExportKind = 'json' | 'har' | 'trace' | 'otlp' | 'markdown';

export interface ExportInput {
  records: readonly CaptureRecord[];
  snapshot: AnalysisSnapshot;
  /** Restrict to one session (Session.key); undefined = the whole capture. */
  sessionKey?: string;
  source?: string;
  createdAt?: string;
}

export interface ExportResult {
  text: string;
  mime: string;
  filename: string;
}

const EXT: Record<ExportKind, [string, string]> = {
  json: ['.msi.json', 'application/json'],
  har: ['.har', 'application/json'],
  trace: ['.trace.json', 'application/json'],
  otlp: ['.otlp.json', 'application/json'],
  markdown: ['.md', 'text/markdown'],
};

export function exportCapture(kind: ExportKind, input: ExportInput): ExportResult {
  const createdAt = input.createdAt ?? new Date().toISOString();
  const snap = filterSnapshot(input.snapshot, input.sessionKey);
  const records = input.sessionKey === undefined ? input.records : filterRecords(input.records, input.snapshot, input.sessionKey);
  // A file of records holds the sessions the selected one's analysis reads too: its name says so.
  const peers = snap.sessions[0] !== undefined && (kind === 'json' || kind === 'har') ? peerSessions(input.snapshot, snap.sessions[0]).length : 0;
  const base = `mcp-capture-${createdAt.replace(/[:.]/g, '-').slice(0, 19)}${input.sessionKey !== undefined ? `-session-${(snap.sessions[0]?.sessionId ?? 'endpoint').replace(/[^A-Za-z0-9_-]/g, '').slice(0, 12)}${peers ? `-and-${peers}-more` : ''}` : ''}`;
  let text: string;
  switch (kind) {
    case 'json':
      text = exportJson(records, { createdAt, ...(input.source !== undefined ? { source: input.source } : {}) });
      break;
    case 'har':
      text = exportHar(records, { ...(input.source !== undefined ? { pageTitle: input.source } : {}) });
      break;
    case 'trace':
      text = exportTrace(snap, { createdAt });
      break;
    case 'otlp':
      text = exportOtlp(snap, { createdAt });
      break;
    case 'markdown':
      text = exportMarkdown(snap, { createdAt, ...(input.source !== undefined ? { source: input.source } : {}) });
      break;
  }
  return { text, mime: EXT[kind][1], filename: base + EXT[kind][0] };
}

export { exportHar, toHar } from './har';
export { exportJson, toCaptureFile, isCaptureFile } from './json';
export { exportMarkdown } from './markdown';
export { exportTrace, toTrace } from './trace';
export { exportOtlp, toOtlp } from './otlp';
export { filterRecords, filterSnapshot } from './select';

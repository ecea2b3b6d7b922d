import { RECORD_VERSION, type CaptureFile, type CaptureRecord } from '../core/record';

export interface JsonExportOptions {
  createdAt?: string;
  source?: string;
}

export function toCaptureFile(records: readonly CaptureRecord[], opts: JsonExportOptions = {}): CaptureFile {
  return {
    format: 'mcp-stream-inspector',
    version: RECORD_VERSION,
    createdAt: opts.createdAt ?? new Date().toISOString(),
    ...(opts.source !== undefined ? { source: opts.source } : {}),
    records: records.slice(),
  };
}

export function exportJson(records: readonly CaptureRecord[], opts: JsonExportOptions = {}): string {
  return JSON.stringify(toCaptureFile(records, opts), null, 1);
}

/** Quick check that a parsed JSON value looks like a CaptureFile (the core importer validates fully). */
export function isCaptureFile(v: unknown): v is CaptureFile {
  if (!v || typeof v !== 'object') return false;
  const o = v as Record<string, unknown>;
  return o.format === 'mcp-stream-inspector' && Array.isArray(o.records);
}

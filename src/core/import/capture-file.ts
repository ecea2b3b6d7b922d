// The product's own export (CaptureFile v1) and bare record lists, checked with the record
// contract's one validator (contract/validate.ts). Unknown extra fields are kept (records may gain
// optional fields); a missing or mistyped field is an ImportError naming its path
// (`invalid capture file: records[3].reason: not one of ...`).
import type { CaptureFile, CaptureRecord } from '../record';
import { captureFileError, recordListError } from '../contract/validate';
import { ImportError, clip } from './errors';

export function isCaptureFileLike(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && (v as { format?: unknown }).format === 'mcp-stream-inspector';
}

export function importCaptureFile(v: unknown): CaptureRecord[] {
  if (isCaptureFileLike(v)) {
    const version = (v as { version?: unknown }).version;
    if (version !== 1) throw new ImportError(`capture file version ${clip(JSON.stringify(version) ?? String(version))} is not supported (this tool reads version 1)`);
  }
  const e = captureFileError(v);
  if (e !== undefined) throw new ImportError(`invalid capture file: ${clip(e, 300)}`);
  return (v as CaptureFile).records;
}

/** A bare JSON array of records. */
export function importRecordArray(v: unknown): CaptureRecord[] {
  const e = recordListError(v);
  if (e !== undefined) throw new ImportError(`invalid record list: ${clip(e, 300)}`);
  return v as CaptureRecord[];
}

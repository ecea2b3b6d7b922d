// Turn a saved file into CaptureRecords, detecting the format: HAR 1.2, the product's own
// CaptureFile, or a bare JSON array of records.
import type { CaptureRecord } from '../record';
import { ImportError } from './errors';
import { importHar, isHarLike, type HarImportOptions } from './har';
import { importCaptureFile, importRecordArray, isCaptureFileLike } from './capture-file';

export { ImportError, isImportError } from './errors';
export { importHar, isHarLike, type HarImportOptions } from './har';
export { importCaptureFile, importRecordArray } from './capture-file';

/**
 * Largest file the importers are meant for (bytes). Parsing needs a few times the file's size in
 * memory; the CLI refuses bigger files (`--max-size` raises it) and the panel may do the same with
 * `checkImportSize(file.size)`.
 */
export const IMPORT_LIMIT_BYTES = 256e6;

/** Throws an ImportError naming the size and the limit when `bytes` is over `limit`. */
export function checkImportSize(bytes: number, limit = IMPORT_LIMIT_BYTES): void {
  if (bytes > limit) throw new ImportError(`the file is ${(bytes / 1e6).toFixed(1)} MB, over the ${(limit / 1e6).toFixed(0)} MB import limit`);
}

export type ImportFormat = 'har' | 'capture' | 'records';

export interface Imported {
  format: ImportFormat;
  records: CaptureRecord[];
}

export function detectFormat(v: unknown): ImportFormat | undefined {
  if (isHarLike(v)) return 'har';
  if (isCaptureFileLike(v)) return 'capture';
  if (Array.isArray(v)) return 'records';
  return undefined;
}

/** Parse already-decoded JSON. */
export function importValue(v: unknown, harOptions?: HarImportOptions): Imported {
  const format = detectFormat(v);
  if (format === 'har') return { format, records: importHar(v, harOptions ?? {}) };
  if (format === 'capture') return { format, records: importCaptureFile(v) };
  if (format === 'records') return { format, records: importRecordArray(v) };
  if (typeof v === 'object' && v !== null && 'log' in v) throw new ImportError('not a HAR file: log.entries is missing');
  throw new ImportError('not a HAR 1.2 file nor an mcp-stream-inspector capture (expected log.entries or "format": "mcp-stream-inspector")');
}

/** Parse file text (UTF-8, optional BOM). */
export function importText(text: string, harOptions?: HarImportOptions): Imported {
  const t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!t.trim()) throw new ImportError('the file is empty');
  let v: unknown;
  try {
    v = JSON.parse(t);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    throw new ImportError(`not valid JSON (${msg.split('\n')[0]})`);
  }
  return importValue(v, harOptions);
}

// Turning a dropped/picked file into CaptureRecords. The core importer (HAR from Chrome/Playwright
// and the product's own JSON) is injected by the entry points; this default understands the
// product's own CaptureFile only, so the UI works before/without it.

import type { CaptureRecord } from '../../core/record';
import { isCaptureFile } from '../../export/json';

export type ImportFn = (text: string, fileName: string) => CaptureRecord[] | Promise<CaptureRecord[]>;

export class ImportError extends Error {}

export const importOwnJson: ImportFn = (text, fileName) => {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new ImportError(`${fileName}: not JSON (${(e as Error).message})`);
  }
  if (isCaptureFile(v)) {
    if (v.version !== 1) throw new ImportError(`${fileName}: capture file version ${String(v.version)} is not supported (expected 1)`);
    return v.records;
  }
  if (v && typeof v === 'object' && 'log' in v) throw new ImportError(`${fileName}: HAR import is not available in this build`);
  throw new ImportError(`${fileName}: not an MCP Stream Inspector capture (expected "format": "mcp-stream-inspector") or a HAR file`);
};

export async function readAndImport(file: Blob & { name?: string }, importFn: ImportFn): Promise<CaptureRecord[]> {
  const name = file.name ?? 'file';
  if (file.size > 512 * 1024 * 1024) throw new ImportError(`${name}: file is larger than 512 MB`);
  const text = await file.text();
  const records = await importFn(text, name);
  if (!Array.isArray(records)) throw new ImportError(`${name}: the importer returned no records`);
  return records;
}

// Turning a dropped/picked file into CaptureRecords with the core importer (HAR 1.2 from Chrome,
// Playwright or this product, the product's own CaptureFile, a bare record array).

import { importText } from '../../core/import';
import type { CaptureRecord } from '../../core/record';
import { startImport, type ProgressiveImport } from './progressive-import';
import { createStaticSource } from './static-source';

export type ImportFn = (text: string, fileName: string) => CaptureRecord[] | Promise<CaptureRecord[]>;

export class ImportError extends Error {}

export const importWithCore: ImportFn = (text, fileName) => importText(text, { src: `import:${fileName}` }).records;

export async function readAndImport(file: Blob & { name?: string }, importFn: ImportFn): Promise<CaptureRecord[]> {
  const name = file.name ?? 'file';
  if (file.size > 1024 * 1024 * 1024) throw new ImportError('the file is larger than 1 GB');
  const text = await file.text();
  const records = await importFn(text, name);
  if (!Array.isArray(records)) throw new ImportError('the importer returned no records');
  return records;
}

/**
 * Opens file text as a source: with the core importer, the product's own capture files are read
 * progressively (records appear while the rest is parsed, see progressive-import.ts); with another
 * importer, or another format, in one piece. Throws the importer's error for a bad header or first
 * records; later errors reject `done` (the caller puts the previous capture back).
 */
export async function openText(text: string, fileName: string, importFn: ImportFn): Promise<ProgressiveImport> {
  if (importFn === importWithCore) return startImport(text, { src: `import:${fileName}`, label: fileName });
  const records = await importFn(text, fileName);
  if (!Array.isArray(records)) throw new ImportError('the importer returned no records');
  return { source: Object.assign(createStaticSource(records, fileName), { complete: true as const }), done: Promise.resolve(), cancel() {} };
}

export async function readAndOpen(file: Blob & { name?: string }, importFn: ImportFn): Promise<ProgressiveImport> {
  const name = file.name ?? 'file';
  if (file.size > 1024 * 1024 * 1024) throw new ImportError('the file is larger than 1 GB');
  return openText(await file.text(), name, importFn);
}

// Turning a dropped/picked file into CaptureRecords with the core importer (HAR 1.2 from Chrome,
// Playwright or this product, the product's own CaptureFile, a bare record array).

import { importText } from '../../core/import';
import type { CaptureRecord } from '../../core/record';

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

// Turning a dropped/picked file into CaptureRecords with the core importer (HAR 1.2 from Chrome,
// Playwright or this product, the product's own CaptureFile, a bare record array).

import { importText } from '../../../core/import';
import type { CaptureRecord } from '../../../core/record';
import { startImport, startStreamingImport, type ProgressiveImport } from './progressive-import';
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

const MAX_BYTES = 1024 * 1024 * 1024;

/**
 * Opens a file's bytes as they are read (a fetch body, `Blob.stream()`): with the core importer
 * the product's capture files are split while they arrive, so the first records show before the
 * rest of the file is even read. Resolves once the first records are in (or the whole file, for a
 * format that is imported whole); rejects with the import error when the file fails before any
 * record, like `openText`. Later errors reject `done`.
 */
export async function openStream(body: ReadableStream<Uint8Array>, fileName: string, importFn: ImportFn): Promise<ProgressiveImport> {
  if (importFn !== importWithCore) return openText(await readAllText(body), fileName, importFn);
  const imp = startStreamingImport({ src: `import:${fileName}`, label: fileName });
  const reader = body.getReader();
  let stopped = false;
  void (async () => {
    // Same decoding as Blob.text() / Response.text(): UTF-8, a leading BOM dropped, bad bytes replaced.
    const decoder = new TextDecoder();
    let bytes = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (stopped) return;
        if (done) break;
        bytes += value.byteLength;
        if (bytes > MAX_BYTES) throw new ImportError('the file is larger than 1 GB');
        imp.write(decoder.decode(value, { stream: true }));
      }
      imp.write(decoder.decode());
      imp.end();
    } catch (e) {
      imp.fail(e);
      void reader.cancel().catch(() => {});
    }
  })();
  const stop = () => {
    stopped = true;
    imp.cancel();
    void reader.cancel().catch(() => {});
  };
  try {
    await new Promise<void>((resolve, reject) => {
      const unsubscribe = imp.source.subscribe(() => {
        if (imp.source.getRecords().length > 0) resolve();
      });
      imp.done.then(resolve, reject).finally(unsubscribe);
    });
  } catch (e) {
    stop();
    throw e;
  }
  return { source: imp.source, done: imp.done, cancel: stop };
}

async function readAllText(body: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(body).text();
}

export async function readAndOpen(file: Blob & { name?: string }, importFn: ImportFn): Promise<ProgressiveImport> {
  const name = file.name ?? 'file';
  if (file.size > MAX_BYTES) throw new ImportError('the file is larger than 1 GB');
  // Blob.stream() where there is one (browsers); whole text otherwise (older DOM emulations).
  if (typeof file.stream === 'function' && importFn === importWithCore) return openStream(file.stream(), name, importFn);
  return openText(await file.text(), name, importFn);
}

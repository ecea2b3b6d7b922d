// Turning a dropped/picked file or a fetched body into CaptureRecords with the core importer (HAR
// 1.2 from Chrome, Playwright or this product, the product's own CaptureFile, a bare record array),
// read as it arrives: the import starts at once, reports the bytes read (the progress bar), can be
// cancelled, and its first records show before the rest of the file is read.

import { importText } from '../../../core/import';
import type { CaptureRecord } from '../../../core/record';
import { startImport, startStreamingImport, type GrowingSource, type ProgressiveImport } from './progressive-import';
import { createStaticSource } from './static-source';

export type ImportFn = (text: string, fileName: string) => CaptureRecord[] | Promise<CaptureRecord[]>;

export class ImportError extends Error {}

export const importWithCore: ImportFn = (text, fileName) => importText(text, { src: `import:${fileName}` }).records;

const MAX_BYTES = 1024 * 1024 * 1024;

/** An import of a whole file by another importer (tests, hosts with their own formats). */
async function importWhole(text: Promise<string>, fileName: string, importFn: ImportFn): Promise<ProgressiveImport> {
  const records = await importFn(await text, fileName);
  if (!Array.isArray(records)) throw new ImportError('the importer returned no records');
  return { source: Object.assign(createStaticSource(records, fileName), { complete: true as const }), done: Promise.resolve(), cancel() {} };
}

/**
 * Opens file text already in memory as a source (progressive with the core importer). Throws the
 * importer's error for a bad header or first records; later errors reject `done`.
 */
export async function openText(text: string, fileName: string, importFn: ImportFn): Promise<ProgressiveImport> {
  if (importFn === importWithCore) return startImport(text, { src: `import:${fileName}`, label: fileName });
  return importWhole(Promise.resolve(text), fileName, importFn);
}

/**
 * Starts importing bytes as they are read (a fetch body, `Blob.stream()`): returns at once; the
 * source grows while the body is read (`reading()` says how far, of `total` bytes when known) and
 * `cancel()` stops reading. `done` rejects with the import error.
 */
export function startStreamImport(body: ReadableStream<Uint8Array>, fileName: string, total?: number): ProgressiveImport {
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
        imp.progress(bytes, total);
      }
      imp.write(decoder.decode());
      imp.end();
    } catch (e) {
      imp.fail(e);
      void reader.cancel().catch(() => {});
    }
  })();
  const cancel = () => {
    stopped = true;
    imp.cancel();
    void reader.cancel().catch(() => {});
  };
  (imp.source as GrowingSource & { cancel?(): void }).cancel = cancel;
  return { source: imp.source, done: imp.done, cancel };
}

/** Resolves once the import has its first records (or is complete); rejects when it fails before. */
export function firstRecords(imp: ProgressiveImport): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (imp.source.getRecords().length > 0) return resolve();
    const unsubscribe = imp.source.subscribe(() => {
      if (imp.source.getRecords().length > 0) resolve();
    });
    imp.done.then(resolve, reject).finally(unsubscribe);
  });
}

/**
 * Opens a body as it is read and resolves once the first records are in (the first frame does not
 * wait for the rest of the file); rejects with the import error when the file fails before any
 * record. Later errors reject `done`.
 */
export async function openStream(body: ReadableStream<Uint8Array>, fileName: string, importFn: ImportFn, total?: number): Promise<ProgressiveImport> {
  if (importFn !== importWithCore) return importWhole(new Response(body).text(), fileName, importFn);
  const imp = startStreamImport(body, fileName, total);
  try {
    await firstRecords(imp);
  } catch (e) {
    imp.cancel();
    throw e;
  }
  return imp;
}

/** Starts importing a picked or dropped file; returns at once (see startStreamImport). */
export function startFileImport(file: Blob & { name?: string }, importFn: ImportFn): ProgressiveImport | Promise<ProgressiveImport> {
  const name = file.name ?? 'file';
  if (file.size > MAX_BYTES) return Promise.reject(new ImportError('the file is larger than 1 GB'));
  // Blob.stream() where there is one (browsers); whole text otherwise (older DOM emulations).
  if (typeof file.stream === 'function' && importFn === importWithCore) return startStreamImport(file.stream(), name, file.size);
  return file.text().then((t) => openText(t, name, importFn));
}

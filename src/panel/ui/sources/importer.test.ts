// Opening a capture from a byte stream (the viewer's ?src= fetch body, Blob.stream() of a picked
// file): the first records are available before the body has ended, bytes split anywhere (inside
// a UTF-8 sequence too) give the whole-file importer's records, and errors are the importer's.
import { describe, expect, it } from 'vitest';
import { importText, ImportError } from '../../../core/import';
import type { CaptureRecord } from '../../../core/record';
import { exportJson } from '../../../export/json';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportHar } from '../../../export/har';
import { CAPTURES_DIR, captureRecords } from '../test-support/fixtures';
import { manyCalls } from '../test-support/generated';
import { importWithCore, openStream } from './importer';

function captureText(n: number): string {
  const recs = captureRecords('lossy');
  const out: CaptureRecord[] = [];
  for (let i = 0; i < n; i++) out.push({ ...recs[i % recs.length]!, seq: i + 1 });
  // multi-byte characters, so that byte chunks split UTF-8 sequences
  return exportJson(out, { source: 'é ✓ 😀 \u202e', createdAt: '2026-01-01T00:00:00Z' });
}

/** A body that hands out `chunk` bytes per read and waits for `release()` before the last ones. */
function body(bytes: Uint8Array, chunk: number) {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let i = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(c) {
      if (i >= bytes.length) return c.close();
      if (i + chunk >= bytes.length) await held;
      c.enqueue(bytes.slice(i, i + chunk));
      i += chunk;
    },
  });
  return { stream, release };
}

describe('openStream', () => {
  it('resolves with the first records before the body ends; all records equal the whole-file import', async () => {
    const text = captureText(2000);
    const bytes = new TextEncoder().encode(text);
    const b = body(bytes, 4093);
    const imp = await openStream(b.stream, 'x.json', importWithCore);
    const early = imp.source.getRecords().length;
    expect(early).toBeGreaterThan(0);
    expect(early).toBeLessThan(2000);
    expect(imp.source.complete).toBe(false);
    b.release();
    await imp.done;
    expect(imp.source.complete).toBe(true);
    expect(imp.source.getRecords()).toEqual(importText(text, { src: 'import:x.json' }).records);
  });

  it('a file that fails before any record rejects with the importer’s error', async () => {
    const bad = new TextEncoder().encode(JSON.stringify({ format: 'mcp-stream-inspector', version: 2, records: [] }));
    const b1 = body(bad, 7);
    b1.release();
    await expect(openStream(b1.stream, 'bad.json', importWithCore)).rejects.toThrow(ImportError);
    const har = new TextEncoder().encode('{"log": {}}');
    const b2 = body(har, 3);
    b2.release();
    await expect(openStream(b2.stream, 'x.har', importWithCore)).rejects.toThrow(/not a HAR file/);
  });

  it('a body cut after the first records rejects `done`', async () => {
    const text = captureText(1500);
    const bytes = new TextEncoder().encode(text.slice(0, Math.floor(text.length / 2)));
    const b = body(bytes, 8192);
    const imp = await openStream(b.stream, 'cut.json', importWithCore);
    expect(imp.source.getRecords().length).toBeGreaterThan(0);
    b.release();
    await expect(imp.done).rejects.toThrow();
  });
});

describe('a HAR read as it arrives', () => {
  const hars = readdirSync(CAPTURES_DIR).filter((f) => f.endsWith('.har'));
  for (const f of hars) {
    it(`${f}: entry by entry, the same records as the whole-file import`, async () => {
      const text = readFileSync(join(CAPTURES_DIR, f), 'utf8');
      const b = body(new TextEncoder().encode(text), 1021);
      b.release();
      const imp = await openStream(b.stream, f, importWithCore);
      await imp.done;
      expect(imp.source.getRecords()).toEqual(importText(text, { src: `import:${f}` }).records);
    });
  }

  it('a large HAR: the first records are in before the body ends; Cancel stops the reading', async () => {
    const text = exportHar(manyCalls(40, 500, { gap: 2 }));
    const bytes = new TextEncoder().encode(text);
    const b = body(bytes, 64 * 1024);
    const imp = await openStream(b.stream, 'big.har', importWithCore, bytes.length);
    const early = imp.source.getRecords().length;
    expect(early).toBeGreaterThan(0);
    expect(imp.source.complete).toBe(false);
    const r = imp.source.reading!()!;
    expect(r.total).toBe(bytes.length);
    expect(r.read).toBeLessThan(bytes.length);
    b.release();
    await imp.done;
    expect(imp.source.getRecords()).toEqual(importText(text, { src: 'import:big.har' }).records);

    const c = body(bytes, 64 * 1024);
    const imp2 = await openStream(c.stream, 'big.har', importWithCore, bytes.length);
    imp2.cancel();
    c.release();
    const n = imp2.source.getRecords().length;
    await new Promise((res) => setTimeout(res, 20));
    expect(imp2.source.getRecords().length).toBe(n);
    expect(imp2.source.complete).toBe(false);
    expect(imp2.source.reading!()).toBeUndefined();
  });
});

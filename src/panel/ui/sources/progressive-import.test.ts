// The progressive import of the product's capture files: the same records as the whole-file
// importer, in slices and as text arrives; the importer's own errors.
import { describe, expect, it } from 'vitest';
import { createAnalyzer } from '../../../core';
import type { CaptureRecord } from '../../../core/record';
import { createAnalysis } from '../store/analysis';
import { normalizeSettings } from '../settings/settings';
import { captureRecords } from '../test-support/fixtures';

const lossyRecords = () => captureRecords('lossy').slice();

import { importText, ImportError } from '../../../core/import';
import { startImport, startStreamingImport } from './progressive-import';
import { exportJson } from '../../../export/json';

function bigCaptureText(n: number, extra: Record<string, unknown> = {}) {
  const recs = lossyRecords();
  const out: CaptureRecord[] = [];
  for (let i = 0; i < n; i++) out.push({ ...recs[i % recs.length]!, seq: i + 1 });
  const file = JSON.parse(exportJson(out, { source: 'quote " \\ \u202e', createdAt: '2026-01-01T00:00:00Z' })) as Record<string, unknown>;
  return JSON.stringify({ ...file, ...extra }, null, 1);
}

function drain(queue: (() => void)[]) {
  let n = 0;
  while (queue.length) {
    queue.shift()!();
    n++;
  }
  return n;
}

describe('progressive import', () => {
  it('yields the same records as the whole-file importer, in several slices', async () => {
    const text = bigCaptureText(3000);
    const queue: (() => void)[] = [];
    const imp = startImport(text, { src: 'import:x', sliceMs: 0, yieldTo: (cb: () => void) => queue.push(cb) });
    const firstSlice = imp.source.getRecords().length;
    expect(firstSlice).toBeGreaterThan(0);
    expect(firstSlice).toBeLessThan(3000);
    expect(imp.source.complete).toBe(false);
    let emits = 0;
    imp.source.subscribe(() => emits++);
    expect(drain(queue)).toBeGreaterThan(1);
    await imp.done;
    expect(imp.source.complete).toBe(true);
    expect(emits).toBeGreaterThan(0);
    expect(imp.source.getRecords()).toEqual(importText(text, { src: 'import:x' }).records);
  });

  it('reports the importer’s own errors: header at once, a later record through done', async () => {
    const badVersion = bigCaptureText(10).replace('"version": 1', '"version": 2');
    expect(() => startImport(badVersion)).toThrow(ImportError);
    expect(() => startImport(badVersion)).toThrow(/version 2 is not supported/);
    const text = bigCaptureText(2000);
    const i = text.lastIndexOf('"kind": "chunk"');
    const bad = `${text.slice(0, i)}"kind": "chunkz"${text.slice(i + '"kind": "chunk"'.length)}`;
    let expected = '';
    try {
      importText(bad);
    } catch (e) {
      expected = (e as Error).message;
    }
    expect(expected).toMatch(/invalid capture file/);
    const queue: (() => void)[] = [];
    const imp = startImport(bad, { sliceMs: 0, yieldTo: (cb: () => void) => queue.push(cb) });
    drain(queue);
    await expect(imp.done).rejects.toThrow(expected);
    const trunc = text.slice(0, text.length - 200);
    const q2: (() => void)[] = [];
    const imp2 = startImport(trunc, { sliceMs: 0, yieldTo: (cb: () => void) => q2.push(cb) });
    drain(q2);
    await expect(imp2.done).rejects.toThrow(/not valid JSON/);
  });

  it('other shapes go through the importer whole: records before format, trailing members, HAR, arrays', () => {
    const recs = lossyRecords();
    const reordered = JSON.stringify({ records: recs, format: 'mcp-stream-inspector', version: 1 });
    expect(startImport(reordered).source.getRecords()).toEqual(importText(reordered).records);
    const trailing = bigCaptureText(50).replace(/\n}$/, ',\n "zz": [1, "]"]\n}');
    const imp = startImport(trailing, { sliceMs: 1000 });
    expect(imp.source.complete).toBe(true);
    expect(imp.source.getRecords()).toEqual(importText(trailing).records);
    const arr = JSON.stringify(recs);
    expect(startImport(arr).source.getRecords()).toEqual(importText(arr).records);
    expect(() => startImport('{"log": {}}')).toThrow(/not a HAR file/);
  });
});

describe('progressive import + AppModel', () => {
  it('flush() (exports, the test hook) reads and analyses the rest of the file at once', async () => {
    const text = bigCaptureText(2000);
    const queue: (() => void)[] = [];
    const imp = startImport(text, { sliceMs: 0, yieldTo: (cb: () => void) => queue.push(cb) });
    const m = createAnalysis({ source: imp.source, analyzerFactory: () => createAnalyzer(), settings: normalizeSettings(undefined), sliceMs: 0, yieldTo: (cb: () => void) => queue.push(cb) });
    expect(m.getProgress()).toBeDefined();
    expect(imp.source.complete).toBe(false);
    const snap = m.flush();
    expect(imp.source.complete).toBe(true);
    expect(snap.recordCount).toBe(2000);
    expect(snap.finished).toBe(true);
    expect(m.getProgress()).toBeUndefined();
    await imp.done;
    drain(queue); // stale slices do nothing
    expect(m.getSnapshot()).toBe(snap);
  });
});

describe('streaming import (text as it arrives)', () => {
  it('records appear before the end of the text, equal to the whole-file import', async () => {
    const text = bigCaptureText(1500);
    const queue: (() => void)[] = [];
    const s = startStreamingImport({ src: 'import:y', sliceMs: 0, yieldTo: (cb: () => void) => queue.push(cb) });
    let seenBeforeEnd = 0;
    for (let i = 0; i < text.length; i += 997) {
      s.write(text.slice(i, i + 997));
      drain(queue);
      if (i + 997 < text.length) seenBeforeEnd = s.source.getRecords().length;
    }
    expect(seenBeforeEnd).toBeGreaterThan(1000);
    expect(s.source.complete).toBe(false);
    s.end();
    drain(queue);
    await s.done;
    expect(s.source.getRecords()).toEqual(importText(text, { src: 'import:y' }).records);
  });

  it('a cut text, a HAR or a record array: the importer’s result or error at the end', async () => {
    const text = bigCaptureText(300);
    for (const [t, ok] of [
      [text.slice(0, text.length / 2), false],
      [JSON.stringify(lossyRecords()), true],
      [`\ufeff${text}`, true],
    ] as const) {
      const queue: (() => void)[] = [];
      const s = startStreamingImport({ sliceMs: 0, yieldTo: (cb: () => void) => queue.push(cb) });
      for (let i = 0; i < t.length; i += 4096) {
        s.write(t.slice(i, i + 4096));
        drain(queue);
      }
      s.end();
      drain(queue);
      if (ok) {
        await s.done;
        expect(s.source.getRecords()).toEqual(importText(t.replace(/^\ufeff/, '')).records);
      } else await expect(s.done).rejects.toThrow(/not valid JSON/);
    }
  });
});


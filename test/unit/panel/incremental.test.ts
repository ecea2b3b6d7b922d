// Work counting (not timing) for the panel's per-snapshot paths: time-sliced analysis, the
// incremental event-row merge, the sorted-findings index and the capture-notice scanner.
import { describe, expect, it } from 'vitest';
import { createAnalyzer } from '../../../src/core';
import type { AnalysisSnapshot, Finding, SseEvent, Stream } from '../../../src/core/model';
import type { CaptureRecord } from '../../../src/core/record';
import { sortFindings } from '../../../src/export/advice';
import { createAppModel, EMPTY_SNAPSHOT } from '../../../src/panel/ui/store/inspector-store';
import { createCaptureIssueScanner, scanStats } from '../../../src/panel/ui/capture/capture-notices';
import { createEventRowsMerger, mergeStats, sessionEventRows } from '../../../src/panel/ui/events/filter';
import { createFindingsIndex } from '../../../src/panel/ui/findings/findings-index';
import { lossyRecords } from '../../../src/panel/ui/__fixtures__/lossy';
import { normalizeSettings } from '../../../src/panel/ui/settings/settings';
import { createMutableSource, createStaticSource } from '../../../src/panel/ui/sources/static-source';
import type { Analyzer } from '../../../src/panel/ui/store/types';

function busy(ms: number) {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    /* spin */
  }
}

describe('time-sliced analysis', () => {
  it('publishes a first snapshot after one slice, shows progress, feeds each record once, finishes last', () => {
    const log = { pushed: 0, finished: 0, snapshots: 0 };
    const factory = (): Analyzer => {
      let n = 0;
      return {
        push: () => {
          busy(1);
          log.pushed++;
          n++;
        },
        snapshot: () => {
          log.snapshots++;
          return { ...EMPTY_SNAPSHOT, recordCount: n, finished: log.finished > 0 };
        },
        finish: () => void log.finished++,
      };
    };
    const queue: (() => void)[] = [];
    const recs = lossyRecords();
    const total = Math.min(recs.length, 40);
    const m = createAppModel({ source: createStaticSource(recs.slice(0, total)), analyzerFactory: factory, settings: normalizeSettings(undefined), throttleMs: 0, sliceMs: 5, yieldTo: (cb) => queue.push(cb) });
    const first = m.getSnapshot().recordCount;
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(total);
    expect(m.getProgress()).toEqual({ fed: first, total, importing: false });
    expect(log.finished).toBe(0);
    let published = 0;
    m.subscribe(() => published++);
    let slices = 0;
    while (queue.length) {
      queue.shift()!();
      slices++;
      expect(slices).toBeLessThan(100);
    }
    expect(slices).toBeGreaterThan(1);
    expect(published).toBeGreaterThan(0);
    expect(m.getSnapshot().recordCount).toBe(total);
    expect(m.getProgress()).toBeUndefined();
    expect(log.pushed).toBe(total);
    expect(log.finished).toBe(1);
    expect(m.getSnapshot().finished).toBe(true);
  });

  it('flush() completes a sliced analysis at once (exports, the test hook); a stale slice does nothing', () => {
    const queue: (() => void)[] = [];
    let pushed = 0;
    const factory = (): Analyzer => {
      let n = 0;
      return { push: () => (busy(1), pushed++, n++), snapshot: () => ({ ...EMPTY_SNAPSHOT, recordCount: n }), finish: () => {} };
    };
    const recs = lossyRecords().slice(0, 30);
    const m = createAppModel({ source: createStaticSource(recs), analyzerFactory: factory, settings: normalizeSettings(undefined), throttleMs: 0, sliceMs: 3, yieldTo: (cb) => queue.push(cb) });
    expect(m.getProgress()).toBeDefined();
    expect(m.flush().recordCount).toBe(30);
    expect(m.getProgress()).toBeUndefined();
    for (const cb of queue.splice(0)) cb();
    expect(pushed).toBe(30);
    expect(m.getSnapshot().recordCount).toBe(30);
  });

  it('a real analysis sliced record by record ends in the same snapshot as an unsliced one', () => {
    const recs = lossyRecords();
    const queue: (() => void)[] = [];
    const factory = () => createAnalyzer();
    const sliced = createAppModel({ source: createStaticSource(recs), analyzerFactory: factory, settings: normalizeSettings(undefined), throttleMs: 0, sliceMs: 0, yieldTo: (cb) => queue.push(cb) });
    expect(sliced.getProgress()?.fed).toBe(1);
    while (queue.length) queue.shift()!();
    const whole = createAppModel({ source: createStaticSource(recs), analyzerFactory: factory, settings: normalizeSettings(undefined), sliceMs: Infinity });
    const strip = (s: AnalysisSnapshot) => JSON.parse(JSON.stringify({ ...s, revision: 0 }));
    expect(strip(sliced.getSnapshot())).toEqual(strip(whole.getSnapshot()));
  });
});

// ----------------------------------------------------------------- event rows

function ev(t: number, index: number): SseEvent {
  return { index, t, event: 'message', data: '{}', messages: [], findings: [] } as unknown as SseEvent;
}

/** A session of `n` streams whose events arrays are shared and appended to, like the analyzer's. */
function fakeSession(n: number) {
  const arrays: SseEvent[][] = Array.from({ length: n }, () => []);
  const ids = arrays.map((_, k) => `s${k}`);
  const snap = (): AnalysisSnapshot =>
    ({
      ...EMPTY_SNAPSHOT,
      sessions: [{ key: 'K', streamIds: ids.slice() }],
      streams: Object.fromEntries(ids.map((id, k) => [id, { id, sessionKey: 'K', events: arrays[k], eventCount: arrays[k]!.length } as unknown as Stream])),
    }) as AnalysisSnapshot;
  return { arrays, snap };
}

describe('incremental event rows', () => {
  it('appends only the new events of each snapshot and equals the full merge', () => {
    const { arrays, snap } = fakeSession(4);
    const merge = createEventRowsMerger();
    const before = { ...mergeStats };
    let t = 0;
    let total = 0;
    for (let batch = 0; batch < 200; batch++) {
      for (let i = 0; i < 10; i++) {
        const k = (batch * 7 + i * 3) % 4;
        arrays[k]!.push(ev((t += 1), arrays[k]!.length));
        total++;
      }
      const s = snap();
      const rows = merge(s, 'K');
      expect(rows.length).toBe(total);
      if (batch % 50 === 0 || batch === 199) expect(rows).toEqual(sessionEventRows(s, 'K'));
    }
    // Work: one full merge (the first snapshot), then deltas only.
    expect(mergeStats.fullMerges - before.fullMerges).toBe(1);
    expect(mergeStats.deltaMerges - before.deltaMerges).toBe(199);
  });

  it('work per snapshot is the new events, not the session size', () => {
    const { arrays, snap } = fakeSession(3);
    for (let i = 0; i < 30_000; i++) arrays[i % 3]!.push(ev(i, arrays[i % 3]!.length));
    const merge = createEventRowsMerger();
    merge(snap(), 'K');
    const before = mergeStats.rowsEmitted;
    for (let i = 30_000; i < 30_030; i++) {
      arrays[i % 3]!.push(ev(i, arrays[i % 3]!.length));
      merge(snap(), 'K');
    }
    expect(mergeStats.rowsEmitted - before).toBe(30);
  });

  it('equal times across streams keep the full merge order (stream order), re-merging when needed', () => {
    const { arrays, snap } = fakeSession(3);
    const merge = createEventRowsMerger();
    for (let b = 0; b < 30; b++) {
      for (let k = 2; k >= 0; k--) arrays[k]!.push(ev(Math.floor(b / 3), arrays[k]!.length));
      const s = snap();
      expect(merge(s, 'K')).toEqual(sessionEventRows(s, 'K'));
    }
  });

  it('an event that sorts before the merged tail, or a replaced array, re-merges', () => {
    const { arrays, snap } = fakeSession(2);
    arrays[0]!.push(ev(10, 0), ev(20, 1));
    const merge = createEventRowsMerger();
    merge(snap(), 'K');
    const f0 = mergeStats.fullMerges;
    arrays[1]!.push(ev(5, 0)); // earlier than the last row
    const s = snap();
    expect(merge(s, 'K')).toEqual(sessionEventRows(s, 'K'));
    expect(mergeStats.fullMerges).toBe(f0 + 1);
    arrays[0] = [ev(1, 0)]; // a new analysis (settings changed)
    const s2 = snap();
    expect(merge(s2, 'K')).toEqual(sessionEventRows(s2, 'K'));
    expect(mergeStats.fullMerges).toBe(f0 + 2);
  });

  it("reads only a snapshot's eventCount of a shared, grown array", () => {
    const { arrays, snap } = fakeSession(1);
    arrays[0]!.push(ev(1, 0), ev(2, 1));
    const s = snap();
    arrays[0]!.push(ev(3, 2)); // the analyzer went on after this snapshot
    expect(sessionEventRows(s, 'K')).toHaveLength(2);
    expect(createEventRowsMerger()(s, 'K')).toHaveLength(2);
  });
});

// ----------------------------------------------------------------- findings

function finding(i: number, sessionKey: string): Finding {
  const sev = (['error', 'warning', 'info'] as const)[i % 3]!;
  return { code: i % 11 === 0 ? 'lossy-result-accepted' : 'replay-gap', severity: sev, sessionKey, eventIds: [String(i)], message: `f${i}` } as Finding;
}

describe('findings index', () => {
  it('sorts like sortFindings, and an appended snapshot costs its new findings only', () => {
    const idx = createFindingsIndex();
    const all: Finding[] = [];
    for (let i = 0; i < 5000; i++) all.push(finding(i, i % 2 ? 'A' : 'B'));
    idx.update(all.slice());
    expect(idx.sorted(undefined)).toEqual(sortFindings(all));
    expect(idx.sorted('A')).toEqual(sortFindings(all.filter((f) => f.sessionKey === 'A')));
    const b0 = idx.stats.bucketed;
    for (let i = 5000; i < 5020; i++) {
      all.push(finding(i, 'A'));
      idx.update(all.slice()); // a snapshot copies the list
    }
    expect(idx.stats.bucketed - b0).toBe(20);
    expect(idx.stats.rebuilds).toBe(0);
    const listsBefore = idx.stats.lists;
    expect(idx.sorted('A')).toEqual(sortFindings(all.filter((f) => f.sessionKey === 'A')));
    expect(idx.sorted('A')).toBe(idx.sorted('A'));
    expect(idx.sorted('B')).toEqual(sortFindings(all.filter((f) => f.sessionKey === 'B')));
    expect(idx.stats.lists - listsBefore).toBe(2); // B did not change but was never listed since the rebuild
    expect(idx.worst('A')).toBe(sortFindings(all.filter((f) => f.sessionKey === 'A'))[0]);
    expect(idx.counts('A').errors).toBe(all.filter((f) => f.sessionKey === 'A' && f.severity === 'error').length);
  });

  it('rebuilds when the list is not an append', () => {
    const idx = createFindingsIndex();
    const a = [finding(0, 'A'), finding(1, 'A')];
    idx.update(a);
    const b = [finding(2, 'A'), a[1]!];
    idx.update(b);
    expect(idx.stats.rebuilds).toBe(1);
    expect(idx.sorted('A')).toEqual(sortFindings(b));
  });
});

// ----------------------------------------------------------------- capture notices

describe('capture issue scanner', () => {
  it('reads notices and gaps, counting repeats, scanning only appended records', () => {
    const scan = createCaptureIssueScanner();
    const recs: CaptureRecord[] = [];
    for (let i = 0; i < 1000; i++) recs.push({ kind: 'navigation', src: 'p', seq: i, t: i, url: 'http://x/', top: true });
    recs.push({ kind: 'notice', src: 'p', seq: 1000, t: 1000, level: 'warning', code: 'hook-bypassed', message: 'fetch was restored\u202E' });
    const r1 = scan(recs);
    expect(r1.notices).toBe(1);
    expect(r1.worst).toBe('warning');
    const s0 = scanStats.recordsScanned;
    recs.push({ kind: 'capture-gap', src: 'panel-store', seq: 1, t: 1001, lost: 500, conns: ['c1'], reason: 'buffer-cap' });
    recs.push({ kind: 'capture-gap', src: 'panel-store', seq: 2, t: 1002, lost: 20, conns: [], reason: 'buffer-cap' });
    const r2 = scan(recs); // same array, appended in place (the live store)
    expect(scanStats.recordsScanned - s0).toBe(2);
    expect(r2).not.toBe(r1);
    expect(r2.gaps).toBe(2);
    expect(r2.lost).toBe(520);
    expect(r2.worst).toBe('error');
    expect(r2.items[0]!.kind).toBe('gap');
    expect(r2.items[0]!.count).toBe(2);
    expect(scan(recs)).toBe(r2);
    expect(scanStats.recordsScanned - s0).toBe(2);
  });

  it('a live model keeps working as records are appended in place', () => {
    const src = createMutableSource([]);
    const m = createAppModel({ source: src, analyzerFactory: () => createAnalyzer(), settings: normalizeSettings(undefined), throttleMs: 0 });
    src.push(...lossyRecords());
    expect(m.flush().sessions.length).toBeGreaterThan(0);
  });
});

// ----------------------------------------------------------------- progressive import

import { importText, ImportError } from '../../../src/core/import';
import { startImport, startStreamingImport } from '../../../src/panel/ui/sources/progressive-import';
import { exportJson } from '../../../src/export/json';

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
    const imp = startImport(text, { src: 'import:x', sliceMs: 0, yieldTo: (cb) => queue.push(cb) });
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
    const imp = startImport(bad, { sliceMs: 0, yieldTo: (cb) => queue.push(cb) });
    drain(queue);
    await expect(imp.done).rejects.toThrow(expected);
    const trunc = text.slice(0, text.length - 200);
    const q2: (() => void)[] = [];
    const imp2 = startImport(trunc, { sliceMs: 0, yieldTo: (cb) => q2.push(cb) });
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
    const imp = startImport(text, { sliceMs: 0, yieldTo: (cb) => queue.push(cb) });
    const m = createAppModel({ source: imp.source, analyzerFactory: () => createAnalyzer(), settings: normalizeSettings(undefined), sliceMs: 0, yieldTo: (cb) => queue.push(cb) });
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
    const s = startStreamingImport({ src: 'import:y', sliceMs: 0, yieldTo: (cb) => queue.push(cb) });
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
      const s = startStreamingImport({ sliceMs: 0, yieldTo: (cb) => queue.push(cb) });
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


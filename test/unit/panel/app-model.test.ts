import { describe, expect, it } from 'vitest';
import { createAppModel, EMPTY_SNAPSHOT } from '../../../src/panel/ui/store/inspector-store';
import { createMutableSource, createStaticSource } from '../../../src/panel/ui/sources/static-source';
import { createLiveSource } from '../../../src/panel/ui/sources/live-source';
import { normalizeSettings, checkIdPattern, createLocalStorageAdapter } from '../../../src/panel/ui/settings/settings';
import type { Analyzer } from '../../../src/panel/ui/store/types';
import type { CaptureRecord } from '../../../src/core/record';
import { lossyRecords } from '../../../src/panel/ui/__fixtures__/lossy';
import { visible, visibleLine } from '../../../src/panel/ui/common/text';
import { parseFilter } from '../../../src/panel/ui/events/filter';
import { missingBetween } from '../../../src/panel/ui/requests/RequestsView';

function countingFactory() {
  const log = { created: 0, pushed: 0, finished: 0, snapshots: 0 };
  const factory = (): Analyzer => {
    log.created++;
    let n = 0;
    return {
      push: () => {
        log.pushed++;
        n++;
      },
      snapshot: () => {
        log.snapshots++;
        return { ...EMPTY_SNAPSHOT, recordCount: n };
      },
      finish: () => {
        log.finished++;
      },
    };
  };
  return { log, factory };
}

const recs = lossyRecords();

describe('AppModel', () => {
  it('feeds only new records, and restarts after a clear', () => {
    const { log, factory } = countingFactory();
    const src = createMutableSource(recs.slice(0, 10));
    const m = createAppModel({ source: src, analyzerFactory: factory, settings: normalizeSettings(undefined), throttleMs: 0 });
    expect(m.getSnapshot().recordCount).toBe(10);
    src.push(...recs.slice(10, 20));
    expect(m.flush().recordCount).toBe(20);
    src.push(...recs.slice(20));
    expect(m.flush().recordCount).toBe(recs.length);
    expect(log.pushed).toBe(recs.length);
    expect(log.created).toBe(1);
    src.clear();
    expect(m.flush().recordCount).toBe(0);
    src.push(...recs.slice(0, 5));
    expect(m.flush().recordCount).toBe(5);
    expect(log.created).toBe(2);
    expect(log.finished).toBe(0);
  });

  it('throttles publishes while records stream in', async () => {
    const { log, factory } = countingFactory();
    const src = createMutableSource([]);
    const m = createAppModel({ source: src, analyzerFactory: factory, settings: normalizeSettings(undefined), throttleMs: 50 });
    let published = 0;
    const off = m.subscribe(() => published++);
    for (const r of recs) src.push(r);
    expect(published).toBe(0);
    await new Promise((r) => setTimeout(r, 80));
    expect(published).toBe(1);
    expect(m.getSnapshot().recordCount).toBe(recs.length);
    expect(log.snapshots).toBe(2);
    off();
  });

  it('finishes the analyzer for a complete (static) source, and re-analyzes on settings change', () => {
    const { log, factory } = countingFactory();
    const m = createAppModel({ source: createStaticSource(recs), analyzerFactory: factory, settings: normalizeSettings(undefined) });
    expect(log.finished).toBe(1);
    m.setSettings(normalizeSettings({ resyncEventNames: ['x'] }));
    expect(log.created).toBe(2);
    expect(log.pushed).toBe(recs.length * 2);
    expect(log.finished).toBe(2);
  });

  it('records an analyzer error and goes on', () => {
    const factory = (): Analyzer => ({
      push: (r: CaptureRecord) => {
        if (r.seq === 3) throw new Error('boom');
      },
      snapshot: () => EMPTY_SNAPSHOT,
    });
    const m = createAppModel({ source: createStaticSource(recs), analyzerFactory: factory, settings: normalizeSettings(undefined) });
    expect(m.getErrors()).toHaveLength(1);
    expect(m.getErrors()[0]).toContain('boom');
  });
});

describe('live source adapter', () => {
  it('maps the live store and freezes the view while not recording', () => {
    let snap = { records: recs.slice(0, 3) as readonly CaptureRecord[], preserveLog: false };
    const ls = new Set<() => void>();
    const store = {
      subscribe: (l: () => void) => (ls.add(l), () => ls.delete(l)),
      getSnapshot: () => snap,
      setPreserveLog: (on: boolean) => {
        snap = { ...snap, preserveLog: on };
        ls.forEach((l) => l());
      },
      clear: () => {
        snap = { ...snap, records: [] };
        ls.forEach((l) => l());
      },
    };
    const src = createLiveSource(store);
    let n = 0;
    const off = src.subscribe(() => n++);
    expect(src.getRecords()).toHaveLength(3);
    src.controls!.setRecording(false);
    snap = { ...snap, records: recs.slice(0, 6) };
    expect(src.getRecords()).toHaveLength(3);
    src.controls!.setRecording(true);
    expect(src.getRecords()).toHaveLength(6);
    src.controls!.setPreserveLog(true);
    expect(src.controls!.getStatus()).toEqual({ recording: true, preserveLog: true });
    src.controls!.clear();
    expect(src.getRecords()).toHaveLength(0);
    expect(n).toBeGreaterThan(2);
    off();
  });
});

describe('text, filter, settings helpers', () => {
  it('visible() escapes bidi, zero-width and C0/C1 controls, keeps newlines', () => {
    expect(visible('a\u202Eb\u200Dc\u0000d\u009be\nf\tg')).toBe('a⟨U+202E⟩b⟨U+200D⟩c⟨U+0000⟩d⟨U+009B⟩e\nf\tg');
    expect(visibleLine('a\r\nb\tc')).toBe('a⏎b⇥c');
    expect(visible('\u2066\u2069\uFEFF')).toBe('⟨U+2066⟩⟨U+2069⟩⟨U+FEFF⟩');
  });
  it('missingBetween finds the lost ids between two delivered ones', () => {
    expect(missingBetween('12–13', '11', '14')).toBe('12–13');
    expect(missingBetween('12–13, 20', '19', '21')).toBe('20');
    expect(missingBetween('12–13', '14', '15')).toBeUndefined();
    expect(missingBetween('s1_12–s1_13', 's1_11', 's1_14')).toBe('s1_12–s1_13');
    expect(missingBetween('12', 'abc', '14')).toBeUndefined();
  });
  it('parseFilter splits tokens', () => {
    const f = parseFilter('method:tools/call  request:"2" code:replay-gap hello -world');
    expect(f).toMatchObject({ method: ['tools/call'], request: ['2'], code: ['replay-gap'], text: ['hello'], exclude: ['world'], empty: false });
    expect(parseFilter('  ').empty).toBe(true);
    expect(parseFilter('"chunk 12" -"a b"')).toMatchObject({ text: ['chunk 12'], exclude: ['a b'] });
  });
  it('settings: malformed stored data falls back per field; pattern check', async () => {
    const s = normalizeSettings({ captureBufferCap: 'x', cumulativeMethods: [1], idSchemeOverrides: [{ origin: 'o', pattern: 'p' }, { origin: 1 }], captureWhileClosed: true });
    expect(s.captureBufferCap).toBe(50_000);
    expect(s.cumulativeMethods).toEqual([]);
    expect(s.idSchemeOverrides).toEqual([{ origin: 'o', pattern: 'p' }]);
    expect(s.captureWhileClosed).toBe(true);
    expect(checkIdPattern('^(?<counter>\\d+)$')).toBeNull();
    expect(checkIdPattern('^(\\d+)$')).toMatch(/counter/);
    expect(checkIdPattern('(')).toMatch(/Not a valid/);
    const mem = new Map<string, string>();
    const ls = { getItem: (k: string) => mem.get(k) ?? null, setItem: (k: string, v: string) => void mem.set(k, v) } as unknown as Storage;
    const a = createLocalStorageAdapter(ls);
    await a.set('k', { x: 1 });
    expect(await a.get('k')).toEqual({ x: 1 });
  });
});

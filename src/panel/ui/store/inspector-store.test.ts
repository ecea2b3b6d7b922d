// The store: one subscription for the views, a view model built once per published snapshot (never
// while rendering), imports shown once their first records are in, Cancel putting back what was shown.
import { describe, expect, it } from 'vitest';
import { createAnalyzer } from '../../../core';
import { normalizeSettings } from '../settings/settings';
import { startStreamingImport } from '../sources/progressive-import';
import { createMutableSource, createStaticSource } from '../sources/static-source';
import { captureRecords } from '../test-support/fixtures';
import { exportJson } from '../../../export/json';
import { createInspectorStore } from './inspector-store';
import { createViewModelBuilder } from './view-model';

const opts = (source = createStaticSource(captureRecords('lossy'))) => ({ source, analyzerFactory: () => createAnalyzer(), settings: normalizeSettings(undefined), sliceMs: Infinity, throttleMs: 0 });

describe('view model', () => {
  it('is built once per snapshot; sessions that did not change are carried over', () => {
    const lossy = captureRecords('lossy');
    const other = captureRecords('lossless');
    const b = createViewModelBuilder();
    const a = createAnalyzer();
    for (const r of lossy) a.push(r);
    const s1 = a.snapshot();
    const vm1 = b.build(s1, lossy);
    expect(b.build(s1, lossy)).toBe(vm1);
    const built = b.stats.sessionsBuilt;
    const rows = b.stats.merge.rowsEmitted;
    for (const r of other) a.push(r);
    const vm2 = b.build(a.snapshot(), [...lossy, ...other]);
    expect(vm2.sessions).toHaveLength(2);
    // the lossy session is the same object; only the new one was built and merged
    expect(vm2.session(vm1.sessions[0]!.key)).toBe(vm1.session(vm1.sessions[0]!.key));
    expect(b.stats.sessionsBuilt - built).toBe(1);
    expect(b.stats.merge.rowsEmitted - rows).toBe(vm2.session(vm2.sessions[1]!.key)!.rows.count);
  });
});

describe('inspector store', () => {
  it('publishes one state object per change to every subscriber', () => {
    const src = createMutableSource([]);
    const store = createInspectorStore(opts(src));
    const seen: unknown[] = [];
    const off = store.subscribe(() => seen.push(store.getState()));
    src.push(...captureRecords('lossy'));
    store.flush();
    expect(store.getState().vm.sessions).toHaveLength(1);
    expect(new Set(seen).size).toBe(seen.length);
    const st = store.getState();
    store.flush();
    expect(store.getState()).toBe(st); // nothing changed: the same object
    off();
  });

  it('a file opened is shown once its first records are in; Cancel while reading puts the capture back', async () => {
    const store = createInspectorStore(opts());
    const off = store.subscribe(() => {});
    const before = store.getState().vm.sessions[0]!.key;
    const queue: (() => void)[] = [];
    const imp = startStreamingImport({ label: 'big.json', yieldTo: (cb) => queue.push(cb) });
    const failed: unknown[] = [];
    store.openImport(imp, 'big.json', (e) => failed.push(e));
    imp.progress(10, 1000);
    expect(store.getState().reading).toEqual({ read: 10, total: 1000, name: 'big.json' });
    expect(store.getState().vm.sessions[0]!.key).toBe(before); // still the capture until records come
    const text = exportJson(captureRecords('lossless').slice(), { createdAt: '2026-01-01T00:00:00Z' });
    imp.write(text.slice(0, text.length / 2));
    while (queue.length) queue.shift()!();
    await new Promise((r) => setTimeout(r, 0));
    expect(store.getState().imported?.name).toBe('big.json');
    expect(store.getState().reading?.name).toBe('big.json');
    store.cancelReading();
    expect(store.getState().imported).toBeUndefined();
    expect(store.getState().reading).toBeUndefined();
    expect(store.getState().vm.sessions[0]!.key).toBe(before);
    expect(failed).toEqual([]);
    off();
  });

  it('an import that fails before its first records reports the error and shows nothing new', async () => {
    const store = createInspectorStore(opts());
    const off = store.subscribe(() => {});
    const imp = startStreamingImport({ label: 'bad.json' });
    const failed: string[] = [];
    store.openImport(imp, 'bad.json', (e) => failed.push(String(e)));
    imp.write('{"format":"mcp-stream-inspector","version":2,"records":[]}');
    imp.end();
    await imp.done.catch(() => {});
    await new Promise((r) => setTimeout(r, 0));
    expect(failed.join()).toMatch(/version 2/);
    expect(store.getState().imported).toBeUndefined();
    expect(store.getState().reading).toBeUndefined();
    off();
  });
});

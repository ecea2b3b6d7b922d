// The live store adapter: maps the capture store, freezes the view while not recording.
import { describe, expect, it } from 'vitest';
import type { CaptureRecord } from '../../../core/record';
import { captureRecords } from '../test-support/fixtures';
import { createLiveSource } from './live-source';

const recs = captureRecords('lossy');

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


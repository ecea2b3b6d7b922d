// The capture-health strip reads snapshot.capture (the core's capture health, in the words of the
// Markdown report and audit): counts, and the same object while the snapshot's capture is the same.
import { describe, expect, it } from 'vitest';
import { createAnalyzer } from '../../../core';
import { captureSummary } from '../../../core/presentation';
import type { CaptureRecord } from '../../../core/record';
import { createCaptureHealth } from './capture-health';

describe('capture health for the strip', () => {
  it('counts gaps and notices from the snapshot, in the core words; same object until it changes', () => {
    const health = createCaptureHealth();
    const a = createAnalyzer();
    const recs: CaptureRecord[] = [];
    for (let i = 1; i <= 100; i++) recs.push({ kind: 'navigation', src: 'p', seq: i, t: i, url: 'http://x/', top: true });
    recs.push({ kind: 'notice', src: 'p', seq: 101, t: 101, level: 'warning', code: 'hook-bypassed', message: 'fetch was restored' });
    a.pushAll(recs);
    const s1 = a.snapshot();
    const r1 = health(s1, recs);
    expect(r1).toMatchObject({ notices: 1, gaps: 0, lost: 0, worst: 'warning', summary: '1 capture notice(s)' });
    a.push({ kind: 'capture-gap', src: 'panel-store', seq: 1, t: 102, lost: 500, conns: ['c1'], reason: 'buffer-cap' });
    a.push({ kind: 'capture-gap', src: 'panel-store', seq: 2, t: 103, lost: 20, conns: [], reason: 'buffer-cap' });
    const s2 = a.snapshot();
    const r2 = health(s2, recs);
    expect(r2).not.toBe(r1);
    expect(r2).toMatchObject({ gaps: 2, lost: 520, worst: 'error', summary: captureSummary(s2.capture) });
    expect(r2.summary).toBe('The inspector lost 520 record(s); 1 capture notice(s)');
    expect(r2.items[0]).toMatchObject({ kind: 'gap', count: 2, code: 'capture-gap:buffer-cap' });
    a.push({ kind: 'navigation', src: 'p', seq: 102, t: 104, url: 'http://x/2', top: true });
    expect(health(a.snapshot(), recs)).toBe(r2);
  });
});

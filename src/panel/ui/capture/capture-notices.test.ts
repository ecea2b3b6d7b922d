// The capture-notice scanner (the seam until the core's snapshot carries capture health): work counted.
import { describe, expect, it } from 'vitest';
import { createAnalyzer } from '../../../core';
import type { CaptureRecord } from '../../../core/record';
import { createAnalysis } from '../store/analysis';
import { normalizeSettings } from '../settings/settings';
import { createMutableSource } from '../sources/static-source';
import { captureRecords } from '../test-support/fixtures';
import { createCaptureIssueScanner, scanStats } from './capture-notices';

const lossyRecords = () => captureRecords('lossy').slice();

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
    const m = createAnalysis({ source: src, analyzerFactory: () => createAnalyzer(), settings: normalizeSettings(undefined), throttleMs: 0 });
    src.push(...lossyRecords());
    expect(m.flush().sessions.length).toBeGreaterThan(0);
  });
});


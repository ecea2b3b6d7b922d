// The sorted-findings index: work counted, order equal to sortFindings.
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../core/model';
import { sortFindings } from '../../../core/presentation';
import { createFindingsIndex } from './findings-index';

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


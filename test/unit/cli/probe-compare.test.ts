// What a probe run delivered against the baseline (src/cli/probe/compare.ts): a tool whose messages
// carry a time (or any value that changes between calls) delivers the same events with other
// values; content must not call them lost and foreign (review case P1: three conditions failed on a
// correct server whose log data held a timestamp).
import { describe, expect, it } from 'vitest';
import { compareDelivery } from '../../../src/cli/probe/compare';

const log = (i: number, at: string) => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: { index: i, chunk: `chunk ${i}`, at } } });
const progress = (p: number) => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: p } });
const result = { jsonrpc: '2.0', id: 1, result: { content: [] } };

describe('compareDelivery', () => {
  it('the same events with another time in them: changed, not missing and foreign', () => {
    const base = [log(1, 't1'), progress(1), log(2, 't2'), progress(2), result];
    const run = [log(1, 'u1'), progress(1), log(2, 'u2'), progress(2), result];
    const d = compareDelivery(base, run);
    // before: missing 2, foreign 2
    expect(d.missing).toEqual([]);
    expect(d.foreign).toEqual([]);
    expect(d.changed).toEqual([[log(1, 't1'), log(1, 'u1')], [log(2, 't2'), log(2, 'u2')]]);
    expect(d.results).toBe(1);
  });

  it('a message really left out stays missing; one of another shape stays foreign', () => {
    const base = [log(1, 't1'), progress(1), log(2, 't2'), progress(2), result];
    const other = { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'file:///x' } };
    const d = compareDelivery(base, [log(1, 'u1'), progress(1), progress(2), other, result]);
    expect(d.changed).toEqual([[log(1, 't1'), log(1, 'u1')]]);
    expect(d.missing).toEqual([log(2, 't2')]);
    expect(d.foreign).toEqual([other]);
  });

  it('a message really left out among changed ones: the one left out is named, not the last of its shape', () => {
    const base = [1, 2, 3, 4, 5].map((i) => log(i, `t${i}`));
    const d = compareDelivery(base, [1, 3, 4, 5].map((i) => log(i, `u${i}`)));
    expect(d.missing).toEqual([log(2, 't2')]);
    expect(d.changed.map(([b]) => b)).toEqual([1, 3, 4, 5].map((i) => log(i, `t${i}`)));
  });

  it('identical output: nothing changed, missing or foreign', () => {
    const base = [log(1, 't'), progress(1), result];
    expect(compareDelivery(base, base.slice())).toMatchObject({ missing: [], foreign: [], changed: [], duplicated: [], reordered: false });
  });
});

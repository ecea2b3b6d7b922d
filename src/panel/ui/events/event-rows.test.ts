// The events table's rows, kept incrementally by the store: work counted (not timed), and the
// incremental rows always equal a merge from scratch.
import { describe, expect, it } from 'vitest';
import type { AnalysisSnapshot, SseEvent, Stream } from '../../../core/model';
import { EMPTY_SNAPSHOT } from '../store/analysis';
import { ArrayEventList } from '../../../core/event-list';
import { createEventRowsMerger, sessionEventRows, type EventRows } from './event-rows';

const list = (r: EventRows) => Array.from({ length: r.count }, (_, i) => ({ streamId: r.streamAt(i), index: r.indexAt(i) }));

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
      streams: Object.fromEntries(ids.map((id, k) => [id, { id, sessionKey: 'K', events: new ArrayEventList(arrays[k]!), eventCount: arrays[k]!.length } as unknown as Stream])),
    }) as AnalysisSnapshot;
  return { arrays, snap };
}

describe('incremental event rows', () => {
  it('appends only the new events of each snapshot and equals the full merge', () => {
    const { arrays, snap } = fakeSession(4);
    const merger = createEventRowsMerger();
    const merge = (x: AnalysisSnapshot) => list(merger.update(x, x.sessions[0]!.streamIds));
    const before = { ...merger.stats };
    let t = 0;
    let total = 0;
    for (let batch = 0; batch < 200; batch++) {
      for (let i = 0; i < 10; i++) {
        const k = (batch * 7 + i * 3) % 4;
        arrays[k]!.push(ev((t += 1), arrays[k]!.length));
        total++;
      }
      const s = snap();
      const rows = merge(s);
      expect(rows.length).toBe(total);
      if (batch % 50 === 0 || batch === 199) expect(rows).toEqual(sessionEventRows(s, 'K'));
    }
    // Work: one full merge (the first snapshot), then deltas only.
    expect(merger.stats.fullMerges - before.fullMerges).toBe(1);
    expect(merger.stats.deltaMerges - before.deltaMerges).toBe(199);
  });

  it('rows kept as runs read back in any order, find every event, and views handed out before stay valid', () => {
    const { arrays, snap } = fakeSession(3);
    const merger = createEventRowsMerger();
    // Runs of every length (1 to 9 events of one stream), far more runs than the first arrays hold.
    let t = 0;
    const views: { rows: EventRows; want: { streamId: string; index: number }[] }[] = [];
    for (let run = 0; run < 200; run++) {
      const k = (run * 5) % 3;
      for (let j = 0; j < (run % 9) + 1; j++) arrays[k]!.push(ev((t += 1), arrays[k]!.length));
      const x = snap();
      const rows = merger.update(x, x.sessions[0]!.streamIds);
      if (run % 40 === 0) views.push({ rows, want: sessionEventRows(x, 'K') });
    }
    for (const { rows, want } of views) {
      expect(list(rows)).toEqual(want);
      for (const i of new Set([want.length - 1, 0, Math.floor(want.length / 2), Math.min(1, want.length - 1)])) {
        expect({ streamId: rows.streamAt(i), index: rows.indexAt(i) }).toEqual(want[i]);
        expect(rows.find(want[i]!.streamId, want[i]!.index)).toBe(i);
      }
      expect(rows.streamAt(want.length)).toBe('');
      expect(rows.indexAt(-1)).toBe(-1);
      expect(rows.find('s0', 1e9)).toBe(-1);
    }
  });

  it('work per snapshot is the new events, not the session size', () => {
    const { arrays, snap } = fakeSession(3);
    for (let i = 0; i < 30_000; i++) arrays[i % 3]!.push(ev(i, arrays[i % 3]!.length));
    const merger = createEventRowsMerger();
    const merge = (x: AnalysisSnapshot) => list(merger.update(x, x.sessions[0]!.streamIds));
    merge(snap());
    const before = merger.stats.rowsEmitted;
    for (let i = 30_000; i < 30_030; i++) {
      arrays[i % 3]!.push(ev(i, arrays[i % 3]!.length));
      merge(snap());
    }
    expect(merger.stats.rowsEmitted - before).toBe(30);
  });

  it('equal times across streams keep the full merge order (stream order), re-merging when needed', () => {
    const { arrays, snap } = fakeSession(3);
    const merger = createEventRowsMerger();
    const merge = (x: AnalysisSnapshot) => list(merger.update(x, x.sessions[0]!.streamIds));
    for (let b = 0; b < 30; b++) {
      for (let k = 2; k >= 0; k--) arrays[k]!.push(ev(Math.floor(b / 3), arrays[k]!.length));
      const s = snap();
      expect(merge(s)).toEqual(sessionEventRows(s, 'K'));
    }
  });

  it('an event that sorts before the merged tail, or a replaced array, re-merges', () => {
    const { arrays, snap } = fakeSession(2);
    arrays[0]!.push(ev(10, 0), ev(20, 1));
    const merger = createEventRowsMerger();
    const merge = (x: AnalysisSnapshot) => list(merger.update(x, x.sessions[0]!.streamIds));
    merge(snap());
    const f0 = merger.stats.fullMerges;
    arrays[1]!.push(ev(5, 0)); // earlier than the last row
    const s = snap();
    expect(merge(s)).toEqual(sessionEventRows(s, 'K'));
    expect(merger.stats.fullMerges).toBe(f0 + 1);
    arrays[0] = [ev(1, 0)]; // a new analysis (settings changed)
    const s2 = snap();
    expect(merge(s2)).toEqual(sessionEventRows(s2, 'K'));
    expect(merger.stats.fullMerges).toBe(f0 + 2);
  });

  it("reads only a snapshot's eventCount of a shared, grown array", () => {
    const { arrays, snap } = fakeSession(1);
    arrays[0]!.push(ev(1, 0), ev(2, 1));
    const s = snap();
    arrays[0]!.push(ev(3, 2)); // the analyzer went on after this snapshot
    expect(sessionEventRows(s, 'K')).toHaveLength(2);
    expect(createEventRowsMerger().update(s, ['s0']).count).toBe(2);
  });
});


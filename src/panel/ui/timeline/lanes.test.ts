import { describe, expect, it } from 'vitest';
import { createAnalyzer } from '../../../core';
import type { AnalysisSnapshot, RequestInfo } from '../../../core/model';
import { manyCalls } from '../test-support/generated';
import { buildLanes, streamEnd, type Lanes } from './lanes';

/** Empty: lane labels fall back to the streams, and the range depends on the streams alone. */
const reqs: ReadonlyMap<string, RequestInfo> = new Map();

/** The session's lanes after each record, each built on the previous ones (as the view model does). */
function live(records: ReturnType<typeof manyCalls>) {
  const an = createAnalyzer();
  let prev: Lanes | undefined;
  const builds: { snap: AnalysisSnapshot; lanes: Lanes }[] = [];
  for (const r of records) {
    an.push(r);
    const snap = an.snapshot();
    const s = snap.sessions[0];
    if (!s) continue;
    prev = buildLanes(snap, s, reqs, prev);
    builds.push({ snap, lanes: prev });
  }
  return { an, builds };
}

const extent = (l: Lanes) => {
  let a = Infinity;
  let b = -Infinity;
  for (const s of l.streams) {
    a = Math.min(a, s.start);
    b = Math.max(b, streamEnd(s));
  }
  return { a, b };
};

describe('timeline range of a live session', () => {
  it('holds every stream, and moves in steps instead of with every snapshot', () => {
    const { builds } = live(manyCalls(200, 3));
    let moved = 0;
    let grew = 0;
    for (let i = 0; i < builds.length; i++) {
      const { lanes } = builds[i]!;
      const { a, b } = extent(lanes);
      expect(lanes.range.start).toBeLessThan(a);
      expect(lanes.range.end).toBeGreaterThan(b);
      if (i && lanes.range !== builds[i - 1]!.lanes.range) moved++;
      if (i && extent(builds[i - 1]!.lanes).b !== b) grew++;
    }
    // The session's end moved with nearly every record; its range, a few times (a quarter each).
    expect(grew).toBeGreaterThan(500);
    expect(moved).toBeGreaterThan(0);
    expect(moved).toBeLessThan(grew / 20);
  });

  it('a finished capture, and a first build, get the tight range (4 % before, 10 % after)', () => {
    const { an, builds } = live(manyCalls(200, 3));
    const stepped = builds.at(-1)!.lanes;
    an.finish();
    const snap = an.snapshot();
    expect(snap.finished).toBe(true);
    const done = buildLanes(snap, snap.sessions[0]!, reqs, stepped);
    const fresh = buildLanes(builds.at(-1)!.snap, snap.sessions[0]!, reqs);
    for (const l of [done, fresh]) {
      const { a, b } = extent(l);
      const pad = Math.max(20, (b - a) * 0.04);
      expect(l.range.start).toBeCloseTo(a - pad, 6);
      expect(l.range.end).toBeCloseTo(b + pad * 2.5, 6);
    }
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAnalyzer } from '../../../core';
import type { AnalysisSnapshot, RequestInfo, Session, Stream } from '../../../core/model';
import { bigSession, deletedSession, manyCalls } from '../test-support/generated';
import { buildLanes, fullLanes, laneStats, streamEnd, type Lanes } from './lanes';

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

/** What a Lanes value shows: equal for a build made incrementally and one made whole. */
const shown = (l: Lanes) => ({ streams: l.streams.map((s) => s.id), labels: [...l.labels], laneOf: [...l.laneOf], t0: l.t0, range: l.range });

/** Each build on the previous one, beside the whole build on the same previous one. */
function expectSameAsWhole(steps: { snap: AnalysisSnapshot; session: Session; reqs: ReadonlyMap<string, RequestInfo> }[]) {
  let prev: Lanes | undefined;
  for (const { snap, session, reqs } of steps) {
    const whole = fullLanes(snap, session, reqs, prev);
    const lanes = buildLanes(snap, session, reqs, prev);
    expect(shown(lanes)).toEqual(shown(whole));
    expect(lanes.name(`see ${lanes.streams.at(-1)?.id ?? ''}`)).toBe(whole.name(`see ${whole.streams.at(-1)?.id ?? ''}`));
    prev = lanes;
  }
}

describe('lanes built on the previous ones', () => {
  it('a live session that gains streams builds only what came, and equals the lanes built whole', () => {
    for (const records of [manyCalls(120, 2), bigSession(300, { gapAt: 100, gap: 5 }), deletedSession()]) {
      const an = createAnalyzer();
      const steps: Parameters<typeof expectSameAsWhole>[0] = [];
      for (const r of records) {
        an.push(r);
        const snap = an.snapshot();
        const session = snap.sessions[0];
        if (session) steps.push({ snap, session, reqs: new Map((snap.requests[session.key] ?? []).map((q) => [q.id, q])) });
      }
      an.finish();
      const snap = an.snapshot();
      steps.push({ snap, session: snap.sessions[0]!, reqs: new Map((snap.requests[snap.sessions[0]!.key] ?? []).map((q) => [q.id, q])) });
      const before = { ...laneStats };
      expectSameAsWhole(steps);
      if (records.length > 200) expect(laneStats.appended - before.appended).toBeGreaterThan(steps.length / 2);
    }
  });

  it('streams that come, change, repeat a label, or come out of order: the same lanes as built whole (property)', () => {
    type Op = { add: boolean; kind: 'get' | 'post' | 'resume'; req: number; grow: number; at: number; dt: number };
    const op = fc.record({ add: fc.boolean(), kind: fc.constantFrom('get', 'post', 'resume'), req: fc.integer({ min: 0, max: 3 }), grow: fc.integer({ min: 0, max: 3 }), at: fc.nat(), dt: fc.integer({ min: -5, max: 20 }) });
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 40 }), fc.boolean(), (ops: Op[], finish) => {
        let streams: Stream[] = [];
        let t = 0;
        let n = 0;
        const steps: Parameters<typeof expectSameAsWhole>[0] = [];
        const make = (id: string, kind: Op['kind'], start: number, times: number[], req: number, end?: number): Stream =>
          ({
            id,
            kind,
            method: kind === 'post' ? 'POST' : 'GET',
            requestIds: kind === 'post' ? [String(req)] : [],
            ...(kind === 'resume' ? { lastEventIdSent: String(req) } : {}),
            start,
            ...(end !== undefined ? { end } : {}),
            state: end !== undefined ? 'done' : 'open',
            events: { length: times.length, time: (i: number) => times[i]! },
          }) as unknown as Stream;
        const times = new Map<string, number[]>();
        ops.forEach((o, k) => {
          if (o.add || streams.length === 0) {
            t += o.dt;
            const id = `s${n++}`;
            times.set(id, []);
            streams = [...streams, make(id, o.kind, t, [], o.req)];
          } else {
            const i = o.at % streams.length;
            const s = streams[i]!;
            const ts = [...times.get(s.id)!];
            for (let g = 0; g < o.grow; g++) ts.push(Math.max(s.start, ts.at(-1) ?? s.start) + 1 + g);
            times.set(s.id, ts);
            streams = streams.map((x, j) => (j === i ? make(s.id, s.kind as Op['kind'], s.start, ts, Number(s.requestIds[0] ?? s.lastEventIdSent ?? 0), k % 3 === 0 ? (ts.at(-1) ?? s.start) + 2 : undefined) : x));
          }
          const snap = { streams: Object.fromEntries(streams.map((s) => [s.id, s])), finished: false } as unknown as AnalysisSnapshot;
          // An odd request's method is known once its stream has events: its label changes then.
          const known = (s: Stream, r: string) => Number(r) % 2 === 0 || s.events.length > 0;
          const reqs = new Map<string, RequestInfo>(streams.flatMap((s) => s.requestIds.filter((r) => known(s, r)).map((r) => [r, { id: r, method: `m${Number(r) % 2}` } as unknown as RequestInfo])));
          steps.push({ snap, session: { streamIds: streams.map((s) => s.id) } as unknown as Session, reqs });
        });
        if (finish) {
          const last = steps.at(-1)!;
          steps.push({ ...last, snap: { ...last.snap, finished: true } as AnalysisSnapshot });
        }
        expectSameAsWhole(steps);
      }),
      { numRuns: 300 },
    );
  });
});

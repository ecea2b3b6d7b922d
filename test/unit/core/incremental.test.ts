// The incremental snapshot (gap candidates decided once, findings appended, derived codes added to
// events one by one) equals, after every batch, the snapshot of a fresh analyzer fed the same
// records: on the real captures and on random live streams with drops, duplicates, late ids that
// fill holes, reorders, several streams, resumes, captures gaps and results.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { createAnalyzer } from '../../../src/core/analyzer';
import { importText } from '../../../src/core/import/index';
import type { AnalysisSnapshot } from '../../../src/core/model';
import type { CaptureRecord } from '../../../src/core/record';
import { Capture, call, ev, initSession, message, progress, result } from './helpers';

function essence(s: AnalysisSnapshot) {
  return {
    findings: s.findings,
    sessions: s.sessions,
    requests: Object.fromEntries(Object.entries(s.requests).map(([k, v]) => [k, v.map((r) => ({ ...r, notifications: r.notifications.slice(0, r.notificationCount) }))])),
    events: Object.fromEntries(Object.values(s.streams).map((st) => [st.id, st.events.slice(0, st.eventCount).map((e) => [e.id, e.findings, e.duplicate ?? false, e.truncated ?? false])])),
  };
}

function fresh(records: CaptureRecord[], finish: boolean): AnalysisSnapshot {
  const a = createAnalyzer();
  a.pushAll(records);
  if (finish) a.finish();
  return a.snapshot();
}

function check(records: CaptureRecord[], batches: number[]) {
  const a = createAnalyzer();
  let i = 0;
  let b = 0;
  while (i < records.length) {
    const n = 1 + ((batches[b++ % batches.length] ?? 0) % 6);
    a.pushAll(records.slice(i, i + n));
    i += n;
    expect(essence(a.snapshot())).toEqual(essence(fresh(records.slice(0, i), false)));
  }
  a.finish();
  expect(essence(a.snapshot())).toEqual(essence(fresh(records, true)));
}

const step = fc.oneof(
  { weight: 6, arbitrary: fc.constant('next' as const) },
  { weight: 2, arbitrary: fc.constant('drop' as const) },
  { weight: 1, arbitrary: fc.constant('dup' as const) },
  { weight: 1, arbitrary: fc.constant('fill' as const) },
  { weight: 1, arbitrary: fc.constant('back' as const) },
  { weight: 1, arbitrary: fc.constant('other-stream' as const) },
  { weight: 1, arbitrary: fc.constant('cut-resume' as const) },
  { weight: 1, arbitrary: fc.constant('gap-record' as const) },
  { weight: 1, arbitrary: fc.constant('result' as const) },
);

function liveScenario(steps: (typeof step extends fc.Arbitrary<infer T> ? T : never)[], perChunk: number): CaptureRecord[] {
  const c = new Capture();
  initSession(c);
  let post = c.request({ sessionId: 'sess-1', body: call(2) });
  c.response(post);
  const get = c.request({ sessionId: 'sess-1' });
  c.response(get);
  let id = 0;
  const dropped: number[] = [];
  let text = '';
  let k = 0;
  const flush = (conn: string) => {
    if (text) c.chunk(conn, text);
    text = '';
  };
  for (const s of steps) {
    const data = id % 2 ? progress(2, id) : message(`m${id}`);
    if (s === 'next') text += ev(String(++id), data);
    else if (s === 'drop') dropped.push(++id);
    else if (s === 'dup' && id > 0) text += ev(String(id), data);
    else if (s === 'fill' && dropped.length) {
      flush(post);
      c.chunk(get, ev(String(dropped.shift()), message('late')));
    } else if (s === 'back' && id > 2) text += ev(String(id - 2), data);
    else if (s === 'other-stream') {
      flush(post);
      c.chunk(get, ev(String(++id), message('g')));
    } else if (s === 'cut-resume') {
      flush(post);
      c.end(post, 'network-error');
      post = c.request({ sessionId: 'sess-1', lastEventId: String(id) });
      c.response(post);
      id += dropped.length % 3; // sometimes the replay skips
    } else if (s === 'gap-record') {
      flush(post);
      c.gap([post], 1);
    } else if (s === 'result') text += ev(String(++id), result(2));
    if (++k % perChunk === 0) flush(post);
  }
  flush(post);
  c.end(post);
  c.end(get, 'page-aborted');
  return c.records;
}

describe('incremental snapshots equal fresh analyses at every batch', () => {
  // The SDK v2 captures (v2/) too: the 2026-07-28 stages (conversations, servers' eras, links,
  // subscriptions) must give after every batch what a fresh analysis gives.
  const files = [
    ...readdirSync('test/fixtures/captures/').filter((f) => f.endsWith('.capture.json')),
    ...readdirSync('test/fixtures/captures/v2/').filter((f) => f.endsWith('.capture.json')).map((f) => `v2/${f}`),
  ].sort();
  it('issue 19: the client findings (hand-built cases, and the re-issue HAR without the broken body), random batching', async () => {
    const { CLIENT_CASES } = await import('./client-cases');
    const inputs = Object.values(CLIENT_CASES).map((f) => f());
    inputs.push(importText(readFileSync('test/fixtures/captures/v2/playwright-shape/modern-reissue-destructive.har', 'utf8')).records);
    for (const records of inputs) {
      fc.assert(
        fc.property(fc.array(fc.nat(20), { minLength: 1, maxLength: 8 }), (batches) => check(records, batches)),
        { numRuns: 5 },
      );
    }
  });
  it('real captures, random batching', () => {
    for (const f of files) {
      const records = importText(readFileSync('test/fixtures/captures/' + f, 'utf8')).records;
      fc.assert(
        fc.property(fc.array(fc.nat(20), { minLength: 1, maxLength: 8 }), (batches) => check(records, batches)),
        { numRuns: 3 },
      );
    }
  });

  it('random live streams: drops, duplicates, late fills, reorders, several streams, resumes, capture gaps', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 60 }), fc.integer({ min: 1, max: 5 }), fc.array(fc.nat(20), { minLength: 1, maxLength: 8 }), (steps, per, batches) => {
        check(liveScenario(steps, per), batches);
      }),
      { numRuns: 150 },
    );
  });
});

describe('abandoned chains (derive/gaps.ts abandonedParts)', () => {
  it('a gap excused while another chain was abandoned is decided again when that chain resumes (review of 2026-12-07)', () => {
    const c = new Capture();
    initSession(c);
    const a = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(a);
    c.chunk(a, ev('1', progress(2, 1)) + ev('2', message('a1')));
    c.end(a, 'network-error');
    const b = c.request({ sessionId: 'sess-1', body: call(3) });
    c.response(b);
    c.chunk(b, ev('3', message('b1')));
    c.chunk(b, ev('6', message('b2')) + ev('7', result(3)));
    c.end(b);
    // A resumes: no longer abandoned, and its replay does not hold 4–5
    const g = c.request({ sessionId: 'sess-1', lastEventId: '2' });
    c.response(g);
    c.chunk(g, ev('8', message('a2')) + ev('9', result(2)));
    c.end(g);
    for (const batches of [[0], [1], [2, 0, 5]]) check(c.records, batches);
    const f = fresh(c.records, true).findings.find((x) => x.code === 'live-gap');
    expect(f).toMatchObject({ severity: 'error', missing: '4–5' });
  });
});

describe('sessions of one server (issue 10)', () => {
  it('several sessions on one counter: after every batch the same as a fresh analysis', async () => {
    const { sharedCounterCapture } = await import('./shared-counter');
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 3 }).chain((sessions) =>
          fc.record({
            sessions: fc.constant(sessions),
            owners: fc.array(fc.nat(sessions - 1), { minLength: 2, maxLength: 40 }),
            cuts: fc.array(fc.array(fc.integer({ min: 1, max: 12 }), { maxLength: 2 }), { minLength: sessions, maxLength: sessions }),
            resumeDelay: fc.integer({ min: 0, max: 4 }),
            secondPriming: fc.boolean(),
            perChunk: fc.integer({ min: 1, max: 3 }),
          }),
        ),
        fc.array(fc.nat(20), { minLength: 1, maxLength: 6 }),
        (plan, batches) => check(sharedCounterCapture(plan), batches),
      ),
      { numRuns: 60 },
    );
  });
});

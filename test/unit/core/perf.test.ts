// Incremental cost without timing (machines are noisy): a snapshot after every batch, as the panel
// takes while capturing, must cost what changed since the previous one, not the stream's length.
// Checked two ways: the snapshots share each stream's event array and each request's notification
// list (identity), and the number of array elements copied inside snapshot() (counted by wrapping
// the Array methods that copy) grows linearly with the events, not quadratically.
// Timing figures: `npx tsx bench/core-micro.ts`.
import { describe, expect, it } from 'vitest';
import { createAnalyzer } from '../../../src/core/analyzer';
import type { AnalysisSnapshot } from '../../../src/core/model';
import type { CaptureRecord } from '../../../src/core/record';
import { Capture, call, ev, initSession, message, progress } from './helpers';

/** A tools/call whose POST stream receives n events in batches of `per`; ids skip `skip`. */
function build(n: number, per: number, skip: number[] = []): { head: CaptureRecord[]; batches: CaptureRecord[][]; post: string } {
  const c = new Capture();
  initSession(c);
  const post = c.request({ sessionId: 'sess-1', body: call(2) });
  c.response(post);
  const head = c.records.slice();
  const batches: CaptureRecord[][] = [];
  for (let i = 1; i <= n; i += per) {
    let text = '';
    for (let k = i; k < i + per && k <= n; k++) if (!skip.includes(k)) text += ev(String(k), k % 2 ? progress(2, k) : message(`part ${k}`));
    const before = c.records.length;
    c.chunk(post, text);
    batches.push(c.records.slice(before));
  }
  return { head, batches, post };
}

const COPYING = ['slice', 'map', 'filter', 'concat'] as const;

/** Elements copied by Array slice/map/filter/concat while `f` runs. */
function countCopies<T>(f: () => T): { value: T; copied: number } {
  const proto = Array.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
  const saved = COPYING.map((m) => proto[m]!);
  let copied = 0;
  COPYING.forEach((m, i) => {
    const orig = saved[i]!;
    proto[m] = function (this: unknown[], ...args: unknown[]) {
      copied += this.length;
      return orig.apply(this, args);
    };
  });
  try {
    return { value: f(), copied };
  } finally {
    COPYING.forEach((m, i) => (proto[m] = saved[i]!));
  }
}

function live(n: number, skip: number[] = []) {
  const { head, batches, post } = build(n, 50, skip);
  const a = createAnalyzer();
  a.pushAll(head);
  const snaps: AnalysisSnapshot[] = [];
  let copied = 0;
  for (const b of batches) {
    a.pushAll(b);
    const r = countCopies(() => a.snapshot());
    copied += r.copied;
    snaps.push(r.value);
  }
  return { snaps, copied, streamId: `tab1:${post}` };
}

describe('snapshot cost is what changed, not the stream length', () => {
  it('successive snapshots share the event array and the notification list; identities still change', () => {
    const { snaps, streamId } = live(2000);
    let count = 0;
    for (let i = 1; i < snaps.length; i++) {
      const prev = snaps[i - 1]!.streams[streamId]!;
      const cur = snaps[i]!.streams[streamId]!;
      expect(cur).not.toBe(prev); // React sees a change
      expect(snaps[i]).not.toBe(snaps[i - 1]);
      expect(cur.events.origin).toBe(prev.events.origin); // ... without a copy: views of one store
      expect(cur.eventCount).toBeGreaterThan(prev.eventCount!);
      count = cur.eventCount!;
      const rq = snaps[i]!.requests['sess-1']!.find((r) => r.id === '2')!;
      const rp = snaps[i - 1]!.requests['sess-1']!.find((r) => r.id === '2')!;
      expect(rq.notifications.origin).toBe(rp.notifications.origin);
      expect(rq.notificationCount).toBeGreaterThan(rp.notificationCount!);
    }
    const last = snaps[snaps.length - 1]!.streams[streamId]!;
    expect(count).toBe(2000);
    expect(last.events.length).toBe(last.eventCount);
  });

  it('elements copied by all snapshots grow linearly with the events (x4 events: < x5 copies)', () => {
    const small = live(4000);
    const big = live(16_000);
    // Quadratic copying (the whole event list per snapshot) would be x16 and ~n²/100 elements.
    expect(big.copied).toBeLessThan(small.copied * 5);
    expect(big.copied).toBeLessThan(16_000); // under one element per event in all (the event list copied per snapshot: ~2.5M)
  });

  it('derived codes (a live gap) do not make later snapshots copy the stream again', () => {
    const small = live(4000, [3]);
    const big = live(16_000, [3]);
    const last = big.snaps[big.snaps.length - 1]!;
    expect(last.findings.map((f) => f.code)).toContain('live-gap');
    const st = last.streams[big.streamId]!;
    expect(st.events.find((e) => e.id === '4')!.findings).toContain('live-gap');
    expect(big.copied).toBeLessThan(small.copied * 5);
    expect(big.copied).toBeLessThan(16_000); // under one element per event in all (the event list copied per snapshot: ~2.5M)
  });

  it('the shared array of an older snapshot only grew: its first eventCount events are what it had', () => {
    const { head, batches, post } = build(300, 50);
    const a = createAnalyzer();
    a.pushAll(head);
    a.pushAll(batches[0]!);
    const first = a.snapshot().streams[`tab1:${post}`]!;
    const kept = first.events.slice(0, first.eventCount);
    for (const b of batches.slice(1)) a.pushAll(b);
    a.finish();
    const now = a.snapshot().streams[`tab1:${post}`]!;
    expect(first.eventCount).toBe(50);
    expect(now.eventCount).toBe(300);
    expect(first.events.slice(0, first.eventCount)).toEqual(kept);
    // JSON of a snapshot is plain data
    expect(JSON.parse(JSON.stringify(now)).events.length).toBe(300);
  });
});

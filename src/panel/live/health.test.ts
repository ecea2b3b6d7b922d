import { describe, expect, it } from 'vitest';
import { createCaptureHealth } from './health';
import type { WitnessSnapshot } from './witness-types';

function fakeWitness() {
  const listeners = new Set<() => void>();
  let snap: WitnessSnapshot = { revision: 0, seen: 0, captured: 0, missing: [], checking: 0, problems: [] };
  return {
    snapshot: () => snap,
    subscribe(fn: () => void) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    /** One MCP request seen and captured (two witness changes, as the witness makes them). */
    request() {
      snap = { ...snap, revision: snap.revision + 1, seen: snap.seen + 1, checking: snap.checking + 1 };
      for (const l of listeners) l();
      snap = { ...snap, revision: snap.revision + 1, captured: snap.captured + 1, checking: snap.checking - 1 };
      for (const l of listeners) l();
    },
  };
}

describe('capture health', () => {
  it('tells its listeners of witness changes at most once per interval, and its snapshot is always current', () => {
    const w = fakeWitness();
    const timers: (() => void)[] = [];
    let t = 0;
    let connListener = () => {};
    const conn = {
      connected: () => true,
      connects: () => 1,
      status: () => ({ relays: true }) as never,
      subscribe: (fn: () => void) => ((connListener = fn), () => {}),
    };
    const health = createCaptureHealth(conn, w, { witnessIntervalMs: 250, now: () => t, setTimer: (fn) => timers.push(fn) });
    let told = 0;
    health.subscribe(() => told++);
    for (let i = 0; i < 100; i++) w.request();
    // The first change is told at once, the other 199 once, when the interval has passed.
    expect(told).toBe(1);
    expect(timers.length).toBe(1);
    expect(health.getSnapshot().detail).toContain('100 MCP requests seen there, all captured');
    expect(health.getSnapshot()).toBe(health.getSnapshot());
    t = 250;
    timers.shift()!();
    expect(told).toBe(2);
    // A connection change is told at once.
    connListener();
    expect(told).toBe(3);
  });
});

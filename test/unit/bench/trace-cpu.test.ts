import { describe, expect, it } from 'vitest';
import { threadCpu, type TraceX } from '../../../bench/lib/trace-cpu';

const x = (name: string, ts: number, dur: number, tdur: number | undefined, tid = 1): TraceX => ({ ph: 'X', name, pid: 7, tid, ts, dur, ...(tdur !== undefined ? { tdur } : {}) });

describe('threadCpu', () => {
  it('counts the top-level events of a thread, tasks and the microtask checkpoints outside them, once each', () => {
    const cpu = threadCpu([
      x('ThreadControllerImpl::RunTask', 0, 1000, 800),
      x('FunctionCall', 100, 500, 400), // nested in the task
      x('BlinkScheduler_PerformMicrotaskCheckpoint', 1000, 2000, 1500), // starts where the task ends: top level
      x('V8.GC_SCAVENGER', 1500, 100, 90), // nested in the checkpoint
      x('ThreadControllerImpl::RunTask', 5000, 10, 10),
    ]);
    expect(cpu.get('7/1')).toBeCloseTo((800 + 1500 + 10) / 1000, 9);
  });

  it('takes the outermost of events that start together, keeps threads apart, and skips events without a thread time', () => {
    const cpu = threadCpu([
      x('inner', 0, 100, 50),
      x('outer', 0, 300, 250),
      x('ThreadPool_RunTask', 0, 300, 200, 2),
      x('no thread time', 400, 1000, undefined),
      x('after it', 500, 10, 5),
      { ph: 'B', name: 'begin', pid: 7, tid: 1, ts: 600 },
    ]);
    expect(cpu.get('7/1')).toBeCloseTo((250 + 5) / 1000, 9);
    expect(cpu.get('7/2')).toBeCloseTo(0.2, 9);
    expect(cpu.size).toBe(2);
  });
});

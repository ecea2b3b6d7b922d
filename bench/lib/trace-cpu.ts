// Thread CPU from a Chrome trace: per thread, the CPU time (`tdur`) of its top-level complete
// events, whatever their name.
//
// Why not the top-level tasks alone (ThreadControllerImpl::RunTask): on Chromium 156 a renderer's
// main thread also runs microtask checkpoints outside any task event
// (BlinkScheduler_PerformMicrotaskCheckpoint at the top level), and a page that reads a stream
// runs its reads' promise reactions there. In ten reads of the same 50 MB stream, the tasks held
// 171–352 ms of thread CPU and the top-level checkpoints 211–458 ms more; which side of the line
// the work fell on changed from run to run, so the tasks alone both missed up to half of the
// thread's CPU and swung with that split (the page rows' wide intervals, issue 22).

export interface TraceX {
  ph: string;
  name: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
}

/** Thread CPU (ms) of each thread ("pid/tid") from its top-level complete events with a thread time. */
export function threadCpu(events: readonly TraceX[]): Map<string, number> {
  const byThread = new Map<string, TraceX[]>();
  for (const e of events) {
    if (e.ph !== 'X' || e.tdur === undefined || e.dur === undefined) continue;
    const k = `${e.pid}/${e.tid}`;
    let l = byThread.get(k);
    if (!l) byThread.set(k, (l = []));
    l.push(e);
  }
  const out = new Map<string, number>();
  for (const [k, l] of byThread) {
    // Outermost first at equal starts; an event that starts inside the current top-level one is
    // nested in it (trace events of one thread nest).
    l.sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
    let end = -Infinity;
    let ms = 0;
    for (const e of l) {
      if (e.ts < end) continue;
      end = e.ts + e.dur!;
      ms += e.tdur! / 1000;
    }
    out.set(k, ms);
  }
  return out;
}

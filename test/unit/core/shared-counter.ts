// Captures of several sessions on one server-wide event counter, like the Python SDK's sse_polling
// story store (examples/stories/sse_polling/event_store.py: `str(len(self._events))` for every
// stream of every session, replay of the cut stream's own tail in storage order). The store is
// lossless: every id goes to exactly one session, and a resume replays everything its stream was
// sent while it was cut. Used by field-causes.test.ts and the property test.
import type { CaptureRecord } from '../../../src/core/record';
import { Capture, call, ev, initialize, initResult, message, progress, result } from './helpers';

export interface SharedCounterPlan {
  /** For each counter value of the tool calls' events, in storage order: the session it belongs to. */
  owners: number[];
  sessions: number;
  /** Per session: cut its call stream after its k-th delivered event (several cuts allowed). */
  cuts: number[][];
  /** Global events that pass between a cut and its resume (default 3; -1: at the very end). */
  resumeDelay?: number;
  /** After a replay, the server mints a priming event with a fresh id (the Python transport). */
  secondPriming?: boolean;
  /** Text chunks carry this many events at most (default: one event per chunk). */
  perChunk?: number;
}

export function sharedCounterCapture(plan: SharedCounterPlan): CaptureRecord[] {
  const c = new Capture();
  let counter = 0;
  const n = plan.sessions;
  const sid = (i: number) => `shared-${i}`;
  // initialize of every session, in order: each result takes the next id.
  for (let i = 0; i < n; i++) {
    const conn = c.request({ body: initialize(0) });
    c.response(conn, { sessionId: sid(i) });
    c.chunk(conn, ev(String(++counter), initResult(0)));
    c.end(conn);
  }
  const total = new Array<number>(n).fill(0);
  for (const o of plan.owners) if (o < n) total[o]!++;
  interface S {
    conn?: string;
    delivered: number;
    lastId?: string;
    buffer: string[];
    cutAt: number[];
    waitUntil?: number;
    emitted: number;
    done: boolean;
  }
  const st: S[] = [];
  for (let i = 0; i < n; i++) {
    const conn = total[i]! > 0 ? c.request({ sessionId: sid(i), body: call(2), headers: [['mcp-protocol-version', '2025-11-25']] }) : undefined;
    if (conn) c.response(conn);
    st.push({ ...(conn ? { conn } : {}), delivered: 0, buffer: [], cutAt: [...(plan.cuts[i] ?? [])].sort((a, b) => a - b), emitted: 0, done: !conn });
  }
  const per = Math.max(1, plan.perChunk ?? 1);
  const pending = new Map<number, string[]>();
  const flush = (i: number) => {
    const p = pending.get(i);
    if (p && p.length && st[i]!.conn) c.chunk(st[i]!.conn!, p.join(''));
    pending.set(i, []);
  };
  const deliver = (i: number, text: string, id: string) => {
    const s = st[i]!;
    const p = pending.get(i) ?? [];
    p.push(text);
    pending.set(i, p);
    s.delivered++;
    s.lastId = id;
    if (p.length >= per) flush(i);
    if (s.cutAt.length && s.delivered >= s.cutAt[0]! && s.emitted < total[i]!) {
      while (s.cutAt.length && s.cutAt[0]! <= s.delivered) s.cutAt.shift();
      flush(i);
      c.end(s.conn!, 'network-error');
      s.conn = undefined;
    }
  };
  const resume = (i: number) => {
    const s = st[i]!;
    const g = c.request({ sessionId: sid(i), lastEventId: s.lastId! });
    c.response(g);
    s.conn = g;
    s.waitUntil = undefined;
    const replay = s.buffer;
    s.buffer = [];
    pending.set(i, []);
    for (const [text, id] of replay.map((x) => JSON.parse(x) as [string, string])) {
      // A cut during the replay is left out: the replay is delivered as the server wrote it.
      const p = pending.get(i)!;
      p.push(text);
      s.delivered++;
      s.lastId = id;
    }
    if (plan.secondPriming) {
      const id = String(++counter);
      pending.get(i)!.push(`id: ${id}\nretry: 100\ndata: \n\n`);
      s.lastId = id;
    }
    flush(i);
  };
  const delay = plan.resumeDelay ?? 3;
  plan.owners.forEach((i, k) => {
    if (i >= n) return;
    const s = st[i]!;
    const id = String(++counter);
    s.emitted++;
    const text = ev(id, s.emitted === total[i] ? result(2) : s.emitted % 2 ? message(`s${i} part ${s.emitted}`) : progress(2, s.emitted));
    if (s.conn) deliver(i, text, id);
    else {
      s.buffer.push(JSON.stringify([text, id]));
      if (s.waitUntil === undefined) s.waitUntil = delay < 0 ? Infinity : k + delay;
    }
    for (let j = 0; j < n; j++) if (st[j]!.waitUntil !== undefined && st[j]!.waitUntil! <= k) resume(j);
  });
  for (let j = 0; j < n; j++) {
    if (st[j]!.waitUntil !== undefined || (!st[j]!.conn && st[j]!.buffer.length)) resume(j);
    flush(j);
    if (st[j]!.conn) c.end(st[j]!.conn!);
  }
  return c.records;
}

// Loops (issue 19, item 5; MCP Inspector #2097): the client repeated an attempt that kept failing:
// the same request (same method and params, `_meta` aside) sent again after each attempt failed
// (a 2026-07-28 re-issue after every break, an application retry after every error, a re-listen
// after every drop), or a reconnect chain resumed again and again without a new event. One finding
// per loop, with the count and the intervals, when it has LOOP_MIN failed attempts or more and
// either never succeeded or did not back off (each interval longer than the one before).
// Cost: linear in the session's requests and resume segments.
import type { ReqState, SessionState, StreamS } from '../state';
import { paramsKey } from '../eras';
import * as C from '../texts-client-use';
import { add, type Derivation } from './context';
import { named } from './modern-verdicts';
import { hasFreshEvent } from '../../event-access';

/** Failed attempts in a row that make a loop. */
export const LOOP_MIN = 3;
/** A request sent again later than this after the previous attempt failed is a new use, not a retry. */
export const RETRY_WINDOW_MS = 60_000;

/** Growth an interval needs beyond the one before it to be a back-off, not jitter: attempts re-issued at
 * once are spaced by each attempt's own length, and two such intervals of 58 and 79 ms (an e2e run)
 * are not a back-off however they compare. SDK back-offs start at 100 ms to 1 s and grow 1.5–2×. */
export const BACKOFF_MIN_GROWTH_MS = 50;
/** Each interval at least 20 % and BACKOFF_MIN_GROWTH_MS longer than the one before: a back-off. */
const growing = (xs: readonly number[]) => xs.length < 2 || xs.every((d, i) => i === 0 || (d >= xs[i - 1]! * 1.2 && d - xs[i - 1]! >= BACKOFF_MIN_GROWTH_MS));

/** Method + params without `_meta` (the modern era keeps it at push time; a legacy request's is made once here). */
export function reqKey(D: Derivation, r: ReqState): string {
  if (r.x.key !== undefined) return `${r.method}\u0000${r.x.key}`;
  const m = (D.cache.reqKeys ??= new WeakMap());
  let k = m.get(r);
  if (k === undefined) m.set(r, (k = `${r.method}\u0000${paramsKey(r.method, r.params)}`));
  return k;
}

/** When a failed attempt was over (its stream ended, or its error arrived); undefined while it may still succeed. */
function failedAt(D: Derivation, r: ReqState): number | undefined {
  if (r.response === 'result') return undefined;
  if (r.response === 'error') return r.end;
  const root = r.stream.root;
  const last = root.segments[root.segments.length - 1]!;
  if (last.end === undefined) return undefined;
  if (D.opts.longLivedMethods.includes(r.method) && (last.state === 'aborted' || last.state === 'unread' || r.cancelled)) return undefined; // the client closed it
  return last.end;
}

function requestLoops(D: Derivation): void {
  const runs = new Map<string, ReqState[]>();
  const flush = (run: ReqState[] | undefined, succeeded: boolean) => {
    if (!run || run.length < LOOP_MIN) return;
    const intervals = run.slice(1).map((q, i) => q.start - failedAt(D, run[i]!)!);
    const grows = growing(intervals);
    if (succeeded && grows) return;
    const first = run[0]!;
    const lastR = run[run.length - 1]!;
    const tool = (first.params as { name?: unknown } | undefined)?.name;
    const kind: C.LoopKind = first.method === 'subscriptions/listen' ? 'relisten' : D.s.era === 'modern' ? 'reissue' : 'resend';
    // The last attempt's body is not in the file: whether it succeeded cannot be known.
    const ok = !succeeded && lastR.response === undefined && lastR.stream.root.segments.some((x) => x.bodyAbsent || x.captureIncomplete) ? undefined : succeeded;
    add(D, lastR.stream.ord, 'client-retry-loop', {
      ...(D.finished || succeeded ? {} : { pending: true }),
      streamId: lastR.stream.id,
      relatedStreamIds: run.slice(0, -1).map((q) => q.stream.id),
      requestId: lastR.id,
      relatedRequestIds: run.slice(0, -1).map((q) => q.id),
      eventIds: [],
      message: C.loop(kind, `${first.method}${typeof tool === 'string' ? ` ${tool.slice(0, 80)}` : ''} (requests ${C.listLoop(run.map((q) => q.id))})`, run.length, intervals, ok, grows),
    });
  };
  for (const r of D.s.requests) {
    if (r.method === 'initialize' || r.method.startsWith('notifications/')) continue;
    const k = reqKey(D, r);
    const run = runs.get(k);
    const prev = run?.[run.length - 1];
    const prevEnd = prev ? failedAt(D, prev) : undefined;
    const failed = failedAt(D, r) !== undefined;
    if (run && prevEnd !== undefined && prevEnd <= r.start && r.start - prevEnd <= RETRY_WINDOW_MS) {
      if (failed) run.push(r);
      else {
        run.push(r);
        flush(run.slice(0, -1), true);
        runs.delete(k);
      }
      continue;
    }
    if (run) flush(run, false);
    if (failed) runs.set(k, [r]);
    else runs.delete(k);
  }
  for (const run of runs.values()) flush(run, false);
}

/** A connection that brought nothing: refused, or ended without a new event (broken, or an empty answer). */
function fruitless(x: StreamS): boolean {
  if (x.status !== undefined && x.status >= 400) return true;
  if (x.end === undefined) return false;
  if (x.bodyAbsent || x.captureIncomplete) return false; // what it carried is unknown
  const fresh = hasFreshEvent(x);
  return !fresh && (x.state === 'error' || x.bytes === 0);
}

/** The client reconnected after `prev` failed (broke, was refused, or brought nothing), not after a server's planned close (SSE polling). */
const afterFailure = (prev: StreamS, x: StreamS) => overAt(prev) !== undefined && overAt(prev)! <= x.start && (prev.state === 'error' || fruitless(prev));

/** When a connection was over: its end, or its refusal (a 4xx/5xx without a body has no end record). */
const overAt = (x: StreamS) => x.end ?? (x.status !== undefined && x.status >= 400 ? x.start : undefined);

/** The `retry:` the server sent on these connections (the last one): a client must wait that long, not back off. */
function serverRetry(conns: StreamS[]): number | undefined {
  let r: number | undefined;
  for (const x of conns) if (x.retry !== undefined) r = x.retry;
  return r;
}

/** Runs of LOOP_MIN or more reconnects in a row, each after a failure, in `conns` (in order). */
function reconnectRuns(D: Derivation, conns: StreamS[], what: string, succeeded: (last: StreamS) => boolean | undefined, req: ReqState | undefined): void {
  let run: StreamS[] = [];
  // With the server's retry: the spec has the client wait that long: even intervals are no fault then.
  const retry = serverRetry(D.s.streams);
  const flush = (ok: boolean | undefined) => {
    if (run.length >= LOOP_MIN) {
      const intervals = run.map((x) => x.start - overAt(conns[conns.indexOf(x) - 1]!)!);
      const grows = retry !== undefined || growing(intervals);
      if (!(ok !== false && grows)) {
        const lastS = run[run.length - 1]!;
        add(D, lastS.ord, 'client-retry-loop', {
          streamId: lastS.id,
          relatedStreamIds: [conns[conns.indexOf(run[0]!) - 1]!.id, ...run.slice(0, -1).map((x) => x.id)],
          ...(req ? { requestId: req.id } : {}),
          eventIds: [...new Set(run.map((x) => x.lastEventIdSent).filter((c): c is string => !!c))],
          message: C.loop('reconnect', what, run.length, intervals, ok, grows, retry),
        });
      }
    }
    run = [];
  };
  for (let i = 1; i < conns.length; i++) {
    const x = conns[i]!;
    if (afterFailure(conns[i - 1]!, x)) run.push(x);
    else flush(true);
  }
  const last = conns[conns.length - 1]!;
  if (overAt(last) === undefined && D.anyOpen) run = [];
  else flush(succeeded(last));
}

function reconnectLoops(D: Derivation): void {
  const standalone: StreamS[] = [];
  for (const root of D.s.streams) {
    if (root.method === 'GET' && !root.isResume && !root.lastEventIdSent && root.root === root) standalone.push(root);
    if (root.root !== root || root.segments.length <= LOOP_MIN) continue;
    const req = root.requests[0];
    const ids = [...new Set(root.segments.map((x) => x.lastEventIdSent).filter((c): c is string => !!c))];
    const what = `stream ${root.id}${req ? ` (${named(req)})` : ''} with Last-Event-ID ${C.listLoop(ids.length > 6 ? [...ids.slice(0, 5), '…'] : ids)}`;
    const unknown = root.segments.some((x) => x.bodyAbsent || x.captureIncomplete);
    reconnectRuns(D, root.segments, what, (last) => (root.requests.length > 0 ? (root.requests.every((r) => r.response !== undefined) ? true : unknown ? undefined : false) : unknown ? undefined : !fruitless(last)), req);
  }
  // The standalone GET stream (no Last-Event-ID) opened again and again after each failure.
  if (standalone.length > LOOP_MIN) reconnectRuns(D, standalone, 'the standalone GET stream (without Last-Event-ID)', (last) => !fruitless(last) && last.state !== 'error', undefined);
}

/** When a 2025 session ended in failure: a 404 to its session id, or a request stream broken before its response. */
function sessionFailedAt(s: SessionState): number | undefined {
  let t: number | undefined;
  for (const st of s.streams) {
    const at = st.status === 404 && st.sessionHeader !== undefined ? st.start : st.state === 'error' && st.requests.some((r) => r.response === undefined) ? st.end : undefined;
    if (at !== undefined && (t === undefined || at > t)) t = at;
  }
  return t;
}

const initOf = (s: SessionState) => s.requests.find((r) => r.method === 'initialize');

/** `b` is the client initialising again soon after `a` failed. */
function reinitAfter(a: SessionState, b: SessionState): boolean {
  const failed = sessionFailedAt(a);
  const init = initOf(b);
  return failed !== undefined && init !== undefined && init.start >= failed && init.start - failed <= RETRY_WINDOW_MS;
}

/** A new session after every cut or expiry: reported once, by the last session of the run. */
function reinitLoops(D: Derivation): void {
  const ss = D.s.ep?.sessions;
  if (!ss || D.s.era !== 'legacy') return;
  const i = ss.indexOf(D.s);
  const next = ss[i + 1];
  if (i < 0 || (next && reinitAfter(D.s, next))) return;
  let j = i;
  while (j > 0 && reinitAfter(ss[j - 1]!, ss[j]!)) j--;
  const run = ss.slice(j, i + 1);
  if (run.length - 1 < LOOP_MIN) return;
  const intervals = run.slice(1).map((x, k) => initOf(x)!.start - sessionFailedAt(run[k]!)!);
  const grows = growing(intervals);
  const lastFailed = sessionFailedAt(D.s) !== undefined;
  const answered = D.s.requests.some((r) => r.method !== 'initialize' && r.response === 'result');
  // Live, the last session may still succeed: decided once it fails, answers, or the capture ends.
  const ok = lastFailed ? false : answered ? true : D.finished ? false : undefined;
  if (ok === undefined || (ok && grows)) return;
  const init = initOf(D.s)!;
  add(D, init.stream.ord, 'client-retry-loop', {
    streamId: init.stream.id,
    relatedStreamIds: run.slice(0, -1).map((x) => initOf(x)!.stream.id),
    requestId: init.id,
    eventIds: [],
    message: C.loop('reinitialise', `${D.s.endpoint} (sessions ${C.listLoop(run.map((x) => x.sessionId ?? x.key).map((x) => (x.length > 12 ? `${x.slice(0, 8)}…` : x)))})`, run.length - 1, intervals, ok, grows),
  });
}

export function retryLoops(D: Derivation): void {
  requestLoops(D);
  reconnectLoops(D);
  reinitLoops(D);
}

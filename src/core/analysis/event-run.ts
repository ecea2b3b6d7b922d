// A run of a stream's usual events read together (issue 22, row 4): a server's progress
// notifications, each `id: <counter + 1>` and data its stream's progress shape reads, the progress
// going up. Read one by one (events.ts), each such event took the stages' whole way: an event
// object, the id's parse, the id index's and statistics' updates, the request's lookup by token,
// and the store's two steps; that was four fifths of the analysis' time on such a stream, and the
// stages come to the same state for every event of the run. So what the stages would decide for
// the run's first event is checked once (no finding, no candidate, no lesson can come of it), and
// each event of the run is then checked to be the same case as the one before: its id the next
// counter, its data read by the shape, its progress above the last. The first event that is not
// goes the usual way, as does everything after it. What the run leaves is what the stages leave
// (src/core/analysis/event-run.test.ts compares the two on generated streams; the pinned snapshots
// of the fixtures are the other net).
import type { SseBlock } from '../sse';
import { parseIdGeneric } from '../ids';
import type { ReqState, StreamS } from './state';
import type { AnalyzerState } from './analyzer-state';

/** Decimal digits a counter may have to be read exactly by parseIdGeneric (and here). */
const MAX_DIGITS = 15;

/** Turned off by the equivalence test, to compare with the stages alone; `read` counts the events runs read. */
export const RUNS = { on: true, read: 0 };

function ownRequestWithToken(st: StreamS, token: string): ReqState | undefined {
  const rs = st.root.requests;
  for (let i = 0; i < rs.length; i++) if (rs[i]!.progressToken === token) return rs[i];
  return undefined;
}

/** Whether `id` is `prefix` then `counter` in decimal, unpadded (what parseIdGeneric reads as such). */
function isId(id: string, prefix: string, counter: number): boolean {
  const n = id.length;
  const k = prefix.length;
  if (n <= k || n - k > MAX_DIGITS) return false;
  if (k > 0 && !id.startsWith(prefix)) return false;
  const c0 = id.charCodeAt(k);
  if (c0 === 48) return false;
  let v = 0;
  for (let i = k; i < n; i++) {
    const d = id.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    v = v * 10 + d;
  }
  return v === counter;
}

/**
 * Reads blocks[k…] while they are a run (see the header) and returns how many it read (0: the
 * block at `k` is not one; the caller reads it the usual way). The blocks were read from `src`,
 * block j's raw text at spans[j] and its data at dataAts[j] in it (-1: not known), at time `t`.
 */
export function readRun(A: AnalyzerState, st: StreamS, blocks: readonly SseBlock[], k: number, t: number, src: string, spans: readonly number[], dataAts: readonly number[]): number {
  if (!RUNS.on) return 0;
  const s = st.session;
  // The stages' cases that are not the run's: a session that is not the stream's yet, a second
  // reading of ids (hexadecimal) or the user's, other sessions of the endpoint (cross-session
  // ids), a resume (ids compared with its cursor), a loss before the first id (no step counted),
  // a lost stretch waiting for the next id.
  if (s === undefined || st.isResume || st.afterGap === true || st.lostAwaitId !== undefined || s.hex !== undefined || s.override !== undefined || s.parse !== parseIdGeneric) return 0;
  if (s.ep !== undefined && s.ep.sessions.length > 1) return 0;
  const lp = st.lastParsed;
  if (lp === undefined || lp.width !== 0 || st.firstId === undefined) return 0;
  const prefix = lp.prefix;
  // The id statistics and the chain's counters: the id extends the top of both, and the
  // statistics' example list is full.
  const stats = s.main.stats;
  const g = stats.last;
  if (g === undefined || g.prefix !== prefix || !g.counterLike || g.lastStream !== st.id || stats.examples.length < 3 || g.set.max !== lp.counter) return 0;
  const chain = st.root.chainLast;
  if (chain === undefined || chain.prefix !== prefix || chain.set.max !== lp.counter) return 0;
  if (!s.idIndex.topIs(prefix, lp.counter, st)) return 0;
  // The message: a progress notification the stream's shape reads, of a request of this stream
  // (found by its token as onMessage finds it), not a listen stream's, not counted as cumulative.
  const shape = A.shapes.of(st);
  const base = shape.runBase();
  if (base === undefined || base.method === undefined || base.progressToken === undefined) return 0;
  const method = base.method;
  const token = base.progressToken;
  const req = ownRequestWithToken(st, token) ?? s.progress.get(token);
  if (req === undefined || req.method === 'subscriptions/listen' || A.isCumulative(method)) return 0;
  const total = base.total;

  const events = st.events;
  let counter = lp.counter;
  let last = req.lastProgress;
  let n = 0;
  let b: SseBlock | undefined;
  let progress = NaN;
  for (let j = k; j < blocks.length; j++) {
    const x = blocks[j]!;
    const id = x.id;
    const data = x.data;
    if (id === undefined || data === undefined || data === '' || x.retry !== undefined || x.truncated === true || (x.event !== undefined && x.event !== 'message')) break;
    if (!isId(id, prefix, counter + 1)) break;
    const p = shape.progressIn(data);
    if (p !== p || (last !== undefined && p <= last)) break;
    const i = events.addNotification(t, x.raw, src, spans[j]!, id, data, dataAts[j]!, method, token, p, total);
    req.notifications.push(st.id, i);
    counter++;
    last = p;
    progress = p;
    b = x;
    n++;
  }
  if (n === 0) return 0;
  RUNS.read += n;

  // What the stages leave after the run's last event.
  const id = b!.id!;
  const p = { prefix, counter, width: 0 };
  A.ord += n;
  s.dirty = true;
  st.lastBlock = b;
  st.lastEvIndex = events.length - 1;
  // events.ts
  st.cursor = id;
  st.root.chainCursor = id;
  st.root.cursorUnknown = false;
  // event-ids.ts: onId, trackId, recordId and recordStep for each id of the run
  s.idIndex.extendTop(prefix, counter);
  st.lastId = id;
  stats.ids += n;
  g.set.extendTop(n);
  stats.distinct += n;
  stats.span += n;
  chain.set.extendTop(n);
  stats.steps += n;
  stats.stepsOne += n;
  st.lastKept = p;
  st.afterGap = false;
  st.lastParsed = p;
  st.lastIdOrd = A.ord;
  st.sawId = true;
  // messages.ts
  st.messages += n;
  req.lastProgress = progress;
  shape.ranOver(b!.data!, progress);
  return n;
}

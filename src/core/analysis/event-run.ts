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
// of the fixtures are the other net). Runs are read two ways: from the blocks the SSE reader made
// (readRun), and straight from the chunk's text as the reader offers it each block start
// (readTextRun, sse-types.ts SseRunReader), where no string is made per event.
import type { SseBlock } from '../sse';
import { parseIdGeneric, type IdGroup, type IdStats, type IntervalSet } from '../ids';
import type { ProgressShape } from '../progress-shape';
import { fitEnd } from '../shape/read';
import type { ReqState, SessionState, StreamS } from './state';
import { ownRequestWithToken } from './messages';
import type { AnalyzerState } from './analyzer-state';

/** Decimal digits a counter may have to be read exactly by parseIdGeneric (and here). */
const MAX_DIGITS = 15;

/** Turned off by the equivalence test, to compare with the stages alone; `read` counts the events runs read. */
export const RUNS = { on: true, read: 0 };

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

/** What a run starts from: the checks made once (see the header), and what the stages would use. */
interface RunStart {
  s: SessionState;
  counter: number;
  prefix: string;
  stats: IdStats;
  g: IdGroup;
  chain: IntervalSet;
  shape: ProgressShape;
  method: string;
  token: string;
  total: number | undefined;
  req: ReqState;
}

/** The state a run of `st` may start from, or undefined when the next event is not read as one. */
function runStart(A: AnalyzerState, st: StreamS): RunStart | undefined {
  // The most selective first (this runs at each block start of every stream): a stream's first
  // id, and a stream whose shape has not been taught (most streams: one tool call's answer).
  const lp = st.lastParsed;
  if (lp === undefined || lp.width !== 0) return undefined;
  const shape = A.shapes.of(st);
  const base = shape.runBase();
  if (base === undefined || base.method === undefined || base.progressToken === undefined) return undefined;
  const s = st.session;
  // The stages' cases that are not the run's: a session that is not the stream's yet, a second
  // reading of ids (hexadecimal) or the user's, other sessions of the endpoint (cross-session
  // ids), a resume (ids compared with its cursor), a loss before the first id (no step counted),
  // a lost stretch waiting for the next id.
  if (s === undefined || st.isResume || st.afterGap === true || st.lostAwaitId !== undefined || s.hex !== undefined || s.override !== undefined || s.parse !== parseIdGeneric) return undefined;
  if (s.ep !== undefined && s.ep.sessions.length > 1) return undefined;
  if (st.firstId === undefined) return undefined;
  const prefix = lp.prefix;
  // The id statistics and the chain's counters: the id extends the top of both, and the
  // statistics' example list is full.
  const stats = s.main.stats;
  const g = stats.last;
  if (g === undefined || g.prefix !== prefix || !g.counterLike || g.lastStream !== st.id || stats.examples.length < 3 || g.set.max !== lp.counter) return undefined;
  const chain = st.root.chainLast;
  if (chain === undefined || chain.prefix !== prefix || chain.set.max !== lp.counter) return undefined;
  if (!s.idIndex.topIs(prefix, lp.counter, st)) return undefined;
  // The message: a progress notification the stream's shape reads, of a request of this stream
  // (found by its token as onMessage finds it), not a listen stream's, not counted as cumulative.
  const req = ownRequestWithToken(st, base.progressToken) ?? s.progress.get(base.progressToken);
  if (req === undefined || req.method === 'subscriptions/listen' || A.isCumulative(base.method)) return undefined;
  return { s, counter: lp.counter, prefix, stats, g, chain: chain.set, shape, method: base.method, token: base.progressToken, total: base.total, req };
}

/** What the stages leave after a run of `n` events ending with id `id` (counter `counter`), data `data`, progress `progress`. */
function ranOver(A: AnalyzerState, st: StreamS, r: RunStart, n: number, counter: number, id: string, data: string, progress: number): void {
  RUNS.read += n;
  const { s, stats, prefix } = r;
  const p = { prefix, counter, width: 0 };
  A.ord += n;
  s.dirty = true;
  st.lastEvIndex = st.events.length - 1;
  // events.ts
  st.cursor = id;
  st.root.chainCursor = id;
  st.root.cursorUnknown = false;
  // event-ids.ts: onId, trackId, recordId and recordStep for each id of the run
  s.idIndex.extendTop(prefix, counter);
  st.lastId = id;
  stats.ids += n;
  r.g.set.extendTop(n);
  stats.distinct += n;
  stats.span += n;
  r.chain.extendTop(n);
  stats.steps += n;
  stats.stepsOne += n;
  st.lastKept = p;
  st.afterGap = false;
  st.lastParsed = p;
  st.lastIdOrd = A.ord;
  st.sawId = true;
  // messages.ts
  st.messages += n;
  r.req.lastProgress = progress;
  r.shape.ranOver(data, progress);
}

/**
 * Reads blocks[k…] while they are a run (see the header) and returns how many it read (0: the
 * block at `k` is not one; the caller reads it the usual way). The blocks were read from `src`,
 * block j's raw text at spans[j] and its data at dataAts[j] in it (-1: not known), at time `t`.
 */
export function readRun(A: AnalyzerState, st: StreamS, blocks: readonly SseBlock[], k: number, t: number, src: string, spans: readonly number[], dataAts: readonly number[]): number {
  if (!RUNS.on) return 0;
  const r = runStart(A, st);
  if (r === undefined) return 0;
  const { shape, prefix, req, method, token, total } = r;
  const events = st.events;
  let counter = r.counter;
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
  ranOver(A, st, r, n, counter, b!.id!, b!.data!, progress);
  st.lastBlock = b;
  return n;
}

/** What follows a run event's id: its line end, "data: ", and the one event line it may have before. */
const ID_DATA = '\ndata: ';
const ID_EVENT_DATA = '\nevent: message\ndata: ';

/**
 * The same run read straight from the text the stream's SSE reader is fed (its run reader, see
 * SseRunReader): no block, raw text, id or data string is made for an event of it. From `at` in
 * `text` (which starts at `base` in `src`, the chunk's text), events of the form `id: <counter>`,
 * optionally `event: message`, `data: <data>` and a blank line, with LF line ends and unprefixed
 * decimal ids. Returns where it ended (`at`: none) and the last id read.
 */
export function readTextRun(A: AnalyzerState, st: StreamS, text: string, at: number, base: number, src: string, t: number): { end: number; id: string } | undefined {
  if (!RUNS.on) return undefined;
  const r = runStart(A, st);
  if (r === undefined || r.prefix !== '') return undefined;
  const { shape, req, method, token, total } = r;
  const events = st.events;
  const n0 = text.length;
  let counter = r.counter;
  let last = req.lastProgress;
  let n = 0;
  let pos = at;
  let progress = NaN;
  let lastIdAt = 0;
  let lastIdEnd = 0;
  let lastData = 0;
  let lastDataEnd = 0;
  for (;;) {
    // "id: " and the next counter's digits (no leading zero, at most MAX_DIGITS), then LF
    if (text.charCodeAt(pos) !== 105 || text.charCodeAt(pos + 1) !== 100 || text.charCodeAt(pos + 2) !== 58 || text.charCodeAt(pos + 3) !== 32) break;
    const idAt = pos + 4;
    let q = idAt;
    let v = 0;
    for (; q < n0; q++) {
      const d = text.charCodeAt(q) - 48;
      if (d < 0 || d > 9) break;
      v = v * 10 + d;
    }
    if (q === idAt || q - idAt > MAX_DIGITS || text.charCodeAt(idAt) === 48 || v !== counter + 1) break;
    // the id's line end, an optional "event: message" line and "data: ", compared as one text
    const mid = text.charCodeAt(q + 1) === 101 ? ID_EVENT_DATA : ID_DATA;
    if (text.slice(q, q + mid.length) !== mid) break;
    const dataAt = q + mid.length;
    const p = shape.progressFrom(text, dataAt);
    if (p !== p || (last !== undefined && p <= last)) break;
    const dataEnd = fitEnd;
    // the blank line must be in this text: an event cut by the read's end is left to the reader
    if (dataEnd + 1 >= n0 || text.charCodeAt(dataEnd) !== 10 || text.charCodeAt(dataEnd + 1) !== 10) break;
    const end = dataEnd + 2;
    const i = events.addNotificationSpan(t, src, base + pos, end - pos, 4, q - idAt, dataAt - pos, dataEnd - dataAt, method, token, p, total);
    req.notifications.push(st.id, i);
    counter++;
    last = p;
    progress = p;
    lastIdAt = idAt;
    lastIdEnd = q;
    lastData = dataAt;
    lastDataEnd = dataEnd;
    pos = end;
    n++;
  }
  if (n === 0) return undefined;
  const id = text.slice(lastIdAt, lastIdEnd);
  ranOver(A, st, r, n, counter, id, text.slice(lastData, lastDataEnd), progress);
  // No block of the reader's stands for the run's last event (it ends with LF: never `extended`).
  st.lastBlock = undefined;
  return { end: pos, id };
}

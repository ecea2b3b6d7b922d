// Request verdicts at snapshot time: a result built over a chain that lost events (or took another
// session's event as its own) is lossy when the request had cumulative notifications; over an
// unverifiable replay, or ids that may be in records the capture does not hold, it is
// complete-unverified; a request whose streams all ended without a result is incomplete
// (result-missing, or a capture-gap when a stream that could hold it was not captured whole).
import type { RequestInfo, Verdict } from '../../model';
import { paramsText } from '../../canonical-json';
import { chainOpen, notRecordedOnly } from '../streams';
import * as T from '../texts';
import type { ReqState, SessionState, StreamS } from '../state';
import { CROSS_SESSION, type GapLoss } from './cache';
import { add, overlay, type Derivation } from './context';
import type { CrossSessionLoss } from './resumes';
import { brokeBeforeResponse } from './modern';
import { brokenVerdict, partialOutput } from './modern-verdicts';
import { answeredNotTaken, duplicatedOutput, namedEventResult } from './client-results';
import { refusedByBrowser } from './cors';

/** Each request's key, made once (the re-issue search runs at every derivation). */
const keys = new WeakMap<ReqState, string>();

/** Params without `_meta` (progress tokens differ between a request and its re-issue), members in key order. */
function paramsKey(r: ReqState): string {
  let k = keys.get(r);
  if (k !== undefined) return k;
  try {
    k = paramsText(r.params);
  } catch {
    k = `\u0000unkeyable ${r.id}`; // never equal to another request's key
  }
  keys.set(r, k);
  return k;
}

/** `last` ended after the client sent DELETE for its session (the server closes streams then). */
function endedByDelete(s: SessionState, last: StreamS): boolean {
  if (last.end === undefined) return false;
  return s.streams.some((x) => x.method === 'DELETE' && x !== last && x.start <= last.end!);
}

const NO_LOSSES: readonly GapLoss[] = Object.freeze([]);

/**
 * 2024-11-05 HTTP+SSE: the request's result (and its notifications) came on the session's GET
 * stream, which carries every request's events, while its own chain is the POST answered 202.
 * Events that stream lost between the request and its result (ids never delivered, records the
 * capture does not hold) may have been this request's: ids are the session's, so whose they were
 * cannot be told. Not lossy, and not `complete` either.
 */
function sharedStreamLoss(D: Derivation, r: ReqState, cross: CrossSessionLoss): boolean {
  const legacy = D.s.legacyStream;
  const st = r.responseStream;
  if (!legacy || !st || st.root !== legacy.root || r.stream.root === legacy.root) return false;
  const from = r.ord;
  const to = r.responseOrd!;
  // (a gap is at the event after it: one right before the result is in the request's span)
  const gapIn = ([, o]: GapLoss) => o > from && o <= to;
  if (D.I.gapOrds.get(legacy.root)?.some(gapIn) || cross.losses.get(legacy.root)?.some(gapIn)) return true;
  return legacy.root.segments.some((x) => x.bodyAbsent || x.lossOrds?.some((o) => o > from && o < to));
}

function answered(D: Derivation, r: ReqState, unverifiedRoots: Map<StreamS, number[]>, cross: CrossSessionLoss): Verdict {
  const { s } = D;
  const root = r.stream.root;
  const respOrd = r.responseOrd!;
  // (Runs for every request at every snapshot: a chain with no loss, the rule, allocates nothing.)
  const gapLosses = D.I.gapOrds.get(root);
  const crossLosses = cross.losses.get(root);
  let lossesBefore: readonly GapLoss[] = NO_LOSSES;
  if (gapLosses?.length || root.crossOrds.length || crossLosses?.length) {
    const losses: GapLoss[] = (gapLosses ?? []).concat(root.crossOrds.map((o) => [o - 1, o, '', false] as GapLoss), crossLosses ?? []);
    lossesBefore = losses.filter(([, o]) => o >= r.ord && o <= respOrd);
  }
  let certain: readonly GapLoss[] = NO_LOSSES;
  let affected = false;
  let maybe: readonly GapLoss[] = NO_LOSSES;
  if (lossesBefore.length > 0) {
    const resyncs = root.resyncOrds.concat(s.resyncOrds);
    // A resync after the loss and before the result: the client was told to discard.
    const discounted = (prevOrd: number) => resyncs.some((x) => x > prevOrd && x < respOrd);
    // Gaps whose ids may be in records the capture does not hold make the result unverifiable,
    // not lossy: whether events were lost cannot be known.
    certain = lossesBefore.filter((l) => !l[3]);
    affected = certain.some(([p]) => !discounted(p));
    maybe = lossesBefore.filter((l) => l[3] && !discounted(l[0]));
  }
  const unverified = unverifiedRoots.get(root)?.some((o) => o >= r.ord && o < respOrd) === true;
  const incomplete = root.segments.some((x) => x.captureIncomplete) || sharedStreamLoss(D, r, cross);
  // Another session's result taken as this request's own: wrong whatever it accumulated.
  const foreignResult = cross.foreign.size > 0 && r.responseStream !== undefined && r.responseIndex !== undefined && cross.foreign.has(`${r.responseStream.id}\u0000${r.responseIndex}`);
  answeredNotTaken(D, r);
  // Output delivered twice before the result: never `complete` (issue 19), whatever else applies.
  const dup = duplicatedOutput(D, r);
  if ((affected && r.cumulative > 0) || foreignResult) {
    if (r.responseIndex !== undefined) overlay(D, r.responseStream!, r.responseIndex, 'lossy-result-accepted');
    const ids = certain.map((l) => l[2]).filter((x) => x && x !== CROSS_SESSION);
    const lossText = T.losses(ids, certain.some((l) => !l[2]), certain.some((l) => l[2] === CROSS_SESSION));
    add(D, respOrd, 'lossy-result-accepted', {
      streamId: r.responseStream!.id,
      relatedStreamIds: root.segments.map((x) => x.id).filter((x) => x !== r.responseStream!.id),
      requestId: r.id,
      eventIds: [],
      ...(r.responseIndex !== undefined ? { eventIndex: r.responseIndex } : {}),
      // decided on gaps that another open stream could still fill
      ...(D.anyOpen && !certain.some((l) => l[2] === '' || l[2] === CROSS_SESSION) ? { pending: true } : {}),
      message: foreignResult ? T.lossyForeign(r.response!, r.id, r.method, lossText) : T.lossy(r.response!, r.id, r.method, lossText, r.cumulative),
    });
    return 'lossy';
  }
  if ((unverified || maybe.length > 0) && r.cumulative > 0) {
    if (r.responseIndex !== undefined) overlay(D, r.responseStream!, r.responseIndex, 'unverified-result-accepted');
    add(D, respOrd, 'unverified-result-accepted', {
      streamId: r.responseStream!.id,
      requestId: r.id,
      eventIds: [],
      ...(r.responseIndex !== undefined ? { eventIndex: r.responseIndex } : {}),
      ...(D.anyOpen && maybe.length > 0 && !unverified ? { pending: true } : {}),
      message: T.unverifiedResult(r.response!, r.id, r.method, unverified, maybe.map((l) => l[2]), r.cumulative),
    });
    return dup ? 'duplicated' : 'complete-unverified';
  }
  if (D.mv?.reissueOf.has(r)) partialOutput(D, r);
  if (dup) return 'duplicated';
  if (lossesBefore.length > 0 || unverified || incomplete || (r.dupCumulative ?? 0) > 0) return 'complete-unverified';
  return 'complete';
}

function unanswered(D: Derivation, r: ReqState): Verdict {
  // Its response is in the capture, in an event the client does not read: never result-missing.
  const notTaken = namedEventResult(D, r);
  if (notTaken) return notTaken;
  const { s } = D;
  const root = r.stream.root;
  const post = r.stream;
  const httpError = post.status !== undefined && post.status >= 400;
  const last = root.segments[root.segments.length - 1]!;
  // The client may still resume a broken stream, unless it gave up: it cancelled the request,
  // or the page itself aborted the last stream of the chain.
  const mayResume = !D.finished && last.state === 'error' && root.chainCursor !== undefined && !r.cancelled;
  const unknownBody = root.segments.filter((x) => x.bodyAbsent || x.captureIncomplete);
  // Legacy HTTP+SSE: results arrive on the GET stream that announced the endpoint.
  const legacyWait = s.legacyStream !== undefined && s.legacyStream.state === 'open';
  if (chainOpen(root) || post.deferSession || mayResume || legacyWait) return 'pending';
  if (D.opts.longLivedMethods.includes(r.method)) {
    // Closed by the client: what it was for is done, unless the capture lost some of it. Ended
    // otherwise: incomplete, and when the capture does not hold all of it, the capture-gap below
    // says its result may be in what is missing (not a drop the capture shows).
    if (last.state === 'aborted' || last.state === 'unread') return unknownBody.length > 0 ? 'complete-unverified' : 'complete';
    if (unknownBody.length === 0) return 'incomplete';
  }
  if (httpError) return 'incomplete';
  const others = (but: StreamS) => root.segments.filter((x) => x !== but).map((x) => x.id);
  if (unknownBody.length > 0) {
    // No result seen, but a stream that could hold it was not (fully) captured: unknown.
    const lastUnknown = unknownBody[unknownBody.length - 1]!;
    add(D, last.endOrd ?? last.ord, 'capture-gap', {
      // Only bodies the file did not keep, or records not kept while recording was off:
      // unknowable, a warning; records the inspector lost: an error.
      severity: unknownBody.every((x) => x.bodyAbsent || notRecordedOnly(x)) ? 'warning' : 'error',
      streamId: lastUnknown.id,
      relatedStreamIds: others(lastUnknown),
      requestId: r.id,
      eventIds: root.chainCursor !== undefined ? [root.chainCursor] : last.lastEventIdSent !== undefined ? [last.lastEventIdSent] : [],
      message: T.resultUnknown({
        id: r.id,
        method: r.method,
        streams: unknownBody.map((x) => x.id),
        why: unknownBody.some((x) => x.bodyAbsent) ? 'absent' : unknownBody.every(notRecordedOnly) ? 'not-recorded' : 'lost',
        chain: root.segments.length,
        lastCursor: last.lastEventIdSent,
      }),
    });
    return 'incomplete';
  }
  // Refused by the browser before it was sent (its CORS preflight was rejected: that finding says
  // so): no result was due from the server, and the stream did not break.
  if (root.segments.every((x) => refusedByBrowser(s, x))) return 'incomplete';
  // 2026-07-28: a broken stream is the client's cue to re-issue, not the server's fault.
  if (D.mv && brokeBeforeResponse(D, r)) return brokenVerdict(D, r);
  const idx = s.requests.indexOf(r);
  const key = paramsKey(r);
  const reissue = s.requests.find((q, i) => i > idx && q.method === r.method && paramsKey(q) === key);
  add(D, last.endOrd ?? last.ord, 'result-missing', {
    streamId: last.id,
    relatedStreamIds: others(last),
    requestId: r.id,
    eventIds: root.chainCursor !== undefined ? [root.chainCursor] : [],
    message: T.resultMissing({
      id: r.id,
      method: r.method,
      chain: root.segments.length,
      last: last.state,
      cursor: root.chainCursor,
      endedByDelete: endedByDelete(s, last),
      cancelled: r.cancelled === true,
      reissuedAs: reissue?.id,
    }),
  });
  return 'incomplete';
}

/** The session's requests with their verdicts (codes from findings are added by the caller). */
export function requestVerdicts(D: Derivation, unverifiedRoots: Map<StreamS, number[]>, cross: CrossSessionLoss): RequestInfo[] {
  const requests: RequestInfo[] = [];
  const mv = D.mv;
  const links: [keyof RequestInfo & ('reissueOf' | 'reissuedAs' | 'retryOf' | 'retriedAs'), Map<ReqState, ReqState>][] = mv
    ? [
        ['reissueOf', mv.reissueOf],
        ['reissuedAs', mv.reissuedAs],
        ['retryOf', mv.retryOf],
        ['retriedAs', mv.retriedAs],
      ]
    : [];
  for (const r of D.s.requests) {
    const verdict = r.response !== undefined ? answered(D, r, unverifiedRoots, cross) : unanswered(D, r);
    const info: RequestInfo = {
      id: r.id,
      method: r.method,
      streamId: r.stream.id,
      verdict,
      notifications: r.notificationsView?.length === r.notifications.length ? r.notificationsView : (r.notificationsView = r.notifications.view()),
      notificationCount: r.notifications.length,
      cumulativeCount: r.cumulative,
      findings: [],
      start: r.start,
    };
    if (r.params !== undefined) info.params = r.params;
    if (r.x.resultType !== undefined) info.resultType = r.x.resultType;
    for (const [k, m] of links) {
      const o = m.get(r);
      if (o) info[k] = o.id;
    }
    if (r.progressToken !== undefined) info.progressToken = r.progressToken;
    if (r.responseStream) info.responseStreamId = r.responseStream.id;
    if (r.response) info.response = r.response;
    if (r.end !== undefined) info.end = r.end;
    if (r.stream.status === 404 && r.stream.sessionHeader !== undefined) info.findings.push('session-expired');
    requests.push(info);
  }
  return requests;
}

// What the client did with a result the capture holds (issue 19). A response in an SSE event type
// the SDK clients do not read is delivered and not taken (never `result-missing`); a response the
// client cancelled or re-issued the request around is not taken either, and the finding says where
// it sat (the standalone GET, a stream the client had left, after its cancellation, under an id
// it had seen) and why the client likely dropped it. Cumulative notifications delivered twice
// before a result make it `duplicated` (duplicate-output-accepted), the mirror of a lossy one.
import type { Verdict } from '../../model';
import { paramsKey } from '../eras';
import type { ReqState } from '../state';
import * as C from '../texts-client';
import { add, overlay, type Derivation } from './context';
import { named } from './modern-verdicts';
import { eventAt, eventDuplicate, eventId, eventTime } from '../../event-access';
import { resultUsedLater } from './client-carried';

/** A later request with the same method and params (without `_meta`): the client sent it again. */
function reissueOf(D: Derivation, r: ReqState): ReqState | undefined {
  const same = sameCalls(D).get(r);
  if (!same) return undefined;
  for (let i = same.at + 1; i < same.list.length; i++) {
    const q = same.list[i]!;
    if (q.start >= r.start) return q;
  }
  return undefined;
}

/**
 * The session's requests grouped by method and params, in order: asked for every answered request
 * at every snapshot, a scan of the later requests (each keyed again when its era keeps no key) grew
 * with the square of the session's requests. A session's requests only ever gain new ones at the
 * end (sessions.ts), so the grouping of the previous derivation is extended with them; a list that
 * changed otherwise (another array, fewer requests, a different one where the last grouped was) is
 * grouped again from the start.
 */
function sameCalls(D: Derivation): Map<ReqState, { list: ReqState[]; at: number }> {
  if (D.sameCalls) return D.sameCalls;
  const reqs = D.s.requests;
  let c = D.cache.sameCalls;
  if (!c || c.requests !== reqs || c.n > reqs.length || (c.n > 0 && reqs[c.n - 1] !== c.last)) {
    c = D.cache.sameCalls = { requests: reqs, n: 0, last: undefined, lists: new Map(), out: new Map() };
  }
  // (each request is grouped once: a legacy one, which keeps no key (eras.ts), is keyed then)
  for (let i = c.n; i < reqs.length; i++) {
    const q = reqs[i]!;
    const key = q.x.key ?? paramsKey(q.method, q.params);
    if (key === '') continue;
    let list = c.lists.get(key);
    if (!list) c.lists.set(key, (list = []));
    c.out.set(q, { list, at: list.length });
    list.push(q);
  }
  c.n = reqs.length;
  c.last = reqs[c.n - 1];
  return (D.sameCalls = c.out);
}

/** A request whose response came only in an event type the SDKs ignore: `result-not-taken`, verdict incomplete. */
export function namedEventResult(D: Derivation, r: ReqState): Verdict | undefined {
  const u = r.x.c?.untaken;
  if (!u) return undefined;
  const st = D.s.streams.find((x) => x.id === u.streamId);
  const ev = st ? eventAt(st, u.index) : undefined;
  if (st) overlay(D, st, u.index, 'result-not-taken');
  const again = reissueOf(D, r);
  add(D, u.ord, 'result-not-taken', {
    severity: 'error',
    streamId: u.streamId,
    requestId: r.id,
    ...(again ? { relatedRequestIds: [again.id] } : {}),
    eventIds: ev?.id !== undefined ? [ev.id] : [],
    eventIndex: u.index,
    message: C.untaken({
      req: named(r),
      response: 'response',
      stream: u.streamId,
      ...(ev?.id !== undefined ? { eventId: ev.id } : {}),
      why: 'event-type',
      event: u.event,
      cancelled: r.cancelled === true,
      ...(again ? { reissuedAs: again.id } : {}),
    }),
  });
  return 'incomplete';
}

/** A response the capture holds, around which the client cancelled or re-issued the request. */
export function answeredNotTaken(D: Derivation, r: ReqState): void {
  const st = r.responseStream;
  if (!st || r.responseIndex === undefined || r.responseOrd === undefined || r.method === 'notifications/cancelled') return;
  // Run for every answered request at every snapshot: the common case (neither cancelled nor sent
  // again) decides without reading the event.
  const cancelledAt = r.x.c?.cancelledAt;
  const again = reissueOf(D, r);
  if (cancelledAt === undefined && !again) return;
  const t = eventTime(st, r.responseIndex);
  if (t === undefined) return;
  // Re-sent after the response arrived, and not cancelled: a new call, not a sign it was not taken.
  if (cancelledAt === undefined && again && again.start >= t) return;
  const ev = { t, id: eventId(st, r.responseIndex), duplicate: eventDuplicate(st, r.responseIndex) };
  const legacyGet = D.s.legacyStream !== undefined && st.root === D.s.legacyStream.root;
  let why: C.UntakenWhy;
  if (st.kind === 'get' && !legacyGet && st.root !== r.stream.root) why = 'standalone-get';
  else if (cancelledAt !== undefined && cancelledAt <= ev.t) why = 'after-cancel';
  else if (ev.duplicate) why = 'duplicate-id';
  else if (st.root.segments.some((x) => x !== st && x.ord > st.ord && x.start <= ev.t)) why = 'abandoned-stream';
  else why = 'unmatched';
  // Sent again while the first was still running, with nothing to show the response went astray:
  // two calls of the same thing (no cancellation), not a sign the result was not taken.
  if (cancelledAt === undefined && why === 'unmatched') return;
  // An error answer to a cancelled request (some servers say "cancelled"): expected, nothing lost.
  if (why === 'after-cancel' && r.response === 'error') return;
  // The page later sent text of that result again: it took it (a late cancellation, for one).
  if (resultUsedLater(D, r)) return;
  overlay(D, st, r.responseIndex, 'result-not-taken');
  add(D, r.responseOrd, 'result-not-taken', {
    ...(why === 'standalone-get' ? { severity: 'error' as const } : {}),
    streamId: st.id,
    relatedStreamIds: st !== r.stream ? [r.stream.id] : [],
    requestId: r.id,
    ...(again ? { relatedRequestIds: [again.id] } : {}),
    eventIds: ev.id !== undefined ? [ev.id] : [],
    eventIndex: r.responseIndex,
    message: C.untaken({
      req: named(r),
      response: r.response!,
      stream: st.id,
      ...(ev.id !== undefined ? { eventId: ev.id } : {}),
      why,
      cancelled: cancelledAt !== undefined,
      ...(again ? { reissuedAs: again.id } : {}),
      ...(cancelledAt !== undefined ? { afterCancel: ev.t - cancelledAt } : {}),
    }),
  });
}

/** Cumulative notifications delivered twice before the response: `duplicate-output-accepted`. */
export function duplicatedOutput(D: Derivation, r: ReqState): boolean {
  const dups = r.x.c?.dups;
  if (!dups || dups.length === 0 || !r.responseStream || r.responseOrd === undefined) return false;
  const ids: string[] = [];
  let renamed = 0;
  const streams = new Set<string>();
  for (const [sid, idx, id] of dups) {
    if (id !== undefined) ids.push(id);
    const x = D.s.streams.find((t) => t.id === sid);
    if (x && eventAt(x, idx) && !eventDuplicate(x, idx)) renamed++;
    if (sid !== r.responseStream.id) streams.add(sid);
  }
  if (r.responseIndex !== undefined) overlay(D, r.responseStream, r.responseIndex, 'duplicate-output-accepted');
  add(D, r.responseOrd, 'duplicate-output-accepted', {
    streamId: r.responseStream.id,
    relatedStreamIds: [...streams],
    requestId: r.id,
    eventIds: ids,
    ...(r.responseIndex !== undefined ? { eventIndex: r.responseIndex } : {}),
    message: C.duplicatedOutput(r.response!, named(r), ids, dups.length, renamed, r.cumulative),
  });
  return true;
}

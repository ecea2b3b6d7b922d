// A 2026-07-28 conversation at snapshot time (issue 12): the links that take the place of the
// legacy era's reconnect chains. A request whose response stream broke before its final response
// is re-issued by the client under a new id (same method, same params): the two are linked. An
// `input_required` result is answered by a retry carrying its `requestState` (MRTR): linked too.
// A `subscriptions/listen` stream that ends without its `complete` result dropped: its outage
// runs to the next listen of the conversation (or the end of the capture). Cost: linear in the
// conversation's requests (each request's key is made once, at push time: eras.ts).
import type { SubscriptionInfo } from '../../model';
import { getPath } from '../../jsonrpc';
import { chainOpen } from '../streams';
import type { ReqState } from '../state';
import type { Derivation } from './context';
import type { ModernView } from './modern-view';
import { paramsKey } from '../eras';

const MRTR_FIELDS = new Set(['inputResponses', 'requestState']);

/** Params without `_meta` and a retry's answers, with the method: equal for an MRTR retry and the call it answers. */
function mrtrKey(r: ReqState): string {
  const p = r.params;
  if (typeof p !== 'object' || p === null || Array.isArray(p)) return r.x.key ?? '';
  return paramsKey(r.method, Object.fromEntries(Object.entries(p).filter(([f]) => !MRTR_FIELDS.has(f))));
}

/** The stream ended before the request's final response arrived: broken, or closed by the client. */
export function brokeBeforeResponse(D: Derivation, r: ReqState): boolean {
  if (r.response !== undefined || D.opts.longLivedMethods.includes(r.method)) return false;
  const st = r.stream;
  if (chainOpen(st.root) || (st.status !== undefined && st.status >= 400)) return false;
  if (st.root.segments.some((x) => x.bodyAbsent || x.captureIncomplete)) return false;
  return st.state === 'error' || st.state === 'aborted' || st.state === 'unread';
}

/**
 * The same break, in a file that kept no body for the stream (HAR writers keep none for a cut or
 * aborted stream): the request line, the entry's failure and its timing still show it (issue 19).
 */
function brokeUnseen(D: Derivation, r: ReqState): boolean {
  if (r.response !== undefined || D.opts.longLivedMethods.includes(r.method)) return false;
  const st = r.stream;
  if (chainOpen(st.root) || (st.status !== undefined && st.status >= 400)) return false;
  return st.root.segments.some((x) => x.bodyAbsent) && (st.state === 'error' || st.state === 'aborted' || st.state === 'unread');
}

/** The server ended the stream cleanly without the request's final response. */
function endedWithout(D: Derivation, r: ReqState): boolean {
  if (r.response !== undefined || D.opts.longLivedMethods.includes(r.method)) return false;
  const st = r.stream;
  return !chainOpen(st.root) && (st.status === undefined || st.status < 400) && (st.state === 'complete' || st.state === 'unknown') && !st.bodyAbsent && !st.captureIncomplete;
}

const requestStateOf = (r: ReqState): string | undefined => {
  const v = getPath(r.params, ['requestState']);
  return typeof v === 'string' ? v : undefined;
};
const isRetry = (r: ReqState) => getPath(r.params, ['requestState']) !== undefined || getPath(r.params, ['inputResponses']) !== undefined;

/** What a listen request subscribes to, as the requests that fetch it again. */
function listsOf(r: ReqState): string[] {
  return filterLists(getPath(r.params, ['notifications']));
}

/** A listen filter (`notifications`: the request's, or an acknowledgement's honoured set) as lists. */
export function filterLists(f: unknown): string[] {
  const out: string[] = [];
  if (getPath(f, ['toolsListChanged']) === true) out.push('tools/list');
  if (getPath(f, ['promptsListChanged']) === true) out.push('prompts/list');
  if (getPath(f, ['resourcesListChanged']) === true) out.push('resources/list');
  const subs = getPath(f, ['resourceSubscriptions']);
  if (Array.isArray(subs)) for (const u of subs.slice(0, 50)) if (typeof u === 'string') out.push(`resources/read ${u}`);
  return out;
}

function sameLists(a: readonly string[], b: readonly string[]): boolean {
  return a.length === 0 || b.length === 0 || a.some((l) => b.includes(l));
}

/** `have` (a listen's lists) holds every one of `want`; a filter naming none we read covers none. */
function covers(have: readonly string[], want: readonly string[]): boolean {
  return want.length > 0 && want.every((l) => have.includes(l));
}

function subscription(r: ReqState): SubscriptionInfo {
  const st = r.stream;
  // Refused before all else: an HTTP error status or a JSON-RPC error answer is the server's, not
  // the client closing it, nor the `complete` result.
  const refusedStatus = st.status !== undefined && st.status >= 400;
  const state: SubscriptionInfo['state'] =
    refusedStatus || r.response === 'error'
      ? 'refused'
      : r.response !== undefined
        ? 'complete'
        : chainOpen(st.root)
          ? 'open'
          : r.cancelled || st.state === 'aborted' || st.state === 'unread'
            ? 'closed'
            : // Records of its stream the capture does not hold (lost, not recorded, a body the
              // file lacks) may hold its `complete` result: not a drop the capture shows.
              st.root.segments.some((x) => x.captureIncomplete || x.bodyAbsent)
              ? 'unknown'
              : 'dropped';
  const sub: SubscriptionInfo = { requestId: r.id, streamId: st.id, start: r.start, state, lists: listsOf(r), changes: r.x.changes ?? 0 };
  if (state === 'refused') {
    const e = r.x.error;
    sub.refusal = refusedStatus ? { status: st.status! } : { ...(e?.code !== undefined ? { code: e.code } : {}), ...(e?.message !== undefined ? { message: e.message.slice(0, 200) } : {}) };
  }
  if (r.x.acknowledged !== undefined) sub.acknowledged = r.x.acknowledged;
  const end = r.response !== undefined ? r.end : st.end;
  if (end !== undefined) sub.end = end;
  return sub;
}

/** The requestStates other input_required results of the call `key` returned (not `r`'s). */
function statesReturned(reqs: readonly ReqState[], r: ReqState, key: string): Set<unknown> {
  const out = new Set<unknown>();
  for (const o of reqs) if (o !== r && o.x.resultType === 'input_required' && o.x.requestState !== undefined && o.x.requestState !== r.x.requestState && mrtrKey(o) === key) out.add(o.x.requestState);
  return out;
}

/** The links, subscriptions and broken requests of a modern conversation. */
export function modernView(D: Derivation): ModernView {
  const reqs = D.s.requests;
  const v: ModernView = { reissueOf: new Map(), reissuedAs: new Map(), retryOf: new Map(), retriedAs: new Map(), links: [], subscriptions: [], listens: [], broken: [], ended: 0 };
  const later = (r: ReqState, after: number, want: (q: ReqState) => boolean) => {
    for (let i = reqs.indexOf(r) + 1; i < reqs.length; i++) {
      const q = reqs[i]!;
      if (q.stream.ord > after && want(q)) return q;
    }
    return undefined;
  };
  for (const r of reqs) {
    if (r.method === 'subscriptions/listen') {
      const sub = subscription(r);
      if (sub.state === 'dropped') {
        const at = r.stream.endOrd ?? r.stream.ord;
        // Another listen for every list of this one was open when it dropped: the changes kept
        // coming on that stream, so the drop left no outage (it is still a drop).
        const cover = reqs.find(
          (q) => q !== r && q.method === 'subscriptions/listen' && q.stream.ord < at && (q.stream.endOrd === undefined || q.stream.endOrd > at) && subscription(q).state !== 'refused' && covers(listsOf(q), sub.lists),
        );
        if (cover) {
          sub.coveredBy = cover.id;
          v.subscriptions.push(sub);
          v.listens.push(r);
          continue;
        }
        // Listening again for other things is no end of this outage: a later listen counts when its
        // filter names one of the dropped listen's lists (or either filter names none we read).
        const again = later(r, at, (q) => q.method === 'subscriptions/listen' && sameLists(sub.lists, listsOf(q)));
        sub.outage = { from: sub.end ?? r.start, ...(again ? { to: again.start, relistenRequestId: again.id } : {}) };
      }
      v.subscriptions.push(sub);
      v.listens.push(r);
      continue;
    }
    if (endedWithout(D, r)) v.ended++;
    const unseen = !brokeBeforeResponse(D, r) && brokeUnseen(D, r);
    if (unseen || brokeBeforeResponse(D, r)) {
      if (!unseen) v.broken.push(r);
      const key = r.x.key;
      const again = later(r, r.stream.endOrd ?? r.stream.ord, (q) => !v.reissueOf.has(q) && q.x.key !== undefined && q.x.key === key);
      if (again) {
        v.reissueOf.set(again, r);
        v.reissuedAs.set(r, again);
        v.links.push({ kind: 'reissue', from: r.id, fromStreamId: r.stream.id, to: again.id, toStreamId: again.stream.id, t0: r.stream.end ?? r.start, t1: again.start });
      }
    }
    if (r.x.resultType === 'input_required' && r.responseOrd !== undefined) {
      const key = mrtrKey(r);
      const candidate = (q: ReqState) => !v.retryOf.has(q) && isRetry(q) && mrtrKey(q) === key;
      // The retry that carries back this result's own requestState; else the first of the same
      // call, unless it carries back the state another input_required result of the same call
      // returned (the same call sent again and answered: that one is its retry, not this one's).
      let retry: ReqState | undefined;
      if (key !== '') {
        if (r.x.requestState !== undefined) retry = later(r, r.responseOrd, (q) => candidate(q) && requestStateOf(q) === r.x.requestState);
        if (!retry) {
          const others = statesReturned(reqs, r, key);
          retry = later(r, r.responseOrd, (q) => candidate(q) && !others.has(requestStateOf(q)));
        }
      }
      if (retry) {
        v.retryOf.set(retry, r);
        v.retriedAs.set(r, retry);
        const altered = requestStateOf(retry) !== r.x.requestState;
        v.links.push({ kind: 'mrtr', from: r.id, fromStreamId: r.stream.id, to: retry.id, toStreamId: retry.stream.id, t0: r.end ?? r.start, t1: retry.start, ...(altered ? { stateAltered: true } : {}) });
      }
    }
  }
  v.links.sort((a, b) => a.t1 - b.t1);
  return v;
}

export { requestStateOf };

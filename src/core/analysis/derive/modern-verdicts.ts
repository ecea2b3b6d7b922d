// Verdicts of the 2026-07-28 revision's broken streams (issue 12). A modern response stream that
// broke lost its in-flight request: the client's cue to re-issue it, not the server's fault, so
// `request-reissued` (info) or `request-abandoned` take the place of result-missing (which stays
// for a stream the server ended cleanly without a final response). The broken attempt is
// `incomplete`; a re-issue is judged on its own stream, and `reissued-over-partial-output` warns
// when the broken attempt had delivered cumulative notifications a client may have kept.
import type { Verdict } from '../../model';
import * as E from '../texts-eras';
import type { ReqState } from '../state';
import { add, overlay, type Derivation } from './context';
import { eventMessages } from '../../event-access';

const toolOf = (r: ReqState): string | undefined => {
  const p = r.params as { name?: unknown; uri?: unknown } | undefined;
  const n = p?.name ?? p?.uri;
  return typeof n === 'string' ? (n.length > 80 ? n.slice(0, 79) + '…' : n) : undefined;
};

/** "request 2 (tools/call long_task)". */
export const named = (r: ReqState) => E.reqName(r.id, r.method, toolOf(r));

/** A broken request's verdict and finding (the stream ended before its final response). */
export function brokenVerdict(D: Derivation, r: ReqState): Verdict {
  const st = r.stream;
  const again = D.mv?.reissuedAs.get(r);
  const at = st.endOrd ?? st.ord;
  if (again) {
    add(D, at, 'request-reissued', {
      streamId: st.id,
      relatedStreamIds: [again.stream.id],
      requestId: r.id,
      relatedRequestIds: [again.id],
      eventIds: [],
      message: E.reissued(named(r), named(again), again.start - (st.end ?? r.start)),
    });
    return 'incomplete';
  }
  // Closed by the client: in the 2026-07-28 revision that is how a request is cancelled.
  if (st.state !== 'error') return 'incomplete';
  add(D, at, 'request-abandoned', {
    ...(D.finished ? {} : { severity: 'info' as const, pending: true }),
    streamId: st.id,
    requestId: r.id,
    eventIds: [],
    message: E.abandoned(named(r), D.finished),
  });
  return D.finished ? 'incomplete' : 'pending';
}

/** A re-issue answered after broken attempts that had delivered cumulative notifications. */
export function partialOutput(D: Derivation, r: ReqState): void {
  const attempts: ReqState[] = [];
  for (let a = D.mv?.reissueOf.get(r); a && !attempts.includes(a); a = D.mv?.reissueOf.get(a)) attempts.push(a);
  const cumulative = attempts.reduce((n, a) => n + a.cumulative, 0);
  if (cumulative === 0 || !r.responseStream || r.responseIndex === undefined || r.responseOrd === undefined) return;
  const idempotent = new Set(D.opts.idempotentNotifications);
  const forced = new Set(D.opts.cumulativeNotifications);
  const methods = new Set<string>();
  for (const a of attempts) {
    for (const [sid, idx] of a.notifications) {
      if (sid !== a.stream.id) continue;
      for (const m of eventMessages(a.stream, idx)) if (m.method && (forced.has(m.method) || !idempotent.has(m.method))) methods.add(m.method);
      if (methods.size >= 4) break;
    }
  }
  overlay(D, r.responseStream, r.responseIndex, 'reissued-over-partial-output');
  add(D, r.responseOrd, 'reissued-over-partial-output', {
    streamId: r.responseStream.id,
    relatedStreamIds: attempts.map((a) => a.stream.id),
    requestId: r.id,
    eventIds: [],
    eventIndex: r.responseIndex,
    message: E.partialOutput(named(r), attempts.map(named).join(', '), cumulative, [...methods]),
  });
}

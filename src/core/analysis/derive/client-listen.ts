// Listens that hear nothing (issue 19, item 6; typescript-sdk #2650): a `subscriptions/listen`
// acknowledged with an honoured set smaller than the filter it sent. The acknowledgement's
// `params.notifications` is the honoured subset (the SDK v2 server narrows it to its declared
// capabilities, and ends the stream with its complete result at once when nothing is left);
// what it leaves out will never arrive on that stream. Cost: linear in the conversation's listens.
import * as C from '../texts-client-use';
import { named } from './modern-verdicts';
import { add, type Derivation } from './context';
import { filterLists } from './modern';

export function listenNarrowed(D: Derivation): void {
  const mv = D.mv;
  if (!mv) return;
  mv.listens.forEach((r, i) => {
    if (r.x.honoured === undefined || r.x.ackOrd === undefined) return;
    const asked = filterLists((r.params as { notifications?: unknown } | undefined)?.notifications);
    const honoured = filterLists(r.x.honoured);
    if (asked.every((x) => honoured.includes(x))) return;
    const state = mv.subscriptions[i]!.state;
    const [streamId, eventIndex] = r.x.ackAt!;
    add(D, r.x.ackOrd, 'listen-narrowed', {
      ...(honoured.length === 0 ? { severity: 'error' as const } : {}),
      streamId,
      requestId: r.id,
      eventIds: [],
      ...(streamId === r.stream.id ? { eventIndex } : {}),
      message: C.listenNarrowed(named(r), asked, honoured, state === 'complete' ? 'complete' : state === 'open' ? 'open' : 'other'),
    });
  });
}

// Resumption that lost its cursor (issue 19, item 3; typescript-sdk #2499): a request's stream
// carried event ids and broke before the request's response, and the client's next connection
// for it has no Last-Event-ID: a GET without it (the SDK v1 reconnects so when a resumed stream
// drops before any id-bearing event: it forgets the cursor it resumed from), or the same request
// sent again on a new POST. Either way what the server sent on the cut stream after the client's
// last id cannot reach the client any more. Legacy era only (the 2026-07-28 one has no ids).
// Cost: linear in the session's streams per broken request chain.
import { getPath, idText } from '../../jsonrpc';
import * as C from '../texts-client-use';
import type { ReqState, StreamS } from '../state';
import { add, type Derivation } from './context';
import { named } from './modern-verdicts';
import { reqKey } from './client-loops';


/** The connection that followed `last`'s break without a cursor, if the client's next one for the chain is such. */
function nextWithoutCursor(D: Derivation, root: StreamS, last: StreamS, pending: ReqState[]): { x: StreamS; how: 'get' | 'post' } | undefined {
  const streams = D.s.streams;
  const after = last.endOrd!;
  let prevGet: StreamS | undefined;
  for (const x of streams) {
    if (x.ord <= after) {
      if (x.method === 'GET' && x.root !== root) prevGet = x;
      continue;
    }
    if (x.root === root && x.lastEventIdSent) return undefined; // resumed with a cursor after all
    if (x.method === 'GET' && !x.lastEventIdSent) {
      // The standalone GET stream's own reconnect (it broke too, or, an open event stream and no
      // resume, was closed by the server or a proxy's idle timeout; it carried no id): not this
      // chain's. A GET refused (405) or a resume that ended empty is no stream to reopen: use-mcp
      // reconnects the broken chain without its cursor after one (e2e use-mcp.test.ts).
      const reopens = prevGet && (prevGet.state === 'error' || (!prevGet.isResume && prevGet.lastEventIdSent === undefined && prevGet.status !== undefined && prevGet.status >= 200 && prevGet.status < 300 && prevGet.capture === 'sse'));
      if (prevGet && reopens && prevGet.root !== root && prevGet.end !== undefined && prevGet.end >= last.start && prevGet.end <= x.start && !prevGet.root.sawId) return undefined;
      return { x, how: 'get' };
    }
    if (x.method === 'POST' && x.requests.some((q) => pending.some((p) => reqKey(D, p) === reqKey(D, q)))) return { x, how: 'post' };
    if (x.method === 'GET') prevGet = x;
  }
  return undefined;
}

/** The client cancelled one of `reqs` before `ord` (it gave up: a new connection is no lost resume then). */
function cancelledBefore(D: Derivation, reqs: ReqState[], ord: number): boolean {
  if (!reqs.some((r) => r.cancelled)) return false;
  const ids = new Set(reqs.map((r) => r.id));
  return D.s.streams.some(
    (x) => x.ord < ord && x.method === 'POST' && x.bodyMessages.some((m) => m.summary.method === 'notifications/cancelled' && ids.has(idText(getPath(m.msg, ['params', 'requestId'])) ?? '')),
  );
}

/** Where a response the client did not read sits: "stream c5, event 18, an SSE event of type "result"". */
function untakenWhere(D: Derivation, u: { streamId: string; index: number; event?: string | undefined }): string {
  const id = D.s.streams.find((x) => x.id === u.streamId)?.events.id(u.index);
  return `stream ${u.streamId}, ${id !== undefined ? `event ${id}` : `its event #${u.index + 1}`}${u.event !== undefined ? `, an SSE event of type ${JSON.stringify(u.event)}` : ''}`;
}

export function cursorLost(D: Derivation): void {
  const s = D.s;
  if (s.era !== 'legacy') return;
  for (const root of s.streams) {
    if (root.root !== root || root.method !== 'POST' || root.requests.length === 0) continue;
    const last = root.segments[root.segments.length - 1]!;
    // A HAR keeps no body of a cut stream: a resume's Last-Event-ID still proves the ids it carried.
    const cursor = root.cursorUnknown ? undefined : root.chainCursor ?? root.segments.findLast((x) => x.lastEventIdSent)?.lastEventIdSent;
    if (cursor === undefined) continue;
    if (last.endOrd === undefined || (last.state !== 'error' && last.state !== 'complete' && last.state !== 'unknown')) continue;
    if (last.status !== undefined && last.status >= 300) continue;
    const pending = root.requests.filter((r) => r.response === undefined || r.responseOrd! > last.endOrd!);
    if (pending.length === 0) continue;
    const next = nextWithoutCursor(D, root, last, pending);
    if (!next || cancelledBefore(D, pending, next.x.ord)) continue;
    const { x, how } = next;
    const answered = pending.find((r) => r.response !== undefined);
    const untaken = pending.map((r) => r.x.c?.untaken).find((u) => u !== undefined);
    const unknown = root.segments.filter((x) => x.bodyAbsent || x.captureIncomplete);
    add(D, x.ord, 'resume-cursor-lost', {
      streamId: x.id,
      relatedStreamIds: [last.id],
      requestId: pending[0]!.id,
      ...(pending.length > 1 ? { relatedRequestIds: pending.slice(1).map((r) => r.id) } : {}),
      eventIds: [cursor],
      message: C.cursorLost({
        reqs: pending.map(named).join(', '),
        broken: last.id,
        cursor,
        how,
        next: x.id,
        ...(x.status !== undefined ? { status: x.status } : {}),
        answeredOn: answered?.responseStream?.id ?? null,
        ...(untaken ? { untakenAt: untakenWhere(D, untaken) } : {}),
        resumedBefore: last.isResume && !last.sawId,
        ended: last.state === 'error' ? 'broke' : 'ended',
        ...(unknown.length ? { unknownBody: unknown.map((x) => x.id).join(', ') } : {}),
      }),
    });
  }
}

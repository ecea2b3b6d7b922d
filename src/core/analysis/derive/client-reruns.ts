// A tool that may have run twice (issue 19): a tools/call sent again with the same name and
// arguments (params without `_meta`) after an earlier attempt broke, was closed by the client, was
// cancelled, or got a result the client did not take: the 2026-07-28 re-issue, a 2025 client that
// re-sent instead of resuming, an application's retry. Judged by the tool's annotations in the
// session's tools/list answers. Read from request lines, end states and times only, never from
// bodies, so a HAR that keeps no body for the broken attempt (as DevTools and Playwright write it)
// gives the same finding as one that does. Cost: linear in the session's tools/call requests.
import { canonicalJson } from '../../canonical-json';
import { getPath } from '../../jsonrpc';
import type { ReqState, SessionState } from '../state';
import { refusedByBrowser } from './cors';
import type { ToolHints } from '../modern-state';
import * as C from '../texts-client';
import { add, type Derivation } from './context';
import { named } from './modern-verdicts';

/** How an attempt ended without the client taking a result, or undefined when it did not fail. */
function attemptEnd(s: SessionState, r: ReqState): C.AttemptEnd | undefined {
  if (r.x.c?.untaken) return 'not-taken';
  if (r.cancelled) return 'cancelled';
  if (r.response !== undefined) return undefined;
  const st = r.stream;
  if (st.status !== undefined && st.status >= 400) return undefined; // refused: the tool did not run
  if (st.root.segments.every((x) => refusedByBrowser(s, x))) return undefined; // never sent
  const last = st.root.segments[st.root.segments.length - 1]!;
  if (last.state === 'open' || last.state === 'unknown') return undefined;
  if (last.state === 'error') return 'broke';
  if (last.state === 'aborted' || last.state === 'unread') return 'closed';
  return 'ended';
}

/** The first attempt reached the server: its response began, or something of it came back. */
function reached(r: ReqState): boolean {
  const st = r.stream;
  if (st.status !== undefined) return st.status > 0 && st.status < 400;
  return r.response !== undefined || r.notifications.length > 0 || r.x.c?.untaken !== undefined;
}

function hintsFor(D: Derivation, tool: string): C.HintsFound {
  let listed = false;
  let found: ToolHints | undefined;
  for (const q of D.s.requests) {
    const tools = q.method === 'tools/list' ? q.x.c?.tools : undefined;
    if (!tools) continue;
    listed = true;
    const h = tools.get(tool);
    if (h) found = h; // the latest answer wins (a list can change)
  }
  return found ? { kind: 'declared', hints: found } : listed ? { kind: 'not-listed' } : { kind: 'no-list' };
}

function callKey(r: ReqState): string | undefined {
  if (r.x.key !== undefined) return r.x.key;
  try {
    const p = r.params as Record<string, unknown> | undefined;
    return canonicalJson([getPath(p, ['name']), getPath(p, ['arguments']) ?? null]);
  } catch {
    return undefined;
  }
}

export function toolReruns(D: Derivation): void {
  const calls = D.s.requests.filter((r) => r.method === 'tools/call');
  if (calls.length < 2) return;
  const taken = new Set<ReqState>();
  for (let i = 0; i < calls.length; i++) {
    const r = calls[i]!;
    const ended = attemptEnd(D.s, r);
    if (!ended) continue;
    const key = callKey(r);
    if (key === undefined) continue;
    const again = calls.slice(i + 1).find((q) => !taken.has(q) && q.stream !== r.stream && q.start >= r.start && callKey(q) === key);
    if (!again) continue;
    taken.add(again);
    const name = getPath(r.params, ['name']);
    const tool = typeof name === 'string' ? (name.length > 80 ? name.slice(0, 79) + '…' : name) : '(unnamed)';
    const hints = hintsFor(D, tool);
    const h = hints.kind === 'declared' ? hints.hints : {};
    const harmless = h.readOnlyHint === true || h.idempotentHint === true;
    const hit = reached(r);
    // Sent before the first attempt's stream ended: not "again after it failed" but a second
    // identical call in flight at once (the 2026-07-28 re-issue is judged on later streams only).
    const firstEnd = r.stream.root.segments[r.stream.root.segments.length - 1]!.end;
    const concurrent = (ended === 'broke' || ended === 'closed' || ended === 'ended') && firstEnd !== undefined && again.start < firstEnd;
    const destructive = h.destructiveHint === true && !harmless && hit;
    add(D, again.ord, destructive ? 'destructive-tool-rerun' : 'tool-rerun-risk', {
      ...(harmless ? { severity: 'info' as const } : {}),
      streamId: again.stream.id,
      relatedStreamIds: [r.stream.id],
      requestId: again.id,
      relatedRequestIds: [r.id],
      eventIds: [],
      message: C.toolRerun({
        first: named(r),
        again: named(again),
        tool,
        ended,
        reached: hit,
        ...(r.stream.status !== undefined ? { status: r.stream.status } : {}),
        gap: again.start - r.start,
        hints,
        harmless,
        ...(concurrent ? { concurrent } : {}),
      }),
    });
  }
}

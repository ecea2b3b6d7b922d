// The 2026-07-28 era's experiments (no sessions, no Last-Event-ID): a broken request stream and
// what its re-issue gets, and a dropped subscriptions/listen. The SDK v2 client does not re-issue
// by itself: the probe does what an application does (abort, call again).

import { isResponse } from './conns';
import { compareDelivery } from './compare';
import { runCall } from './call-run';
import { openV2Session } from './client-v2';
import { paceBody, ProbeCut } from './pacer';
import type { Baseline } from './exp-stream';
import type { ProbeSettings } from './settings';
import type { Evidence, ExperimentResult, ProbeCapture } from './types';

interface Annotated {
  name: string;
  annotations?: { readOnlyHint?: boolean; idempotentHint?: boolean; destructiveHint?: boolean };
}

function sideEffectsOf(result: unknown): string | undefined {
  const sc = (result as { structuredContent?: unknown } | undefined)?.structuredContent;
  if (!sc || typeof sc !== 'object') return undefined;
  const keys = Object.keys(sc).filter((k) => /run|count|attempt|invocation|side/i.test(k));
  return keys.length ? keys.map((k) => `${k}=${JSON.stringify((sc as Record<string, unknown>)[k])}`).join(', ') : undefined;
}

export async function reissueExperiment(s: ProbeSettings, tool: Annotated, b: Baseline): Promise<{ result: ExperimentResult; capture: ProbeCapture }> {
  const name = 'broken request stream, then a re-issue';
  const p = await openV2Session(s, 'probe-reissue');
  try {
    const k = Math.max(1, Math.floor(b.events / 2));
    const first = await runCall(p, tool.name, s.args, s.timeoutMs, { cutAfter: k });
    const again = await runCall(p, tool.name, s.args, s.timeoutMs);
    const d = compareDelivery(b.messages, again.messages);
    const ev: Evidence[] = [];
    if (d.results === 1 && d.missing.length === 0) ev.push({ on: 'terminal-pinned', verdict: 'pass', text: `after a cut of the first attempt's stream (after ${first.cutAfter ?? k} events), the re-issue got everything the baseline shows, the result once` });
    else ev.push({ on: 'terminal-pinned', verdict: 'fail', text: `the re-issue after a broken stream got ${d.results} result(s) and missed ${d.missing.length} message(s) of the baseline` });
    const effects = sideEffectsOf(again.outcome.result);
    const hint = tool.annotations?.idempotentHint === true ? 'declared idempotent (idempotentHint): a re-issue is safe' : tool.annotations?.readOnlyHint === true ? 'declared read-only: a re-issue is safe' : 'not declared idempotent nor read-only: a client that re-issues after a broken stream may run it twice, and nothing in the protocol prevents it';
    const ran = effects ? `the tool reports ${effects} after the re-issue` : 'the tool reports no side effect the probe can read: whether the first attempt ran to its end is not shown';
    return {
      result: {
        name,
        status: 'ran',
        capture: 'reissue',
        summary: `first attempt cut after ${first.cutAfter ?? k} events (no cursor in this era); the re-issue: ${again.messages.length} messages, ${d.results === 1 ? 'the result once' : `${d.results} results`}; ${ran}; ${tool.name} is ${hint}`,
        evidence: ev,
        ...(first.rpcId && again.rpcId ? { requestIds: [first.rpcId, again.rpcId] } : {}),
      },
      capture: { name: 'reissue', records: p.recorder.records },
    };
  } finally {
    await p.close();
  }
}

export async function listenExperiment(s: ProbeSettings): Promise<{ result: ExperimentResult; capture?: ProbeCapture }> {
  const name = 'dropped subscriptions/listen';
  const p = await openV2Session(s, 'probe-listen');
  let cut = false;
  p.recorder.shape = (body, ctx) => {
    if (cut || ctx.method !== 'POST' || !ctx.body?.includes('"subscriptions/listen"')) return undefined;
    cut = true;
    // Cut right after the acknowledgement: the subscription was live, then its stream broke.
    return paceBody(body, { cutAfter: 1 });
  };
  try {
    let sub;
    try {
      sub = await p.client.listen({ toolsListChanged: true }, { timeout: s.timeoutMs });
    } catch (e) {
      const msg = e instanceof ProbeCut ? 'the stream broke before its acknowledgement' : e instanceof Error ? e.message.split('\n')[0] : String(e);
      return { result: { name, status: 'skipped', capture: 'listen', summary: `listen did not start: ${msg}`, evidence: [] }, capture: { name: 'listen', records: p.recorder.records } };
    }
    const cause = await Promise.race([sub.closed, new Promise<string>((r) => setTimeout(() => r('still open'), s.listenMs))]);
    const told = cause === 'remote' || cause === 'graceful';
    return {
      result: {
        name,
        status: 'ran',
        capture: 'listen',
        summary: `listen acknowledged (honoured ${JSON.stringify(sub.honoredFilter)}), its stream cut after the acknowledgement: the client saw the subscription ${told ? `end (${cause})` : 'still open'}${told ? '; it must listen again and re-fetch the lists (notifications of the outage are lost by design)' : ': it would not know to re-listen, and misses every notification from now on'}`,
        evidence: [],
      },
      capture: { name: 'listen', records: p.recorder.records },
    };
  } finally {
    p.recorder.shape = undefined;
    await p.close();
  }
}

export const hasResult = (ms: readonly Record<string, unknown>[]) => ms.filter(isResponse).length === 1;

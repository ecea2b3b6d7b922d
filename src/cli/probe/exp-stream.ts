// Experiments on the tool's request stream, in session A: the baseline call, cuts after k events
// with the SDK's own resume, and the slow reader.

import { isNotification, isResponse, type ProbeConn } from './conns';
import { compareDelivery, messageLabel, type Delivery } from './compare';
import type { ProbeSession } from './client';
import { runCall, type CallRun } from './call-run';
import type { ProbeSettings } from './settings';
import type { Evidence, ExperimentResult } from './types';
import { resumeHeaderEvidence } from './resume-headers';

const IDEMPOTENT = new Set(['notifications/progress']);

export interface Baseline {
  run: CallRun;
  post: ProbeConn;
  messages: Record<string, unknown>[];
  /** Events (id or data) on the POST stream. */
  events: number;
  ids: string[];
  primed: boolean;
  /** The core saw the baseline's own stream lose events (its codes: live-gap, replay-gap): what a later run has beyond it is not foreign. */
  lossy?: string;
}

const list = (ms: readonly Record<string, unknown>[], max = 6) => ms.slice(0, max).map(messageLabel).join(', ') + (ms.length > max ? `, … (${ms.length} in all)` : '');
/** Long opaque ids shortened for a summary line (the JSON report and the captures keep them whole). */
export const shortId = (id: string) => (id.length > 28 ? `${id.slice(0, 10)}…${id.slice(-10)}` : id);
const idList = (ids: readonly string[], max = 8) => ids.slice(0, max).map(shortId).join(', ') + (ids.length > max ? ', …' : '');

export function streams(messages: readonly Record<string, unknown>[]): boolean {
  return messages.some((m) => m.method === 'notifications/progress' || m.method === 'notifications/message');
}

export async function baselineExperiment(a: ProbeSession, s: ProbeSettings, tool: string): Promise<{ result: ExperimentResult; baseline?: Baseline }> {
  const run = await runCall(a, tool, s.args, s.timeoutMs);
  const name = 'baseline';
  if (!run.post) return { result: { name, status: 'ran', summary: `tools/call ${tool}: no response stream (${run.outcome.error ?? 'no POST recorded'})`, evidence: [] } };
  const post = run.post;
  const ev: Evidence[] = [];
  const results = run.messages.filter(isResponse).length;
  const ids = post.events.flatMap((e) => (e.id ? [e.id] : []));
  const first = post.events[0];
  const primed = !!first && first.id !== undefined && !first.data;
  const summary = `tools/call ${tool}: ${post.contentType?.split(';')[0] ?? 'no body'}, ${post.events.length} events (${ids.length} with ids${ids.length ? `: ${idList(ids)}` : ''}), ${run.messages.filter(isNotification).length} notifications, ${results === 1 ? 'the result once' : `${results} results`}${run.outcome.ok ? '' : ` (call failed: ${run.outcome.error})`}`;
  if (results === 1) ev.push({ on: 'terminal-pinned', verdict: 'pass', text: `the result arrived once${ids.length ? ` (event ${post.events.find((e) => e.msg && isResponse(e.msg))?.id ?? 'without id'})` : ''}` });
  else if (results === 0 && run.outcome.timedOut && (post.end === undefined || post.end === 'page-aborted' || post.end === 'page-cancelled'))
    // The probe gave up first (--timeout): the stream was still open, and a slow tool is no
    // failure of the server.
    ev.push({ on: 'terminal-pinned', verdict: 'unknown', text: `no result within --timeout ${s.timeoutMs} ms: the stream was still ${post.end === undefined ? 'open' : `open until the probe closed it (${post.end})`} after ${post.events.length} events; raise --timeout to let the tool finish`, events: ids.slice(-3) });
  else if (results === 0) ev.push({ on: 'terminal-pinned', verdict: 'fail', text: `the result never reached the client: the stream ${post.end === 'complete' ? 'ended' : `ended (${post.end ?? 'open'})`} after ${post.events.length} events${run.outcome.timedOut ? '; the call timed out' : ''}`, events: ids.slice(-3) });
  else ev.push({ on: 'terminal-pinned', verdict: 'fail', text: `the result arrived ${results} times` });
  if (post.contentType?.startsWith('text/event-stream')) {
    if (post.events.length === 0) ev.push({ on: 'priming', verdict: 'fail', text: `the stream ended before its first event (no priming event, no cursor: a cut can never be resumed)` });
    else if (primed) ev.push({ on: 'priming', verdict: 'pass', text: `the stream opens with a priming event (id ${first!.id})`, events: [first!.id!] });
    else if (ids.length) ev.push({ on: 'priming', verdict: 'fail', text: `no priming event: the first id comes with event ${first!.n}; a cut before it cannot be resumed` });
    else ev.push({ on: 'priming', verdict: 'fail', text: 'no event carries an id: the stream cannot be resumed' });
  }
  const timedOut = ev.some((e) => e.on === 'terminal-pinned' && e.verdict === 'unknown');
  return { result: { name, status: 'ran', summary, evidence: ev, ...(run.rpcId ? { requestIds: [run.rpcId] } : {}), ...(timedOut ? { timedOut } : {}) }, baseline: { run, post, messages: run.messages, events: post.events.length, ids, primed } };
}

/** Where to cut: before the first event, right after the priming event, half-way, before the last. */
export function cutPoints(b: Baseline): number[] {
  const n = b.events;
  const ks = [0, 1, Math.max(2, Math.floor(n / 2)), n - 1].filter((k) => k >= 0 && k < n);
  return [...new Set(ks)].sort((x, y) => x - y);
}

/** Messages delivered with other values than the baseline's: content cannot grade them (the ids and the core's analysis still do). */
function changedEvidence(on: 'gapless-retention' | 'drops-only-idempotent', d: Delivery): Evidence {
  return { on, verdict: 'unknown', text: `${d.changed.length} message(s) came with other values than the baseline's in the same members (${list(d.changed.map(([, m]) => m))}): the tool's output changes between calls (a time, a random id), so their content cannot show whether they are the same events; the event ids and the core's analysis of the capture still can` };
}

function deliveryEvidence(d: Delivery, cursor: string, resumed: ProbeConn[], replay: ProbeConn | undefined, lossyBaseline: boolean): Evidence[] {
  const ev: Evidence[] = [];
  const cumulativeMissing = d.missing.filter((m) => !isResponse(m));
  const resync = replay?.events.find((e) => e.event === 'resync');
  if (cumulativeMissing.length) {
    ev.push({ on: 'gapless-retention', verdict: 'fail', text: `the replay after cursor ${shortId(cursor)} left out ${cumulativeMissing.length} message(s) the baseline shows: ${list(cumulativeMissing)}; it resumed at ${replay?.events.find((e) => e.id && e.data)?.id ?? '(no id)'}`, events: [cursor, ...(replay?.events.flatMap((e) => (e.id ? [e.id] : [])).slice(0, 4) ?? [])] });
    ev.push(resync || (replay?.status !== undefined && replay.status >= 400)
      ? { on: 'gap-signalled', verdict: 'pass', text: resync ? `the server said so: \`event: resync\` (${(resync.data ?? '').slice(0, 120)})` : `the server said so: status ${replay?.status}` }
      : { on: 'gap-signalled', verdict: 'fail', text: `nothing told the client: status ${replay?.status ?? '-'}, no resync event, then ${d.results === 1 ? 'the result, as if complete' : 'no result'}` });
  }
  if (d.duplicated.some((m) => !isResponse(m))) ev.push({ on: 'gapless-retention', verdict: 'fail', text: `the replay after cursor ${shortId(cursor)} delivered again what the client had: ${list(d.duplicated.filter((m) => !isResponse(m)))}` });
  if (d.foreign.length && !lossyBaseline) ev.push({ on: 'gapless-retention', verdict: 'fail', text: `the replay after cursor ${shortId(cursor)} carried ${d.foreign.length} message(s) the baseline's stream does not have (another stream's events): ${list(d.foreign)}` });
  if (d.changed.length) ev.push(changedEvidence('gapless-retention', d));
  if (d.reordered) ev.push({ on: 'gapless-retention', verdict: 'fail', text: `the replay after cursor ${shortId(cursor)} changed the order of the messages` });
  if (d.results === 0) ev.push({ on: 'terminal-pinned', verdict: 'fail', text: `after the resume from ${shortId(cursor)} the result never arrived (${resumed.length} resume(s): status ${resumed.map((r) => r.status ?? 'failed').join(', ') || 'none made'})` });
  else if (d.results > 1) ev.push({ on: 'terminal-pinned', verdict: 'fail', text: `the result arrived ${d.results} times around the resume from ${shortId(cursor)}` });
  // (changed values: content cannot say "exactly", the unknown above stands)
  if (!ev.some((e) => e.verdict === 'fail') && d.changed.length === 0) ev.push({ on: 'gapless-retention', verdict: 'pass', text: `the replay after cursor ${shortId(cursor)} held exactly what the baseline shows after it, the result once` });
  if (d.results === 1 && !ev.some((e) => e.on === 'terminal-pinned')) ev.push({ on: 'terminal-pinned', verdict: 'pass', text: `the result arrived once after the resume from ${shortId(cursor)}` });
  return ev;
}

export async function cutExperiment(a: ProbeSession, s: ProbeSettings, tool: string, b: Baseline, k: number): Promise<ExperimentResult> {
  const name = `cut after ${k} event${k === 1 ? '' : 's'}${k === 0 ? ' (before the first id)' : k === 1 && b.primed ? ' (right after the priming event)' : ''}`;
  const run = await runCall(a, tool, s.args, s.timeoutMs, { cutAfter: k });
  if (run.post?.status !== undefined && run.post.status >= 400) return { name, status: 'ran', summary: `the call was refused: status ${run.post.status} (the session is gone after an earlier experiment?)`, evidence: [], ...(run.rpcId ? { requestIds: [run.rpcId] } : {}) };
  const cursor = run.idsBeforeCut.at(-1);
  if (cursor === undefined) {
    return { name, status: 'ran', summary: `cut after ${run.cutAfter ?? k} events, no id read: a 2025 client has no cursor and cannot resume (it can only re-issue the call); ${run.resumes.length ? 'yet it resumed' : 'no resume made'}`, evidence: [], ...(run.rpcId ? { requestIds: [run.rpcId] } : {}), causedByProbe: true };
  }
  const d = compareDelivery(b.messages, run.messages);
  const replay = run.resumes[0];
  const resumeText = run.resumes.length ? run.resumes.map((r) => `GET Last-Event-ID ${r.lastEventId} → ${r.status ?? 'failed'} (${r.events.length} events${r.events.length ? `: ${idList(r.events.map((e) => e.id ?? '·'))}` : ''})`).join('; ') : 'the SDK made no resume';
  const ev: Evidence[] = [];
  if (replay && replay.status !== undefined && replay.status >= 400) {
    ev.push({ on: 'gapless-retention', verdict: 'fail', text: `the server refused the cursor it issued itself (${shortId(cursor)}): status ${replay.status}`, events: [cursor] });
    ev.push({ on: 'gap-signalled', verdict: 'pass', text: `a refused resume says so (status ${replay.status})` });
  } else if (!replay) {
    ev.push({ on: 'gapless-retention', verdict: 'unknown', text: `no resume was made after the cut at ${shortId(cursor)} (${run.outcome.error ?? 'the call ended'})` });
  } else ev.push(...deliveryEvidence(d, cursor, run.resumes, replay, !!b.lossy));
  if (replay && !ev.some((e) => e.on === 'terminal-pinned')) {
    if (d.results === 0) ev.push({ on: 'terminal-pinned', verdict: 'fail', text: `after the resume from ${shortId(cursor)} the result never arrived` });
  }
  ev.push(...resumeHeaderEvidence(run.resumes, shortId));
  return { name, status: 'ran', ...(run.rpcId ? { requestIds: [run.rpcId] } : {}), summary: `cut at ${shortId(cursor)} after ${run.cutAfter ?? k} event${(run.cutAfter ?? k) === 1 ? '' : 's'}; ${resumeText}; ${run.outcome.ok ? `result in ${run.outcome.ms} ms` : `call failed: ${run.outcome.error}`}`, evidence: ev };
}

export async function slowExperiment(a: ProbeSession, s: ProbeSettings, tool: string, b: Baseline): Promise<ExperimentResult> {
  const name = `slow reader (one event per ${s.paceMs} ms for ${s.paceForMs} ms)`;
  const run = await runCall(a, tool, s.args, s.timeoutMs + s.paceForMs, { paceMs: s.paceMs, paceForMs: s.paceForMs });
  const d = compareDelivery(b.messages, run.messages);
  const ev: Evidence[] = [];
  const lost = d.missing.filter((m) => !isResponse(m));
  const cumulative = lost.filter((m) => !IDEMPOTENT.has(String(m.method)));
  const ids = run.post?.events.flatMap((e) => (e.id ? [e.id] : [])) ?? [];
  if (b.lossy) ev.push({ on: 'drops-only-idempotent', verdict: 'unknown', text: `the baseline itself lost events (the core: ${b.lossy}), so the slow reader's ${run.messages.length} messages are compared with the core's analysis only` });
  else if (cumulative.length) ev.push({ on: 'drops-only-idempotent', verdict: 'fail', text: `under a slow reader the server dropped ${cumulative.length} message(s) that change what the client accumulates: ${list(cumulative)}${lost.length > cumulative.length ? ` (and ${lost.length - cumulative.length} progress notification(s))` : ''}; ids on the stream: ${idList(ids, 12)}`, events: ids.slice(0, 12) });
  else if (lost.length) ev.push({ on: 'drops-only-idempotent', verdict: 'pass', text: `only progress notifications (superseded by the next) were dropped: ${list(lost)}` });
  else if (d.changed.length === 0) ev.push({ on: 'drops-only-idempotent', verdict: 'pass', text: `nothing dropped, coalesced or reordered under a slow reader (${run.messages.length} messages)` });
  if (d.reordered) ev.push({ on: 'drops-only-idempotent', verdict: 'fail', text: 'the messages arrived in another order than the baseline' });
  if (d.foreign.length && !b.lossy) ev.push({ on: 'drops-only-idempotent', verdict: 'fail', text: `${d.foreign.length} message(s) differ from the baseline (coalesced or rewritten): ${list(d.foreign)}` });
  if (d.changed.length) ev.push(changedEvidence('drops-only-idempotent', d));
  if (d.results === 1) ev.push({ on: 'terminal-pinned', verdict: 'pass', text: `the result arrived once under the slow reader (${run.outcome.ms} ms)` });
  else ev.push({ on: 'terminal-pinned', verdict: 'fail', text: d.results === 0 ? `under the slow reader the result was lost (${run.outcome.error ?? 'stream ended'})` : `the result arrived ${d.results} times` });
  return { name, status: 'ran', ...(run.rpcId ? { requestIds: [run.rpcId] } : {}), summary: `${run.messages.length} messages of the baseline's ${b.messages.length}, ${lost.length} lost, ${d.duplicated.length} duplicated; ${run.outcome.ok ? `result in ${run.outcome.ms} ms` : `call failed: ${run.outcome.error}`}`, evidence: ev };
}

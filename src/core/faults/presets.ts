// The questions users ask, each as faults to arm, what a correct client does, and a reading of a
// capture that says what this client did. The same presets arm `serve --fault <id>` and the
// panel's fault menu; `evaluatePreset` reads the analysis of whatever was captured afterwards
// (the page's capture in the panel, the served traffic in serve).
import { paramsText } from '../canonical-json';
import type { AnalysisSnapshot, RequestInfo, Session, Stream } from '../model';
import { isModernVersion, type FaultSpec } from './spec';

export type PresetOutcome = 'pass' | 'fail' | 'not-seen';

export interface PresetResult {
  /** `not-seen`: the capture does not show the situation (the fault did not fire, nothing to resume from). */
  outcome: PresetOutcome;
  /** What this client did, in plain words, from the capture. */
  observed: string;
  sessionKey?: string;
  /** JSON text of the ids of the requests concerned. */
  requestIds?: string[];
}

export interface FaultPreset {
  id: string;
  /** The question, as the menu shows it. */
  question: string;
  era: 'legacy' | 'modern';
  faults: FaultSpec[];
  /** What a correct client does. */
  correct: string;
  evaluate(snap: AnalysisSnapshot): PresetResult;
}

/** Params without `_meta` (progress tokens, the 2026-07-28 per-request metadata): what a re-issue repeats. */
export function paramsKey(method: string, params: unknown): string {
  return `${method} ${paramsText(params)}`;
}

interface Located {
  session: Session;
  req: RequestInfo;
  stream: Stream;
}

function requestsOf(snap: AnalysisSnapshot): Located[] {
  const out: Located[] = [];
  for (const session of snap.sessions) {
    for (const req of snap.requests[session.key] ?? []) {
      const stream = snap.streams[req.streamId];
      if (stream) out.push({ session, req, stream });
    }
  }
  return out.sort((a, b) => a.req.start - b.req.start);
}

/** A request's own stream that ended before its terminal response arrived (cut or closed early). */
function brokenBeforeResult(x: Located, snap: AnalysisSnapshot): boolean {
  const s = x.stream;
  if (s.kind !== 'post' || s.state === 'open' || s.state === 'aborted' || s.state === 'unread') return false;
  if (!x.req.response) return s.state === 'error' || s.state === 'complete';
  // The result came on a later segment (a resume), not on this stream.
  return x.req.responseStreamId !== undefined && x.req.responseStreamId !== s.id && snap.streams[x.req.responseStreamId] !== undefined;
}

function ms(a: number, b: number): string {
  return `${Math.max(0, Math.round(b - a))} ms`;
}

function reissueOf(x: Located, all: Located[], sameSession: boolean): Located | undefined {
  const key = paramsKey(x.req.method, x.req.params);
  return all.find((y) => y.req.start > x.req.start && y.req.id !== x.req.id && (!sameSession || y.session.key === x.session.key) && paramsKey(y.req.method, y.req.params) === key)
    ?? all.find((y) => y.req.start > x.req.start && y !== x && y.session.key !== x.session.key && paramsKey(y.req.method, y.req.params) === key);
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function callOutcome(req: RequestInfo): string {
  if (req.response === 'result') return `the call completed (verdict ${req.verdict})`;
  if (req.response === 'error') return 'the call ended with an error response';
  return `the call never got its result (verdict ${req.verdict})`;
}

function evaluateResume(snap: AnalysisSnapshot): PresetResult {
  const all = requestsOf(snap);
  const cut = all.find((x) => x.req.method === 'tools/call' && !isModernVersion(x.session.protocolVersion) && brokenBeforeResult(x, snap));
  if (!cut) return { outcome: 'not-seen', observed: 'No tools/call stream of the legacy era was cut before its result in the traffic.' };
  const base = { sessionKey: cut.session.key, requestIds: [cut.req.id] };
  const s = cut.stream;
  const resumes = s.resumedBy.map((id) => snap.streams[id]).filter((r): r is Stream => r !== undefined);
  if (s.lastCursor === undefined || s.lastCursor === '') {
    return { ...base, outcome: 'not-seen', observed: `The cut stream of tools/call ${cut.req.id} carried no event id: there was nothing to resume from (the server sends no ids).` };
  }
  if (resumes.length === 0) {
    const again = reissueOf(cut, all, false);
    if (again) return { ...base, outcome: 'fail', observed: `It did not resume: it re-issued tools/call as ${again.req.id} ${ms(s.end ?? s.start, again.req.start)} after the cut (the server's replay was never asked for). ${cap(callOutcome(again.req))}.` };
    return { ...base, outcome: 'fail', observed: `It did not resume the cut stream (last id ${s.lastCursor}); ${callOutcome(cut.req)}.` };
  }
  const r = resumes[0]!;
  if (r.lastEventIdSent !== s.lastCursor) {
    return { ...base, outcome: 'fail', observed: `It resumed with Last-Event-ID ${r.lastEventIdSent ?? '(none)'}, but the last id it had received was ${s.lastCursor} (a stale cursor). ${cap(callOutcome(cut.req))}.` };
  }
  const status = r.status !== undefined && (r.status < 200 || r.status > 299) ? ` The server answered ${r.status}.` : '';
  return {
    ...base,
    outcome: 'pass',
    observed: `It resumed with GET + Last-Event-ID ${r.lastEventIdSent} ${ms(s.end ?? s.start, r.start)} after the cut.${status} ${cap(callOutcome(cut.req))}.`,
  };
}

function evaluateLossy(snap: AnalysisSnapshot): PresetResult {
  const all = requestsOf(snap);
  const gaps = snap.findings.filter((f) => (f.code === 'replay-gap' || f.code === 'live-gap') && f.requestId !== undefined);
  const accepted = snap.findings.find((f) => f.code === 'lossy-result-accepted' || f.code === 'unverified-result-accepted');
  const hit = all.find((x) => gaps.some((g) => g.requestId === x.req.id && g.sessionKey === x.session.key)) ?? (accepted ? all.find((x) => x.req.id === accepted.requestId && x.session.key === accepted.sessionKey) : undefined);
  if (!hit) return { outcome: 'not-seen', observed: 'No request in the traffic lost events (the fault did not fire, or the client never resumed).' };
  const gap = gaps.find((g) => g.requestId === hit.req.id && g.sessionKey === hit.session.key);
  const missing = gap?.missing ? ` (ids ${gap.missing} missing)` : '';
  const base = { sessionKey: hit.session.key, requestIds: [hit.req.id] };
  const again = reissueOf(hit, all, false);
  if (again) return { ...base, outcome: 'pass', observed: `It noticed the lossy replay${missing}: it re-issued ${hit.req.method} as ${again.req.id}.` };
  if (hit.req.response === 'result') {
    return { ...base, outcome: 'fail', observed: `It accepted the result of ${hit.req.method} ${hit.req.id} built from an incomplete stream${missing}, and did not re-issue it (lossy-result-accepted).` };
  }
  return { ...base, outcome: 'not-seen', observed: `Events were lost${missing}, but ${hit.req.method} ${hit.req.id} got no result to accept or refuse.` };
}

function evaluateReissue(snap: AnalysisSnapshot): PresetResult {
  const all = requestsOf(snap);
  const broken = all.filter((x) => (x.req.method === 'tools/call' || x.req.method === 'subscriptions/listen') && isModernVersion(x.session.protocolVersion) === true && brokenBeforeResult(x, snap));
  // A re-issue is itself a request that may have broken again: judge the first of each chain.
  const reissues = new Set<Located>();
  const verdicts: { ok: boolean; text: string; ids: string[] }[] = [];
  for (const x of broken) {
    if (reissues.has(x)) continue;
    const again = reissueOf(x, all, true);
    const listen = x.req.method === 'subscriptions/listen';
    const what = `${x.req.method} ${x.req.id}`;
    const gap = again ? ms(x.stream.end ?? x.stream.start, again.req.start) : '';
    if (again) {
      reissues.add(again);
      verdicts.push({ ok: true, text: listen ? `It re-listened (${what} → ${again.req.id}) ${gap} after the break.` : `It re-issued the request (${what} → ${again.req.id}) ${gap} after the break.`, ids: [x.req.id, again.req.id] });
    } else if (x.stream.resumedBy.length > 0) {
      verdicts.push({ ok: false, text: `After ${what} broke it tried GET + Last-Event-ID, which the 2026-07-28 revision removed, and did not ${listen ? 'listen again' : 're-issue'}.`, ids: [x.req.id] });
    } else {
      verdicts.push({ ok: false, text: listen ? `It did not listen again after ${what} broke: notifications sent since are lost.` : `It did not re-issue ${what} after the break; ${callOutcome(x.req)}.`, ids: [x.req.id] });
    }
  }
  if (verdicts.length === 0) return { outcome: 'not-seen', observed: 'No tools/call or subscriptions/listen stream of the 2026-07-28 era broke in the traffic.' };
  return {
    sessionKey: broken[0]!.session.key,
    requestIds: verdicts.flatMap((v) => v.ids),
    outcome: verdicts.every((v) => v.ok) ? 'pass' : 'fail',
    observed: verdicts.map((v) => v.text).join(' '),
  };
}

function evaluateSession404(snap: AnalysisSnapshot): PresetResult {
  const expired = snap.findings.find((f) => f.code === 'session-expired');
  if (!expired) return { outcome: 'not-seen', observed: 'No request in the traffic was answered 404 for its session.' };
  const at = (expired.streamId ? snap.streams[expired.streamId]?.start : undefined) ?? 0;
  const dead = snap.sessions.find((s) => s.key === expired.sessionKey);
  const all = requestsOf(snap);
  const fresh = snap.sessions.find((s) => s.key !== expired.sessionKey && (snap.requests[s.key] ?? []).some((r) => r.method === 'initialize' && r.start >= at));
  const later404 = snap.findings.filter((f) => f.code === 'session-expired' && f.sessionKey === expired.sessionKey).length - 1;
  const base = { sessionKey: expired.sessionKey, ...(expired.requestId ? { requestIds: [expired.requestId] } : {}) };
  if (!fresh) {
    const more = dead ? dead.streamIds.map((id) => snap.streams[id]).filter((s): s is Stream => s !== undefined && s.start > at && s.status === 404).length : 0;
    return {
      ...base,
      outcome: 'fail',
      observed: more > 0 || later404 > 0 ? `It kept using the dead session: ${Math.max(more, later404)} more request${Math.max(more, later404) === 1 ? '' : 's'} answered 404, and no new initialize.` : 'It stopped after the 404: no new session (no initialize without Mcp-Session-Id).',
    };
  }
  const init = (snap.requests[fresh.key] ?? []).find((r) => r.method === 'initialize')!;
  const failed = expired.streamId ? all.find((x) => x.stream.id === expired.streamId) : undefined;
  const again = failed ? reissueOf(failed, all, false) : undefined;
  const redo = failed ? (again && again.session.key === fresh.key ? ` and re-issued ${failed.req.method} in it (${callOutcome(again.req)})` : `, but did not re-issue ${failed.req.method} there`) : '';
  return { ...base, outcome: again || !failed ? 'pass' : 'fail', observed: `It started a new session with initialize ${ms(at, init.start)} after the 404${redo}.` };
}

export const PRESETS: readonly FaultPreset[] = [
  {
    id: 'resume-after-cut',
    question: 'Does my client resume after a cut?',
    era: 'legacy',
    faults: [{ label: 'resume-after-cut', action: { kind: 'cut', afterEvents: 3 }, match: { method: 'tools/call', era: 'legacy' } }],
    correct:
      'The next tools/call stream breaks after 3 events. A correct client (2025-03-26 to 2025-11-25) resumes it with GET + Last-Event-ID set to the last id it received, after the server\'s retry delay, and completes the call from the replay without sending the request again.',
    evaluate: evaluateResume,
  },
  {
    id: 'lossy-replay',
    question: 'Does it notice a lossy replay?',
    era: 'legacy',
    faults: [
      { label: 'lossy-replay', action: { kind: 'cut', afterEvents: 3 }, match: { method: 'tools/call', era: 'legacy' } },
      { label: 'lossy-replay', action: { kind: 'withhold', events: { from: 1, to: 2 } }, match: { method: 'tools/call', on: 'resume' } },
    ],
    correct:
      'The next tools/call stream breaks after 3 events and its replay leaves out the 2 events that follow the cursor. A correct client sees the ids missing after its Last-Event-ID (or the server\'s resync signal), does not trust the result built from the incomplete stream, discards what it accumulated and re-issues the request (or reads the state explicitly).',
    evaluate: evaluateLossy,
  },
  {
    id: 'reissue-after-break',
    question: 'Does it re-issue after a broken stream (2026-07-28)?',
    era: 'modern',
    faults: [
      { label: 'reissue-after-break', action: { kind: 'cut', afterEvents: 1 }, match: { method: 'tools/call', era: 'modern' } },
      { label: 'reissue-after-break', action: { kind: 'cut', afterEvents: 1 }, match: { method: 'subscriptions/listen', era: 'modern' } },
    ],
    correct:
      'The next tools/call (and subscriptions/listen) stream of the 2026-07-28 revision breaks after its first event. That revision has no resumption: a correct client re-issues the request as a new request (new id, same params) at once, and opens a new subscriptions/listen, instead of waiting for its timeout or trying GET + Last-Event-ID.',
    evaluate: evaluateReissue,
  },
  {
    id: 'session-404',
    question: 'Does it survive a 404 session?',
    era: 'legacy',
    faults: [{ label: 'session-404', action: { kind: 'expire-session' }, match: { method: 'tools/call' } }],
    correct:
      'The session is gone when the next tools/call is sent: it and every later request of the session get 404 "Session not found". A correct client treats that 404 as the end of the session, starts a new one with initialize (without Mcp-Session-Id) and re-issues the request there.',
    evaluate: evaluateSession404,
  },
];

export function presetById(id: string): FaultPreset | undefined {
  return PRESETS.find((p) => p.id === id);
}

/** What this client did, for a preset, from the analysis of a capture. */
export function evaluatePreset(preset: FaultPreset | string, snap: AnalysisSnapshot): PresetResult {
  const p = typeof preset === 'string' ? presetById(preset) : preset;
  if (!p) throw new Error(`no fault preset "${String(preset)}"`);
  return p.evaluate(snap);
}

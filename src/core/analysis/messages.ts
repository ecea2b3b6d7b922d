// JSON-RPC messages of an event: a response settles its request (a second one is a duplicate; one
// delivered by a resume of another stream is a cross-stream replay), the initialize result names
// the revision and the gapless declaration, progress is checked to increase, and notifications
// are linked to their request (cumulative ones counted: what a lost event changes).
import type { FindingCode, SseEvent } from '../model';
import { getPath, type DecodedMessage } from '../jsonrpc';
import { lookupCapability } from '../options';
import { addCode, addFinding, runFinding, touch } from './findings-log';
import { ensureSession, setPv } from './sessions';
import { cumulativeTwice, duplicateResponse, foreignProgressRun, foreignResponse, progressBack, progressReplayed } from './texts';
import type { ReqState, SessionState, StreamS } from './state';
import type { AnalyzerState } from './analyzer-state';
import { onAnswer } from './eras';
import { noteDup, noteTools, sameDataAgain } from './client-facts';

/** A subscriptions/listen stream: its acknowledgement, and the change notifications it delivers. */
function onListenNotification(req: ReqState, method: string, t: number, m: DecodedMessage, at: number, st: StreamS, index: number): void {
  if (method === 'notifications/subscriptions/acknowledged') {
    if (req.x.acknowledged === undefined) {
      // An acknowledgement without `notifications` names no honoured set: nothing to compare.
      const honoured = getPath(m.msg, ['params', 'notifications']);
      if (honoured !== undefined) req.x.honoured = honoured;
      req.x.ackOrd = at;
      req.x.ackAt = [st.id, index];
    }
    req.x.acknowledged ??= t;
  } else if (method.endsWith('/list_changed') || method === 'notifications/resources/updated') req.x.changes = (req.x.changes ?? 0) + 1;
}

function onResponse(A: AnalyzerState, st: StreamS, s: SessionState, ev: SseEvent, m: DecodedMessage, at: number): void {
  const sm = m.summary;
  // A client may reuse an id once its request is answered, or (wrongly) have two requests with
  // one id in flight: the request carried by this stream's own POST comes first.
  const own = st.root.requests.find((q) => q.id === sm.id && q.response === undefined);
  const req = own ?? s.requestById.get(sm.id!);
  if (!req) {
    // An error with `id: null` (the server could not read the request): it answers this POST's
    // own request, without becoming its response (the request stays unanswered).
    const mine = sm.kind === 'error' && sm.id === 'null' ? st.requests.find((q) => q.response === undefined && q.x.error === undefined) : undefined;
    if (mine) onAnswer(A, s, mine, m, true);
    return;
  }
  if (req.response !== undefined) {
    if (!ev.duplicate) {
      ev.duplicate = true;
      addCode(ev, 'replay-duplicate');
      addFinding(A, s, at, 'replay-duplicate', {
        streamId: st.id,
        relatedStreamIds: req.responseStream && req.responseStream !== st ? [req.responseStream.id] : [],
        requestId: req.id,
        eventIds: ev.id !== undefined ? [ev.id] : [],
        eventIndex: ev.index,
        message: duplicateResponse(req.id, req.method),
      });
    }
    return;
  }
  req.response = sm.kind as 'result' | 'error';
  req.responseStream = st;
  req.responseOrd = at;
  req.responseIndex = ev.index;
  req.end = ev.t;
  onAnswer(A, s, req, m);
  if (req.method === 'tools/list' && sm.kind === 'result') noteTools(req, m.msg);
  if (st.isResume && st.resumes && !st.linkGuessed && req.stream.root !== st.root && !ev.duplicate) {
    addCode(ev, 'replay-cross-stream');
    st.root.crossOrds.push(at);
    req.stream.root.crossOrds.push(at);
    addFinding(A, s, at, 'replay-cross-stream', {
      streamId: st.id,
      relatedStreamIds: [st.root.id, req.stream.id],
      requestId: req.id,
      eventIds: ev.id !== undefined ? [ev.id] : [],
      eventIndex: ev.index,
      message: foreignResponse(st.root.id, req.id, req.method, req.stream.id),
    });
  }
  if (req.method === 'initialize' && sm.kind === 'result') {
    setPv(s, getPath(m.msg, ['result', 'protocolVersion']), 3);
    const decl = lookupCapability(getPath(m.msg, ['result', 'capabilities']), A.opts.gaplessCapabilityPath);
    if (decl !== undefined && decl !== null && decl !== false) s.gaplessDeclared = true;
  }
}

/** Progress of `req`: must increase; a replayed duplicate or a resume may show it going back. */
function onProgress(A: AnalyzerState, st: StreamS, s: SessionState, ev: SseEvent, req: ReqState, progress: number | undefined, at: number): void {
  const sameDup = ev.duplicate && st.dupEv === ev;
  if (sameDup && progress !== undefined && req.lastProgress !== undefined && progress <= req.lastProgress) {
    // A replayed duplicate: the client's progress handler sees a value that does not increase.
    addCode(ev, 'progress-regressed');
    addFinding(A, s, at, 'progress-regressed', {
      streamId: st.id,
      requestId: req.id,
      eventIds: ev.id !== undefined ? [ev.id] : [],
      eventIndex: ev.index,
      message: progressReplayed(req.id, req.lastProgress, progress, ev.id),
    });
  }
  if (!ev.duplicate && progress !== undefined) {
    if (req.lastProgress !== undefined && progress <= req.lastProgress) {
      const code: FindingCode = st.isResume && progress < req.lastProgress ? 'replay-reordered' : 'progress-regressed';
      addCode(ev, code);
      addFinding(A, s, at, code, {
        streamId: st.id,
        requestId: req.id,
        eventIds: ev.id !== undefined ? [ev.id] : [],
        eventIndex: ev.index,
        message: progressBack(req.id, req.lastProgress, progress, code === 'replay-reordered'),
      });
    }
    if (req.lastProgress === undefined || progress > req.lastProgress) req.lastProgress = progress;
  }
  if (st.isResume && st.resumes && !st.linkGuessed && req.stream.root !== st.root && !ev.duplicate) {
    addCode(ev, 'replay-cross-stream');
    st.root.crossOrds.push(at);
    runFinding(A, s, st, ev, at, 'replay-cross-stream', 'progress:' + req.id, foreignProgressRun(st.root.id, req.id, req.stream.id), {
      streamId: st.id,
      relatedStreamIds: [st.root.id, req.stream.id],
      requestId: req.id,
      eventIndex: ev.index,
    });
  }
}

/** The request of `st`'s chain that gave `token` first (see onMessage). */
export function ownRequestWithToken(st: StreamS, token: string): ReqState | undefined {
  const rs = st.root.requests;
  for (let i = 0; i < rs.length; i++) if (rs[i]!.progressToken === token) return rs[i];
  return undefined;
}

export function onMessage(A: AnalyzerState, st: StreamS, ev: SseEvent, m: DecodedMessage, at: number): void {
  const s = ensureSession(A, st);
  const sm = m.summary;
  st.messages++;
  if ((sm.kind === 'result' || sm.kind === 'error') && sm.id !== undefined) return onResponse(A, st, s, ev, m, at);
  if (sm.kind !== 'notification' || !sm.method) return;
  let req: ReqState | undefined;
  if (sm.method === 'notifications/progress' && sm.progressToken !== undefined) {
    // The request of the notification's own stream that gave the token first: the session's
    // map keeps the last request to give a token, and two can give the same one (two SDK clients
    // in one page, each numbering its ids and so its tokens from 1).
    req = ownRequestWithToken(st, sm.progressToken) ?? s.progress.get(sm.progressToken);
    if (req) onProgress(A, st, s, ev, req, sm.progress, at);
  }
  if (!req) req = st.root.requests.find((q) => q.response === undefined) ?? st.root.requests[0];
  if (!req) return;
  req.notifications.push(st.id, ev.index);
  if (req.method === 'subscriptions/listen') onListenNotification(req, sm.method, ev.t, m, at, st, ev.index);
  const cumulative = A.isCumulative(sm.method);
  if (cumulative && !ev.duplicate && req.response === undefined) {
    // The same data again under another id on a resumed stream: applied twice, like a duplicate id.
    if (sameDataAgain(req, st, ev)) req.dupCumulative = (req.dupCumulative ?? 0) + 1;
    else req.cumulative++;
  } else if (cumulative && ev.duplicate && st.dupEv === ev && req.response === undefined) {
    // A cumulative notification applied twice before the result: the result is not trustworthy.
    req.dupCumulative = (req.dupCumulative ?? 0) + 1;
    noteDup(req, st, ev);
    const run = st.dupRun;
    if (run && run.lastIndex === ev.index && run.note === undefined) {
      run.note = cumulativeTwice(sm.method, req.id, req.method);
      touch(A, run, s);
    }
  }
}

// Every finding's wording, as functions of named facts. Stages decide what happened and call one
// of these; nothing else in the analysis writes a sentence a user reads. (Scheme evidence is worded
// where the scheme is inferred, in ids.ts and derive/scheme.ts; capture health in capture-health.ts.)
// docs/findings.md explains each code; the texts here are what the panel, the Markdown report and
// `audit` all show.
import type { CaptureGapRecord } from '../record';
import type { JsonRpcSummary, StreamState } from '../model';
import { UNSEEN_REASON_TEXT, type UnseenReason } from '../witness';

/** The first ids of a list for a message: "1, 2, 3 … 9 (12 in all)". Complete lists are in eventIds. */
export function idList(ids: readonly string[], cap = 10): string {
  if (ids.length <= cap) return ids.join(', ');
  return `${ids.slice(0, cap - 1).join(', ')} … ${ids[ids.length - 1]} (${ids.length} in all)`;
}

const Ids = (k: number) => (k === 1 ? 'Id' : 'Ids');

// ---------------------------------------------------------------- resumes (push time)

export const staleCursor = (cursor: string, last: string) =>
  `The client resumed with Last-Event-ID ${cursor}, but the last id it had received on this stream was ${last}: events between them are replayed again or skipped.`;

export const needlessResume = (stream: string, requestIds: string[], response: string) =>
  `The client resumed stream ${stream} although request ${requestIds.join(', ')} had already received its ${response}.`;

const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export const requestStalled = (stream: string, total: number, waited: number, other: string, blocked?: number) =>
  `The GET stream ${stream} was answered ${secs(total)} after the page sent it, ${secs(waited)} of it while stream ${other} (a GET to the same URL) was waiting for its response headers: Chrome lets one GET per URL wait for its headers at a time (its HTTP cache), so this request ${blocked === undefined ? 'likely waited in the browser' : `waited in the browser (the HAR's timings: blocked ${secs(blocked)} before it was sent)`}, not at the server. A client that fetches its GET streams with cache: 'no-store' is not held; a server that sends a resume's headers before it waits for events to replay holds no one.`;

export const sessionExpired = (sessionId: string, method: string, requestMethod: string | undefined) =>
  `The server answered 404 to session id ${sessionId} (first on a ${method}${requestMethod !== undefined ? ` ${requestMethod}` : ''}): the session is gone; the client must initialize a new one, and requests sent on the old session get no result.`;

export const resumeRefused = (cursor: string | undefined, status: number) =>
  `The resume with Last-Event-ID ${cursor ?? '(none)'} was refused with HTTP ${status}: nothing after that id was replayed.`;

export const resumeEmpty = (cursor: string | undefined, requestId: string, method: string) =>
  `The resume with Last-Event-ID ${cursor ?? '(none)'} got an empty stream that closed while request ${requestId} (${method}) was still waiting for its result: the server replayed nothing.`;

// ---------------------------------------------------------------- events (push time)

function describeMsg(m: JsonRpcSummary): string {
  if (m.kind === 'result' || m.kind === 'error') return `the ${m.kind} of request ${m.id}`;
  if (m.method) return m.method;
  return 'data';
}

export const truncatedEvent = (id: string | undefined, messages: readonly JsonRpcSummary[]) =>
  `The stream ended inside an event${id !== undefined ? ` (id ${id})` : ''}${messages.length ? ` carrying ${messages.map(describeMsg).join(', ')}` : ''} with no closing blank line: clients drop such an event silently.`;

export const duplicateRun = (first: string) => (ids: string[], n: number) =>
  n === 1
    ? `Event id ${ids[0]} arrived again (first on stream ${first}): a client that does not de-duplicate applies it twice.`
    : `${n} events arrived again (ids ${idList(ids)}; first on stream ${first}): a client that does not de-duplicate applies them twice.`;

/** A priming event (an id, no data) whose id the session had: nothing to apply, a cursor taken back. */
export const primingAgain = (first: string) => (ids: string[], n: number) =>
  n === 1
    ? `Event id ${ids[0]} arrived again, in a priming event (an id with no data; first on stream ${first}): nothing is applied twice, but a client that keeps every id as its resumption cursor goes back to ${ids[0]}, and a later resume would replay events it already has (a constant priming id: rust-sdk #791).`
    : `${n} priming events (ids with no data) repeated ids ${idList(ids)} (first on stream ${first}): nothing is applied twice, but a client that keeps every id as its resumption cursor goes back, and a later resume would replay events it already has.`;

export const otherStreamRun = (other: string) => (ids: string[], n: number) =>
  n === 1
    ? `The resumed stream delivered event ${ids[0]} again, which belongs to another stream (${other}): the server replayed events that were never part of the stream being resumed.`
    : `The resumed stream delivered ${n} events again (ids ${idList(ids)}) which belong to another stream (${other}): the server replayed events that were never part of the stream being resumed.`;

export const duplicateResponse = (requestId: string, method: string) => `The response to request ${requestId} (${method}) arrived a second time.`;

export const foreignResponse = (root: string, requestId: string, method: string, sentOn: string) =>
  `The stream resuming ${root} delivered the response to request ${requestId} (${method}), which was sent on another stream (${sentOn}).`;

export const progressReplayed = (requestId: string, last: number, now: number, id: string | undefined) =>
  `Progress of request ${requestId} went from ${last} to ${now}: event ${id ?? ''} was replayed a second time, and progress must increase with each notification.`;

export const progressBack = (requestId: string, last: number, now: number, reordered: boolean) =>
  reordered
    ? `Progress of request ${requestId} went from ${last} back to ${now} on the resumed stream: the replay delivered events out of order.`
    : `Progress of request ${requestId} went from ${last} to ${now}: progress must increase with each notification.`;

export const foreignProgressRun = (root: string, requestId: string, sentOn: string) => (ids: string[], n: number) =>
  n <= 1
    ? `The stream resuming ${root} delivered progress for request ${requestId}, which was sent on another stream (${sentOn}).`
    : `The stream resuming ${root} delivered ${n} progress notifications for request ${requestId} (ids ${idList(ids)}), which was sent on another stream (${sentOn}).`;

export const cumulativeTwice = (method: string, requestId: string, requestMethod: string) =>
  ` Cumulative notification(s) (${method}) for request ${requestId} (${requestMethod}) came again before its result: a client that appends them holds that part twice, so the result it accepts is not trustworthy (verdict at least complete-unverified).`;

// ---------------------------------------------------------------- capture gaps (push time)

/** What a capture-gap record says was lost, in words (a count of 0 means "unknown" or "cut"). */
export function captureGapWhat(r: CaptureGapRecord): string {
  if (r.reason === 'not-recording')
    return `Recording began only when DevTools opened ("capture while DevTools is closed" is off): ${r.lost > 0 ? `${r.lost} earlier record(s) were` : 'earlier records were'} not kept — the user's setting, not a loss by the inspector`;
  if (r.reason === 'event-size-cap') return 'The inspector cut an event over its per-record size cap: its data is incomplete';
  if (r.reason === 'not-seen-by-hook')
    return `The browser's network view saw ${r.method && r.url ? `the MCP request ${r.method} ${r.url}` : `${r.lost} MCP request(s)`} that the capture hook did not${r.why ? ` (likely: ${UNSEEN_REASON_TEXT[r.why as UnseenReason] ?? r.why})` : ''}: its events as the page read them are not in the capture`;
  if (r.lost > 0) return `The inspector itself lost ${r.lost} record(s), reason ${r.reason}`;
  if (r.reason === 'extension-reloaded') return 'The extension was reloaded while this page was open: what the old instance captured is gone (how much is unknown)';
  return `The inspector lost an unknown number of records, reason ${r.reason}`;
}

/** How the records of a gap were lost, after "records of <stream>". */
export function lostHow(r: CaptureGapRecord): string {
  if (r.reason === 'not-recording') return 'not kept before recording began ("capture while DevTools is closed" is off)';
  if (r.reason === 'event-size-cap') return "cut by the inspector's size cap";
  return `lost by the inspector (${r.reason})`;
}

export const gapRange = (r: CaptureGapRecord) => (r.fromSeq !== undefined ? ` (records ${r.fromSeq}–${r.toSeq ?? r.fromSeq} of ${r.src})` : '');

export const gapStreams = (r: CaptureGapRecord, streams: readonly string[]) =>
  `${captureGapWhat(r)}${gapRange(r)}${streams.length ? `; streams ${streams.join(', ')} are incomplete` : ''}: what is missing there is not the server's fault.`;

export const gapOpenConnections = (r: CaptureGapRecord) => `${captureGapWhat(r)}${gapRange(r)}: events that connections open then carried before it are unknown.`;

export const notRecordedStream = (stream: string, method: string, url: string, req: { id: string; method: string } | undefined) =>
  `Recording began only when DevTools opened ("capture while DevTools is closed" is off): the earlier records of ${stream} (${method} ${url}) were not kept — the user's setting, not a loss by the inspector. Its events before that are unknown, so ${req ? `request ${req.id} (${req.method}) cannot be better than complete-unverified` : 'nothing before them can be checked'}.`;

export const sizeCapCut = (stream: string, cuts: number, bytes: number) =>
  `The inspector cut ${cuts} chunk(s) of ${stream} over its per-record size cap (${bytes} byte(s) left out): events there are incomplete; what is missing is not the server's fault.`;

export const resyncDropped = (stream: string, before: number, after: number, ended: boolean) =>
  ` On ${stream} the inspector dropped ${before > 0 ? `the ${before} character(s) of the event cut before the loss and ` : ''}${after} character(s) after it ${ended ? 'until the stream ended (no blank line came)' : 'up to the next blank line'}: no event is made of text from both sides.`;

export const gapMore = (more: number) => (more > 0 ? ` The same on ${more} more stream(s) or cut(s).` : '');

export const seenAfterGap = (stream: string) => ` ${stream} was seen only after it: what it carried before is unknown.`;
export const cameAfterGap = (stream: string, without: string) => ` Records of ${stream} came after it without ${without}.`;
export const withoutStart = (stream: string, without: string) =>
  `Records of ${stream} arrived without ${without}: the capture does not hold the start of this connection, so what it carried before cannot be checked (not the server's fault).`;

/** What the capture lacks of a connection seen without its request. */
export const ORPHAN_WHAT = {
  response: 'its request',
  chunk: 'its request, its response and possibly the start of its body',
  esEvent: 'its request and possibly earlier events',
} as const;

export function gapMarker(r: CaptureGapRecord): string {
  if (r.reason === 'not-recording') return `not recording before DevTools opened${r.lost > 0 ? ` (${r.lost} record(s) not kept)` : ''}`;
  return r.lost > 0 ? `${r.lost} record(s) lost (${r.reason})` : `capture incomplete (${r.reason})`;
}
export const absentMarker = (n: number) => `no body in the file for ${n} response(s)`;

/** Stretches of records the capture does not hold, in words (lost-ids.ts parts). */
export const LOST = {
  records: (stream: string, how: string | undefined) => `records of ${stream} ${how ?? 'lost by the inspector'}`,
  unnamed: (how: string) => `records of connections the capture does not hold, ${how}`,
  notKept: 'connections that ended before recording began (not kept)',
  body: (stream: string) => `the body of ${stream}, which the file does not hold`,
  beforeFirst: (stream: string) => `records of ${stream} before the first one captured (its request is not in the capture)`,
  unknownSession: (stream: string) => `events of ${stream}, whose request (so its session) is not in the capture`,
  abandoned: (stream: string, how: string, req: string) =>
    `events the server may have gone on making for request ${req} after its stream ${stream} ${how} (no result came: the server does not know the page stopped reading)`,
  undispatched: (stream: string) =>
    `events on EventSource ${stream} of a type the page does not listen to, or with an id and no data, which the browser does not dispatch (so the inspector does not see them)`,
};

/** "records of tab1:c3 lost by the inspector (buffer-cap); …" for a message (the first few). */
export function describeParts(what: readonly string[], cap = 3): string {
  const names = what.slice(0, cap);
  if (what.length > cap) names.push(`${what.length - cap} more stretch(es) of lost records`);
  return names.join('; ');
}

// ---------------------------------------------------------------- streams the file holds no body for

export function absentBody(x: { method: string; url: string; status?: number; kind: string; lastEventIdSent?: string; capture: string }, deps: readonly string[]): string {
  const sse = x.capture !== 'json';
  return (
    `The file holds no body for this response (${x.method} ${x.url}${x.status !== undefined ? `, HTTP ${x.status}` : ''}${x.kind === 'resume' ? `, resume with Last-Event-ID ${x.lastEventIdSent ?? ''}` : ''}): HAR writers omit the bodies of aborted or cut ${sse ? 'event streams' : 'responses'}, so ${sse ? 'the events on it' : 'what it carried'} cannot be checked — not an empty ${sse ? 'stream' : 'answer'}.` +
    (deps.length > 0
      ? ` What depends on it: ${deps.slice(0, 6).join('; ')}${deps.length > 6 ? `; … (${deps.length - 6} more)` : ''}.`
      : " Nothing in the analysis depends on it: no request's result, no missing id and no resume cursor can be on it.")
  );
}

export const DEPENDS = {
  result: (id: string, method: string) => `request ${id} (${method}), whose result may be on it`,
  notifications: (id: string, method: string) => `request ${id} (${method}), whose notifications on it cannot be checked`,
  cursor: (cursor: string, stream: string) => `the Last-Event-ID ${cursor} of ${stream}, which may have been delivered on it`,
  gap: (ids: string, stream: string) => `ids ${ids} missing on ${stream}, which may be on it`,
};

// ---------------------------------------------------------------- gaps (snapshot time)

export interface GapFacts {
  kind: 'live' | 'replay';
  atResume: boolean;
  prevId: string | undefined;
  id: string;
  /** The ids shown, how many, and whether all of them may be in records the capture does not hold. */
  text: string;
  n: number;
  unverifiable: boolean;
  /** Lost records that may hold (some of) them, in words. */
  parts: string;
  /** Ids of the gap that may be in those records (when some cannot), and how many. */
  covered?: { text: string; n: number };
}

export function gap(g: GapFacts): string {
  const how =
    g.kind === 'replay'
      ? g.atResume
        ? `the client resumed from ${g.prevId ?? '?'} and the replay continued at ${g.id}`
        : `the resumed stream went from ${g.prevId ?? '?'} to ${g.id}`
      : `the connection went from ${g.prevId ?? '?'} to ${g.id} without a reconnect`;
  const n = g.n;
  if (g.unverifiable)
    return `${Ids(n)} ${g.text} ${n === 1 ? 'was' : 'were'} delivered by no stream in the capture (${how}), but ${n === 1 ? 'it' : 'they'} may be in records the capture does not hold: ${g.parts}. Whether the server dropped ${n === 1 ? 'it' : 'them'} cannot be known.`;
  let message = `${Ids(n)} ${g.text} never delivered: ${how}${g.kind === 'live' ? `, and no other stream of the session carried ${n === 1 ? 'it' : 'them'}` : ''}.`;
  if (g.covered) message += ` (${Ids(g.covered.n)} ${g.covered.text} may be in records the capture does not hold: ${g.parts}; ${n === 1 ? 'this one cannot' : 'these cannot'}.)`;
  return message;
}

export const reordered = (id: string, prevId: string | undefined) => `Event ${id} arrived after ${prevId ?? 'a later id'} on the same connection: the ids went backwards.`;

export const crossPrefix = (ids: readonly string[], cursor: string | undefined) =>
  ids.length === 1
    ? `The resumed stream delivered event ${ids[0]}, whose id belongs to another stream than the one resumed from ${cursor ?? 'its cursor'}.`
    : `The resumed stream delivered ${ids.length} events (ids ${idList(ids)}) whose ids belong to another stream than the one resumed from ${cursor ?? 'its cursor'}.`;

export function unverifiableResume(cursor: string | undefined, scheme: { kind: string; scope?: string }): string {
  const why =
    scheme.kind === 'none'
      ? 'the event ids are absent'
      : scheme.kind === 'undetermined'
        ? 'too few event ids were seen to tell whether they count'
        : scheme.scope === 'server'
          ? 'the event ids come from a counter shared with other sessions'
          : `the event ids are ${scheme.kind}`;
  return `The client resumed${cursor !== undefined ? ` from ${cursor}` : ''}, but ${why} and the server did not declare gapless retention: whether the replay left events out cannot be checked.`;
}

export const crossSession = (root: string, session: string, ids: readonly string[], other: string, theirStreams: readonly string[], responses: readonly string[]) =>
  `The stream resuming ${root} in session ${session} delivered ${ids.length === 1 ? `event ${ids[0]}` : `${ids.length} events (ids ${idList(ids)})`}, which session ${other} had received on its own stream ${theirStreams.join(', ')}: the server replayed another session's events into this one (a store shared by the sessions whose streams collide, e.g. keyed by JSON-RPC request id).` +
  (responses.length ? ` ${responses.join(' ')}` : '');

export const crossSessionResponse = (id: string, kind: string, other: string, requestId: string) =>
  `Event ${id} carries the ${kind} of session ${other}'s request ${requestId}, which this session's request ${requestId} took as its own.`;

// ---------------------------------------------------------------- results (snapshot time)

export const lossyForeign = (response: string, id: string, method: string, losses: string) =>
  `The client accepted the ${response} of request ${id} (${method}) from an event another session had received (${losses}): the result is that session's, not this request's. Discard it and re-issue the call.`;

export const lossy = (response: string, id: string, method: string, losses: string, cumulative: number) =>
  `The client accepted the ${response} of request ${id} (${method}) although the stream it was built from lost events (${losses}) and it had received ${cumulative} cumulative notification(s): the result looks complete but the accumulated output is not. Discard it and re-issue the call or read the state explicitly.`;

export function unverifiedResult(response: string, id: string, method: string, unverified: boolean, maybe: readonly string[], cumulative: number): string {
  const why = [
    ...(unverified ? ['after a reconnect whose replay cannot be checked'] : []),
    ...(maybe.length > 0 ? [`after ids ${maybe.join('; ')} that no stream in the capture delivered and that may be in records the capture does not hold`] : []),
  ].join(', and ');
  return `The client accepted the ${response} of request ${id} (${method}) ${why}, with ${cumulative} cumulative notification(s) received: if ${maybe.length > 0 ? 'events were left out' : 'the replay left events out'}, the accumulated output is incomplete. Read the state explicitly before trusting it.`;
}

/** What the losses of a chain were, for a result's finding. */
export function losses(ids: readonly string[], otherStream: boolean, otherSession: boolean): string {
  const parts: string[] = [];
  if (ids.length) parts.push(`ids ${ids.join('; ')} never delivered`);
  if (otherStream) parts.push("another stream's events mixed in");
  if (otherSession) parts.push("another session's events mixed in");
  return parts.join('; ');
}

export interface NoResultFacts {
  id: string;
  method: string;
  streams: string[];
  why: 'absent' | 'not-recorded' | 'lost';
  chain: number;
  lastCursor: string | undefined;
}

export const resultUnknown = (x: NoResultFacts) =>
  `No result was seen for request ${x.id} (${x.method}), but whether one arrived cannot be known: ` +
  (x.why === 'absent'
    ? `the file holds no body for ${x.streams.join(', ')} (HAR writers omit the bodies of aborted or cut event streams)`
    : x.why === 'not-recorded'
      ? `records of ${x.streams.join(', ')} from before recording began were not kept ("capture while DevTools is closed" is off)`
      : `the inspector lost records of ${x.streams.join(', ')}`) +
  `${x.chain > 1 ? `; the chain has ${x.chain} streams, the last resumed from ${x.lastCursor ?? '?'}` : ''}. Not reported as result-missing.`;

export interface MissingFacts {
  id: string;
  method: string;
  chain: number;
  last: StreamState;
  cursor: string | undefined;
  endedByDelete: boolean;
  cancelled: boolean;
  reissuedAs: string | undefined;
}

export const resultMissing = (x: MissingFacts) =>
  `Request ${x.id} (${x.method}) never received a result: ` +
  (x.chain > 1 ? `all ${x.chain} streams of its chain ended` : x.last === 'error' ? 'its stream broke and was not resumed' : x.last === 'aborted' ? 'the client closed its stream' : 'its stream ended') +
  `${x.cursor !== undefined ? ` (last event id ${x.cursor})` : ''} without one.` +
  (x.endedByDelete
    ? ' The stream stayed open without it until the client ended the session (DELETE).'
    : x.last === 'complete' || x.last === 'unknown'
      ? ' The server closed the stream without it: a client waits until its timeout.'
      : '') +
  (x.cancelled ? ' The client gave up and cancelled it (notifications/cancelled).' : '') +
  (x.reissuedAs !== undefined ? ` It was re-issued as request ${x.reissuedAs}.` : '');

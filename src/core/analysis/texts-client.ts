// The wording of the findings about the page's client (issue 19): a tool sent again after an
// attempt that broke, a result delivered and not taken, output accepted twice. Like texts.ts and
// texts-eras.ts, nothing else in the analysis writes a sentence for these; docs/findings.md
// ("Findings about the client") explains each code. Every sentence here is about what the capture
// holds: it never says a result did not arrive when it did.
import type { ToolHints } from './modern-state';
import { idList } from './texts';

const ms = (d: number) => (d < 1000 ? `${Math.round(Math.max(0, d))} ms` : `${(d / 1000).toFixed(d < 10_000 ? 1 : 0)} s`);

/** How the earlier attempt ended, as the capture shows it. */
export type AttemptEnd = 'broke' | 'closed' | 'cancelled' | 'not-taken' | 'ended';

const ENDED: Record<AttemptEnd, string> = {
  // the same words whether or not the file kept the broken body (HAR writers keep none)
  broke: 'its request failed with a network error before the client had a result',
  closed: 'the client closed its response stream before the result (a timeout or an abort)',
  cancelled: 'the client cancelled it (notifications/cancelled)',
  'not-taken': 'the client did not take the result the server had sent',
  ended: 'its stream ended without the result',
};

/** The same, said of an attempt that was still in flight when the call was sent again. */
const LATER: Record<'broke' | 'closed' | 'ended', string> = {
  broke: 'it later failed with a network error before the client had a result',
  closed: 'the client later closed its response stream before the result',
  ended: 'its stream later ended without the result',
};

/** What the capture's tools/list answers say about the tool. */
export type HintsFound = { kind: 'declared'; hints: ToolHints } | { kind: 'not-listed' } | { kind: 'no-list' };

function hintText(tool: string, h: HintsFound): string {
  if (h.kind === 'no-list') return `no tools/list answer is in the capture, so whether ${tool} is idempotent is not known from it`;
  if (h.kind === 'not-listed') return `the tools/list answers in the capture do not list ${tool}, so whether it is idempotent is not known from them`;
  const parts = (['readOnlyHint', 'destructiveHint', 'idempotentHint'] as const).filter((k) => h.hints[k] !== undefined).map((k) => `${k}: ${String(h.hints[k])}`);
  return parts.length ? `tools/list declares ${tool} ${parts.join(', ')}` : `tools/list lists ${tool} without readOnlyHint, destructiveHint or idempotentHint (the spec's defaults: not read-only, possibly destructive, not idempotent)`;
}

export interface RerunFacts {
  first: string;
  again: string;
  tool: string;
  ended: AttemptEnd;
  /** The first attempt reached the server: its response began (HTTP status), or something of it came back. */
  reached: boolean;
  status?: number;
  gap: number;
  hints: HintsFound;
  /** declared idempotent or read-only: running it twice changes nothing more */
  harmless: boolean;
  /** The call was sent again before the first attempt's stream ended (two identical calls in flight at once). */
  concurrent?: boolean;
}

const ADVICE =
  ' To make a re-issue safe, send an idempotency key in the call\u2019s _meta that the server honours (and declare idempotentHint only when it holds), or read the state the tool changes before calling it again.';

export const toolRerun = (x: RerunFacts) =>
  (x.concurrent && x.ended !== 'cancelled' && x.ended !== 'not-taken'
    ? `${cap(x.again)} sent tools/call ${x.tool} with the same arguments ${ms(x.gap)} after ${x.first}, while the first was still in flight (${LATER[x.ended]}): two identical calls at once. `
    : `${cap(x.again)} sent tools/call ${x.tool} again with the same arguments ${ms(x.gap)} after ${x.first}, after ${ENDED[x.ended]}. `) +
  (x.reached
    ? `The first attempt reached the server (${x.status !== undefined && x.status > 0 ? `HTTP ${x.status}, its response began` : 'something of its answer came back'}), so the tool may have run twice`
    : `Whether the first attempt reached the server is not in the capture (no response status), so the tool may have run twice`) +
  `: ${hintText(x.tool, x.hints)}.` +
  (x.harmless ? ' Running it twice should change nothing more.' : ADVICE);

const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);

/** Where a response sat that the client did not take, and why it likely did not. */
export type UntakenWhy = 'event-type' | 'standalone-get' | 'abandoned-stream' | 'after-cancel' | 'duplicate-id' | 'unmatched';

export interface UntakenFacts {
  req: string;
  response: string;
  stream: string;
  eventId?: string;
  why: UntakenWhy;
  event?: string;
  /** What the client did that shows it did not take it. */
  cancelled: boolean;
  reissuedAs?: string;
  /** ms between the client's cancellation and the response (negative: the response came first). */
  afterCancel?: number;
}

const WHY: Record<UntakenWhy, (x: UntakenFacts) => string> = {
  'event-type': (x) =>
    `in an SSE event of type "${x.event ?? ''}", and the SDK clients (and most others) dispatch only events without an event field or of type "message": they never see it. The server must send responses as "message" events (no event field)`,
  'standalone-get': () =>
    'on the standalone GET stream, which the spec reserves for messages unrelated to a request (a response goes there only on a resumed stream of that request): clients do not match it to the request. The server must answer on the request\u2019s own stream',
  'abandoned-stream': () => 'on a stream the client had already given up (it had reconnected or resumed elsewhere before this event): the client no longer read it',
  'after-cancel': (x) =>
    `${ms(x.afterCancel ?? 0)} after the client had cancelled the request: a client drops a response to a request it cancelled. The call timed out or was abandoned too early, or the server was too slow`,
  'duplicate-id': (x) => `in an event whose id${x.eventId !== undefined ? ` (${x.eventId})` : ''} the client had already received: a client that skips ids it has seen drops it`,
  'unmatched': () => 'on its stream, yet the client acted as if it had not: it did not match the response to its request',
};

export const untaken = (x: UntakenFacts) =>
  `The ${x.response} of ${x.req} is in the capture (stream ${x.stream}${x.eventId !== undefined ? `, event ${x.eventId}` : ''}), yet the client ` +
  [x.cancelled ? 'cancelled the request' : '', x.reissuedAs !== undefined ? `re-issued it as request ${x.reissuedAs}` : ''].filter(Boolean).join(' and ') +
  `${x.cancelled || x.reissuedAs !== undefined ? '' : 'never took it'}: it came ${WHY[x.why](x)}.`;

export const duplicatedOutput = (response: string, req: string, ids: readonly string[], count: number, renamed: number, cumulative: number) =>
  `The client accepted the ${response} of ${req} after ${count} cumulative notification(s) had been delivered a second time before it` +
  `${ids.length ? ` (event ids ${idList(ids)}` : ' ('}${renamed ? `${ids.length ? '; ' : ''}${renamed} of them re-sent under a new id by a replay that mixes streams` : ''})` +
  `, besides the ${cumulative} delivered once: a client that appends what it receives holds those parts twice, so the result looks complete but the accumulated output has extra parts. De-duplicate by event id (and by content across streams), or discard the accumulated output and read the state explicitly.`;

// The wording of the findings about what the page's MCP client did with the stream (issue 19,
// items 3-6): a reconnect that lost its Last-Event-ID, lost or partial output fed into a later
// request, loops of attempts, listens acknowledged for less than they asked. Like texts.ts, nothing
// else in the analysis writes a sentence for these; docs/findings.md explains each code.

const list = (xs: readonly string[]) => (xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);
export const ms = (d: number) => (d < 1000 ? `${Math.max(0, Math.round(d))} ms` : `${(d / 1000).toFixed(d < 10_000 ? 1 : 0)} s`);
const cap = (s: string) => `${s[0]!.toUpperCase()}${s.slice(1)}`;

// ---------------------------------------------------------------- listens (item 6)

export const listenNarrowed = (listen: string, asked: readonly string[], honoured: readonly string[], ended: 'complete' | 'open' | 'other') =>
  honoured.length === 0
    ? `The server acknowledged ${listen} with an EMPTY honoured set: it asked for changes of ${list(asked)}, and the server will send none of them${ended === 'complete' ? ' (it ended the stream with its complete result right after the acknowledgement)' : ''}. A client that treats the acknowledgement as success believes it is listening and hears nothing. Compare the acknowledgement's notifications with the filter you sent (the server drops what its capabilities do not declare), and poll or fetch those lists yourself.`
    : `The server acknowledged ${listen} for ${list(honoured)} only: it also asked for changes of ${list(asked.filter((x) => !honoured.includes(x)))}, which this stream will never carry. Compare the acknowledgement's notifications with the filter you sent (the server drops what its capabilities do not declare), and fetch those lists yourself when you need them.`;

// ---------------------------------------------------------------- lost cursor (item 3)

export interface CursorLostFacts {
  /** "request 2 (tools/call long_task)". */
  reqs: string;
  broken: string;
  cursor: string;
  /** 'get': a GET without Last-Event-ID; 'post': the same request sent again on a new POST. */
  how: 'get' | 'post';
  next: string;
  status?: number;
  /** The request's response arrived anyway, on this stream (or null: never). */
  answeredOn: string | null;
  /**
   * The response is in the capture, in an event the client does not read (result-not-taken): where
   * it was ("stream c5, event 18, an SSE event of type \"result\"").
   */
  untakenAt?: string;
  /** The chain had been resumed with the cursor before (the broken segment was itself a resume). */
  resumedBefore: boolean;
  /** How the last connection ended: a network break, or a clean end by the server. */
  ended: 'broke' | 'ended';
  /** Connections of the chain whose body the file does not hold. */
  unknownBody?: string;
}

const answer = (st: string, status: number | undefined, how: 'get' | 'post') =>
  status === undefined
    ? `the capture holds no answer to ${st}`
    : status === 409
      ? `the server answered ${st} with 409 Conflict (a standalone stream was already open)`
      : status === 405
        ? `the server answered ${st} with 405 (it offers no standalone stream)`
        : status >= 400
          ? `the server answered ${st} with HTTP ${status}`
          : how === 'get'
            ? `the server answered ${st} with ${status}: a new standalone stream, which carries only messages made after it, not the cut stream's`
            : `the server answered ${st} with ${status} and ran the request again`;

export const cursorLost = (f: CursorLostFacts) =>
  `The stream of ${f.reqs} carried event ids (the last one the client saw: ${f.cursor}); ${
    f.resumedBefore ? `its resume ${f.broken} (Last-Event-ID: ${f.cursor}) ${f.ended === 'broke' ? 'broke' : 'ended'} before any id-bearing event` : `${f.broken} ${f.ended === 'broke' ? 'broke' : 'ended'} before the response`
  }, and the client then ${
    f.how === 'get' ? `reconnected with GET ${f.next} WITHOUT Last-Event-ID` : `sent the request again on POST ${f.next} instead of resuming`
  } (typescript-sdk #2499). ${cap(answer(f.next, f.status, f.how))}. What the server sent on the cut stream after id ${f.cursor} cannot reach the client any more${
    f.answeredOn
      ? `; the response arrived on ${f.answeredOn} all the same`
      : f.untakenAt
        ? `; the response itself is in the capture (${f.untakenAt}), where the client does not read it (see result-not-taken)`
        : f.unknownBody ? `, and the capture shows no response (the file holds no body of ${f.unknownBody}, so whether it came there cannot be known)` : ', and the response never arrived'
  }. Keep the last id across reconnects (resume with GET + Last-Event-ID: ${f.cursor}).`;

// ---------------------------------------------------------------- carried output (item 4)

export const carriedWhat = { lossy: 'lossy result', unverified: 'unverifiable result', partial: "broken attempt's partial output" } as const;
export type CarriedKind = keyof typeof carriedWhat;

/** "request 7's arguments carry 312 characters of request 2's lossy result"; `where` null: `to` is itself what carries it (the page's answer). */
export const carriedLabel = (to: string, where: string | null, chars: number, from: string, kind: CarriedKind) =>
  `${where === null ? `${to} carries` : `${to}'s ${where} carry`} ${chars} characters of ${from}'s ${carriedWhat[kind]}`;

export const carried = (to: string, where: string | null, chars: number, values: number, from: string, kind: CarriedKind, sample: string) =>
  `${cap(carriedLabel(to, where, chars, from, kind))} (${values} whole string value(s), e.g. ${JSON.stringify(sample)}). ${
    kind === 'lossy'
      ? `That result was built over a stream that lost events: the client passed an incomplete answer on as if it were whole.`
      : kind === 'unverified'
        ? `That result came over a replay that cannot be checked for gaps: what the client passed on may be incomplete.`
        : `That output came from an attempt whose stream broke before its result: it is partial.`
  } Check the source request's finding before trusting what this request did with it; re-run it over a verified stream (or discard partial output) before feeding it on.`;

// ---------------------------------------------------------------- loops (item 5)

export type LoopKind = 'reissue' | 'relisten' | 'reconnect' | 'resend' | 'reinitialise';
const loopHow: Record<LoopKind, string> = {
  reissue: 'sent %s %n times in a row, re-issuing it after each broken attempt,',
  relisten: 'listened with %s %n times in a row, again after each drop,',
  reconnect: 'reconnected %s %n times in a row after failures',
  resend: 'sent %s %n times in a row, again after each failure,',
  reinitialise: 'initialised a new session at %s %n times in a row, after each cut or expiry,',
};

/** `succeeded` undefined: the file holds no body of some attempts, so whether one succeeded cannot be known. */
export const loop = (kind: LoopKind, what: string, count: number, intervals: readonly number[], succeeded: boolean | undefined, growing: boolean, serverRetry?: number) =>
  `The client ${loopHow[kind].replace('%s', what).replace('%n', String(count))} ${
    succeeded === undefined ? '(whether one succeeded cannot be known: the file holds no body of some of them)' : succeeded ? 'before one succeeded' : 'without success'
  }; intervals between attempts: ${intervals.map(ms).join(', ') || 'none'}${
    serverRetry !== undefined ? ` (the server's retry: ${serverRetry} ms sets them)` : growing ? ' (growing)' : ' (NO growing back-off)'
  }. One finding for the whole loop. ${
    succeeded !== false ? '' : 'Each attempt failed the same way, so the next one will too: '
  }${growing ? 'find out why each attempt fails' : 'back off exponentially between attempts, cap the number of attempts, and find out why each attempt fails'}${kind === 'reissue' || kind === 'resend' ? ' (a re-sent tool that is not idempotent may run every time)' : ''}.`.replace('loop. find', 'loop. Find').replace('loop. back', 'loop. Back');

export const listLoop = (xs: readonly string[]) => list(xs);

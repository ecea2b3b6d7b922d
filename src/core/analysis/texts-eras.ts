// The wording of the two eras (issue 12): the evidence of a server's era, a session's era, and the
// findings of the 2026-07-28 revision's ways of losing data, as functions of named facts. Like
// texts.ts (the legacy era's findings), nothing else in the analysis writes a sentence for these.
// docs/findings.md explains each code.

/** "request 2 (tools/call long_task)". */
export const reqName = (id: string, method: string, name?: string) => `request ${id} (${method}${name ? ` ${name}` : ''})`;

const list = (xs: readonly string[]) => (xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);
const ms = (d: number) => (d < 1000 ? `${Math.round(d)} ms` : `${(d / 1000).toFixed(d < 10_000 ? 1 : 0)} s`);

// ---------------------------------------------------------------- era evidence (servers, sessions)

export const EVIDENCE = {
  discover: (versions: readonly string[]) => `server/discover answered${versions.length ? ` (supportedVersions ${versions.join(', ')})` : ''}`,
  modernResult: (method: string, id: string) => `a 2026-07-28 request answered (${method} ${id})`,
  modernError: (code: number, method: string, id: string) => `a 2026-07-28 request checked and refused with ${code} (${method} ${id})`,
  legacyRefused: (method: string, supported: readonly string[]) =>
    `a 2025 ${method} refused with -32022 Unsupported protocol version${supported.length ? ` (supported: ${supported.join(', ')})` : ''}`,
  initialize: (pv: unknown) => `initialize answered${typeof pv === 'string' ? ` (protocolVersion ${pv})` : ''}`,
  session: () => 'Mcp-Session-Id issued',
  getStream: () => 'a standalone GET stream served',
  get405: (method: string) => `${method} answered 405`,
  modernRefused: (method: string, status: number, err: { code?: number; message?: string } | undefined) =>
    `a 2026-07-28 ${method} answered HTTP ${status} without a 2026-07-28 error${err?.code !== undefined ? ` (${err.code}${err.message ? ` ${err.message}` : ''})` : ''}`,
};

export const SESSION_ERA = {
  modern: (pv: string | undefined, client: { name: string; version?: string } | undefined) =>
    `2026-07-28: requests carry _meta protocolVersion${pv ? ` ${pv}` : ''} and no session${client ? `; client ${client.name}${client.version ? ` ${client.version}` : ''}` : ''}`,
  session: (pv: string | undefined) => `2025: initialize and Mcp-Session-Id${pv ? ` (revision ${pv})` : ''}`,
  stateless: (pv: string | undefined) => `2025 without a session (a stateless server)${pv ? `, revision ${pv}` : ''}`,
  sessionless: (pv: string | undefined) => `2025 traffic without Mcp-Session-Id${pv ? ` (revision ${pv})` : ''}`,
};

// ---------------------------------------------------------------- headers (push time)

export const HDR = {
  pvAbsent: (pv: string) => `no MCP-Protocol-Version header although _meta names ${pv}`,
  pvDiffers: (h: string, pv: string) => `MCP-Protocol-Version "${h}" but _meta names ${pv}`,
  methodAbsent: (m: string) => `no Mcp-Method header (the body calls ${m})`,
  methodDiffers: (h: string, m: string) => `Mcp-Method "${h}" but the body calls ${m}`,
  nameAbsent: (src: string, v: string) => `no Mcp-Name header (params.${src} is "${v}")`,
  nameUndecodable: (h: string) => `Mcp-Name "${h}" is not a valid =?base64?…?= value`,
  nameDiffers: (h: string, src: string, v: string) => `Mcp-Name "${h}" but params.${src} is "${v}"`,
};

// ---------------------------------------------------------------- broken streams and re-issues

export const reissued = (broken: string, again: string, gap: number) =>
  `The response stream of ${broken} broke before its final response, and the client re-issued it as ${again} ${ms(gap)} later (same method and params, a new id), as the 2026-07-28 revision requires: there is no resumption, so the broken attempt's request is lost and only the re-issue can answer.`;

export const partialOutput = (again: string, broken: string, cumulative: number, methods: readonly string[]) =>
  `${again[0]!.toUpperCase()}${again.slice(1)} re-issued ${broken}, whose broken stream had already delivered ${cumulative} cumulative notification(s)${methods.length ? ` (${list(methods)})` : ''}: a client that kept them holds that output twice, or stale, next to this result. Discard what a request accumulated when you re-issue it.`;

export const abandoned = (r: string, finished: boolean) =>
  finished
    ? `The response stream of ${r} broke before its final response and the client never re-issued it: the request is lost, and the client waits for nothing (the official SDK v2 waits for its request timeout, 60 s by default). In the 2026-07-28 revision a broken stream cannot be resumed: re-issue the request under a new id.`
    : `The response stream of ${r} broke before its final response and no re-issue has been seen so far: the 2026-07-28 revision has no resumption, so the client must re-issue it under a new id (the official SDK v2 does not by itself: it waits for its request timeout, 60 s by default). Pending while the capture is live; an error if it ends without a re-issue.`;

// ---------------------------------------------------------------- subscriptions

export const dropped = (id: string, lists: readonly string[], how: string, relisten: { id: string; after: number } | undefined, finished: boolean) =>
  `The subscriptions/listen stream of request ${id}${lists.length ? ` (changes of ${list(lists)})` : ''} ended without its complete result (${how}): an unexpected disconnect. ` +
  (relisten
    ? `The client listened again (request ${relisten.id}) ${ms(relisten.after)} later; change notifications the server sent in between are lost by design (the 2026-07-28 revision has no replay).`
    : finished
      ? 'The client never listened again: every change notification from then to the end of the capture is unknown to it.'
      : 'The client has not listened again so far: change notifications sent meanwhile are lost by design (no replay).');

export const droppedCovered = (id: string, lists: readonly string[], how: string, cover: string) =>
  `The subscriptions/listen stream of request ${id} (changes of ${list(lists)}) ended without its complete result (${how}), while the listen of request ${cover} for the same changes was open: they kept coming on that stream, so nothing was lost.`;

export const dropHow: Record<string, string> = {
  error: 'the connection broke',
  complete: 'the server closed the stream',
  unknown: 'the stream ended',
};

export const notRefetched = (relistenId: string, missing: readonly string[], outage: number, finished: boolean) =>
  `After listening again (request ${relistenId}) the client ${finished ? 'did not fetch' : 'has not fetched'} ${list(missing)} again, although a change during the ${ms(outage)} outage would have been lost with the dropped stream: its copy may be stale. Fetch the subscribed lists again after every re-listen.${finished ? '' : ' Pending while the capture is live.'}`;

// ---------------------------------------------------------------- headers and 2026-07-28 errors

export const headerSeen = (r: string, issues: readonly string[], answer: string | undefined) =>
  `The headers of ${r} disagree with its body: ${issues.join('; ')}. A 2026-07-28 server must refuse it with HTTP 400 and -32020 (HeaderMismatch)${answer ? `; this one answered ${answer}` : ''}. The official SDK derives these headers from the body, so something between the SDK and the network changed them (a fetch wrapper or middleware).`;

export const headerRewritten = (r: string, header: string, seen: string, sent: string) =>
  `The server refused ${r} with -32020 (HeaderMismatch): it saw ${header} "${seen}", but the request the page sent carries ${header} "${sent}", which agrees with the body. Something between the page and the server (a proxy, gateway or CDN) rewrote the header: fix it there.`;

export const paramMissing = (r: string, header: string, arg: string, declared: string | undefined) =>
  `The server refused ${r} with -32020 (HeaderMismatch): the body carries argument ${arg}${declared ? `, which tools/list declares with x-mcp-header: ${declared}` : ''}, but the request has no ${header} header. The official TypeScript SDK v2 does not send Mcp-Param-* headers in a browser (their names cannot be allow-listed for CORS), so a strict server refuses such calls from a page, and the SDK does not retry them there. Call the tool from a backend, or have the server treat a missing Mcp-Param header as absent rather than a mismatch.`;

export const headerRefused = (r: string, message: string | undefined) =>
  `The server refused ${r} with -32020 (HeaderMismatch)${message ? `: "${message}"` : ''}, although the headers in the capture agree with the body: something between the page and the server changed them, or the server expects a header the client did not send.`;

export const missingCapability = (r: string, required: string, declared: string | undefined, message: string | undefined) =>
  `The server refused ${r} with -32021 (MissingRequiredClientCapability): it needs the client capability ${required || '(not named)'}, which the request's _meta clientCapabilities${declared !== undefined ? ` (${declared})` : ''} do not declare${message ? ` ("${message}")` : ''}. Declare the capability (and handle what it asks for) or do not call this tool.`;

export const unsupportedVersion = (r: string, named: string | undefined, supported: readonly string[], recovered: boolean) =>
  `The server refused ${r} with -32022 (UnsupportedProtocolVersion): it does not support protocol version ${named ?? '(none named)'}${supported.length ? `; it supports ${supported.join(', ')}` : ''}.` +
  (recovered ? ' The client then probed again at a version the server supports (version negotiation worked).' : ' Use a version the server lists.');

// ---------------------------------------------------------------- MRTR (input_required)

export const stateAltered = (retry: string, of: string, sent: string, returned: string, answer: string | undefined) =>
  `${retry[0]!.toUpperCase()}${retry.slice(1)} retries the input_required result of ${of} with requestState "${sent}", but the server returned "${returned}": the retry must carry it back unchanged (it is opaque to the client).${answer ? ` The server answered ${answer}.` : ' A server that does not verify it acts on a state the client changed.'}`;

export const inputNotAnswered = (r: string, inputs: readonly string[], finished: boolean) =>
  `${r[0]!.toUpperCase()}${r.slice(1)} was answered input_required${inputs.length ? ` (input requests ${list(inputs)})` : ''}, and the client ${finished ? 'never retried it' : 'has not retried it so far'} with the answers and the requestState: the call never completes.${finished ? '' : ' Pending while the capture is live.'}`;

// ---------------------------------------------------------------- era mismatch

export const NEXT = {
  nothing: 'The client sent nothing more to this endpoint.',
  fellBack: (sessionId: string | null) => `The client then fell back to the 2025 era: initialize on the same endpoint${sessionId ? `, session ${sessionId}` : ''}.`,
  modern: (method: string) => `The client then spoke 2026-07-28: ${method === 'server/discover' ? 'server/discover' : `a ${method}`} on the same endpoint.`,
  legacy: (method: string) => `The client then sent ${method} in the 2025 era.`,
  sameAgain: (method: string) => `The client then sent ${method} the same way again.`,
};

export const legacyToModern = (r: string, why: string, next: string) =>
  `${r[0]!.toUpperCase()}${r.slice(1)} speaks the 2025 era, but the server serves only 2026-07-28: ${why}. ${next}`;

export const LEGACY_WHY = {
  refused: (supported: readonly string[]) => `it refused it with -32022${supported.length ? ` (supported: ${supported.join(', ')})` : ''}`,
  get405: (method: string) => `it answered the ${method} with 405 (the 2026-07-28 revision has no GET stream and no session to delete)`,
  sessionHeader: (sid: string) => `the request carries Mcp-Session-Id ${sid}, which a 2026-07-28 server ignores: nothing the client keys to that session is kept`,
};

export const modernToLegacy = (r: string, status: number, err: { code?: number; message?: string } | undefined, next: string) =>
  `${r[0]!.toUpperCase()}${r.slice(1)} speaks 2026-07-28, but the server answered HTTP ${status}${err?.code !== undefined ? ` with ${err.code}${err.message ? ` (${err.message})` : ''}` : ''}, not a 2026-07-28 error: a 2025-only server (what a negotiating client takes as its cue to fall back to initialize). ${next}`;

// ---------------------------------------------------------------- lossless reasons (modern)

export const MODERN_REASONS = {
  broken: (n: number, reissued: number) =>
    `${n} response stream(s) broke before their final response (the 2026-07-28 revision has no resumption: the in-flight request is lost${reissued > 0 ? `; ${reissued} re-issued` : ''})`,
  dropped: (n: number) => `${n} subscription stream(s) dropped: change notifications during the outage are unknown`,
  ended: (n: number) => `${n} response stream(s) ended without their final response`,
};

// The CaptureRecord contract, defined once: the one contract between capture (page hook, relay,
// panel store, importers) and analysis (src/core). The TypeScript types (record.ts), the validator
// that the relay and the importers use (validate.ts) and the committed JSON Schema
// (schema/capture-file.schema.json, written by `npm run schema`) all come from these schemas.
//
// Records describe what the *page read*, in the order it read it: a `chunk` is emitted when the
// page's read of the body resolved, never ahead of it (see docs/capture.md). Nothing here is
// analysis: parsing SSE, sessions and findings happen in the core. Extra fields are allowed (a
// later version may add optional ones): validation checks the fields named here.
//
// zod/mini (the tree-shakable build) keeps the relay's bundle small; it runs without compiling
// code (jitless), which an extension's content scripts and pages do not allow.
import * as z from 'zod/mini';

z.config({ jitless: true });

export const RECORD_VERSION = 1 as const;

const doc = <T extends z.ZodMiniType>(schema: T, description: string): T => (schema as z.ZodMiniType).register(z.globalRegistry, { description }) as T;
const count = () => z.int().check(z.gte(0));

/** How the record was observed (fetch / xhr / eventsource: the page hook; network: chrome.devtools.network after completion; import: rebuilt from a file). */
export const TRANSPORTS = ['fetch', 'xhr', 'eventsource', 'network', 'import'] as const;
/** How the page's body reading ended. */
export const END_HOWS = ['complete', 'page-aborted', 'page-cancelled', 'network-error', 'unread', 'closed', 'unknown'] as const;
/**
 * Why records are missing. `not-recording`: the relay kept no records while no DevTools window
 * inspected the tab and "capture while DevTools is closed" was off (the user's choice, not a loss).
 * `not-seen-by-hook`: the browser's network view saw an MCP request the capture does not hold
 * (the network witness, src/core/witness.ts: one gap record per request, `lost: 1`).
 */
export const CAPTURE_GAP_REASONS = ['buffer-cap', 'event-size-cap', 'extension-reloaded', 'hook-missing', 'import', 'not-recording', 'not-seen-by-hook', 'other'] as const;
export const NOTICE_LEVELS = ['info', 'warning', 'error'] as const;
export const BODY_NOTES = ['none', 'stream', 'binary', 'truncated', 'unreadable'] as const;
export const RESPONSE_CAPTURES = ['sse', 'json', 'none'] as const;

export const header = doc(z.tuple([z.string(), z.string()]), '[name, value] as seen on the wire or given by the page; names keep their original case');

const base = {
  seq: doc(z.int().check(z.gte(1)), 'Sequence number assigned by the relay, per capture source (src), starting at 1, no holes'),
  src: doc(z.string(), 'Capture source: one relay instance (one document in one frame); seq is dense within it'),
  t: doc(z.number(), 'Wall-clock time in ms since the epoch with sub-ms precision (timeOrigin + performance.now())'),
};
const conn = { ...base, conn: doc(z.string(), 'Connection id, unique within src: one fetch / XHR / EventSource connection attempt') };

export const requestRecord = z.object({
  ...conn,
  kind: z.literal('request'),
  transport: z.enum(TRANSPORTS),
  method: z.string(),
  url: z.string(),
  headers: z.array(header),
  body: doc(z.nullable(z.string()), "Request body as text when it could be read without consuming the page's body; else null"),
  bodyNote: doc(z.optional(z.enum(BODY_NOTES)), 'Why body is null or partial'),
  reconnectOf: doc(z.optional(z.string()), 'For EventSource reconnects made by the browser: the conn of the first attempt'),
  blockedMs: doc(z.optional(z.number().check(z.gte(0))), "Imported HAR entries: how long the browser held the request before sending it (the entry's timings.blocked), when the file gives it"),
});

export const responseRecord = z.object({
  ...conn,
  kind: z.literal('response'),
  status: z.int(),
  statusText: z.string(),
  headers: z.array(header),
  url: z.string(),
  redirected: z.boolean(),
  type: z.string(),
  capture: doc(z.enum(RESPONSE_CAPTURES), 'What the hook will capture of the body: SSE text, JSON text, or nothing'),
});

export const chunkRecord = z.object({
  ...conn,
  kind: z.literal('chunk'),
  text: doc(z.string(), 'Body text decoded with a streaming UTF-8 decoder, exactly as the page read it'),
  bytes: doc(count(), 'Byte length of the chunk before decoding'),
  droppedBytes: doc(z.optional(count()), 'Set when the per-event size cap cut this chunk: how many bytes were left out'),
});

/** An event dispatched by a native EventSource (the browser parsed it; the hook sees the result). */
export const esEventRecord = z.object({ ...conn, kind: z.literal('es-event'), type: z.string(), data: z.string(), lastEventId: z.string() });

export const endRecord = z.object({
  ...conn,
  kind: z.literal('end'),
  how: z.enum(END_HOWS),
  reason: doc(z.optional(z.string()), 'Error name and message, or the abort reason, as text'),
});

export const navigationRecord = z.object({ ...base, kind: z.literal('navigation'), url: z.string(), top: doc(z.boolean(), 'true for the top frame') });

/** The inspector lost records. As loud as a server's gap. */
export const captureGapRecord = z.object({
  ...base,
  kind: z.literal('capture-gap'),
  lost: doc(count(), 'How many records were lost (0: unknown)'),
  fromSeq: doc(z.optional(z.int()), 'seq range (inclusive) of the lost records in src, when known'),
  toSeq: z.optional(z.int()),
  conns: doc(z.array(z.string()), 'Connections whose records were among the lost ones'),
  reason: z.enum(CAPTURE_GAP_REASONS),
  method: doc(z.optional(z.string()), 'not-seen-by-hook: the request the browser\'s network view saw and the capture does not hold'),
  url: z.optional(z.string()),
  why: doc(z.optional(z.string()), 'not-seen-by-hook: the likely reason (worker, extension-reloaded, hook-missing, hook-bypassed, frame-without-hook, buffer-cap, unknown)'),
});

/** Something the inspector wants the user to know about capture itself (e.g. hook not running). */
export const noticeRecord = z.object({
  ...base,
  kind: z.literal('notice'),
  level: z.enum(NOTICE_LEVELS),
  code: z.string(),
  message: z.string(),
  url: doc(z.optional(z.string()), 'network witness notices: the request concerned (its session files the finding)'),
  sessionId: z.optional(z.string()),
});

/** Kinds of injected faults (src/core/faults/spec.ts FaultKind). */
export const FAULT_RECORD_KINDS = ['cut', 'withhold', 'delay', 'drop-result', 'answer-resume', 'expire-session'] as const;
export const FAULT_ORIGINS = ['panel', 'serve'] as const;

/**
 * A fault injected on purpose (issue 14): the user armed it in the panel (or `serve --fault`), and
 * it changed what the page got on connection `conn`. Made by the relay (never by the page hook:
 * a page cannot forge one). The connection's chunks are what the page read; what the page did
 * not get because of the fault (withheld events, the rest of a read after a cut, a dropped result,
 * the server's own answer that a fault replaced) is here, in `withheld`. The analysis attributes
 * the findings the fault explains to it ("injected from the panel") instead of to the server.
 */
export const faultRecord = z.object({
  ...conn,
  kind: z.literal('fault'),
  fault: doc(z.enum(FAULT_RECORD_KINDS), 'What was injected: cut, withhold, delay, drop-result, answer-resume, expire-session'),
  origin: doc(z.enum(FAULT_ORIGINS), 'Who injected it: the panel (fault armed by the user in DevTools) or serve --fault'),
  armed: doc(z.string(), 'Id of the armed fault (the panel\'s own, random; several records may share one)'),
  text: doc(z.string(), 'The armed fault in words (describeFault), e.g. "cut the stream after 3 events · tools/call · next 1"'),
  label: z.optional(z.string()),
  eventIds: doc(z.array(z.string()), 'Ids of the events it withheld, delayed or dropped (\'\' for an event without id)'),
  events: doc(count(), 'Events that carried data affected'),
  afterEvents: doc(z.optional(count()), 'cut: how many events the page got before the cut'),
  cursor: doc(z.optional(z.string()), 'cut: the last event id the page got (its Last-Event-ID for a resume)'),
  how: doc(z.optional(z.enum(['reset', 'close', 'hold'])), 'cut / drop-result: the connection reset (the page\'s read rejected), ended cleanly, or was held open'),
  status: doc(z.optional(z.int()), 'answer-resume / expire-session: the status the page got instead of the server\'s'),
  serverStatus: doc(z.optional(z.int()), 'answer-resume / expire-session: the status the server really answered'),
  delayMs: doc(z.optional(z.number()), 'delay: the total extra wait'),
  requestIds: doc(z.optional(z.array(z.string())), 'JSON text of the ids of the requests whose stream it changed'),
  withheld: doc(z.optional(z.array(z.object({ id: z.optional(z.string()), text: z.string() }))), 'What the server sent and the page did not get because of the fault, as SSE text (one item per event, or the rest of the stream after a cut)'),
});

export const captureRecord = z.discriminatedUnion('kind', [requestRecord, responseRecord, chunkRecord, esEventRecord, endRecord, navigationRecord, captureGapRecord, noticeRecord, faultRecord]);

/** What the page hook sends: connection records and notices, before the relay numbers them (no seq, no src). */
const unnumbered = { seq: true, src: true } as const;
export const hookRecord = z.discriminatedUnion('kind', [
  z.omit(requestRecord, unnumbered),
  z.omit(responseRecord, unnumbered),
  z.omit(chunkRecord, unnumbered),
  z.omit(esEventRecord, unnumbered),
  z.omit(endRecord, unnumbered),
  z.omit(noticeRecord, unnumbered),
]);

/** The product's own export file. */
export const captureFile = z.object({
  format: z.literal('mcp-stream-inspector'),
  version: z.literal(RECORD_VERSION),
  createdAt: doc(z.optional(z.string()), 'ISO 8601 time the file was written'),
  source: doc(z.optional(z.string()), 'Free text: the page URL, tool version'),
  records: z.array(captureRecord),
});

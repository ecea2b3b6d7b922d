// Faults as plain data: what to break, on which request, how many times. Shared by
// `mcp-stream-inspector serve --fault` (the served capture misbehaves on purpose) and the panel's
// fault injection into a live page (issue 14, item 1). Validated at the boundary (a CLI argument,
// a message from the panel, a JSON file), never trusted.
import { z } from 'zod';

/**
 * Which events of one response stream a fault applies to. Positions count the events that carry
 * data (what a client dispatches: the SDK client and EventSource skip events with empty data, so
 * priming events and id-only blocks are not counted), from 1, in the order the server sent them.
 * Every criterion given must hold (use several faults for a union); none given = every event.
 */
export interface EventSelector {
  /** First position (1-based, inclusive). */
  from?: number;
  /** Last position (inclusive); absent = to the end. */
  to?: number;
  /** Event `id` fields. */
  ids?: string[];
  /** JSON-RPC methods of the event's messages (e.g. `notifications/progress`). */
  methods?: string[];
}

export type FaultAction =
  /**
   * The response stream ends after `afterEvents` events (counted as in EventSelector, after any
   * withholding: what the client saw). `reset` (default): the connection breaks (fetch's body read
   * rejects; EventSource fires error and reconnects); `close`: the stream ends cleanly without
   * its result (SSE polling's close, or a server that gave up). 0 = right after the headers.
   */
  | { kind: 'cut'; afterEvents: number; how?: 'reset' | 'close' }
  /** The selected events are not delivered (a lossy replay, or a drop while connected). */
  | { kind: 'withhold'; events: EventSelector }
  /** Each selected event is delivered `ms` later than it would be (later events wait behind it). */
  | { kind: 'delay'; ms: number; events?: EventSelector }
  /**
   * The request's terminal response (result or error) is never delivered; `then`: the stream
   * ends where the result would have been (`end`, default, the fixture's dropped-result) or
   * stays open (`keep-open`: the call hangs until the client's timeout).
   */
  | { kind: 'drop-result'; then?: 'end' | 'keep-open' }
  /**
   * The next resume (GET with Last-Event-ID) is answered 404 (the SDK's "Session not found"),
   * 409 ("Stream already has an active connection") or with an empty event stream (`empty`: 200,
   * no events; `then` says whether it ends at once, like the Python SDK's evicted cursor, or stays
   * open).
   */
  | { kind: 'answer-resume'; answer: 404 | 409 | 'empty'; then?: 'end' | 'keep-open' }
  /** The session is gone from the matching request on: it and every later request of the session get 404. */
  | { kind: 'expire-session' };

export type FaultKind = FaultAction['kind'];

/**
 * Which HTTP exchanges a fault applies to. Every criterion given must hold. For a resume (GET with
 * Last-Event-ID) `method`, `tool` and `requestId` are those of the request whose stream it resumes,
 * when the injector knows it.
 */
export interface FaultMatch {
  /** JSON-RPC method, e.g. `tools/call`, `subscriptions/listen`. */
  method?: string;
  /** Tool name (`params.name` of a `tools/call`). */
  tool?: string;
  /** A substring of the request URL. */
  url?: string;
  /** JSON text of the JSON-RPC id: `2`, `"abc"` (1 and "1" differ, as in the analysis). */
  requestId?: string;
  /**
   * `request`: a POST carrying the request (default, except for answer-resume); `resume`: a GET
   * with Last-Event-ID (default for answer-resume); `standalone`: a GET without Last-Event-ID;
   * `any`.
   */
  on?: 'request' | 'resume' | 'standalone' | 'any';
  /** Protocol era from the request's MCP-Protocol-Version: `modern` = 2026-07-28 or later. */
  era?: 'legacy' | 'modern';
}

export interface FaultSpec {
  action: FaultAction;
  match?: FaultMatch;
  /** How many matching exchanges it applies to: default 1 (the next one), or `always`. */
  times?: number | 'always';
  /** Shown with the fault (console, panel toolbar, records). */
  label?: string;
}

/** A fault that cannot be used, with one line saying why. */
export class FaultSpecError extends Error {
  override readonly name = 'FaultSpecError';
  constructor(message: string) {
    super(message.replace(/\s*\n\s*/g, ' '));
  }
}

const count = z.number().int().min(0).max(1e9);
const position = z.number().int().min(1).max(1e9);
const text = z.string().min(1).max(2000);

const selector = z
  .strictObject({
    from: position.optional(),
    to: position.optional(),
    ids: z.array(z.string().max(2000)).min(1).max(10_000).optional(),
    methods: z.array(text).min(1).max(100).optional(),
  })
  .refine((s) => s.from === undefined || s.to === undefined || s.to >= s.from, { message: '"to" is before "from"' });

const action = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('cut'), afterEvents: count, how: z.enum(['reset', 'close']).optional() }),
  z.strictObject({ kind: z.literal('withhold'), events: selector }),
  z.strictObject({ kind: z.literal('delay'), ms: z.number().min(0).max(3_600_000), events: selector.optional() }),
  z.strictObject({ kind: z.literal('drop-result'), then: z.enum(['end', 'keep-open']).optional() }),
  z.strictObject({
    kind: z.literal('answer-resume'),
    answer: z.union([z.literal(404), z.literal(409), z.literal('empty')]),
    then: z.enum(['end', 'keep-open']).optional(),
  }),
  z.strictObject({ kind: z.literal('expire-session') }),
]);

const match = z.strictObject({
  method: text.optional(),
  tool: text.optional(),
  url: text.optional(),
  requestId: text.optional(),
  on: z.enum(['request', 'resume', 'standalone', 'any']).optional(),
  era: z.enum(['legacy', 'modern']).optional(),
});

const spec = z.strictObject({
  action,
  match: match.optional(),
  times: z.union([z.number().int().min(1).max(1e9), z.literal('always')]).optional(),
  label: z.string().max(200).optional(),
});

export const FAULT_KINDS: readonly FaultKind[] = ['cut', 'withhold', 'delay', 'drop-result', 'answer-resume', 'expire-session'];

function describeIssue(err: z.ZodError, where: string): string {
  const issue = err.issues[0];
  if (!issue) return `${where}: invalid fault`;
  const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '');
  let msg = issue.message;
  if (path === 'action.kind' || (issue.code === 'invalid_union' && path === 'action')) return `${where}: action.kind: must be one of ${FAULT_KINDS.join(', ')}`;
  if (issue.code === 'unrecognized_keys') msg = `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`;
  return `${where}: ${path ? `${path}: ` : ''}${msg}`;
}

/** Validates one fault or a list of them (parsed JSON); throws FaultSpecError naming the field. */
export function validateFaults(v: unknown): FaultSpec[] {
  const list = Array.isArray(v) ? v : [v];
  if (list.length > 100) throw new FaultSpecError(`${list.length} faults: at most 100`);
  return list.map((item, i) => {
    const where = list.length > 1 || Array.isArray(v) ? `fault ${i + 1}` : 'fault';
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new FaultSpecError(`${where}: expected an object with an "action"`);
    const r = spec.safeParse(item);
    if (!r.success) throw new FaultSpecError(describeIssue(r.error, where));
    return r.data as FaultSpec;
  });
}

export { defaultOn, isModernVersion } from './era';

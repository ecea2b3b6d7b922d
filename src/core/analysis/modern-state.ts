// State of the two eras (issue 12), what the push-time stages eras.ts and modern.ts write and
// derivation reads: the era of each server (origin + endpoint) with its evidence, the facts of a
// 2026-07-28 conversation (its client, the tools' Mcp-Param declarations) and of each request's
// answer (resultType, requestState, error code). Types only.
// (It imports nothing of state.ts, which holds these: no import cycle, type-only included.)
import type { Era } from '../model';

/**
 * What the capture shows a server doing, one flag per kind of evidence (the first occurrence of
 * each is kept in words). `served` kinds are answers a server of that era gives; `refused` kinds
 * are the answers of a server of the other era.
 */
export type EraEvidenceKind =
  /** modern served: server/discover answered, a 2026-07-28 request answered */
  | 'discover'
  | 'modern-result'
  /** modern: -32020 / -32021 answers (a 2026-07-28 server checked the request) */
  | 'modern-error'
  /** modern-only: a 2025 request refused with -32022 naming only 2026-07-28+ versions */
  | 'legacy-refused'
  /** legacy served: initialize answered, Mcp-Session-Id issued, a standalone GET stream served */
  | 'initialize'
  | 'session'
  | 'get-stream'
  /** GET or DELETE answered 405 (a modern server, or a stateless legacy one) */
  | 'get-405'
  /** legacy-only: a 2026-07-28 request answered 4xx without a 2026-07-28 error (the SDK's fallback signal) */
  | 'modern-refused';

export interface ServerState {
  endpoint: string;
  origin: string;
  kinds: Set<EraEvidenceKind>;
  /** The first occurrence of each kind, in words, in capture order. */
  evidence: string[];
  /** Its sessions and sessionless groups (keys), in the order they began. */
  sessionKeys: string[];
}

/** A 2026-07-28 conversation: endpoint + client + the document that sent it. */
export interface ConversationState {
  client?: { name: string; version?: string };
  src: string;
  /** From tools/list results: per tool, its arguments declared `x-mcp-header` and the header name. */
  paramHeaders?: Map<string, [arg: string, header: string][]>;
}

/** The error a request was answered with (its own id, or `id: null` on its own POST). */
export interface ErrorAnswer {
  code?: number;
  message?: string;
  data?: unknown;
  /** Answered with `id: null`: not linked as the request's response (a 400 before the server read it). */
  nullId?: boolean;
}

/** Per request: the modern era's facts about it, kept at push time. */
export interface ReqFacts {
  era: Era;
  /** Request headers that disagree with the body, in words (visible in the capture). */
  headerIssues?: string[];
  /** It carried Mcp-Session-Id although it speaks 2026-07-28. */
  sessionHeader?: string;
  resultType?: string;
  /** input_required: the requestState to echo back, and the names of its input requests. */
  requestState?: string;
  inputRequests?: string[];
  error?: ErrorAnswer;
  /** subscriptions/listen: when it was acknowledged, and the change notifications it delivered. */
  acknowledged?: number;
  changes?: number;
  /** The acknowledgement's honoured filter (`params.notifications`), its ord and event (issue 19). */
  honoured?: unknown;
  ackOrd?: number;
  ackAt?: [streamId: string, index: number];
  /** Params without `_meta` as JSON (re-issues have the same), made once. */
  key?: string;
  /** Issue 19 (both eras): the client's side of the request, kept at push time (client-facts.ts). */
  c?: ClientFacts;
}

/** Where a response the client did not read sits (a named SSE event), and why. */
export interface Untaken {
  streamId: string;
  index: number;
  ord: number;
  /** The SSE event type it came in (not `message`). */
  event: string;
}

/** Per request, both eras: what the client did with it and what it got (issue 19). */
export interface ClientFacts {
  /** When the client sent notifications/cancelled for it (the start of the POST that carried it). */
  cancelledAt?: number;
  /** Its response, in an event type SDK clients ignore (it is not the request's response). */
  untaken?: Untaken;
  /** Cumulative notifications delivered twice before its response: [stream, index, id]. */
  dups?: [string, number, string | undefined][];
  /** Data of its cumulative notifications, per connection that first delivered it (re-sent under another id). */
  seen?: Map<string, string>;
  /** tools/list: per tool, its annotations (readOnlyHint, destructiveHint, idempotentHint). */
  tools?: Map<string, ToolHints>;
}

export interface ToolHints {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
}

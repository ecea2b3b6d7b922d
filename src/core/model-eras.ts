// The analysis model of the two eras (issue 12): a session's and a server's era, the links of a
// 2026-07-28 conversation (re-issues, MRTR retries) and its subscriptions. Plain data; model.ts
// re-exports it.

/**
 * The era a session (or sessionless group) speaks: `legacy` = the 2025 revisions (initialize,
 * Mcp-Session-Id, GET streams, Last-Event-ID); `modern` = 2026-07-28 (server/discover, per-request
 * `_meta`, no session, no resumption). A server (origin + endpoint) may serve both: `dual`.
 */
export type Era = 'legacy' | 'modern';
export type ServerEra = Era | 'dual' | 'unknown';

/** One server (origin + endpoint) and the era(s) the capture shows it serving, with the evidence. */
export interface ServerInfo {
  endpoint: string;
  origin: string;
  era: ServerEra;
  /** What shows it, in plain words, first seen first ("server/discover answered: supportedVersions 2026-07-28"). */
  evidence: string[];
  /** Its sessions and sessionless groups (Session.key), in the order they began. */
  sessionKeys: string[];
}

/**
 * A link between two requests of a modern conversation, drawn in the timeline the way a reconnect
 * is for the legacy era: `reissue` = `to` re-issues `from` after `from`'s response stream broke
 * (same method and params, a new id); `mrtr` = `to` is the retry that answers `from`'s
 * `input_required` result (carrying its `requestState`).
 */
export interface RequestLink {
  /** `carried`: `to` (a later request, or the page's answer) carries text of `from`'s lossy, unverifiable or partial output (issue 19). */
  kind: 'reissue' | 'mrtr' | 'carried';
  /** Request ids (JSON text) and the streams that carried them. */
  from: string;
  fromStreamId: string;
  to: string;
  toStreamId: string;
  /** When `from` ended (its stream broke, or its input_required result arrived) and when `to` was sent. */
  t0: number;
  t1: number;
  /** mrtr: the retry's requestState differs from the one the server returned. */
  stateAltered?: boolean;
  /** carried: characters carried over, and the whole sentence ("request 7's arguments carry 312 characters of request 2's lossy result"). */
  chars?: number;
  label?: string;
}

/**
 * A `subscriptions/listen` stream (2026-07-28): its acknowledgement, how it ended and, when it
 * dropped (no `complete` result), the outage: from the drop to the next listen of the conversation,
 * or to the end of the capture. Change notifications sent in it are lost by design.
 */
export interface SubscriptionInfo {
  requestId: string;
  streamId: string;
  start: number;
  /** Time of `notifications/subscriptions/acknowledged`. */
  acknowledged?: number;
  end?: number;
  /**
   * open: still listening; complete: ended with its `complete` result; closed: the client closed it;
   * dropped: ended without the result; refused: the server answered it with an HTTP error status or
   * a JSON-RPC error (before any acknowledgement the client never listened; after one, the error
   * ended a listen that was on); unknown: ended without a result the capture shows, but the capture
   * does not hold all of its stream (a capture-gap names it): whether it was dropped is unknown.
   */
  state: 'open' | 'complete' | 'closed' | 'dropped' | 'refused' | 'unknown';
  /** For a refused listen: the HTTP status (400 or more), or the JSON-RPC error's code and message. */
  refusal?: { status?: number; code?: number; message?: string };
  /** What it listens for: the lists (`tools/list`…) and resources (`resources/read <uri>`) whose changes it reports. */
  lists: string[];
  /** Change notifications it delivered. */
  changes: number;
  outage?: { from: number; to?: number; relistenRequestId?: string };
  /** A dropped listen with no outage: another listen for all of its lists was open when it dropped (its request id). */
  coveredBy?: string;
}

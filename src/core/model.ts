// The analysis model: what the core derives from CaptureRecords and what the panel, the CLI and
// the exporters read. Plain data (JSON-serialisable), so a snapshot can cross any boundary.
import type { Era, RequestLink, ServerInfo, SubscriptionInfo } from './model-eras';
import type { FindingCode, Severity } from './model-codes';
import type { InjectedBy, InjectedFault } from './model-faults';
import type { EventList } from './event-list';
import type { NotificationList } from './notification-list';

export type { JsonRpcSummary, SseEvent } from './model-events';

export type * from './model-eras';
export type * from './model-codes';
export type * from './model-faults';

export interface Finding {
  code: FindingCode;
  severity: Severity;
  /** Session key (see Session.key). */
  sessionKey: string;
  /** Mcp-Session-Id, or null for sessionless traffic. */
  sessionId: string | null;
  streamId?: string;
  /** Other streams involved (the cut stream of a reconnect, the stream whose events leaked). */
  relatedStreamIds?: string[];
  /** JSON-RPC id of the request concerned, as JSON text (1 and "1" differ: `1` vs `"1"`). */
  requestId?: string;
  /** Other requests of the session the finding is about, which list its code too (a re-issue and the request it re-issues). */
  relatedRequestIds?: string[];
  /** Event ids concerned: delivered ids, or the missing ones for gaps. */
  eventIds: string[];
  /** For gaps: the missing ids described as ranges, e.g. "12–13". */
  missing?: string;
  /** Index of the event the finding is anchored at (into Stream.events), for "show in timeline". */
  eventIndex?: number;
  /** Plain-words explanation. */
  message: string;
  /**
   * Live capture only: the finding may still change (e.g. a gap that another open stream of the
   * session could still fill). Never set after `finish()`.
   */
  pending?: boolean;
  /**
   * The finding is explained by a fault injected on purpose (from the panel, or serve --fault):
   * the loss or the answer came from it, not from the server (src/core/faults/attribution.ts).
   */
  injected?: InjectedBy;
}


/**
 * contiguous: a counter whose gaps can be proven; sparse: increasing, holes by design (order can
 * be checked); opaque: neither; none: no ids; undetermined: too few ids to tell (one).
 */
export type IdSchemeKind = 'contiguous' | 'sparse' | 'opaque' | 'none' | 'undetermined';

export interface IdScheme {
  kind: IdSchemeKind;
  /**
   * Whether counters are shared by all streams of the session, per stream (prefix), or shared by
   * several sessions of the server (ids missing in one were delivered in another: order only).
   */
  scope?: 'session' | 'stream' | 'server';
  /** Plain words: why this scheme was inferred, with examples. */
  evidence: string;
  /** Set when the user overrode inference for this origin. */
  override?: string;
  /**
   * The user's pattern the analysis reads the session's ids with (makeIdParser: its `counter`
   * and `stream` groups), set with `override` when the override has one. Whatever compares the
   * session's ids (a range of them) reads them so too; `override` alone does not say, as it
   * holds the scheme's kind when the override gives no pattern.
   */
  pattern?: string;
  /**
   * The analysis reads the fixed-width field ending the session's ids as a hexadecimal counter
   * (parseIdHex): an id of the session holds a digit a–f there. Whatever compares the session's
   * ids (a range of them) reads them so too.
   */
  hex?: true;
}



export type StreamKind = 'post' | 'get' | 'resume' | 'eventsource' | 'xhr' | 'other';
export type StreamState = 'open' | 'complete' | 'aborted' | 'error' | 'unread' | 'unknown';

export interface Stream {
  id: string;
  sessionKey: string;
  kind: StreamKind;
  method: string;
  url: string;
  status?: number;
  contentType?: string;
  requestHeaders: [string, string][];
  responseHeaders: [string, string][];
  /** JSON-RPC ids of requests carried in the POST body. */
  requestIds: string[];
  /** Last-Event-ID sent, if any. */
  lastEventIdSent?: string;
  /** The stream this one resumes (found by the Last-Event-ID). */
  resumes?: string;
  /** Streams that resumed this one. */
  resumedBy: string[];
  start: number;
  end?: number;
  state: StreamState;
  endReason?: string;
  /**
   * The stream's events at this snapshot, read by index (`at`, or a one-fact reader such as
   * `time`): the analysis keeps them as columns, and taking a snapshot copies nothing.
   */
  events: EventList;
  /** Number of events at this snapshot (= events.length). */
  eventCount?: number;
  comments: number;
  bytes: number;
  /** Analysis of this stream is incomplete because the inspector lost records. */
  captureIncomplete?: boolean;
  transport: string;
  /** First stream of the reconnect chain this stream belongs to (itself when not a resume). */
  chainRoot?: string;
  /** The last-event-id cursor at the end of what was received on this connection. */
  lastCursor?: string;
  /** Last `retry:` value the server sent on this stream. */
  retry?: number;
}

/** One reconnect chain: a stream that was cut and the streams that resumed it, in order. */
export interface ReconnectChain {
  rootStreamId: string;
  /** JSON-RPC ids (JSON text) of the requests the chain carries (empty for a GET stream). */
  requestIds: string[];
  segments: {
    streamId: string;
    /** Last-Event-ID the client sent to open this segment (undefined for the first). */
    resumedFrom?: string;
    /** First and last event id received on the segment. */
    firstId?: string;
    lastId?: string;
    events: number;
    state: StreamState;
    status?: number;
  }[];
}

/** `duplicated`: the result arrived after cumulative notifications delivered twice (extra parts). */
export type Verdict = 'complete' | 'complete-unverified' | 'lossy' | 'duplicated' | 'incomplete' | 'pending';

export interface RequestInfo {
  /** JSON text of the id. */
  id: string;
  method: string;
  params?: unknown;
  progressToken?: string;
  /** Stream that carried the request (the POST). */
  streamId: string;
  /** Stream where the terminal response arrived. */
  responseStreamId?: string;
  response?: 'result' | 'error';
  verdict: Verdict;
  /**
   * Notifications linked to this request: [streamId, eventIndex] by position (`streamAt`,
   * `indexAt`; JSON gives the pairs). A view of the analysis' columns at this snapshot:
   * `notificationCount` is its length.
   */
  notifications: NotificationList;
  notificationCount?: number;
  cumulativeCount: number;
  findings: FindingCode[];
  start: number;
  end?: number;
  /** 2026-07-28: the `resultType` of its result (`complete`, `input_required`). */
  resultType?: string;
  /** The request this one re-issues after its stream broke / the one that re-issued this. */
  reissueOf?: string;
  reissuedAs?: string;
  /** MRTR: the input_required result this request retries / the retry that answered this one's input_required. */
  retryOf?: string;
  retriedAs?: string;
  /** Issue 19: the earlier request whose lossy, unverifiable or partial output this request carries / a later request that carries this one's. */
  carriesFrom?: string;
  carriedInto?: string;
}

export interface Session {
  /**
   * Mcp-Session-Id; `endpoint:<url>` for sessionless 2025 traffic (a stateless server);
   * `conversation:<url> <client> <source>` for a 2026-07-28 conversation (endpoint, the client its
   * requests' `_meta` name, the page document that sent them).
   */
  key: string;
  sessionId: string | null;
  endpoint: string;
  origin: string;
  /** The era its traffic speaks, and why (one line). */
  era: Era;
  eraEvidence: string;
  /** Modern conversations: the client named by its requests' `_meta` clientInfo. */
  client?: { name: string; version?: string };
  protocolVersion?: string;
  idScheme: IdScheme;
  gaplessDeclared: boolean;
  lossless: boolean;
  /** Why lossless is false, in plain words. */
  losslessReasons: string[];
  streamIds: string[];
  requestIds: string[];
  worst?: Severity;
  /** Reconnect chains (only chains with at least one resume). */
  chains?: ReconnectChain[];
  /** Modern conversations: re-issues and MRTR retries, in the order they were sent. */
  links?: RequestLink[];
  /** Modern conversations: `subscriptions/listen` streams, with their outage windows. */
  subscriptions?: SubscriptionInfo[];
  /** Where protocolVersion came from. */
  protocolVersionSource?: 'initialize-result' | 'header' | 'initialize-request' | 'request-meta';
}

/**
 * One thing the capture itself says about its health: the records of one capture source lost for
 * one reason (a gap), or one notice (hook bypassed, extension reloaded, what an imported file
 * lacks). Repeats are counted, not listed.
 */
export interface CaptureHealthItem {
  kind: 'gap' | 'notice';
  level: Severity;
  /** `capture-gap:<reason>` for gaps, the notice's code otherwise. */
  code: string;
  /** Capture source (`panel` / `panel-store`: the panel itself). */
  src: string;
  /** First and last time it happened. */
  t: number;
  tLast: number;
  count: number;
  /** Gaps: records they count (0: unknown), and connections they name. */
  lost: number;
  conns: number;
  /** Not the inspector's loss: records not kept by the user's setting, or a file without the body. */
  notLost: boolean;
  message: string;
}

/** What the inspector lost or did not keep, and its notices: the same in the panel, the report and `audit`. */
export interface CaptureHealth {
  /** Records the inspector lost (buffer cap, size cap, eviction, reload...). */
  lost: number;
  /** Records not kept because recording began only when DevTools opened (the user's setting). */
  notKept: number;
  /** Responses an imported file holds no body for. */
  bodiesAbsent: number;
  /** Gaps whose size is unknown (an extension reload). */
  unknownLoss: number;
  /** MCP requests the browser's network view saw and the capture hook did not (the network witness). */
  unseen: number;
  worst?: Severity;
  /** Worst first, then in time order. */
  items: CaptureHealthItem[];
}

export interface AnalysisSnapshot {
  version: 1;
  /** Increases with every change; equal revisions mean the same snapshot object. */
  revision?: number;
  /** `finish()` was called: open streams are pending, not errors. */
  finished?: boolean;
  sessions: Session[];
  /** Servers (origin + endpoint) and their era, in the order they were first seen. */
  servers: ServerInfo[];
  streams: Record<string, Stream>;
  requests: Record<string, RequestInfo[]>; // by session key
  findings: Finding[];
  /** Navigations and the inspector's own capture gaps, for drawing boundaries. */
  markers: { t: number; kind: 'navigation' | 'capture-gap'; text: string }[];
  recordCount: number;
  /** Capture health: what the inspector lost or did not keep, and its notices. */
  capture: CaptureHealth;
  /** Faults injected on purpose (from the panel, or serve --fault), in capture order. */
  faults?: InjectedFault[];
}

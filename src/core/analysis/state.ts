// The analyzer's state: sessions, streams, requests, id readings and lost records, what the
// push-time stages (connections, sessions, events, event ids, capture gaps, lost ids) write and
// derivation reads. Types only (the public model is model.ts); AnalyzerState (analyzer-state.ts)
// holds it all.
import type { Header } from '../record';
import type { Era, Finding, FindingCode, SseEvent, StreamKind, StreamState } from '../model';
import type { SseBlock, SseConnectionParser } from '../sse';
import type { IdIndex } from './id-index';
import type { EventStore } from './event-store';
import type { NotificationList, NotificationStore } from '../notification-list';
import type { IdTrack } from './id-track';
import type { DecodedMessage } from '../jsonrpc';
import type { IdSchemeOverride, IdStats, IntervalSet, ParsedId } from '../ids';
import type { ConversationState, ReqFacts, ServerState } from './modern-state';
import type { SessionLossFacts, StreamLossFacts } from './loss-facts';
export type { IdTrack } from './id-track';

/** Session key of findings of no session (capture gaps outside any stream). */
export const NO_SESSION = '';

/** What a response's body is captured as. */
export type Capture = 'sse' | 'json' | 'none' | 'unknown';

/** A finding in a list, with its capture order. `f` is a value: a finding that grows gets a new one (Growing). */
export interface OrdFinding {
  ord: number;
  f: Finding;
}

/**
 * A finding that grows after it was listed (a run of events, a capture gap's note): the stage that
 * changes it marks it stale; `make` remakes its value (a new object) before the next snapshot.
 */
export interface Growing {
  entry: OrdFinding;
  make(): Finding;
  stale: boolean;
}

export interface ReqState {
  id: string;
  method: string;
  params?: unknown;
  /** The client sent notifications/cancelled for it. */
  cancelled?: boolean;
  progressToken?: string;
  stream: StreamS;
  ord: number;
  start: number;
  end?: number;
  response?: 'result' | 'error';
  responseStream?: StreamS;
  responseOrd?: number;
  /** Index of the event that carried the response (in responseStream.events). */
  responseIndex?: number;
  notifications: NotificationStore;
  /** The last view of `notifications` a snapshot showed (the same while they do not grow). */
  notificationsView?: NotificationList;
  cumulative: number;
  /** Cumulative notifications received a second time (replayed duplicates) before the response. */
  dupCumulative?: number;
  lastProgress?: number;
  /** Its era and what its answer says (resultType, requestState, error): modern-state.ts. */
  x: ReqFacts;
}

/** A capture-gap finding whose message grows: what the resync after the loss dropped per stream, streams seen after it. */
export interface GapNote extends Growing {
  s: SessionState | undefined;
  /** The finding being written (never published itself: its values are copies). */
  draft: Finding;
  base: string;
  parts: string[];
  more: number;
  /** `not-recording`: the user's setting, not a loss by the inspector. */
  benign: boolean;
  /** What the gap's records were, in words, and when they were read at the latest (lost-ids.ts). */
  what?: string;
  tHi?: number;
}

/** Contiguous events of one connection reported by one finding (e.g. a replay of another stream). */
export interface FindingRun extends Growing {
  code: FindingCode;
  /** The other stream (or request) the events belong to. */
  rel: string;
  requestId?: string;
  lastIndex: number;
  ids: string[];
  render: (ids: string[], n: number) => string;
  note?: string;
}

export interface Candidate {
  kind: 'live' | 'replay' | 'reorder' | 'cross-prefix';
  stream: StreamS;
  eventIndex: number;
  ord: number;
  prefix: string;
  width: number;
  /** The counter is read in base 16 (see IdView). */
  hex?: true;
  from: number;
  to: number;
  id: string;
  prevId?: string;
  /** The first event of a resume, compared with the Last-Event-ID sent. */
  atResume?: boolean;
  /** Ord of what came before the missing ids (previous event on the connection / the resume). */
  prevOrd: number;
}

/**
 * One reading of a session's ids: its statistics, gap candidates and per-stream tracks. Every
 * session has the main one (generic decimal parse, or the user's override). A session whose ids end
 * in a fixed-width field also gets a hexadecimal one, fed with the same ids; a fixed-width field is
 * ambiguous until one holds a digit a–f, so the reading is chosen on the whole session at snapshot
 * time (hexadecimal once any id of the session holds a–f there).
 */
export interface IdView {
  stats: IdStats;
  candidates: Candidate[];
  parse: (id: string) => ParsedId | null;
  hex: boolean;
  /** Per-stream tracks; absent for the main view (a StreamS is its own track). */
  tracks?: Map<StreamS, IdTrack>;
}

export interface StreamS extends StreamLossFacts {
  id: string;
  kind: StreamKind;
  method: string;
  url: string;
  transport: string;
  requestHeaders: Header[];
  responseHeaders: Header[];
  status?: number;
  contentType?: string;
  requestIds: string[];
  lastEventIdSent?: string;
  resumes?: StreamS;
  resumedBy: string[];
  start: number;
  respondedAt?: number; blockedMs?: number; stallFound?: boolean; // response record's time; an imported HAR entry's timings.blocked; a request-stalled finding names it (stalls.ts)
  end?: number;
  state: StreamState;
  endReason?: string;
  events: EventStore;
  comments: number;
  bytes: number;
  captureIncomplete: boolean;
  /**
   * The imported file holds no body for this connection (a HAR entry whose event-stream body was
   * not saved: HAR writers omit bodies of aborted or cut streams). Its events are unknown, which
   * is not the same as an empty stream.
   */
  bodyAbsent?: boolean;
  /** Ord reserved for its capture-gap finding (decided at snapshot time: what depends on it). */
  absentOrd?: number;
  /** Records of this connection were not kept because recording was off (`not-recording`). */
  notRecorded?: boolean;
  /** Opened by a request in the capture without Last-Event-ID: carries only events made after it. */
  fresh?: boolean;
  /** Its request is not in the capture (its session and chain are unknown). */
  orphan?: boolean;
  /** A resume whose cursor the capture never saw, linked by a guess (see linkResume). */
  linkGuessed?: boolean;
  /** Stretches of its records the capture does not hold, and their bounds (lost-ids.ts). */
  lost?: LostPart[];
  lostRev?: number;
  /** Parts still waiting for the next body record / the next kept id of this connection. */
  lostAwaitT?: LostPart[];
  lostAwaitId?: LostPart[];
  /** The last id kept on this connection (not a duplicate, not a priming event). */
  lastKept?: ParsedId;
  /**
   * The capture-gap finding that reports what the parser's resync after a loss dropped; its
   * message gets the counts once the resync found an event boundary (or the stream ended).
   */
  resyncNote?: { note: GapNote; before: number };
  /** Chunks the size cap cut (droppedBytes) and their finding. */
  cuts?: number;
  cutBytes?: number;
  cutNote?: GapNote;
  /** The next id follows lost records: it is not compared with the id before them. */
  afterGap?: boolean;
  /** How many times records of it were lost (the hexadecimal reading's tracks compare it, see IdTrack). */
  gaps?: number;
  /** EventSource: the browser's lastEventId may have changed in lost events. */
  esUnknown?: boolean;
  /** On a chain root: the page may have received ids the capture does not hold since chainCursor. */
  cursorUnknown?: boolean;
  /** The event being pushed is a same-chain duplicate (replay-duplicate) and its finding. */
  dupEv?: SseEvent;
  dupRun?: FindingRun;
  /** The open run of one finding code over contiguous events of this connection (grouping). */
  run?: FindingRun;
  retry?: number;
  /** The request streams the same document sent to the same endpoint before and after it. */
  next?: StreamS;
  prev?: StreamS;

  ord: number;
  endOrd?: number;
  session?: SessionState;
  sessionHeader?: string;
  deferSession: boolean;
  bodyMessages: DecodedMessage[];
  capture: Capture;
  parser?: SseConnectionParser;
  json: string[];
  root: StreamS;
  segments: StreamS[];
  requests: ReqState[];
  isResume: boolean;
  resumeBase?: ParsedId | null;
  sawId: boolean;
  /** First and last (non-duplicate) ids delivered on this connection. */
  firstId?: string;
  lastId?: string;
  lastIdOrd?: number;
  lastParsed?: ParsedId;
  cursor?: string;
  chainCursor?: string;
  esLastId?: string;
  messages: number;
  resyncOrds: number[];
  crossOrds: number[];
  /** On a chain root: counters delivered on the chain, per prefix (for servers that reuse ids). */
  chainIds: Map<string, IntervalSet>;
  /** The chainIds entry used last (ids come in runs of one prefix). */
  chainLast?: { prefix: string; set: IntervalSet };
  /** Changed since the last snapshot. */
  dirty: boolean;
  /** The last SSE block of the connection and its event's index (see SseConnectionParser.extended). */
  lastBlock?: SseBlock;
  lastEvIndex?: number;
}

export interface LostPart {
  /** The connection whose records were lost; undefined when the capture cannot name it. */
  stream?: StreamS;
  /** May belong to any session: an unnamed connection, or one whose request (hence session) is lost. */
  global: boolean;
  /** In words, for messages: "records of tab1:c3 lost by the inspector (buffer-cap)". */
  what: string;
  /** The last id kept on the connection before the stretch, and the first kept after it. */
  lo?: ParsedId;
  hi?: ParsedId;
  /** The lost records were read no later than this (Infinity: unknown). */
  tHi: number;
  /** Their events were made no earlier than this (-Infinity: unknown). */
  genLo: number;
  /** Bounded by the connection's end, not its next body record (a whole connection of unknown session). */
  untilEnd?: boolean;
  /**
   * The Last-Event-ID a resume of this connection sent: the last id the client read on it, so
   * what it carried ended there (ids of that counter after it cannot be in the stretch).
   */
  upTo?: string;
}

/** Stretches of records the capture does not hold (implemented in lost-ids.ts). */
export interface LostIds {
  /** Parts that may belong to any session. */
  readonly global: LostPart[];
  /**
   * Records of `st` (or, without `st`, of connections the capture cannot name) were lost here,
   * read no later than `tHi`. A stretch that follows another of the same connection with no id
   * kept in between extends it (one part per stretch between kept ids).
   */
  add(st: StreamS | undefined, what: string, tHi: number, global?: boolean): void;
  /**
   * A body record (chunk, EventSource event, end) of `st` read at `t` after which its text is whole
   * again (the SSE parser's resync after a loss is over): its earlier parts were read by then,
   * the text the resync dropped included.
   */
  bodyRecord(st: StreamS, t: number): void;
  /** An id kept on `st` (not a duplicate, not a priming event): bounds its earlier parts. */
  keptId(st: StreamS, p: ParsedId): void;
  /**
   * `st`'s request is not in the capture, so its session is unknown: the ids it delivers are
   * counted in the session it was guessed into, yet may be another's. For every session they are
   * ids it may have missed in the capture, from its first record until it ends.
   */
  unknownSession(st: StreamS): void;
  /** `st` ended at `t`. */
  ended(st: StreamS, t: number): void;
  /** A resume of `st` sent Last-Event-ID `cursor`: the client read nothing on `st` after it. */
  resumedFrom(st: StreamS, cursor: string): void;
  /** Changes whenever a part `s` may use changes (part of the derivation's cache key). */
  rev(s: SessionState): number;
}

/** Sessions of one MCP endpoint (origin + path): their ids may come from one server-wide counter. */
export interface EndpointState {
  sessions: SessionState[];
  /**
   * Ids delivered afresh (on streams that are no resume) in two sessions: the server numbers each
   * session on its own, so an id seen in another session says nothing about this one.
   */
  reuse: number;
}

/** An event a resumed stream of this session delivered that another session had received afresh. */
export interface CrossSessionHit {
  stream: StreamS;
  index: number;
  ord: number;
  /** The other session's stream that delivered it first. */
  other: StreamS;
}

export interface SessionState extends SessionLossFacts {
  key: string;
  sessionId: string | null;
  endpoint: string;
  origin: string;
  protocolVersion?: string;
  pvRank: number;
  gaplessDeclared: boolean;
  streams: StreamS[];
  requests: ReqState[];
  requestById: Map<string, ReqState>;
  progress: Map<string, ReqState>;
  /** Event id -> the stream that first delivered it. */
  idIndex: IdIndex<StreamS>;
  stats: IdStats;
  override?: IdSchemeOverride;
  parse: (id: string) => ParsedId | null;
  candidates: Candidate[];
  findings: OrdFinding[];
  resumes: StreamS[];
  resyncOrds: number[];
  captureGap: boolean;
  /** Some of its records were not kept because recording was off (`not-recording`). */
  notRecorded?: boolean;
  expired?: boolean;
  idReuse: number;
  /** The main reading of its ids (stats, candidates, parse) and the hexadecimal one, if any. */
  main: IdView;
  hex?: IdView;
  /** An id of the session holds a digit a–f in its fixed-width field: the hexadecimal reading applies. */
  hexSeen?: string;
  /** A digits-only fixed-width field whose hexadecimal and decimal readings differ (e.g. "…0010"). */
  radixDiffers?: string;
  /** Other sessions of its endpoint, and what resumes of this session received from them. */
  ep?: EndpointState;
  crossIn?: CrossSessionHit[];
  /** Legacy HTTA+SSE transport: the GET stream that announced this session's POST endpoint. */
  legacyStream?: StreamS;
  /** The era of its traffic; its server (origin + endpoint); a modern conversation's client. */
  era: Era;
  server?: ServerState;
  conv?: ConversationState;
  /** Changed since its last derivation. */
  dirty: boolean;
}

// Internal state of the incremental analyzer (not part of the public model).
import type { RequestRecord, Header } from './record';
import type { Finding, FindingCode, RequestInfo, Session, Severity, SseEvent, Stream, StreamKind, StreamState } from './model';
import type { SseBlock, SseConnectionParser } from './sse';
import type { DecodedMessage } from './jsonrpc';
import type { IdSchemeOverride, IdStats, IntervalSet, ParsedId } from './ids';
import type { IdIndex } from './id-index';
import type { LostPart } from './lost-ids';

/** Session key of findings that belong to no session (capture gaps outside any stream). */
export const NO_SESSION = '';

export type Capture = 'sse' | 'json' | 'none' | 'unknown';

export interface OrdFinding {
  ord: number;
  f: Finding;
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
  notifications: [string, number][];
  cumulative: number;
  /** Cumulative notifications received a second time (replayed duplicates) before the response. */
  dupCumulative?: number;
  lastProgress?: number;
}

/**
 * A capture-gap finding whose message grows with what the SSE parser's resync after the loss
 * dropped on each stream (known only once the next event boundary arrives).
 */
export interface GapNote {
  f: Finding;
  s: SessionState | undefined;
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
export interface FindingRun {
  code: FindingCode;
  /** The other stream (or request) the events belong to. */
  rel: string;
  f: Finding;
  lastIndex: number;
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
  /**
   * Last gap decision (live / replay under a contiguous scheme), kept while nothing it depends on
   * changed: the set it was checked against and that set's `fills`, and the session-level inputs.
   * Saves redoing every old candidate at each snapshot of a live capture.
   */
  memo?: { set: IntervalSet; fills: number; sig: string; gap?: { f: OrdFinding; text: string; code: FindingCode; unverifiable: boolean; absent: StreamS[] } };
}

/**
 * The per-connection state of the id checks (lastParsed and the resume cursor's parse, the chain's
 * delivered counters). A StreamS is its own track for the session's main reading; the hexadecimal
 * reading (IdView) keeps one per stream in a Map.
 */
export interface IdTrack {
  lastParsed?: ParsedId;
  resumeBase?: ParsedId | null;
  lastIdOrd?: number;
  /** On a chain root: counters delivered on the chain, per prefix (for servers that reuse ids). */
  chainIds: Map<string, IntervalSet>;
  chainLast?: { prefix: string; set: IntervalSet };
  /** StreamS.gaps when this track last read an id (the main track uses StreamS.afterGap). */
  gaps?: number;
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

export interface StreamS {
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
  end?: number;
  state: StreamState;
  endReason?: string;
  events: SseEvent[];
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
  /** Records of this connection were lost by the inspector (buffer cap, size cap, reload...). */
  inspectorLost?: boolean;
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
  dirty: boolean;
  /** Finding codes derived at snapshot time, by event index (last derivation). */
  overlay?: Map<number, FindingCode[]>;
  /**
   * `events` is the array the snapshots share (append-only; see Stream.eventCount). At indices
   * carrying derived codes it holds a copy with them; the event as pushed is kept here.
   */
  base?: Map<number, SseEvent>;
  /** The last SSE block of the connection and its event (see SseConnectionParser.extended). */
  lastBlock?: SseBlock;
  lastEv?: SseEvent;
  cached?: Stream;
}

export interface SessionState {
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
  /** An id of another session of the endpoint inside this session's range that it lacks (see derive). */
  sharedWitness?: { other: SessionState; prefix: string; x: number };
  /** Its analysis reads other sessions' ids (a possibly shared counter, ids they delivered): re-derive when they change. */
  sharedCheck?: boolean;
  /** Legacy HTTA+SSE transport: the GET stream that announced this session's POST endpoint. */
  legacyStream?: StreamS;
  dirty: boolean;
  cached?: { session: Session; requests: RequestInfo[]; findings: OrdFinding[] };
  /** Incremental derivation state (derive.ts). */
  inc?: IncState;
}

/**
 * What deriveSession keeps between derivations so that a snapshot of a live capture costs what
 * changed: gap candidates are decided once while `key` (scheme, open streams, id reuse, id sets'
 * hole fills, incomplete streams) stays the same; the session's sorted findings are appended to
 * while the part recomputed each time (resumes, requests) is unchanged.
 */
export interface IncState {
  key: string;
  /** Candidates decided. */
  nCand: number;
  candFindings: OrdFinding[];
  candOverlay: [StreamS, number, FindingCode][];
  /** Per chain root: [ord before the missing ids, ord after, their text, whether they may be in records the capture does not hold]. */
  gapOrds: Map<StreamS, GapLoss[]>;
  gapCount: number;
  /** The first 20 gaps, for the lossless reason (ids certainly never delivered / ids that may be in lost records). */
  gapTexts: string[];
  unvTexts: string[];
  unvCount: number;
  /** Push-time findings (SessionState.findings) already in `out`. */
  nPush: number;
  /** Findings recomputed at each derivation (unverifiable resumes, request verdicts), as in `out`. */
  other: OrdFinding[] | undefined;
  otherText: string;
  reqOv: [StreamS, number, FindingCode][];
  /** All findings of the session in ord order. */
  out: OrdFinding[];
  /** Finding codes per request id, in ord order. */
  reqCodes: Map<string, FindingCode[]>;
  worst?: Severity;
  /** The last cross-prefix finding, extended while the next candidate is the next event. */
  crossRun?: { st: StreamS; idx: number; prefix: string; f: Finding };
  /** Streams the file holds no body for, and the gaps decided so far whose missing ids may be on them. */
  absentDeps: Map<StreamS, string[]>;
}

/**
 * A loss on a chain: [ord before, ord after, missing ids ('' for another stream's events,
 * CROSS_SESSION for another session's), unverifiable].
 */
export type GapLoss = [number, number, string, boolean];
export const CROSS_SESSION = '\u0001session';

export interface ConnState {
  req?: RequestRecord;
  stream?: StreamS;
  ignored?: boolean;
}

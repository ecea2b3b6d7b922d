// The typed result of comparing two runs of one scenario (diffSnapshots). Plain data, JSON-safe:
// `mcp-stream-inspector diff --json` prints it as it is, the MCP server's `diff` tool returns it.
//
// Nothing here is keyed by what changes from run to run (JSON-RPC ids, Mcp-Session-Id, connection
// ids, times, ports): things are named by their *role* in the run (docs/ci.md, "Identity").
import type { Era, FindingCode, ServerEra, Severity, Verdict } from '../model';

/** A session by its role: the n-th session (1-based, in the order they began) of one era at one endpoint. */
export interface SessionRef {
  /** The endpoint (origin + path) on the base side; `head` when it differs (another port, host). */
  endpoint: string;
  era: Era;
  ordinal: number;
}

/** A request by its role: the n-th request (1-based) of its method and tool / prompt name in its session. */
export interface RequestRef {
  /** `tools/call long_task`, `initialize`. */
  name: string;
  method: string;
  /** The tool (tools/call) or prompt (prompts/get) name. */
  target?: string;
  ordinal: number;
}

/**
 * A finding's identity across runs: its code, the session and request it concerns (by role), and
 * for a finding about no request the role of its stream (`GET #1`, `DELETE #1`). A gap's ids are
 * compared only when both runs number events with the same counter scheme (see `ids`).
 */
export interface FindingRef {
  code: FindingCode;
  /** null: a finding of the capture as a whole (no session). */
  session: SessionRef | null;
  request: RequestRef | null;
  /** Role of the stream, for findings that concern no request. */
  stream: string | null;
}

/** One side's copy of a finding: what it said in that run (ids, message) for people to read. */
export interface FindingSide {
  /** Index of the input (file) of that side the finding comes from. */
  input: number;
  severity: Severity;
  message: string;
  sessionId: string | null;
  sessionKey: string;
  /** JSON-RPC id (JSON text) of the request in that run. */
  requestId?: string;
  streamId?: string;
  /** Gaps: the missing ids as ranges (`12–13`). */
  missing?: string;
  eventIds: string[];
}

export interface FindingEntry {
  ref: FindingRef;
  /** The side the finding is on (base for gone, head for new). */
  at: FindingSide;
}

export interface FindingChange {
  ref: FindingRef;
  base: FindingSide;
  head: FindingSide;
  /** What differs: the severity, or (counter-numbered gaps) which ids are missing. */
  what: ('severity' | 'ids')[];
}

/** A matched request whose verdict differs, or a request only one run sent (null on the other side). */
export interface VerdictChange {
  session: SessionRef;
  request: RequestRef;
  base: Verdict | null;
  head: Verdict | null;
  /** JSON-RPC ids (JSON text) in each run, for people to find the request. */
  baseId?: string;
  headId?: string;
  /**
   * The outcome findings (lossy-result-accepted, unverified-result-accepted, result-missing) that
   * appeared or went with this change: they state the verdict, so they are listed here and not
   * again among the findings.
   */
  findings: { new: FindingEntry[]; gone: FindingEntry[] };
}

/** A reconnect chain in summary: how many times it resumed and whether each resume sent Last-Event-ID. */
export interface ResumeSummary {
  resumes: number;
  lastEventId: boolean[];
}

export interface ResumeChange {
  session: SessionRef;
  /** The chain's role: the request it carries (`tools/call long_task #1`) or its first stream's role (`GET #1`). */
  chain: string;
  base: ResumeSummary | null;
  head: ResumeSummary | null;
}

/** A server (endpoint) whose era differs, or that only one run reached (null on the other side). */
export interface ServerEraChange {
  endpoint: string;
  base: ServerEra | null;
  head: ServerEra | null;
}

/** How an endpoint of the base run was paired with one of the head run. Not a difference. */
export interface EndpointPair {
  base: string;
  head: string;
  /** exact: same origin and path; host: same host and path, another port; path: same path only. */
  how: 'exact' | 'host' | 'path';
}

export interface SnapshotDiff {
  version: 1;
  /** Nothing new, gone or changed. */
  same: boolean;
  /** How many differences: every entry of every list below (the pairing of endpoints excluded). */
  count: number;
  endpoints: EndpointPair[];
  findings: {
    new: FindingEntry[];
    gone: FindingEntry[];
    changed: FindingChange[];
    /** Findings both runs have, identical as compared here. */
    unchanged: number;
  };
  verdicts: VerdictChange[];
  resumes: ResumeChange[];
  eras: {
    servers: ServerEraChange[];
    /** Sessions of an endpoint and era only one run has. */
    sessions: { new: SessionRef[]; gone: SessionRef[] };
  };
}

// The whole state of one analyzer (what every push-time stage takes as its first argument): the
// connections, sessions and streams (state.ts), the findings of no session, markers, the capture
// gaps' notes, capture health and the capture-order counter.
import type { RequestRecord } from '../record';
import type { AnalysisSnapshot } from '../model';
import type { ResolvedOptions } from '../options';
import type { CaptureHealthState } from './capture-health';
import type { EndpointState, GapNote, Growing, LostIds, OrdFinding, SessionState, StreamS } from './state';
import type { ServerState } from './modern-state';
import type { ProgressShapes } from '../progress-shape';

export interface ConnState {
  req?: RequestRecord;
  stream?: StreamS;
  ignored?: boolean;
}

/** The whole state of one analyzer: every push-time stage takes it as its first argument. */
export interface AnalyzerState {
  opts: ResolvedOptions;
  resync: Set<string>;
  isCumulative: (method: string) => boolean;
  /** Connections by connKey(src, conn). */
  conns: Map<string, ConnState>;
  sessions: Map<string, SessionState>;
  /** Sessions with an Mcp-Session-Id, per endpoint (origin + path). */
  endpoints: Map<string, EndpointState>;
  streamsById: Map<string, StreamS>;
  streamOrder: StreamS[];
  /** Findings of no session (capture gaps outside any stream). */
  globalFindings: OrdFinding[];
  markers: AnalysisSnapshot['markers'];
  /** Connections some gap record listed, and the capture-gap finding of each (for streams seen later). */
  gapConns: Set<string>;
  gapNotes: Map<string, GapNote>;
  /** Legacy HTTP+SSE transport: POST endpoint URL announced by an `endpoint` event -> session. */
  legacyAlias: Map<string, SessionState>;
  /** Capture order of findings and stream ends. */
  ord: number;
  finished: boolean;
  lost: LostIds;
  /** Growing findings changed since the last snapshot (remade before it). */
  stale: Growing[];
  /** Capture health (snapshot.capture): the inspector's own losses and notices. */
  health: CaptureHealthState;
  /** Servers (origin + endpoint) and the era evidence of each (eras.ts); bumped when one changes. */
  servers: Map<string, ServerState>;
  serversRev: number;
  /** Per document and endpoint: its last request stream (what the client did next) and its last conversation. */
  lastConn: Map<string, StreamS>;
  lastConv: Map<string, SessionState>;
  /** GET streams (fetch, XHR, imported entries) per document and URL, the last few: one the browser held back (stalls.ts). */
  getsByUrl: Map<string, StreamS[]>;
  /** Per stream: the shape its progress notifications are read by (progress-shape.ts). */
  shapes: ProgressShapes;
}

export const connKey = (src: string, conn: string): string => src + '\u0000' + conn;

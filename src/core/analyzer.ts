// The incremental analyzer: CaptureRecords in (one at a time, in capture order), an
// AnalysisSnapshot out. It makes the state (analysis/state.ts), hands each record to the stage
// of its kind, and takes snapshots (analysis/snapshot.ts). Work per record is amortized O(1) per
// event; everything that depends on the whole session (the id scheme, whether a gap was filled by
// another stream, verdicts) is derived at snapshot time, only for sessions that changed.
//
// Decision points (documented in docs/findings.md):
// - Gap candidates are noted when a connection's ids jump (live) or a resume starts past the
//   cursor (replay). A candidate becomes a finding at snapshot time if the session's scheme is a
//   contiguous counter and some of its ids were delivered by no stream of the session. Before
//   `finish()`, while another stream of the session is still open, such a finding is `pending`.
// - Everything else (duplicates, cursor checks, progress, truncation, rejections) is decided when
//   the record that shows it arrives, in capture order, so any batching gives the same result.
// How to add a stage: src/core/README.md.
import type { CaptureRecord, FaultRecord } from './record';
import type { AnalysisSnapshot } from './model';
import { resolveOptions, type AnalyzerOptions } from './options';
import type { AnalyzerState } from './analysis/analyzer-state';
import { createLostIds } from './analysis/lost-ids';
import { finishBodies, onChunk, onEnd, onEsEvent, onRequest, onResponse } from './analysis/connections';
import { onCaptureGap } from './analysis/capture-gaps';
import { newCaptureHealth, onGapRecord, onNoticeRecord } from './analysis/capture-health';
import { newSnapshotCache, takeSnapshot } from './analysis/snapshot';
import { onWitnessNotice } from './analysis/witness-notices';
import { attributeFaults } from './faults/attribution';
import { ProgressShapes } from './progress-shape';

export interface Analyzer {
  /** Consume one record (records of one source must come in seq order). */
  push(record: CaptureRecord): void;
  pushAll(records: Iterable<CaptureRecord>): void;
  /** End of capture: streams still open stay "pending"; nothing more will come. */
  finish(): void;
  /** The current analysis; the same object is returned until something changes. */
  snapshot(): AnalysisSnapshot;
  /** Increases with every change. */
  readonly revision: number;
  readonly finished: boolean;
}

/** A fresh analyzer state for `options`. */
export function createState(options?: AnalyzerOptions): AnalyzerState {
  const opts = resolveOptions(options);
  const idempotent = new Set(opts.idempotentNotifications);
  const cumulativeForced = new Set(opts.cumulativeNotifications);
  const sessions: AnalyzerState['sessions'] = new Map();
  return {
    opts,
    resync: new Set(opts.resyncEvents),
    isCumulative: (method) => cumulativeForced.has(method) || !idempotent.has(method),
    conns: new Map(),
    sessions,
    endpoints: new Map(),
    streamsById: new Map(),
    streamOrder: [],
    globalFindings: [],
    markers: [],
    gapConns: new Set(),
    gapNotes: new Map(),
    legacyAlias: new Map(),
    ord: 0,
    finished: false,
    // Stretches of records the capture does not hold: parts of any session re-derive them all.
    lost: createLostIds(() => {
      for (const s of sessions.values()) s.dirty = true;
    }),
    stale: [],
    health: newCaptureHealth(),
    servers: new Map(),
    serversRev: 0,
    lastConn: new Map(),
    lastConv: new Map(),
    getsByUrl: new Map(),
    shapes: new ProgressShapes(),
  };
}

/** Hands one record to the stages of its kind. */
export function dispatch(A: AnalyzerState, r: CaptureRecord): void {
  switch (r.kind) {
    case 'request':
      return onRequest(A, r);
    case 'response':
      return onResponse(A, r);
    case 'chunk':
      return onChunk(A, r);
    case 'es-event':
      return onEsEvent(A, r);
    case 'end':
      return onEnd(A, r);
    case 'capture-gap':
      onGapRecord(A.health, r);
      return onCaptureGap(A, r);
    case 'navigation':
      A.markers.push({ t: r.t, kind: 'navigation', text: r.url });
      return;
    case 'notice':
      onNoticeRecord(A.health, r);
      // The relay's "not recording" notice (its NOT_RECORDING_CODE): connections that started
      // and ended while recording was off were not kept, and no gap record names them (when no
      // connection was open as recording began, this notice is all the capture says).
      if (r.code === 'not-recording') A.lost.add(undefined, 'connections that ended before recording began (not kept)', r.t);
      else onWitnessNotice(A, r);
      return;
    default:
      return;
  }
}

export function createAnalyzer(options?: AnalyzerOptions): Analyzer {
  const A = createState(options);
  const C = newSnapshotCache();
  let revision = 0;
  let recordCount = 0;
  let cached: AnalysisSnapshot | undefined;
  let cachedRevision = -1;
  // Faults injected on purpose: attributed at snapshot time (faults/attribution.ts).
  const faults: FaultRecord[] = [];

  function push(r: CaptureRecord) {
    recordCount++;
    revision++;
    if (typeof r !== 'object' || r === null) return;
    if (r.kind === 'fault') faults.push(r);
    else dispatch(A, r);
  }

  return {
    push,
    pushAll(records) {
      for (const r of records) push(r);
    },
    finish() {
      if (A.finished) return;
      A.finished = true;
      revision++;
      finishBodies(A);
      for (const s of A.sessions.values()) s.dirty = true;
    },
    snapshot() {
      if (cached && cachedRevision === revision) return cached;
      cached = attributeFaults(takeSnapshot(A, C, revision, recordCount), faults);
      cachedRevision = revision;
      return cached;
    },
    get revision() {
      return revision;
    },
    get finished() {
      return A.finished;
    },
  };
}

/** Convenience: analyze a whole capture and finish it. */
export function analyzeRecords(records: Iterable<CaptureRecord>, options?: AnalyzerOptions): AnalysisSnapshot {
  const a = createAnalyzer(options);
  a.pushAll(records);
  a.finish();
  return a.snapshot();
}

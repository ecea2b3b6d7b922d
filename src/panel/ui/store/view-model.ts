// The view model: everything the views read that is derived from a snapshot, computed by the store
// when it publishes (outside React), so that rendering never advances an incremental cache. One
// ViewModel per published snapshot, immutable once built; per session, the parts of a session
// that did not change are carried over from the previous ViewModel.

import type { AnalysisSnapshot, Finding, RequestInfo, Session } from '../../../core/model';
import type { CaptureRecord } from '../../../core/record';
import { createCaptureHealth, type CaptureIssues } from '../capture/capture-health';
import { createEventRowsMerger, type EventRows, type MergeStats } from '../events/event-rows';
import { createFindingsIndex, type FindingsIndex } from '../findings/findings-index';
import { createSeverityIndex, type SeverityIndex } from '../findings/severity-index';
import { serverOf } from '../../../core/presentation-eras';
import { openStreams, sameRow, type SessionRow } from '../sessions/session-rows';
import { buildLanes, type Lanes } from '../timeline/lanes';

export interface SessionView {
  session: Session;
  row: SessionRow;
  /** The session's findings, worst first. */
  findings: readonly Finding[];
  requests: readonly RequestInfo[];
  requestById: ReadonlyMap<string, RequestInfo>;
  lanes: Lanes;
  /** Events of every stream of the session in time order. */
  rows: EventRows;
}

export interface ViewModel {
  snap: AnalysisSnapshot;
  /** In the sessions list's order. */
  sessions: readonly SessionRow[];
  session(key: string | undefined): SessionView | undefined;
  /** The session of the worst finding (the one the panel opens on). */
  worstSessionKey: string | undefined;
  /** Every finding, worst first. */
  findings: readonly Finding[];
  severity: SeverityIndex;
  totalEvents: number;
  captureIssues: CaptureIssues;
}

/** Work counters of the incremental parts (tests count work with them, not time). */
export interface ViewModelStats {
  merge: MergeStats;
  sessionsBuilt: number;
}

const EMPTY_REQS: readonly RequestInfo[] = Object.freeze([]) as readonly RequestInfo[];

/**
 * A session's requests by id (the last of a repeated id, as a Map made of the list keeps it). A live
 * session's list mostly gains requests at its end and changes a few: the previous view's index is
 * copied (a native copy, no entry arrays to collect) and only what changed or came is set.
 */
export function indexRequests(requests: readonly RequestInfo[], old?: Pick<SessionView, 'requests' | 'requestById'>): ReadonlyMap<string, RequestInfo> {
  if (old?.requests === requests) return old.requestById;
  const before = old?.requests;
  const whole = () => new Map(requests.map((r) => [r.id, r]));
  if (!old || !before || requests.length < before.length) return whole();
  const m = new Map(old.requestById);
  for (let i = 0; i < requests.length; i++) {
    const r = requests[i]!;
    if (i >= before.length) m.set(r.id, r);
    else if (r.id !== before[i]!.id) return whole();
    // A changed request replaces its entry only where the index held it (not a later namesake).
    else if (r !== before[i] && m.get(r.id) === before[i]) m.set(r.id, r);
  }
  return m;
}

export interface ViewModelBuilder {
  build(snap: AnalysisSnapshot, records: readonly CaptureRecord[]): ViewModel;
  readonly stats: ViewModelStats;
  readonly findingsIndex: FindingsIndex;
}

export function createViewModelBuilder(): ViewModelBuilder {
  const index = createFindingsIndex();
  const mergers = new Map<string, ReturnType<typeof createEventRowsMerger>>();
  const stats: ViewModelStats = { merge: { rowsEmitted: 0, fullMerges: 0, deltaMerges: 0 }, sessionsBuilt: 0 };
  const captureHealth = createCaptureHealth();
  let prev: { snap: AnalysisSnapshot; records: readonly CaptureRecord[]; recordCount: number; vm: ViewModel; views: Map<string, SessionView> } | undefined;

  function sessionView(snap: AnalysisSnapshot, s: Session, old: SessionView | undefined): SessionView {
    const findings = index.sorted(s.key);
    const requests = snap.requests[s.key] ?? EMPTY_REQS;
    let merger = mergers.get(s.key);
    if (!merger) mergers.set(s.key, (merger = createEventRowsMerger(stats.merge)));
    const rows = merger.update(snap, s.streamIds);
    const prevSnap = prev?.snap;
    // (a finished capture's timeline range is the tight one: see buildLanes)
    const sameStreams = !!old && !!prevSnap && prevSnap.finished === snap.finished && old.lanes.streams.length === s.streamIds.length && s.streamIds.every((id) => snap.streams[id] === prevSnap.streams[id]);
    if (old && sameStreams && old.session === s && old.findings === findings && old.requests === requests && old.rows === rows) return old;
    stats.sessionsBuilt++;
    const requestById = indexRequests(requests, old);
    const counts = index.counts(s.key);
    const row: SessionRow = { key: s.key, session: s, errors: counts.errors, warnings: counts.warnings, worst: index.worst(s.key), ...openStreams(snap, s), server: serverOf(snap, s) };
    return { session: s, row, findings, requests, requestById, lanes: buildLanes(snap, s, requestById, old?.lanes), rows };
  }

  return {
    stats,
    findingsIndex: index,
    build(snap, records) {
      if (prev && prev.snap === snap && prev.records === records && prev.recordCount === records.length) return prev.vm;
      index.update(snap.findings);
      const views = new Map<string, SessionView>();
      for (const s of snap.sessions) views.set(s.key, sessionView(snap, s, prev?.views.get(s.key)));
      // Mergers of sessions no longer listed (a clear, an import) go with them.
      for (const k of mergers.keys()) if (!views.has(k)) mergers.delete(k);
      // The list keeps a row while what it shows of it is the same (the core's Session object is
      // new whenever the session changed at all), and the same array while every row is kept:
      // records that add events to a stream do not re-render the sessions list.
      const before = prev?.vm.sessions;
      const beforeByKey = new Map(before?.map((r) => [r.key, r]));
      const rows = snap.sessions.map((s) => {
        const r = views.get(s.key)!.row;
        const old = beforeByKey.get(s.key);
        return old && sameRow(old, r) ? old : r;
      });
      const sessions = before && before.length === rows.length && rows.every((r, i) => r === before[i]) ? before : rows;
      const all = index.sorted(undefined);
      const listed = new Set(views.keys());
      // A finding the analyzer could not tie to a listed session (records the panel store lost)
      // must not select a session that is not there.
      const worst = all.find((f) => listed.has(f.sessionKey))?.sessionKey ?? snap.sessions[0]?.key;
      let totalEvents = 0;
      for (const id in snap.streams) {
        const st = snap.streams[id]!;
        totalEvents += Math.min(st.eventCount ?? st.events.length, st.events.length);
      }
      const vm: ViewModel = {
        snap,
        sessions,
        session: (key) => (key === undefined ? undefined : views.get(key)),
        worstSessionKey: worst,
        findings: all,
        severity: prev?.snap.findings === snap.findings ? prev.vm.severity : createSeverityIndex(snap.findings),
        totalEvents,
        captureIssues: captureHealth(snap, records),
      };
      prev = { snap, records, recordCount: records.length, vm, views };
      return vm;
    },
  };
}

// AppModel: runs the analyzer over a source's records incrementally (only new records are fed) and
// publishes snapshots, throttled so a fast live capture does not re-render on every record.

import type { CaptureRecord } from '../../core/record';
import type { AnalysisSnapshot } from '../../core/model';
import type { Analyzer, AnalyzerFactory, InspectorSettings, InspectorSource } from './store-types';

export const EMPTY_SNAPSHOT: AnalysisSnapshot = Object.freeze({
  version: 1,
  sessions: [],
  streams: {},
  requests: {},
  findings: [],
  markers: [],
  recordCount: 0,
}) as AnalysisSnapshot;

export interface AppModel {
  subscribe(cb: () => void): () => void;
  /** The latest published snapshot (stable identity until the next publish). */
  getSnapshot(): AnalysisSnapshot;
  getRecords(): readonly CaptureRecord[];
  /** Re-analyze everything with new settings. */
  setSettings(settings: InspectorSettings): void;
  /** Swap the source (e.g. an import replaces the capture shown). */
  setSource(source: InspectorSource): void;
  getSource(): InspectorSource;
  /** Analyzer errors (a record the analyzer threw on): the UI shows them, analysis goes on. */
  getErrors(): readonly string[];
  /** Compute and publish now (tests, exports). */
  flush(): AnalysisSnapshot;
  dispose(): void;
}

export interface AppModelOptions {
  source: InspectorSource;
  analyzerFactory: AnalyzerFactory;
  settings: InspectorSettings;
  /** Minimum ms between two published snapshots while records stream in. Default 120. */
  throttleMs?: number;
}

function sameRecord(a: CaptureRecord | undefined, b: CaptureRecord | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return a.src === b.src && a.seq === b.seq && a.kind === b.kind && a.t === b.t;
}

export function createAppModel(opts: AppModelOptions): AppModel {
  let source = opts.source;
  let settings = opts.settings;
  const throttleMs = opts.throttleMs ?? 120;
  const listeners = new Set<() => void>();
  let analyzer: Analyzer = opts.analyzerFactory(settings);
  let fed = 0;
  let first: CaptureRecord | undefined;
  let lastFed: CaptureRecord | undefined;
  let snapshot: AnalysisSnapshot = EMPTY_SNAPSHOT;
  let dirty = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastPublish = 0;
  let errors: string[] = [];
  let finished = false;
  // Subscribed to the source only while someone listens (React StrictMode mounts twice).
  let unsubscribe: (() => void) | undefined;
  const attach = () => {
    if (!unsubscribe) unsubscribe = source.subscribe(onSourceChange);
  };
  const detach = () => {
    unsubscribe?.();
    unsubscribe = undefined;
  };

  function reset() {
    analyzer = opts.analyzerFactory(settings);
    fed = 0;
    first = undefined;
    lastFed = undefined;
    errors = [];
    finished = false;
  }

  function feed() {
    const records = source.getRecords();
    // A shrink, or a different first/last-fed record, means the source was cleared or replaced.
    if (records.length < fed || (fed > 0 && (!sameRecord(records[0], first) || !sameRecord(records[fed - 1], lastFed)))) {
      reset();
    }
    for (let i = fed; i < records.length; i++) {
      const r = records[i]!;
      try {
        analyzer.push(r);
      } catch (e) {
        if (errors.length < 50) errors.push(`record ${r.src}#${r.seq} (${r.kind}): ${(e as Error)?.message ?? String(e)}`);
      }
    }
    if (records.length > 0) {
      first = records[0];
      lastFed = records[records.length - 1];
    }
    fed = records.length;
    if (source.complete && !finished) {
      finished = true;
      try {
        analyzer.finish?.();
      } catch (e) {
        errors.push(`finish: ${(e as Error)?.message ?? String(e)}`);
      }
    }
  }

  function compute(): AnalysisSnapshot {
    feed();
    try {
      snapshot = analyzer.snapshot();
    } catch (e) {
      if (errors.length < 50) errors.push(`snapshot: ${(e as Error)?.message ?? String(e)}`);
    }
    dirty = false;
    lastPublish = Date.now();
    return snapshot;
  }

  function publish() {
    timer = undefined;
    compute();
    for (const l of [...listeners]) l();
  }

  function onSourceChange() {
    dirty = true;
    if (timer !== undefined) return;
    const wait = Math.max(0, throttleMs - (Date.now() - lastPublish));
    timer = setTimeout(publish, wait);
  }

  compute();

  return {
    subscribe(cb) {
      listeners.add(cb);
      if (listeners.size === 1) {
        attach();
        // Records may have arrived while nobody listened.
        if (dirty || fed !== source.getRecords().length) onSourceChange();
      }
      return () => {
        listeners.delete(cb);
        if (listeners.size === 0) {
          detach();
          if (timer !== undefined) clearTimeout(timer);
          timer = undefined;
        }
      };
    },
    getSnapshot() {
      return snapshot;
    },
    getRecords() {
      return source.getRecords();
    },
    setSettings(s) {
      settings = s;
      reset();
      publish();
    },
    setSource(s) {
      const wasAttached = !!unsubscribe;
      detach();
      source = s;
      if (wasAttached) attach();
      reset();
      publish();
    },
    getSource() {
      return source;
    },
    getErrors() {
      return errors;
    },
    flush() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      if (dirty || fed !== source.getRecords().length) publish();
      return snapshot;
    },
    dispose() {
      detach();
      if (timer !== undefined) clearTimeout(timer);
      listeners.clear();
    },
  };
}

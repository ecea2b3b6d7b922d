// The analysis of a source: runs the analyzer over its records incrementally (only new records are
// fed) and publishes snapshots, throttled so a fast live capture does not re-render on every
// record, and time-sliced so a large import does not block the first frame. The store
// (inspector-store.ts) is its only reader.

import type { CaptureRecord } from '../../../core/record';
import type { AnalysisSnapshot } from '../../../core/model';
import { EMPTY_CAPTURE } from '../../../core/presentation';
import { createEmitter } from '../common/emitter';
import { createStreamEnds } from './stream-ends';
import type { Analyzer, AnalyzerFactory, InspectorSettings, InspectorSource } from './types';

export const EMPTY_SNAPSHOT: AnalysisSnapshot = Object.freeze({
  version: 1,
  sessions: [],
  servers: [],
  streams: {},
  requests: {},
  findings: [],
  markers: [],
  recordCount: 0,
  capture: EMPTY_CAPTURE,
}) as AnalysisSnapshot;

export interface Analysis {
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
  /** Compute and publish now, feeding every remaining record (tests, exports). */
  flush(): AnalysisSnapshot;
  /**
   * While a backlog of records is being analysed in time slices: how many are fed of how many;
   * undefined when the analysis has caught up with the source.
   */
  getProgress(): AnalysisProgress | undefined;
  dispose(): void;
}

export interface AnalysisProgress {
  fed: number;
  /** Records the source holds so far. */
  total: number;
  /** The source is still reading (a progressive import): `total` will grow. */
  importing: boolean;
}

export interface AnalysisOptions {
  source: InspectorSource;
  analyzerFactory: AnalyzerFactory;
  settings: InspectorSettings;
  /** Minimum ms between two published snapshots while records stream in. Default 120. */
  throttleMs?: number;
  /**
   * Most of the thread that publishing may take while records stream in: after a publication
   * that cost c ms (the snapshot, the view model and the render it caused), the next one waits at
   * least c / publishShare ms (at most `maxThrottleMs`). A snapshot re-derives what changed, which
   * grows with the capture: a page's 1,000 JSON-RPC POSTs cost ~16 ms per publication by the end,
   * and at one every 120 ms that was most of the panel's CPU per POST (issue 22). Default 0.05.
   */
  publishShare?: number;
  /** Ceiling of the adaptive wait (ms): the view is never older than this while records arrive. Default 1000. */
  maxThrottleMs?: number;
  /** The clock that measures a publication's cost (ms; default performance.now). */
  clock?: () => number;
  /**
   * A source without a new record for this long (ms) has gone quiet: what it sent last is
   * published then, without waiting for the adaptive interval (the live panel's catch-up, row
   * 1c). The relay sends a batch at most 16 ms after a record. Default 40.
   */
  quietMs?: number;
  /**
   * Analysis time slice in ms: a backlog (an imported file, a long live capture) is fed in slices of
   * about this length, a snapshot is published after each slice (at most every `throttleMs` after
   * the first) and the main thread is yielded in between, so the first frame does not wait for
   * the whole analysis. Default 12. `Infinity` feeds everything at once.
   */
  sliceMs?: number;
  /**
   * Schedules the next slice (default: a MessageChannel message, else setTimeout 0; after the next
   * paint when a snapshot was just published, so the browser shows it before analysing on).
   */
  yieldTo?: (cb: () => void, afterPaint: boolean) => void;
}

/**
 * A macrotask without setTimeout's clamping: lets the browser handle input. With `afterPaint`, after
 * the next frame (a stream of message tasks can delay rendering) — unless the page is hidden
 * (a DevTools panel not shown gets no animation frames).
 */
export function defaultYield(cb: () => void, afterPaint = false): void {
  if (afterPaint && typeof requestAnimationFrame === 'function' && typeof document !== 'undefined' && document.visibilityState === 'visible') {
    let done = false;
    const go = () => {
      if (done) return;
      done = true;
      defaultYield(cb);
    };
    requestAnimationFrame(go);
    setTimeout(go, 100); // no frame (background tab, throttled): go on anyway
    return;
  }
  if (typeof MessageChannel !== 'undefined') {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      cb();
    };
    ch.port2.postMessage(0);
  } else setTimeout(cb, 0);
}

const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

function sameRecord(a: CaptureRecord | undefined, b: CaptureRecord | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return a.src === b.src && a.seq === b.seq && a.kind === b.kind && a.t === b.t;
}

export function createAnalysis(opts: AnalysisOptions): Analysis {
  let source = opts.source;
  let settings = opts.settings;
  const throttleMs = opts.throttleMs ?? 120;
  const publishShare = opts.publishShare ?? 0.05;
  const maxThrottleMs = Math.max(throttleMs, opts.maxThrottleMs ?? 1000);
  /** What the last publication cost (ms): the snapshot, the view model, the render it caused. */
  let lastCost = 0;
  const clock = opts.clock ?? now;
  const quietMs = opts.quietMs ?? 40;
  /** When the source last changed (Date.now() clock). */
  let lastChange = 0;
  const interval = () => Math.min(maxThrottleMs, Math.max(throttleMs, lastCost / publishShare));
  const sliceMs = opts.sliceMs ?? 12;
  const yieldTo = opts.yieldTo ?? defaultYield;
  /** A slice is scheduled (the analysis has a backlog). */
  let sliceScheduled = false;
  /**
   * While a slice is scheduled: it publishes (a backlog the publication timer or a new source
   * left), or only feeds records that arrived (their publication is the timer's).
   */
  let slicePublishes = false;
  /**
   * Bumped by every scheduled slice and by cancelSlice(): only the slice scheduled last runs (one
   * cancelled, or replaced by a publishing one, does nothing).
   */
  let generation = 0;
  let analyzer: Analyzer = opts.analyzerFactory(settings);
  /** Long event streams whose end the source's new records bring (their records skip the quiet wait). */
  const ends = createStreamEnds();
  /** New records since the last publication ended a long event stream: no quiet wait for them. */
  let streamEnded = false;
  let fed = 0;
  let first: CaptureRecord | undefined;
  let lastFed: CaptureRecord | undefined;
  let snapshot: AnalysisSnapshot = EMPTY_SNAPSHOT;
  let dirty = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** When `timer` fires (Date.now() clock). */
  let timerAt = 0;
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
  const published = createEmitter({
    first() {
      attach();
      // Records may have arrived while nobody listened.
      // So may the end of an import (its analysis not finished, nothing new to feed).
      if (dirty || fed !== source.getRecords().length || (source.complete === true && !finished)) onSourceChange();
    },
    last() {
      detach();
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  });

  function reset() {
    analyzer = opts.analyzerFactory(settings);
    ends.reset();
    fed = 0;
    first = undefined;
    lastFed = undefined;
    errors = [];
    finished = false;
    cancelSlice();
  }

  function cancelSlice() {
    generation++;
    sliceScheduled = false;
  }

  /** Feeds new records (within `budgetMs` when given); true when all are fed. */
  function feed(budgetMs = Infinity): boolean {
    const records = source.getRecords();
    // A shrink, or a different first/last-fed record, means the source was cleared or replaced.
    if (records.length < fed || (fed > 0 && (!sameRecord(records[0], first) || !sameRecord(records[fed - 1], lastFed)))) {
      reset();
    }
    const deadline = budgetMs === Infinity ? Infinity : now() + budgetMs;
    let i = fed;
    for (; i < records.length; i++) {
      const r = records[i]!;
      try {
        analyzer.push(r);
      } catch (e) {
        if (errors.length < 50) errors.push(`record ${r.src}#${r.seq} (${r.kind}): ${(e as Error)?.message ?? String(e)}`);
      }
      // One record can hold many events (a 64 kB chunk): check the clock after each.
      if (deadline !== Infinity && now() >= deadline) {
        i++;
        break;
      }
    }
    if (i > 0) {
      first = records[0];
      lastFed = records[i - 1];
    }
    fed = i;
    if (fed < records.length) return false;
    if (source.complete && !finished) {
      finished = true;
      try {
        analyzer.finish?.();
      } catch (e) {
        errors.push(`finish: ${(e as Error)?.message ?? String(e)}`);
      }
    }
    return true;
  }

  function compute(budgetMs = Infinity): AnalysisSnapshot {
    const done = feed(budgetMs);
    if (!done) scheduleSlice();
    takeSnapshot();
    return snapshot;
  }

  function takeSnapshot() {
    try {
      snapshot = analyzer.snapshot();
    } catch (e) {
      if (errors.length < 50) errors.push(`snapshot: ${(e as Error)?.message ?? String(e)}`);
    }
    dirty = false;
    streamEnded = false;
    lastPublish = Date.now();
  }

  /**
   * Tells the listeners, and measures what the publication cost from `t0` (the snapshot's start)
   * to the end of the microtasks it queued: React renders a store change in a microtask queued
   * while it is told, so a microtask queued after telling it runs after that render.
   */
  function notify(t0?: number) {
    published.emit();
    if (t0 === undefined) return;
    const done = () => void (lastCost = clock() - t0);
    if (typeof queueMicrotask === 'function') queueMicrotask(done);
    else done();
  }

  /** The publication timer: new records while they stream in. */
  function onTimer() {
    timer = undefined;
    const t = Date.now();
    const due = lastPublish + interval();
    if (t < due && !streamEnded && t - lastChange < quietMs) {
      // Records still arriving and the adaptive interval not over: look again when the source
      // may have gone quiet (the last records of a burst show without waiting for the interval).
      arm(Math.min(due, t + quietMs));
      return;
    }
    publish();
  }

  /** Publish now (the timer's, a new source, new settings). */
  function publish() {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (!feed(sliceMs)) scheduleSlice();
    const t0 = clock();
    takeSnapshot();
    notify(t0);
  }

  /**
   * `publishes` false: a slice of records fed as they arrive (onSourceChange), published by the
   * timer. A publishing slice replaces a pending feed-only one, so it waits for the paint.
   */
  function scheduleSlice(afterPaint = true, publishes = true) {
    if (sliceScheduled && (slicePublishes || !publishes)) return;
    slicePublishes = publishes;
    sliceScheduled = true;
    const gen = ++generation;
    yieldTo(() => {
      if (gen !== generation) return;
      sliceScheduled = false;
      // (read before feeding: a restart found by feed() cancels this slice)
      const publishing = slicePublishes;
      const done = feed(sliceMs);
      // Publish after the first slice, then at most every interval(), and when done.
      const publishNow = publishing && (done || Date.now() - lastPublish >= interval());
      if (!done) scheduleSlice(publishNow, publishing);
      if (publishNow) {
        if (timer !== undefined) clearTimeout(timer);
        timer = undefined;
        const t0 = clock();
        takeSnapshot();
        notify(t0);
      }
    }, afterPaint);
  }

  function arm(at: number) {
    timerAt = at;
    timer = setTimeout(onTimer, Math.max(0, at - Date.now()));
  }

  function onSourceChange() {
    dirty = true;
    const t = (lastChange = Date.now());
    // A clear or a replaced capture shows at once (within throttleMs). New records show after the
    // adaptive interval, or once the source has been quiet for quietMs (onTimer() decides); those
    // that end a long event stream without that wait (stream-ends.ts).
    const records = source.getRecords();
    const restarted = records.length < fed || (fed > 0 && !sameRecord(records[0], first));
    if (restarted) ends.reset();
    if (ends.scan(records)) streamEnded = true;
    const quiet = streamEnded ? 0 : quietMs;
    const at = lastPublish + (restarted ? throttleMs : Math.max(throttleMs, Math.min(interval(), t - lastPublish + quiet)));
    if (timer === undefined || timerAt > at) {
      if (timer !== undefined) clearTimeout(timer);
      arm(at);
    }
    // A live source's new records are analysed as they arrive (a slice's worth, the rest in
    // slices), not when the next snapshot is due: a publication then only takes the snapshot, and
    // after a burst the panel shows its end without first analysing what came since the last
    // publication (row 1c: up to a second of records at the adaptive interval). The work is the
    // same, done earlier. An import (a source with drain) is fed by its own slices as before.
    if (!source.drain && !sliceScheduled && !feed(sliceMs)) scheduleSlice(false, false);
  }

  compute(sliceMs);

  return {
    subscribe: published.subscribe,
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
      source.drain?.();
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      if (dirty || fed !== source.getRecords().length || sliceScheduled) {
        cancelSlice();
        compute();
        notify();
      }
      return snapshot;
    },
    getProgress() {
      const total = source.getRecords().length;
      const importing = !!source.drain && source.complete === false;
      // An import whose last records, or whose end, the shown snapshot does not hold yet: all its
      // records may be fed, but its requests are settled (finish) and shown only by the next
      // publication, up to throttleMs later. Without this the banner went as the file's reading
      // ended, and the page showed that snapshot as the file's whole analysis (a request
      // "pending" that the file answers). (A failed import is complete without an end: the
      // viewer and the store replace it, so its banner does not stay.)
      const settling = !!source.drain && !importing && (dirty || (source.complete === true && !finished));
      return fed < total || importing || settling ? { fed, total, importing } : undefined;
    },
    dispose() {
      detach();
      cancelSlice();
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}

// The one store between the records and the views. It owns what is shown (the host's source —
// the live capture, or the viewer's file — or an imported file in front of it), the analysis of
// it, the view model derived from each published snapshot, the live controls' status and the
// progress of a file being read. Views read `getState()` through one subscription
// (useInspector in StoreContext.tsx); nothing else between the records and the views subscribes.

import type { AnalysisSnapshot } from '../../../core/model';
import type { CaptureRecord } from '../../../core/record';
import { createEmitter } from '../common/emitter';
import { firstRecords } from '../sources/importer';
import type { ProgressiveImport } from '../sources/progressive-import';
import { createAnalysis, type AnalysisOptions, type AnalysisProgress } from './analysis';
import type { InspectorSettings, InspectorSource, ReadProgress, SourceControls, SourceStatus } from './types';
import { createViewModelBuilder, type ViewModel, type ViewModelStats } from './view-model';

export interface InspectorState {
  vm: ViewModel;
  /** An imported file shown in front of the host's source (the live capture goes on behind it). */
  imported: { name: string } | undefined;
  /** The live controls' status (recording, preserve log); undefined while an import is shown. */
  status: SourceStatus | undefined;
  /** Records analysed of those read, while the analysis has a backlog. */
  progress: AnalysisProgress | undefined;
  /** A file still being read: bytes so far (of `total`), with its name. */
  reading: (ReadProgress & { name: string | undefined }) | undefined;
  /** Analyzer errors (a record it threw on): shown; the analysis goes on. */
  errors: readonly string[];
}

export interface InspectorStore {
  subscribe(cb: () => void): () => void;
  getState(): InspectorState;
  /** The host's source changed (the viewer opened a file from `?src=`). */
  setBaseSource(source: InspectorSource): void;
  /** Show an imported file in front of the host's source. */
  showImport(source: InspectorSource, name: string): void;
  /**
   * Open a file being read: what is shown stays until its first records are in (the progress bar
   * shows meanwhile), then the file is shown while the rest is read. `onFail` gets the import's
   * error, before or after the file was shown (then what was shown before it is back).
   */
  openImport(imp: ProgressiveImport, name: string, onFail: (e: unknown) => void): void;
  /** Back to the host's source (the live capture). */
  closeImport(): void;
  /** Stop reading the file being read and show what was shown before it. */
  cancelReading(): void;
  setSettings(settings: InspectorSettings): void;
  /** The live controls, while the live capture is shown. */
  controls(): SourceControls | undefined;
  records(): readonly CaptureRecord[];
  /** Read and analyse everything now (exports, the test hook). */
  flush(): AnalysisSnapshot;
  label(): string | undefined;
  readonly stats: ViewModelStats;
  dispose(): void;
}

export type StoreOptions = Omit<AnalysisOptions, 'source'> & { source: InspectorSource };

const sameStatus = (a: SourceStatus | undefined, b: SourceStatus | undefined) => a === b || (!!a && !!b && a.recording === b.recording && a.preserveLog === b.preserveLog);
const sameReading = (a: InspectorState['reading'], b: InspectorState['reading']) => a === b || (!!a && !!b && a.read === b.read && a.total === b.total && a.name === b.name);
const sameProgress = (a: AnalysisProgress | undefined, b: AnalysisProgress | undefined) =>
  a === b || (!!a && !!b && a.fed === b.fed && a.total === b.total && a.importing === b.importing);

export function createInspectorStore(opts: StoreOptions): InspectorStore {
  let base = opts.source;
  let imported: { source: InspectorSource; name: string } | undefined;
  /** What was shown before the file being read replaced it (Cancel puts it back). */
  let beforeReading: { base: InspectorSource; imported: typeof imported } | undefined;
  /** A file opened, not shown until its first records are in. */
  let pending: { imp: ProgressiveImport; name: string } | undefined;
  const analysis = createAnalysis({ ...opts, source: base });
  const vms = createViewModelBuilder();
  const active = () => imported?.source ?? base;
  let errorsSeen = 0;
  let state: InspectorState = compute(undefined);

  function compute(prev: InspectorState | undefined, snapshotChanged = true): InspectorState {
    const src = active();
    const vm = snapshotChanged || !prev ? vms.build(analysis.getSnapshot(), analysis.getRecords()) : prev.vm;
    const status = imported ? undefined : base.controls?.getStatus();
    const progress = analysis.getProgress();
    const p = pending?.imp.source.reading?.();
    const r = src.complete === false ? src.reading?.() : undefined;
    const reading = pending ? { read: p?.read ?? 0, ...(p?.total !== undefined ? { total: p.total } : {}), name: pending.name } : r ? { ...r, name: src.label?.() } : undefined;
    const errors = analysis.getErrors();
    if (
      prev &&
      prev.vm === vm &&
      sameStatus(prev.status, status) &&
      sameProgress(prev.progress, progress) &&
      sameReading(prev.reading, reading) &&
      errors.length === errorsSeen &&
      (prev.imported?.name ?? null) === (imported?.name ?? null)
    ) {
      return prev;
    }
    errorsSeen = errors.length;
    return { vm, imported: imported ? { name: imported.name } : undefined, status: prev && sameStatus(prev.status, status) ? prev.status : status, progress, reading, errors: errors.slice() };
  }
  function update(snapshotChanged = true) {
    const next = compute(state, snapshotChanged);
    if (next === state) return;
    state = next;
    changed.emit();
  }

  // The analysis publishes snapshots (throttled); the host's source also changes status (record,
  // preserve log) without new records, which must show at once.
  let offs: (() => void)[] = [];
  let offBase: (() => void) | undefined;
  const watchBase = () => {
    offBase?.();
    offBase = base.subscribe(() => update(false));
  };
  const changed = createEmitter({
    first() {
      offs = [analysis.subscribe(() => update())];
      watchBase();
      update();
    },
    last() {
      for (const off of offs) off();
      offs = [];
      offBase?.();
      offBase = undefined;
    },
  });
  const show = () => {
    analysis.setSource(active());
    update();
  };

  const api: InspectorStore = {
    subscribe: changed.subscribe,
    getState: () => state,
    setBaseSource(source) {
      if (source === base) return;
      if (source.complete === false) beforeReading = { base, imported };
      base = source;
      if (changed.size) watchBase();
      if (!imported) show();
    },
    showImport(source, name) {
      if (source.complete === false) beforeReading = { base, imported };
      const prev = imported;
      imported = { source, name };
      if (prev && prev.source !== source) prev.source.cancel?.();
      show();
    },
    openImport(imp, name, onFail) {
      pending?.imp.cancel();
      pending = { imp, name };
      const off = imp.source.subscribe(() => update(false));
      update(false);
      firstRecords(imp).then(
        () => {
          off();
          if (pending?.imp !== imp) return;
          pending = undefined;
          const previous = imported;
          api.showImport(imp.source, name);
          imp.done.catch((e: unknown) => {
            if (imported?.source !== imp.source) return;
            imported = previous;
            show();
            onFail(e);
          });
        },
        (e: unknown) => {
          off();
          if (pending?.imp !== imp) return;
          pending = undefined;
          update(false);
          onFail(e);
        },
      );
    },
    closeImport() {
      if (!imported) return;
      imported.source.cancel?.();
      imported = undefined;
      show();
    },
    cancelReading() {
      if (pending) {
        pending.imp.cancel();
        pending = undefined;
        update(false);
        return;
      }
      const src = active();
      if (src.complete !== false) return;
      src.cancel?.();
      const back = beforeReading;
      beforeReading = undefined;
      if (imported?.source === src) imported = back?.imported && back.imported.source !== src ? back.imported : undefined;
      else if (back) base = back.base;
      if (changed.size) watchBase();
      show();
    },
    setSettings(s) {
      analysis.setSettings(s);
      update();
    },
    controls: () => (imported ? undefined : base.controls),
    records: () => analysis.getRecords(),
    flush() {
      const snap = analysis.flush();
      update();
      return snap;
    },
    label: () => active().label?.(),
    stats: vms.stats,
    dispose() {
      analysis.dispose();
      offBase?.();
    },
  };
  return api;
}

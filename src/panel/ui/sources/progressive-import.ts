// Opening a capture file without blocking the first frame on the whole file: its text is split
// as it arrives — the product's own capture file record by record (capture-splitter.ts), a HAR entry
// by entry (har-splitter.ts, the core's streaming HAR importer) — into a growing source, which the
// analysis reads in its own slices. The first frame needs the first records only.
//
// Anything else (a bare record array, a capture file whose `records` come before `format`, broken
// JSON) is handed whole to the core importer once all its text is in. Errors are always the core
// importer's own: when a splitter finds something wrong, the whole text goes through `importText`,
// whose error is reported (and the caller puts the previous capture back).

import { importText, isImportError } from '../../../core/import';
import type { CaptureRecord } from '../../../core/record';
import { createEmitter } from '../common/emitter';
import { defaultYield } from '../store/analysis';
import { createCaptureSplitter } from './capture-splitter';
import { createHarSplitter, type Splitter } from './har-splitter';
import { Fallback, NeedMore, scanner } from './json-scanner';
import type { InspectorSource, ReadProgress } from '../store/types';

export interface GrowingSource extends InspectorSource {
  readonly complete: boolean;
}

export interface ProgressiveImport {
  /** The records so far (appended in place); `complete` once all are in. */
  source: GrowingSource;
  /** Resolves when every record is in; rejects with the import error. */
  done: Promise<void>;
  /** Stop (another file replaced this one, the user cancelled). */
  cancel(): void;
}

export interface StreamingImport extends ProgressiveImport {
  /** More text of the file (in order). */
  write(text: string): void;
  /** The whole file is in. */
  end(): void;
  /** Reading the file failed: `done` rejects with this error. */
  fail(error: unknown): void;
  /** How much of the file is read (bytes, of `total` when known): shown with a progress bar. */
  progress(read: number, total?: number): void;
}

export interface ProgressiveOptions {
  src?: string;
  label?: string;
  sliceMs?: number;
  /** `afterPaint`: records were just added, let the browser show them before parsing on. */
  yieldTo?: (cb: () => void, afterPaint?: boolean) => void;
}

const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

/** An import fed with text as it arrives (`write`, then `end`). */
export function startStreamingImport(opts: ProgressiveOptions = {}): StreamingImport {
  const sliceMs = opts.sliceMs ?? 8;
  const yieldTo = opts.yieldTo ?? defaultYield;
  const records: CaptureRecord[] = [];
  const changed = createEmitter();
  let complete = false;
  let cancelled = false;
  /** All text (for the whole-file importer on a fallback); dropped when done. */
  let all: string[] = [];
  /** Unconsumed text; `pos` indexes into it. */
  let buf = '';
  let pos = 0;
  let ended = false;
  /** The splitter for the file's shape, once its first key is in; 'whole': import it whole at the end. */
  let splitter: Splitter | 'whole' | undefined;
  let failure: unknown;
  let scheduled = false;
  let reading: ReadProgress | undefined;

  const source: GrowingSource = {
    subscribe: changed.subscribe,
    getRecords: () => records,
    label: () => opts.label,
    get complete() {
      return complete;
    },
    drain: () => {
      // Each step splits all it can or ends in finish(): a few steps read the rest of the text.
      for (let n = 0; ended && !complete && !cancelled && n < 1000; n++) step(Infinity);
    },
    reading: () => (complete || cancelled ? undefined : reading),
  };
  const emit = changed.emit;
  let resolve!: () => void, reject!: (e: unknown) => void;
  const done = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  done.catch(() => {});

  const finishOk = () => {
    complete = true;
    all = [];
    buf = '';
    emit();
    resolve();
  };
  const finishWhole = () => {
    // The core importer on the whole text: its records, or its error.
    const text = all.join('');
    all = [];
    buf = '';
    const t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    try {
      const recs = importText(t, opts.src !== undefined ? { src: opts.src } : undefined).records;
      records.length = 0;
      for (const r of recs) records.push(r);
      complete = true;
      emit();
      resolve();
    } catch (e) {
      failure = e;
      complete = true;
      reject(e);
    }
  };

  /** A HAR (`{"log": …`) or the product's capture file (anything else that is an object). */
  const detect = (): Splitter => {
    const sc = scanner(buf);
    let p = sc.skipWs(0);
    if (p < buf.length && buf.charCodeAt(p) === 0xfeff) p = sc.skipWs(p + 1);
    if (p >= buf.length) throw new NeedMore();
    if (buf.charCodeAt(p) !== 0x7b) throw new Fallback();
    p = sc.skipWs(p + 1);
    if (p >= buf.length) throw new NeedMore();
    if (buf.charCodeAt(p) !== 0x22) throw new Fallback();
    return JSON.parse(buf.slice(p, sc.string(p))) === 'log' ? createHarSplitter(opts.src) : createCaptureSplitter();
  };
  const append = (recs: readonly CaptureRecord[]) => {
    for (const r of recs) records.push(r);
  };

  function step(budget = sliceMs): void {
    scheduled = false;
    if (cancelled || complete) return;
    const before = records.length;
    try {
      if (splitter === undefined) splitter = detect();
      if (splitter === 'whole') throw new NeedMore();
      const deadline = budget === Infinity ? Infinity : now() + budget;
      const sp = splitter;
      try {
        // Until the budget is spent or the splitter needs more text (NeedMore, or the end: finish()).
        do pos = sp.step(buf, pos, deadline, now);
        while (now() < deadline);
      } finally {
        append(sp.take());
      }
    } catch (e) {
      if (e instanceof NeedMore) {
        if (ended) {
          finish();
          return;
        }
        // Keep only the unconsumed text (a header is re-read from the start until complete).
        if (pos > 0) {
          buf = buf.slice(pos);
          pos = 0;
        } else if (buf.length > 1 << 22) splitter = 'whole'; // no first item in 4 MB: not a shape to split
        if (records.length > before) emit();
        return;
      }
      if (e instanceof Fallback || e instanceof SyntaxError || isImportError(e)) {
        splitter = 'whole';
        if (ended) finishWhole();
        return;
      }
      failure = e;
      complete = true;
      reject(e);
      return;
    }
    buf = buf.slice(pos); // O(1) for a flat string; later appends copy only the unconsumed tail
    pos = 0;
    if (records.length > before) emit();
    schedule(records.length > before);
  }
  /** All the text is in and split: the splitter's last records (or its whole list), or the whole-file import. */
  function finish() {
    if (!splitter || splitter === 'whole') return finishWhole();
    try {
      const f = splitter.finish(buf, pos);
      if (f.restart) records.length = 0;
      append(f.records);
      finishOk();
    } catch (e) {
      if (e instanceof Fallback || e instanceof SyntaxError || isImportError(e)) finishWhole();
      else {
        failure = e;
        complete = true;
        reject(e);
      }
    }
  }
  function schedule(afterPaint = false) {
    if (scheduled || cancelled || complete) return;
    scheduled = true;
    yieldTo(() => step(), afterPaint);
  }

  return {
    source,
    get done() {
      return done;
    },
    write(text: string) {
      if (ended || cancelled || complete || !text) return;
      all.push(text);
      if (splitter !== 'whole') buf += text;
      schedule();
    },
    end() {
      if (ended) return;
      ended = true;
      schedule();
    },
    cancel() {
      cancelled = true;
      all = [];
      buf = '';
    },
    progress(read: number, total?: number) {
      reading = { read, ...(total !== undefined ? { total } : {}) };
      emit();
    },
    fail(error: unknown) {
      if (complete || cancelled) return;
      failure = error;
      complete = true;
      all = [];
      buf = '';
      reject(error);
    },
    // For startImport's synchronous first step.
    ...({ _step: step, _failure: () => failure } as object),
  } as StreamingImport;
}

/**
 * Starts importing the whole `text`. Throws (synchronously) the importer's error when the header
 * or the first slice of records is invalid, like a whole-file import would.
 */
export function startImport(text: string, opts: ProgressiveOptions = {}): ProgressiveImport {
  const queue: (() => void)[] = [];
  let direct = false;
  const yieldTo = opts.yieldTo ?? defaultYield;
  const s = startStreamingImport({ ...opts, yieldTo: (cb) => (direct ? yieldTo(cb) : queue.push(cb)) });
  s.write(text);
  s.end();
  const internals = s as unknown as { _step(b?: number): void; _failure(): unknown };
  internals._step(opts.sliceMs ?? 8);
  if (internals._failure() !== undefined) throw internals._failure();
  direct = true;
  for (const cb of queue.splice(0)) yieldTo(cb);
  return { source: s.source, done: s.done, cancel: () => s.cancel() };
}

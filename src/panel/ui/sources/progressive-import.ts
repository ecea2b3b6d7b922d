// Opening a capture file without blocking the first frame on the whole file.
//
// The product's own CaptureFile (`{"format":"mcp-stream-inspector", ..., "records":[...]}`) is
// split record by record with a small string-aware scanner while its text arrives (a fetch body
// read as a stream, or the whole text at once): the header members before `records` are parsed
// and validated first, then the records are JSON.parse()d and validated (the core's record schema,
// `importRecordArray`) in time slices and appended to a growing source, which the AppModel
// analyses in its own slices. The first frame needs the first records only, not the whole file.
//
// Why a small scanner and not a streaming JSON library: the records are few and large (64 KB chunk
// texts), and the scanner skips strings with indexOf, then JSON.parse does the parsing natively.
// @streamparser/json 0.0.26 (paths ['$.records.*']) took 0.8–1.7 s in Node for the 22.6 MB bench
// capture, tokenizing every character; this scanner + JSON.parse + the record schema 0.13–0.32 s.
//
// Anything else (HAR, a bare record array, a file whose `records` come before `format`) is handed
// whole to the core importer once all its text is in. Errors are always the core importer's own:
// when the scanner or a slice finds something wrong, the whole text goes through `importText`,
// whose error is reported (and the caller puts the previous capture back).

import { importCaptureFile, importRecordArray, importText, isImportError } from '../../../core/import';
import type { CaptureRecord } from '../../../core/record';
import { createEmitter } from '../common/emitter';
import { defaultYield } from '../store/analysis';
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
  let phase: 'header' | 'records' | 'tail' | 'whole' = 'header';
  let header: Record<string, unknown> = {};
  let firstRecord = true;
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
      if (ended) step(Infinity);
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

  /** Parses the header members before "records"; false when more text is needed. */
  const parseHeader = (): boolean => {
    const sc = scanner(buf);
    let p = sc.skipWs(0);
    if (p >= buf.length) throw new NeedMore();
    if (buf.charCodeAt(p) === 0xfeff) p = sc.skipWs(p + 1);
    if (p >= buf.length) throw new NeedMore();
    if (buf.charCodeAt(p) !== 0x7b) throw new Fallback();
    p++;
    const h: Record<string, unknown> = {};
    for (;;) {
      p = sc.skipWs(p);
      if (p >= buf.length) throw new NeedMore();
      if (buf.charCodeAt(p) !== 0x22) throw new Fallback();
      const kEnd = sc.string(p);
      const key = JSON.parse(buf.slice(p, kEnd)) as string;
      p = sc.skipWs(kEnd);
      if (p >= buf.length) throw new NeedMore();
      if (buf.charCodeAt(p) !== 0x3a) throw new Fallback();
      p = sc.skipWs(p + 1);
      if (p >= buf.length) throw new NeedMore();
      if (key === 'records') {
        if (buf.charCodeAt(p) !== 0x5b || h.format !== 'mcp-stream-inspector' || 'records' in h) throw new Fallback();
        header = h;
        pos = p + 1;
        return true;
      }
      const vEnd = sc.value(p);
      h[key] = JSON.parse(buf.slice(p, vEnd));
      p = sc.skipWs(vEnd);
      if (p >= buf.length) throw new NeedMore();
      if (buf.charCodeAt(p) !== 0x2c) throw new Fallback();
      p++;
    }
  };

  /** Parses records for about `budget` ms. */
  const parseRecords = (budget: number) => {
    const deadline = now() + budget;
    const batch: unknown[] = [];
    const sc = scanner(buf);
    try {
      for (;;) {
        let p = sc.skipWs(pos);
        if (p >= buf.length) throw new NeedMore();
        const c = buf.charCodeAt(p);
        if (c === 0x5d) {
          pos = p + 1;
          phase = 'tail';
          break;
        }
        if (!firstRecord) {
          if (c !== 0x2c) throw new Fallback();
          p = sc.skipWs(p + 1);
          if (p >= buf.length) throw new NeedMore();
        }
        const end = sc.value(p);
        batch.push(JSON.parse(buf.slice(p, end)));
        firstRecord = false;
        pos = end;
        if ((batch.length & 7) === 0 && now() >= deadline) break;
      }
    } finally {
      // Validate what was split (the importer's record schema), even when stopping for more text.
      if (batch.length) for (const r of importRecordArray(batch)) records.push(r);
    }
  };

  const checkTail = () => {
    const rest = buf.slice(pos).trim();
    if (rest === '}') return;
    if (!rest.startsWith(',')) throw new Fallback();
    const more = JSON.parse(`{${rest.slice(1)}`) as Record<string, unknown>;
    if ('records' in more) throw new Fallback();
    importCaptureFile({ ...header, ...more, records: [] });
  };

  function step(budget = sliceMs): void {
    scheduled = false;
    if (cancelled || complete) return;
    const before = records.length;
    try {
      if (phase === 'header') {
        parseHeader();
        phase = 'records';
        // The header's own errors (version, createdAt...) exactly as the importer reports them.
        importCaptureFile({ ...header, records: [] });
      }
      if (phase === 'records') parseRecords(budget);
      if (phase === 'tail') {
        if (!ended) throw new NeedMore();
        checkTail();
        finishOk();
        return;
      }
      if (phase === 'whole') throw new NeedMore();
    } catch (e) {
      if (e instanceof NeedMore) {
        if (ended) {
          // The text ended inside a value, or a shape to import whole.
          finishWhole();
          return;
        }
        // Keep only the unconsumed text (the header is re-read from the start until complete).
        if (phase === 'records' || phase === 'tail') {
          buf = buf.slice(pos);
          pos = 0;
        } else if (phase === 'header' && buf.length > 1 << 20) phase = 'whole';
        if (records.length > before) emit();
        return;
      }
      if (e instanceof Fallback || e instanceof SyntaxError || isImportError(e)) {
        phase = 'whole';
        if (ended) finishWhole();
        return;
      }
      failure = e;
      complete = true;
      reject(e);
      return;
    }
    if (phase === 'records') {
      buf = buf.slice(pos); // O(1) for a flat string; later appends copy only the unconsumed tail
      pos = 0;
    }
    if (records.length > before) emit();
    schedule(records.length > before);
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
      if (phase !== 'whole') buf += text;
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

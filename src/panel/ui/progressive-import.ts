// Opening a capture file without blocking the first frame on the whole file.
//
// The product's own CaptureFile (`{"format":"mcp-stream-inspector", ..., "records":[...]}`) is
// split record by record with a small string-aware scanner: the header members before `records`
// are parsed and validated at once, then the records are JSON.parse()d and validated (the core's
// record schema, `importRecordArray`) in time slices and appended to a growing source, which the
// AppModel analyses in its own slices. The first frame needs the first records only.
//
// Anything else (HAR, a bare record array, a file whose `records` come before `format`, a custom
// importer) goes through the importer in one piece. Errors are always the core importer's own:
// when the scanner or a slice finds something wrong, the whole text is handed to `importText`,
// whose error is reported (and the caller puts the previous capture back).

import { importCaptureFile, importRecordArray, importText, isImportError } from '../../core/import';
import type { CaptureRecord } from '../../core/record';
import { defaultYield } from './app-model';
import type { InspectorSource } from './store-types';

export interface GrowingSource extends InspectorSource {
  readonly complete: boolean;
}

export interface ProgressiveImport {
  /** The records so far (appended in place); `complete` once all are in. */
  source: GrowingSource;
  /** Resolves when every record is in; rejects with the import error. */
  done: Promise<void>;
  /** Stop (another file replaced this one). */
  cancel(): void;
}

export interface ProgressiveOptions {
  src?: string;
  label?: string;
  sliceMs?: number;
  yieldTo?: (cb: () => void) => void;
}

const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

class Fallback extends Error {}

/** String-aware JSON value splitter over `t` (no parsing, no allocation but the result slices). */
function scanner(t: string) {
  const ws = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
  const skipWs = (i: number) => {
    while (i < t.length && ws(t.charCodeAt(i))) i++;
    return i;
  };
  const string = (i: number) => {
    // t[i] === '"'
    let j = i + 1;
    for (;;) {
      const k = t.indexOf('"', j);
      if (k < 0) throw new Fallback();
      let b = 0;
      while (t.charCodeAt(k - 1 - b) === 0x5c) b++;
      if (b % 2 === 0) return k + 1;
      j = k + 1;
    }
  };
  const value = (i: number) => {
    const c = t.charCodeAt(i);
    if (c === 0x22) return string(i);
    if (c === 0x7b || c === 0x5b) {
      let depth = 0;
      let j = i;
      while (j < t.length) {
        const d = t.charCodeAt(j);
        if (d === 0x22) {
          j = string(j);
          continue;
        }
        if (d === 0x7b || d === 0x5b) depth++;
        else if (d === 0x7d || d === 0x5d) {
          depth--;
          if (depth === 0) return j + 1;
        }
        j++;
      }
      throw new Fallback();
    }
    let j = i;
    while (j < t.length) {
      const d = t.charCodeAt(j);
      if (d === 0x2c || d === 0x7d || d === 0x5d || ws(d)) break;
      j++;
    }
    if (j === i) throw new Fallback();
    return j;
  };
  return { skipWs, string, value };
}

/**
 * Starts importing `text`. Throws (synchronously) the importer's error when the header or the first
 * slice of records is invalid, like a whole-file import would.
 */
export function startImport(text: string, opts: ProgressiveOptions = {}): ProgressiveImport {
  // Released (t = '', sc = undefined) once done: the file text must not outlive the import.
  let t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const sliceMs = opts.sliceMs ?? 8;
  const yieldTo = opts.yieldTo ?? defaultYield;
  const records: CaptureRecord[] = [];
  const listeners = new Set<() => void>();
  let complete = false;
  let cancelled = false;
  const source: GrowingSource = {
    subscribe(cb) {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    getRecords: () => records,
    label: () => opts.label,
    get complete() {
      return complete;
    },
  };
  const emit = () => {
    for (const l of [...listeners]) l();
  };
  const whole = (): CaptureRecord[] => importText(t, opts.src !== undefined ? { src: opts.src } : undefined).records;
  const allAtOnce = (): ProgressiveImport => {
    for (const r of whole()) records.push(r);
    complete = true;
    release();
    return { source, done: Promise.resolve(), cancel() {} };
  };

  // Header: members before "records"; "format" must be among them.
  let sc = scanner(t);
  const release = () => {
    t = '';
    sc = scanner('');
  };
  let pos: number;
  const header: Record<string, unknown> = {};
  try {
    pos = sc.skipWs(0);
    if (t.charCodeAt(pos) !== 0x7b) return allAtOnce();
    pos++;
    for (;;) {
      pos = sc.skipWs(pos);
      if (t.charCodeAt(pos) !== 0x22) throw new Fallback();
      const kEnd = sc.string(pos);
      const key = JSON.parse(t.slice(pos, kEnd)) as string;
      pos = sc.skipWs(kEnd);
      if (t.charCodeAt(pos) !== 0x3a) throw new Fallback();
      pos = sc.skipWs(pos + 1);
      if (key === 'records') {
        if (t.charCodeAt(pos) !== 0x5b || header.format !== 'mcp-stream-inspector' || 'records' in header) throw new Fallback();
        pos++;
        break;
      }
      const vEnd = sc.value(pos);
      header[key] = JSON.parse(t.slice(pos, vEnd));
      pos = sc.skipWs(vEnd);
      if (t.charCodeAt(pos) !== 0x2c) throw new Fallback();
      pos++;
    }
    // The header's own errors (version, createdAt...) exactly as the importer reports them.
    importCaptureFile({ ...header, records: [] });
  } catch (e) {
    if (e instanceof Fallback || e instanceof SyntaxError) return allAtOnce();
    throw e;
  }

  let first = true;
  let ended = false;
  /** Parses and validates records for about `budget` ms; returns false at the end. */
  const slice = (budget: number): void => {
    const deadline = now() + budget;
    const batch: unknown[] = [];
    while (!ended) {
      pos = sc.skipWs(pos);
      const c = t.charCodeAt(pos);
      if (c === 0x5d) {
        // After the array: only the end of the object (or more header members, checked whole).
        const rest = t.slice(pos + 1).trim();
        if (rest !== '}') {
          if (!rest.startsWith(',')) throw new Fallback();
          const more = JSON.parse(`{${rest.slice(1)}`) as Record<string, unknown>;
          if ('records' in more) throw new Fallback();
          importCaptureFile({ ...header, ...more, records: [] });
        }
        ended = true;
        break;
      }
      if (!first) {
        if (c !== 0x2c) throw new Fallback();
        pos = sc.skipWs(pos + 1);
      }
      first = false;
      const end = sc.value(pos);
      batch.push(JSON.parse(t.slice(pos, end)));
      pos = end;
      if ((batch.length & 15) === 0 && now() >= deadline) break;
    }
    if (batch.length) for (const r of importRecordArray(batch)) records.push(r);
  };

  // The first slice now: its errors are the caller's, like a whole-file import's.
  try {
    slice(sliceMs);
  } catch (e) {
    if (e instanceof Fallback || e instanceof SyntaxError || isImportError(e)) {
      records.length = 0;
      return allAtOnce(); // throws the importer's error if the file is bad
    }
    throw e;
  }
  if (ended) {
    complete = true;
    release();
    return { source, done: Promise.resolve(), cancel() {} };
  }
  let resolve!: () => void, reject!: (e: unknown) => void;
  const done = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const step = (budget = sliceMs) => {
    if (cancelled || complete) return;
    try {
      slice(budget);
    } catch {
      // The whole file through the importer: its error, or (should the scanner have been wrong
      // about a valid file) its records.
      try {
        const all = whole();
        records.length = 0;
        for (const r of all) records.push(r);
        complete = true;
        release();
        emit();
        resolve();
      } catch (e2) {
        release();
        reject(e2);
      }
      return;
    }
    if (ended) {
      complete = true;
      release();
    }
    emit();
    if (ended) resolve();
    else if (budget !== Infinity) yieldTo(() => step());
  };
  yieldTo(() => step());
  source.drain = () => step(Infinity);
  return {
    source,
    done,
    cancel() {
      cancelled = true;
      release();
    },
  };
}

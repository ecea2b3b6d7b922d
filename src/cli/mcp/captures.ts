// The captures the server has open: files (the product's JSON, HAR, a record array) read once,
// and live tabs read through the extension (live/). Each has a short id (`c1`, `tab-123`) the
// tools take, its records and its analysis by the core.
import { readFileSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { analyzeRecords } from '../../core/analyzer';
import { importText, isImportError } from '../../core/import/index';
import type { AnalysisSnapshot } from '../../core/model';
import type { CaptureRecord } from '../../core/record';
import { confine } from './paths';

export interface Capture {
  id: string;
  kind: 'file' | 'live';
  /** What it is, for people: the file relative to --root, or the tab's title and URL. */
  label: string;
  /** 'HAR', 'capture', 'records' or 'live'. */
  format: string;
  records(): readonly CaptureRecord[];
  snapshot(): AnalysisSnapshot;
  /** Live captures read what arrived since the last call. */
  refresh?(): Promise<void>;
}

export interface OpenLimits {
  root: string;
  /** Largest file read, bytes. */
  maxBytes: number;
  /** Most files opened from one folder. */
  maxFiles: number;
}

export class OpenError extends Error {}

const CAPTURE_EXT = /\.(har|json)$/i;

export class CaptureSet {
  private readonly byId = new Map<string, Capture>();
  private readonly byPath = new Map<string, string>();
  private next = 1;
  constructor(readonly limits: OpenLimits) {}

  list(): Capture[] {
    return [...this.byId.values()];
  }

  get(id: string): Capture {
    const c = this.byId.get(id);
    if (!c) throw new OpenError(`no open capture "${id}"; list_captures names the open ones, open_capture opens a file`);
    return c;
  }

  add(c: Capture): Capture {
    this.byId.set(c.id, c);
    return c;
  }

  remove(id: string): void {
    this.byId.delete(id);
  }

  /** Opens a file, or every capture file of a folder (not its subfolders). */
  async open(input: string): Promise<{ opened: Capture[]; skipped: { file: string; reason: string }[] }> {
    const path = confine(this.limits.root, input, { mustExist: true });
    const st = await stat(path);
    if (!st.isDirectory()) return { opened: [await this.openFile(path)], skipped: [] };
    const names = (await readdir(path)).filter((n) => CAPTURE_EXT.test(n)).sort();
    const opened: Capture[] = [];
    const skipped: { file: string; reason: string }[] = [];
    for (const n of names) {
      const rel = relative(this.limits.root, join(path, n));
      if (opened.length >= this.limits.maxFiles) {
        skipped.push({ file: rel, reason: `over the limit of ${this.limits.maxFiles} files per folder` });
        continue;
      }
      try {
        opened.push(await this.openFile(confine(this.limits.root, join(path, n), { mustExist: true })));
      } catch (e) {
        skipped.push({ file: rel, reason: e instanceof Error ? e.message : String(e) });
      }
    }
    return { opened, skipped };
  }

  private async openFile(path: string): Promise<Capture> {
    const known = this.byPath.get(path);
    if (known && this.byId.has(known)) return this.byId.get(known)!;
    const label = relative(this.limits.root, path) || basename(path);
    const st = await stat(path);
    if (!st.isFile()) throw new OpenError(`${label}: not a file`);
    if (st.size > this.limits.maxBytes) throw new OpenError(`${label}: ${(st.size / 1e6).toFixed(1)} MB, over the ${this.limits.maxBytes / 1e6} MB limit (--max-size)`);
    const text = await readFile(path, 'utf8');
    let imported;
    try {
      // Playwright's `content: 'attach'` keeps bodies beside the HAR: only a plain file name in
      // the HAR's own folder is read (basename), and it is confined to --root like any path.
      imported = importText(text, {
        readAttachment: (name: string) => {
          try {
            return readFileSync(confine(this.limits.root, join(dirname(path), basename(name)), { mustExist: true }));
          } catch {
            return undefined;
          }
        },
      });
    } catch (e) {
      throw new OpenError(`${label}: ${isImportError(e) ? e.message : 'cannot read it'}`);
    }
    const records = imported.records;
    const snap = analyzeRecords(records);
    const id = `c${this.next++}`;
    const format = imported.format === 'har' ? 'HAR' : imported.format;
    this.byPath.set(path, id);
    return this.add({ id, kind: 'file', label, format, records: () => records, snapshot: () => snap });
  }
}

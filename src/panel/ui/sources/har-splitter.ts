// A HAR file split entry by entry while its text arrives: `{"log": {..., "entries": [ … ], …}}`
// is walked with the string-aware scanner (json-scanner.ts); each entry is JSON.parse()d and
// handed to the core's streaming HAR importer (src/core/import/har-stream.ts), whose records are
// final as soon as no later entry can come before them. Anything the walk does not expect (another
// shape, a duplicate key, broken JSON) throws Fallback: the caller then imports the whole text with
// the core importer, which gives its records or its own error.

import { createHarStream } from '../../../core/import/har-stream';
import type { CaptureRecord } from '../../../core/record';
import { createEntryPreview, type EntryPreview } from './har-preview';
import { createValueScan, Fallback, NeedMore, scanner } from './json-scanner';

/** An entry still arriving with this much text read is shown before it is whole (har-preview.ts). */
export const PREVIEW_MIN_CHARS = 1 << 20;

/** Splits a file's text as it arrives into records (the capture file's or a HAR's splitter). */
export interface Splitter {
  /**
   * Split what `buf` holds from `pos` until `deadline`; returns the position after what was used.
   * Throws NeedMore (nothing more can be split before more text) or Fallback (import it whole).
   */
  step(buf: string, pos: number, deadline: number, now: () => number): number;
  /** Records that became final since the last take, to append. */
  take(): CaptureRecord[];
  /** The text ended at `pos`: the last records, or (restart) the whole list to replace what was appended. */
  finish(buf: string, pos: number): { records: CaptureRecord[]; restart: boolean };
}

type State = 'top' | 'log' | 'member' | 'entries' | 'tail' | 'done';

export function createHarSplitter(src: string | undefined, previewMin = PREVIEW_MIN_CHARS): Splitter {
  const stream = createHarStream(src !== undefined ? { src } : {});
  /** The entry being read: its end scanned once (not from its start with each piece of text). */
  let pending: { scan: ReturnType<typeof createValueScan>; preview: EntryPreview | undefined } | undefined;
  let entryIndex = 0;
  let state: State = 'top';
  // No prototype: a member named "__proto__" is a member (JSON.parse's own object has it as one),
  // not this object's prototype through which other members would be found.
  const members: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const seen = new Set<string>();
  let first = true;
  let out: CaptureRecord[] = [];
  /** The entry at `q` is large and still arriving: its provisional records (har-preview.ts). */
  const showPreview = (t: string, q: number) => {
    if (!pending) return;
    pending.preview ??= createEntryPreview(src ?? 'har', `e${entryIndex}`, Number.isFinite(stream.watermark) ? stream.watermark : 0);
    const recs = pending.preview.more(t, q);
    if (recs.length) for (const r of stream.preview(recs, pending.preview.start)) out.push(r);
  };
  const expect = (t: string, p: number, c: number) => {
    if (p >= t.length) throw new NeedMore();
    if (t.charCodeAt(p) !== c) throw new Fallback();
    return p + 1;
  };
  return {
    step(t, pos, deadline, now) {
      const sc = scanner(t);
      let p = pos;
      let n = 0;
      // State and `p` change only after a whole item (a token, a member, an entry) was read: on
      // NeedMore, what was read so far is kept and returned.
      try {
        return walk();
      } catch (e) {
        if (e instanceof NeedMore && p > pos) return p;
        throw e;
      }
      function walk(): number {
        for (;;) {
          p = sc.skipWs(p);
          if (state === 'done') throw new NeedMore();
          if (p >= t.length) throw new NeedMore();
          const c = t.charCodeAt(p);
          if (state === 'top') {
            // `{` `"log"` `:` `{` — re-read from the start until all four are in
            let q = expect(t, c === 0xfeff ? sc.skipWs(p + 1) : p, 0x7b);
            q = sc.skipWs(q);
            const kEnd = sc.string(q);
            if (JSON.parse(t.slice(q, kEnd)) !== 'log') throw new Fallback();
            q = expect(t, sc.skipWs(kEnd), 0x3a);
            p = expect(t, sc.skipWs(q), 0x7b);
            state = 'log';
            first = true;
          } else if (state === 'log' || state === 'member') {
            if (c === 0x7d) {
              p++;
              state = 'tail';
              continue;
            }
            let q = p;
            if (!first) q = sc.skipWs(expect(t, p, 0x2c));
            const kEnd = sc.string(q);
            const key = JSON.parse(t.slice(q, kEnd)) as string;
            if (seen.has(key)) throw new Fallback(); // JSON.parse keeps the last: the whole-file path decides
            q = sc.skipWs(expect(t, sc.skipWs(kEnd), 0x3a));
            if (q >= t.length) throw new NeedMore();
            if (key === 'entries' && t.charCodeAt(q) === 0x5b) {
              seen.add(key);
              p = q + 1;
              state = 'entries';
              first = true;
              continue;
            }
            // entries that are no list: the whole-file path says what is wrong with the file
            if (key === 'entries') throw new Fallback();
            const vEnd = sc.value(q);
            members[key] = JSON.parse(t.slice(q, vEnd));
            seen.add(key);
            p = vEnd;
            first = false;
            state = 'member';
          } else if (state === 'entries') {
            if (c === 0x5d) {
              p++;
              state = 'member';
              first = false;
              continue;
            }
            let q = p;
            if (!first) q = sc.skipWs(expect(t, p, 0x2c));
            if (q >= t.length) throw new NeedMore();
            // `p` stays before the entry's comma until the entry is whole: the text kept starts
            // there, and the scan's offsets are from the entry's start.
            pending ??= { scan: createValueScan(), preview: undefined };
            let vEnd: number;
            try {
              vEnd = pending.scan.end(t, q);
            } catch (e) {
              if (e instanceof NeedMore && pending.scan.scanned >= previewMin) showPreview(t, q);
              throw e;
            }
            const entry = JSON.parse(t.slice(q, vEnd)) as unknown;
            pending = undefined;
            entryIndex++;
            for (const r of stream.entry(entry)) out.push(r);
            first = false;
            p = vEnd;
            if ((++n & 3) === 0 && now() >= deadline) return p;
          } else if (state === 'tail') {
            // the file's other top-level members (HAR has none; importHar ignores them)
            if (c === 0x7d) {
              state = 'done';
              return p + 1;
            }
            const q = sc.skipWs(expect(t, p, 0x2c));
            const kEnd = sc.string(q);
            const key = JSON.parse(t.slice(q, kEnd)) as string;
            if (key === 'log') throw new Fallback();
            const v = sc.skipWs(expect(t, sc.skipWs(kEnd), 0x3a));
            p = sc.value(v);
            JSON.parse(t.slice(v, p));
          }
        }
      }
    },
    take() {
      const r = out;
      out = [];
      return r;
    },
    finish(t, pos) {
      if (state !== 'done' || t.slice(pos).trim() || !seen.has('entries')) throw new Fallback();
      stream.log(members);
      const end = stream.end();
      const records = end.restart ? end.records : [...out, ...end.records];
      out = [];
      return { records, restart: end.restart };
    },
  };
}

// The product's own capture file (`{"format":"mcp-stream-inspector", ..., "records":[...]}`) split
// record by record while its text arrives: the header members before `records` are parsed and
// validated first (re-read from the start until all are in), then the records are JSON.parse()d
// and validated with the core's record schema (`importRecordArray`) in slices.
//
// Why a small scanner and not a streaming JSON library: the records are few and large (64 KB chunk
// texts), and the scanner skips strings with indexOf, then JSON.parse does the parsing natively.
// @streamparser/json 0.0.26 (paths ['$.records.*']) took 0.8–1.7 s in Node for the 22.6 MB bench
// capture, tokenizing every character; this scanner + JSON.parse + the record schema 0.13–0.32 s.

import { importCaptureFile, importRecordArray } from '../../../core/import';
import type { CaptureRecord } from '../../../core/record';
import { createValueScan, Fallback, NeedMore, scanner } from './json-scanner';
import type { Splitter } from './har-splitter';

export function createCaptureSplitter(): Splitter {
  let phase: 'header' | 'records' | 'tail' = 'header';
  let header: Record<string, unknown> = {};
  let firstRecord = true;
  let out: CaptureRecord[] = [];
  /** The record still arriving: its end scanned once, not from its start with each piece of text (one chunk record can be megabytes). */
  let pending: ReturnType<typeof createValueScan> | undefined;

  /** The header members before "records" (from the start of the text); returns where records begin. */
  const parseHeader = (buf: string): number => {
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
        return p + 1;
      }
      const vEnd = sc.value(p);
      h[key] = JSON.parse(buf.slice(p, vEnd));
      p = sc.skipWs(vEnd);
      if (p >= buf.length) throw new NeedMore();
      if (buf.charCodeAt(p) !== 0x2c) throw new Fallback();
      p++;
    }
  };

  /** Records from `pos` until the deadline; returns the position after the last one split. */
  const parseRecords = (buf: string, pos: number, deadline: number, now: () => number): number => {
    const batch: unknown[] = [];
    const sc = scanner(buf);
    try {
      for (;;) {
        let p = sc.skipWs(pos);
        if (p >= buf.length) throw new NeedMore();
        const c = buf.charCodeAt(p);
        if (c === 0x5d) {
          phase = 'tail';
          return p + 1;
        }
        if (!firstRecord) {
          if (c !== 0x2c) throw new Fallback();
          p = sc.skipWs(p + 1);
          if (p >= buf.length) throw new NeedMore();
        }
        pending ??= createValueScan();
        const end = pending.end(buf, p);
        pending = undefined;
        batch.push(JSON.parse(buf.slice(p, end)));
        firstRecord = false;
        pos = end;
        if ((batch.length & 7) === 0 && now() >= deadline) return pos;
      }
    } catch (e) {
      if (e instanceof NeedMore && batch.length) return pos;
      throw e;
    } finally {
      // Validate what was split (the importer's record schema), even when stopping for more text.
      if (batch.length) for (const r of importRecordArray(batch)) out.push(r);
    }
  };

  return {
    step(buf, pos, deadline, now) {
      if (phase === 'header') {
        pos = parseHeader(buf);
        phase = 'records';
        // The header's own errors (version, createdAt...) exactly as the importer reports them.
        importCaptureFile({ ...header, records: [] });
      }
      if (phase === 'records') return parseRecords(buf, pos, deadline, now);
      throw new NeedMore(); // the tail is checked at the end
    },
    take() {
      const r = out;
      out = [];
      return r;
    },
    finish(buf, pos) {
      if (phase !== 'tail') throw new Fallback();
      const rest = buf.slice(pos).trim();
      if (rest !== '}') {
        if (!rest.startsWith(',')) throw new Fallback();
        const more = JSON.parse(`{${rest.slice(1)}`) as Record<string, unknown>;
        if ('records' in more) throw new Fallback();
        importCaptureFile({ ...header, ...more, records: [] });
      }
      return { records: this.take(), restart: false };
    },
  };
}

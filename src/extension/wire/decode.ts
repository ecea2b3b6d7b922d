// Record building off the page's thread: the relay's numbered wire records (records.ts) become
// CaptureRecords here, in the panel. Fetch chunks are decoded from their bytes, XHR chunks get
// their byte count, and the record size cap is applied to chunk text, with the same explicit
// marker as before (`droppedBytes`). Everything else arrives finished.
//
// Each chunk decodes on its own, exactly as one streaming TextDecoder per connection in the page
// would have decoded it: the relay's decoding carry (relay/carry.ts) said which bytes of the
// previous read come first (`head`), how many at the end wait for the next read (`hold`), and
// whether the connection had produced a character yet (a BOM is stripped only before the first).
// Unit-tested against one streaming TextDecoder on random bytes split anywhere.
//
// Pure: no chrome.*, no DOM (TextDecoder and Blob exist in Node and in every extension context).

import type { CaptureRecord, ChunkRecord } from '../../core/record';
import { utf8Length } from '../../core/utf8';
import type { WireChunk, WireRecord } from './records';

const stripBom = new TextDecoder('utf-8');
const keepBom = new TextDecoder('utf-8', { ignoreBOM: true });
const EMPTY = new Uint8Array(0);

function bodyOf(w: WireChunk, parts: readonly Uint8Array[]): Uint8Array {
  if (w.data) return w.data;
  const p = w.part !== undefined ? parts[w.part] : undefined;
  if (!p || w.at === undefined || w.len === undefined) return EMPTY;
  return p.subarray(w.at, w.at + w.len);
}

function decodeChunk(w: WireChunk, parts: readonly Uint8Array[]): ChunkRecord {
  let text: string;
  let bytes: number;
  let dropped = w.droppedBytes;
  if (w.text !== undefined) {
    text = w.text;
    bytes = w.bytes ?? utf8Length(text);
  } else {
    const body = bodyOf(w, parts);
    if (w.flush) {
      // The decoder's flush at a complete end: bytes it still held become U+FFFD.
      text = stripBom.decode(body);
      bytes = 0;
    } else {
      let seg = body;
      if (w.head && w.head.length > 0) {
        seg = new Uint8Array(w.head.length + body.length);
        seg.set(w.head);
        seg.set(body, w.head.length);
      }
      if (w.hold) seg = seg.subarray(0, seg.length - w.hold);
      text = (w.keepBom ? keepBom : stripBom).decode(seg);
      bytes = body.byteLength;
    }
  }
  if (text.length > w.max) {
    // The size cap (settings key recordMaxChars): the first `max` characters are kept and
    // droppedBytes says how many bytes were left out (the analysis marks the stream as not fully
    // captured).
    const rest = text.slice(w.max);
    text = text.slice(0, w.max);
    dropped = (dropped ?? 0) + Math.max(1, utf8Length(rest));
  }
  return dropped === undefined
    ? { kind: 'chunk', conn: w.conn, t: w.t, text, bytes, seq: w.seq, src: w.src }
    : { kind: 'chunk', conn: w.conn, t: w.t, text, bytes, droppedBytes: dropped, seq: w.seq, src: w.src };
}

/** Wire records of one batch → CaptureRecords; `parts`: the batch's blobs, read. */
export function decodeRecords(records: readonly WireRecord[], parts: readonly Uint8Array[] = []): CaptureRecord[] {
  const out: CaptureRecord[] = new Array(records.length);
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    out[i] = r.kind === 'chunk' ? decodeChunk(r as WireChunk, parts) : r;
  }
  return out;
}

/** Reads Blobs' bytes, one array per Blob (here, or in the panel's worker: panel/live/blob-reader.ts). */
export type BlobRead = (blobs: readonly Blob[]) => Promise<Uint8Array[]>;

/**
 * The bytes of a batch's Blobs, read as one: a Blob made of them is read once and cut back into
 * its parts. Each read of a Blob is a round trip through the browser process with a fixed cost;
 * on Chromium 156, 50 Blobs of 1 MB read in parallel took the reading thread 314 ms, one Blob of
 * the same 50 (a Blob of Blobs copies no bytes) 160 ms (docs/benchmarks.md, row 1c). A batch holds
 * one Blob per large read the hook sent (relay/relay-core.ts).
 */
export async function readBlobs(blobs: readonly Blob[]): Promise<Uint8Array[]> {
  if (blobs.length === 0) return [];
  return cutParts(new Uint8Array(await (blobs.length === 1 ? blobs[0]! : new Blob(blobs as Blob[])).arrayBuffer()), blobs);
}

/** The bytes of Blobs read as one, cut back into each Blob's (views, no copy). */
export function cutParts(whole: Uint8Array, blobs: readonly Blob[]): Uint8Array[] {
  const parts: Uint8Array[] = new Array(blobs.length);
  let at = 0;
  for (let i = 0; i < blobs.length; i++) {
    const n = blobs[i]!.size;
    parts[i] = whole.subarray(at, at + n);
    at += n;
  }
  return parts;
}

/** Read a batch's blobs (the bytes of its large chunks; `read`: where, default here), then decode. */
export async function decodeBatch(
  records: readonly WireRecord[],
  blobs: readonly Blob[] | undefined,
  read: BlobRead = readBlobs,
): Promise<CaptureRecord[]> {
  return decodeRecords(records, blobs?.length ? await read(blobs) : []);
}

// Records as they travel, before they are CaptureRecords (src/core/record.ts).
//
// hook → relay (HookWireRecord): the hook's records, except that a fetch read is a copy of its
// bytes (`data`, its buffer transferred) or, a large read while a panel takes the records, a Blob
// of them (`blob`, with the length and last ≤ 3 bytes the decoding carry needs), an XHR delta is
// its text without a byte count, and a read made while the relay does not record is only a `skip`
// (with the ≤ 3 last bytes a streaming UTF-8 decoder could carry across it). Nothing per byte
// happens on the page's thread beyond that one copy (the copy or the Blob).
//
// relay → panel (WireRecord): numbered CaptureRecords, except chunks (WireChunk): their text is
// made by the panel (decode.ts), from the bytes and what the relay's decoding carry says about
// them (head, hold, keepBom), with the size cap the relay had when it numbered them.
//
// Guards: records built in the page's world are untrusted (the page could forge them), so every
// field is checked for type (not for truth: a page can always make genuine traffic). The record
// contract's one validator (src/core/contract) checks the records of its shape; the forms only the
// wire has (fetch bytes, an XHR text without its byte count, skips) are checked here. Types only:
// no string is walked.

import { isHookRecordValue, isRecord } from '../../core/contract/validate';
import type { CaptureRecord, ChunkRecord, HookRecord } from '../../core/record';

/** A fetch read as the hook sends it: a copy of the bytes the page read. */
export interface HookBytesChunk {
  kind: 'chunk';
  conn: string;
  t: number;
  data: Uint8Array;
}
/**
 * A large fetch read while a panel takes the records: a Blob of its bytes (the relay sends it on
 * as it is), its length and its last ≤ 3 bytes (the relay's decoding carry reads no Blob).
 */
export interface HookBlobChunk {
  kind: 'chunk';
  conn: string;
  t: number;
  blob: Blob;
  n: number;
  tail: Uint8Array;
}
/**
 * An XHR delta as the hook sends it: its text. `bytes` (and `droppedBytes`) only when the hook cut
 * the text at its hard bound; otherwise the panel counts the bytes.
 */
export interface HookTextChunk {
  kind: 'chunk';
  conn: string;
  t: number;
  text: string;
  bytes?: number;
  droppedBytes?: number;
}
/** A body record the hook did not copy because the relay does not record (mode copy: false). */
export interface HookSkip {
  kind: 'skip';
  conn: string;
  t: number;
  /** fetch: the read's length and its last ≤ 3 bytes (what a streaming decoder could carry on). */
  n?: number;
  tail?: Uint8Array;
}
export type HookWireRecord = Exclude<HookRecord, { kind: 'chunk' }> | HookBytesChunk | HookBlobChunk | HookTextChunk | HookSkip;

/** A numbered chunk whose text the panel makes (decode.ts). */
export interface WireChunk {
  kind: 'chunk';
  seq: number;
  src: string;
  conn: string;
  t: number;
  /** The record size cap (characters) in effect when the relay numbered it. */
  max: number;
  /** XHR: the text. */
  text?: string;
  /** Bytes read (fetch: absent, the decoder counts `data`/`len`; XHR: only when the hook cut). */
  bytes?: number;
  droppedBytes?: number;
  /** fetch: the read's bytes inline... */
  data?: Uint8Array;
  /** ...or in the batch's blobs[part] at [at, at + len). */
  part?: number;
  at?: number;
  len?: number;
  /** Bytes a streaming decoder carried from the connection's previous read (decoded first). */
  head?: Uint8Array;
  /** Bytes at the end a streaming decoder holds back for the next read. */
  hold?: number;
  /** The connection's decoder already produced a character: a BOM here is text, not stripped. */
  keepBom?: true;
  /** The decoder's flush at a complete end: `data` holds the carried bytes (→ U+FFFD); bytes 0. */
  flush?: true;
}
export type WireRecord = Exclude<CaptureRecord, ChunkRecord> | WireChunk;

type O = Record<string, unknown>;
const str = (x: unknown): x is string => typeof x === 'string';
const num = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const isBytes = (x: unknown): x is Uint8Array => x instanceof Uint8Array;

/**
 * A record from the page hook, checked field by field. Not accepted: numbered records (`seq`,
 * `src` are the relay's), and the kinds only the relay makes (navigation, capture-gap).
 */
export function isHookWireRecord(x: unknown): x is HookWireRecord {
  if (typeof x !== 'object' || x === null) return false;
  const r = x as O;
  if ('seq' in r || 'src' in r) return false;
  if (r.kind === 'skip') {
    if (!str(r.conn) || !num(r.t)) return false;
    if (r.tail === undefined) return r.n === undefined;
    return isBytes(r.tail) && r.tail.length <= 3 && num(r.n) && Number.isInteger(r.n) && r.n >= r.tail.length && (r.tail.length === 3 || r.n === r.tail.length);
  }
  if (r.kind === 'chunk') {
    if (!str(r.conn) || !num(r.t)) return false;
    if ('data' in r) return isBytes(r.data) && !('text' in r) && !('bytes' in r);
    // The Blob's size is read here (no page code runs in the relay's world): it must be the length.
    if ('blob' in r)
      return r.blob instanceof Blob && num(r.n) && Number.isInteger(r.n) && r.n > 0 && r.blob.size === r.n && isBytes(r.tail) && r.tail.length === Math.min(3, r.n) && !('text' in r) && !('bytes' in r);
    // An XHR delta: the contract's chunk when it has its byte count (the hook cut it), else ours.
    if (r.bytes === undefined) return str(r.text) && r.droppedBytes === undefined;
  }
  return isHookRecordValue(x);
}

/** A numbered CaptureRecord (the contract's shape: imported files, the panel's own records). */
export function isCaptureRecord(x: unknown): x is CaptureRecord {
  return isRecord(x);
}

// Records as they travel, before they are CaptureRecords (src/core/record.ts).
//
// hook → relay (HookWireRecord): the hook's records, except that a fetch read is a copy of its
// bytes (`data`, its buffer transferred), an XHR delta is its text without a byte count, and a
// read made while the relay does not record is only a `skip` (with the ≤ 3 last bytes a streaming
// UTF-8 decoder could carry across it). Nothing per byte happens on the page's thread beyond
// that one copy.
//
// relay → panel (WireRecord): numbered CaptureRecords, except chunks (WireChunk): their text is
// made by the panel (decode.ts), from the bytes and what the relay's decoding carry says about
// them (head, hold, keepBom), with the size cap the relay had when it numbered them.
//
// Guards: records built in the page's world are untrusted (the page could forge them), so every
// field is checked for type (not for truth: a page can always make genuine traffic). The check
// reads types only and never walks a string.

import { CAPTURE_GAP_REASONS, type CaptureRecord, type ChunkRecord, type HookRecord } from '../../core/record';

/** A fetch read as the hook sends it: a copy of the bytes the page read. */
export interface HookBytesChunk {
  kind: 'chunk';
  conn: string;
  t: number;
  data: Uint8Array;
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
export type HookWireRecord = Exclude<HookRecord, { kind: 'chunk' }> | HookBytesChunk | HookTextChunk | HookSkip;

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

const KINDS = new Set(['request', 'response', 'chunk', 'es-event', 'end', 'navigation', 'capture-gap', 'notice']);
const TRANSPORTS = new Set(['fetch', 'xhr', 'eventsource', 'network', 'import']);
const END_HOWS = new Set(['complete', 'page-aborted', 'page-cancelled', 'network-error', 'unread', 'closed', 'unknown']);
const GAP_REASONS = new Set<string>(CAPTURE_GAP_REASONS);
const LEVELS = new Set(['info', 'warning', 'error']);

type O = Record<string, unknown>;
const str = (x: unknown): x is string => typeof x === 'string';
const num = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const optStr = (x: unknown) => x === undefined || str(x);
const optNum = (x: unknown) => x === undefined || num(x);
const isHeaders = (x: unknown) =>
  Array.isArray(x) && x.every((h) => Array.isArray(h) && h.length === 2 && str(h[0]) && str(h[1]));

/** The kind-specific part, shared by hook and numbered records. */
function bodyOk(r: O): boolean {
  if (!num(r.t) || !str(r.kind) || !KINDS.has(r.kind)) return false;
  const needConn = r.kind !== 'navigation' && r.kind !== 'capture-gap' && r.kind !== 'notice';
  if (needConn && !str(r.conn)) return false;
  switch (r.kind) {
    case 'request':
      return (
        str(r.transport) && TRANSPORTS.has(r.transport) && str(r.method) && str(r.url) && isHeaders(r.headers) &&
        (r.body === null || str(r.body)) && optStr(r.bodyNote) && optStr(r.reconnectOf)
      );
    case 'response':
      return (
        num(r.status) && str(r.statusText) && isHeaders(r.headers) && str(r.url) && typeof r.redirected === 'boolean' &&
        str(r.type) && (r.capture === 'sse' || r.capture === 'json' || r.capture === 'none')
      );
    case 'chunk':
      return str(r.text) && num(r.bytes) && optNum(r.droppedBytes);
    case 'es-event':
      return str(r.type) && str(r.data) && str(r.lastEventId);
    case 'end':
      return str(r.how) && END_HOWS.has(r.how) && optStr(r.reason);
    case 'navigation':
      return str(r.url) && typeof r.top === 'boolean';
    case 'capture-gap':
      return (
        num(r.lost) && optNum(r.fromSeq) && optNum(r.toSeq) && Array.isArray(r.conns) && r.conns.every(str) &&
        str(r.reason) && GAP_REASONS.has(r.reason)
      );
    case 'notice':
      return str(r.level) && LEVELS.has(r.level) && str(r.code) && str(r.message);
  }
  return false;
}

const isBytes = (x: unknown): x is Uint8Array => x instanceof Uint8Array;

/**
 * A record from the page hook, checked field by field. Not accepted: numbered records (`seq`,
 * `src` are the relay's), and the kinds only the relay makes (navigation, capture-gap).
 */
export function isHookWireRecord(x: unknown): x is HookWireRecord {
  if (typeof x !== 'object' || x === null) return false;
  const r = x as O;
  if ('seq' in r || 'src' in r) return false;
  if (r.kind === 'navigation' || r.kind === 'capture-gap') return false;
  if (r.kind === 'skip') {
    if (!str(r.conn) || !num(r.t)) return false;
    if (r.tail === undefined) return r.n === undefined;
    return isBytes(r.tail) && r.tail.length <= 3 && num(r.n) && Number.isInteger(r.n) && r.n >= r.tail.length && (r.tail.length === 3 || r.n === r.tail.length);
  }
  if (r.kind === 'chunk') {
    if (!str(r.conn) || !num(r.t)) return false;
    if ('data' in r) return isBytes(r.data) && !('text' in r) && !('bytes' in r);
    return str(r.text) && optNum(r.bytes) && optNum(r.droppedBytes);
  }
  return bodyOk(r);
}

/** A numbered CaptureRecord (the core's shape: imported files, the panel's own records). */
export function isCaptureRecord(x: unknown): x is CaptureRecord {
  if (typeof x !== 'object' || x === null) return false;
  const r = x as O;
  return num(r.seq) && Number.isInteger(r.seq) && (r.seq as number) >= 1 && str(r.src) && bodyOk(r);
}

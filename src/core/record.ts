// The CaptureRecord: the one contract between capture (page hook, relay, panel store, importers)
// and analysis (src/core). Versioned; the product's own export is a list of these.
//
// Records describe what the *page read*, in the order it read it: a `chunk` is emitted when the
// page's read of the body resolved, never ahead of it (see README "Capture"). Nothing here is
// analysis: parsing SSE, sessions and findings happen in the core.

export const RECORD_VERSION = 1 as const;

/** A header as seen on the wire or given by the page. Names keep their original case. */
export type Header = [name: string, value: string];

/**
 * How the record was observed.
 * - fetch / xhr / eventsource: the MAIN-world hook saw the page read it.
 * - network: `chrome.devtools.network` reported it after completion (Web/Service Workers),
 *   so chunk timing is unknown and the body is what Chrome kept.
 * - import: rebuilt from a HAR file or another export.
 */
export type Transport = 'fetch' | 'xhr' | 'eventsource' | 'network' | 'import';

/** How the page's body reading ended. */
export type EndHow =
  | 'complete' // the body reached EOF as the page read it
  | 'page-aborted' // the page's AbortSignal fired
  | 'page-cancelled' // the page cancelled the body stream / reader
  | 'network-error' // the read rejected (connection reset, server destroyed the socket...)
  | 'unread' // the Response was garbage collected / page navigated without reading the body
  | 'closed' // EventSource.close() or XHR abort by the page
  | 'unknown'; // imported records that do not say

interface RecordBase {
  /** Sequence number assigned by the relay, per capture source (`src`), starting at 1, no holes. */
  seq: number;
  /** Capture source: one relay instance (one document in one frame). seq is dense within it. */
  src: string;
  /** Wall-clock time in ms since the epoch with sub-ms precision (timeOrigin + performance.now()). */
  t: number;
}

interface ConnBase extends RecordBase {
  /** Connection id, unique within `src`: one fetch / XHR / EventSource connection attempt. */
  conn: string;
}

export interface RequestRecord extends ConnBase {
  kind: 'request';
  transport: Transport;
  method: string;
  url: string;
  headers: Header[];
  /** Request body as text when it could be read without consuming the page's body; else null. */
  body: string | null;
  /** Why `body` is null or partial. */
  bodyNote?: 'none' | 'stream' | 'binary' | 'truncated' | 'unreadable';
  /** For EventSource reconnects made by the browser: the conn of the first attempt. */
  reconnectOf?: string;
}

export interface ResponseRecord extends ConnBase {
  kind: 'response';
  status: number;
  statusText: string;
  headers: Header[];
  url: string;
  redirected: boolean;
  type: string;
  /** What the hook will capture of the body: SSE text, JSON text, or nothing. */
  capture: 'sse' | 'json' | 'none';
}

export interface ChunkRecord extends ConnBase {
  kind: 'chunk';
  /** Body text decoded with a streaming UTF-8 decoder, exactly as the page read it. */
  text: string;
  /** Byte length of the chunk before decoding. */
  bytes: number;
  /** Set when the per-event size cap cut this chunk: how many bytes were left out. */
  droppedBytes?: number;
}

/** An event dispatched by a native EventSource (the browser parsed it; we see the result). */
export interface EsEventRecord extends ConnBase {
  kind: 'es-event';
  type: string;
  data: string;
  lastEventId: string;
}

export interface EndRecord extends ConnBase {
  kind: 'end';
  how: EndHow;
  /** Error name and message, or the abort reason, as text. */
  reason?: string;
}

export interface NavigationRecord extends RecordBase {
  kind: 'navigation';
  url: string;
  /** true for the top frame. */
  top: boolean;
}

/** The inspector lost records. As loud as a server's gap. */
export interface CaptureGapRecord extends RecordBase {
  kind: 'capture-gap';
  /** How many records were lost. */
  lost: number;
  /** seq range (inclusive) of the lost records in `src`, when known. */
  fromSeq?: number;
  toSeq?: number;
  /** Connections whose records were among the lost ones. */
  conns: string[];
  reason: CaptureGapReason;
  /**
   * `not-seen-by-hook` (the network witness, src 'network'): the request the network saw and the
   * capture does not hold, and why (witness.ts UnseenReason).
   */
  method?: string;
  url?: string;
  why?: string;
}

/**
 * Why records are missing. `not-recording`: the relay kept no records while no DevTools window
 * inspected the tab and "capture while DevTools is closed" was off (the user's choice, not a loss).
 * `not-seen-by-hook`: the browser's network view saw an MCP request the capture does not hold
 * (one gap record per request, `lost: 1`).
 */
export const CAPTURE_GAP_REASONS = ['buffer-cap', 'event-size-cap', 'extension-reloaded', 'hook-missing', 'import', 'not-recording', 'not-seen-by-hook', 'other'] as const;
export type CaptureGapReason = (typeof CAPTURE_GAP_REASONS)[number];

/** Something the inspector wants the user to know about capture itself (e.g. hook not running). */
export interface CaptureNoticeRecord extends RecordBase {
  kind: 'notice';
  level: 'info' | 'warning' | 'error';
  code: string;
  message: string;
  /**
   * Notices of the network witness whose code is a finding code (witness.ts
   * WITNESS_FINDING_CODES): the request concerned and its session id, so the analysis files the
   * finding under the session the capture shows it in.
   */
  url?: string;
  sessionId?: string;
}

export type CaptureRecord =
  | RequestRecord
  | ResponseRecord
  | ChunkRecord
  | EsEventRecord
  | EndRecord
  | NavigationRecord
  | CaptureGapRecord
  | CaptureNoticeRecord;

export type RecordKind = CaptureRecord['kind'];

/** A record as the page hook builds it, before the relay numbers it. */
export type HookRecord = CaptureRecord extends infer R
  ? R extends CaptureRecord
    ? Omit<R, 'seq' | 'src'>
    : never
  : never;

/** The product's own export file. */
export interface CaptureFile {
  format: 'mcp-stream-inspector';
  version: typeof RECORD_VERSION;
  createdAt: string;
  /** Free text: the page URL, tool version. */
  source?: string;
  records: CaptureRecord[];
}

export function headerValue(headers: readonly Header[], name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [k, v] of headers) if (k.toLowerCase() === lower) return v;
  return undefined;
}

/** `text/event-stream` in any case, with or without parameters. */
export function isEventStreamType(contentType: string | null | undefined): boolean {
  if (!contentType) return false;
  return contentType.split(';', 1)[0]!.trim().toLowerCase() === 'text/event-stream';
}

export function isJsonType(contentType: string | null | undefined): boolean {
  if (!contentType) return false;
  const base = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return base === 'application/json' || base.endsWith('+json');
}

// The CaptureRecord types: the one contract between capture (page hook, relay, panel store,
// importers) and analysis (src/core), derived from its single definition in contract/records.ts
// (which also gives the validator and the committed JSON Schema). Versioned; the product's own
// export is a list of these. Field meanings are documented there.
import type * as z from 'zod/mini';
import type * as C from './contract/records';

export { RECORD_VERSION, CAPTURE_GAP_REASONS } from './contract/records';

/** A header as seen on the wire or given by the page. Names keep their original case. */
export type Header = [name: string, value: string];
/** How the record was observed (see contract/records.ts). */
export type Transport = (typeof C.TRANSPORTS)[number];
/** How the page's body reading ended. */
export type EndHow = (typeof C.END_HOWS)[number];
export type CaptureGapReason = (typeof C.CAPTURE_GAP_REASONS)[number];

type Of<S extends z.ZodMiniType> = z.infer<S>;
export type RequestRecord = Of<typeof C.requestRecord>;
export type ResponseRecord = Of<typeof C.responseRecord>;
export type ChunkRecord = Of<typeof C.chunkRecord>;
/** An event dispatched by a native EventSource (the browser parsed it; we see the result). */
export type EsEventRecord = Of<typeof C.esEventRecord>;
export type EndRecord = Of<typeof C.endRecord>;
export type NavigationRecord = Of<typeof C.navigationRecord>;
/** The inspector lost records. As loud as a server's gap. */
export type CaptureGapRecord = Of<typeof C.captureGapRecord>;
/** Something the inspector wants the user to know about capture itself (e.g. hook not running). */
export type CaptureNoticeRecord = Of<typeof C.noticeRecord>;
/** A fault injected on purpose (from the panel or serve --fault): see contract/records.ts. */
export type FaultRecord = Of<typeof C.faultRecord>;

export type CaptureRecord =
  | RequestRecord
  | ResponseRecord
  | ChunkRecord
  | EsEventRecord
  | EndRecord
  | NavigationRecord
  | CaptureGapRecord
  | CaptureNoticeRecord
  | FaultRecord;

export type RecordKind = CaptureRecord['kind'];

/** A record as the page hook builds it, before the relay numbers it (faults are the relay's). */
export type HookRecord = Exclude<CaptureRecord, FaultRecord> extends infer R
  ? R extends Exclude<CaptureRecord, FaultRecord>
    ? Omit<R, 'seq' | 'src'>
    : never
  : never;

/** The product's own export file. */
export interface CaptureFile {
  format: 'mcp-stream-inspector';
  version: typeof C.RECORD_VERSION;
  createdAt: string;
  /** Free text: the page URL, tool version. */
  source?: string;
  records: CaptureRecord[];
}

export function headerValue(headers: readonly Header[], name: string): string | undefined {
  const lower = name.toLowerCase();
  // The length first: lower-casing every name of every record's headers (asked several times of
  // each) showed in the panel's CPU profile, and a name of another length cannot match (ASCII
  // header names: lower-casing keeps their length).
  for (const [k, v] of headers) if (k.length === lower.length && k.toLowerCase() === lower) return v;
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

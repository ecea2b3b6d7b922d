// A stream's events as columns (issue 22, item 1): one typed array per fact instead of one object
// per event. Numbers go to typed arrays that grow by doubling; ids and request ids to plain string
// columns (most are short, and an id repeated as the cursor is stored once); methods and event
// types, which a stream repeats, to small dictionaries; an event's raw text is a span of the
// stream's text store (the chunks as read, kept once), so nothing per event holds a string of
// its own unless the wire gave it one (its id). What the analysis reads of the JSON-RPC messages
// (kind, method, request id, progress) is kept here; the rest of a data field is decoded again on
// demand from its span.
import type { JsonRpcSummary, SseEvent } from '../model';

/** JSON-RPC kind of an event's first message (the analysis reads batches message by message). */
export const RpcKind = { None: 0, Request: 1, Notification: 2, Result: 3, Error: 4, Invalid: 5 } as const;
export type RpcKind = (typeof RpcKind)[keyof typeof RpcKind];

/** Per-event flags (a bit set). */
export const EvFlag = { IdOnly: 1, Truncated: 2, Duplicate: 4, Synthetic: 8, JsonError: 16, Batch: 32 } as const;
export type EvFlag = (typeof EvFlag)[keyof typeof EvFlag];

/**
 * The text of a stream, appended as read: events' raw texts are spans [start, end) of it. Parts
 * are kept as appended (no concatenation, which would copy); a span inside one part is a slice of
 * it, one across parts is joined on demand.
 */
export class TextStore {
  private parts: string[] = [];
  /** Start offset of each part. */
  private starts: number[] = [];
  length = 0;

  /** Append `text`; returns its start offset. */
  append(text: string): number {
    const at = this.length;
    if (text.length === 0) return at;
    this.parts.push(text);
    this.starts.push(at);
    this.length += text.length;
    return at;
  }

  /** Index of the part holding offset `o` (o < length). */
  private partAt(o: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= o) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The text of span [start, end). */
  slice(start: number, end: number): string {
    if (end <= start) return '';
    if (start < 0 || end > this.length) throw new RangeError(`span ${start}..${end} outside 0..${this.length}`);
    let p = this.partAt(start);
    const first = this.parts[p]!;
    const off = start - this.starts[p]!;
    if (end - this.starts[p]! <= first.length) return first.slice(off, end - this.starts[p]!);
    const out: string[] = [first.slice(off)];
    for (p++; p < this.parts.length; p++) {
      const s = this.starts[p]!;
      const part = this.parts[p]!;
      if (end - s <= part.length) {
        out.push(part.slice(0, end - s));
        break;
      }
      out.push(part);
    }
    return out.join('');
  }
}

/** A small dictionary of repeated strings (methods, event types): index 0 is "none". */
class Dict {
  private list: string[] = [''];
  private index = new Map<string, number>();
  /** Index of `s` (added when new); 0 for undefined. */
  put(s: string | undefined): number {
    if (s === undefined) return 0;
    let i = this.index.get(s);
    if (i === undefined) {
      i = this.list.length;
      this.list.push(s);
      this.index.set(s, i);
    }
    return i;
  }
  get(i: number): string | undefined {
    return i === 0 ? undefined : this.list[i];
  }
}

function grow<T extends Float64Array | Uint32Array | Uint16Array | Uint8Array>(a: T, cap: number): T {
  const b = new (a.constructor as new (n: number) => T)(cap);
  b.set(a);
  return b;
}

/** What is appended for one event. */
export interface EventRow {
  t: number;
  /** Span of the event's raw text in the table's text store. */
  rawStart: number;
  rawEnd: number;
  /** Span of its data (the data lines joined) in the text store when it is one; -1 when not. */
  dataStart?: number;
  dataEnd?: number;
  type?: string;
  id?: string;
  /** The cursor after the event when it differs from `id`. */
  cursor?: string;
  retry?: number;
  kind?: RpcKind;
  method?: string;
  /** JSON text of the request id a response answers, or of a progress token. */
  requestId?: string;
  progress?: number;
  flags?: number;
}

/** A stream's events, by index. */
export class EventTable {
  readonly text = new TextStore();
  length = 0;
  private cap: number;
  private t: Float64Array;
  private rawStart: Uint32Array;
  private rawLen: Uint32Array;
  /** Data span as an offset from rawStart and a length; dataOff = 0xffffffff: no span. */
  private dataOff: Uint32Array;
  private dataLen: Uint32Array;
  private types: Uint16Array;
  private methods: Uint16Array;
  private kinds: Uint8Array;
  private flagBits: Uint8Array;
  private progressCol: Float64Array;
  private ids: (string | undefined)[] = [];
  private reqIds: (string | undefined)[] = [];
  /** Cursors that differ from the event's id, and retry fields: rare, kept sparse. */
  private cursors = new Map<number, string | undefined>();
  private retries = new Map<number, number>();
  private typeDict = new Dict();
  private methodDict = new Dict();

  constructor(initial = 16) {
    this.cap = Math.max(1, initial);
    this.t = new Float64Array(this.cap);
    this.rawStart = new Uint32Array(this.cap);
    this.rawLen = new Uint32Array(this.cap);
    this.dataOff = new Uint32Array(this.cap);
    this.dataLen = new Uint32Array(this.cap);
    this.types = new Uint16Array(this.cap);
    this.methods = new Uint16Array(this.cap);
    this.kinds = new Uint8Array(this.cap);
    this.flagBits = new Uint8Array(this.cap);
    this.progressCol = new Float64Array(this.cap);
  }

  private ensure(): void {
    if (this.length < this.cap) return;
    const cap = this.cap * 2;
    this.t = grow(this.t, cap);
    this.rawStart = grow(this.rawStart, cap);
    this.rawLen = grow(this.rawLen, cap);
    this.dataOff = grow(this.dataOff, cap);
    this.dataLen = grow(this.dataLen, cap);
    this.types = grow(this.types, cap);
    this.methods = grow(this.methods, cap);
    this.kinds = grow(this.kinds, cap);
    this.flagBits = grow(this.flagBits, cap);
    this.progressCol = grow(this.progressCol, cap);
    this.cap = cap;
  }

  /** Append one event; returns its index. */
  push(r: EventRow): number {
    this.ensure();
    const i = this.length++;
    this.t[i] = r.t;
    this.rawStart[i] = r.rawStart;
    this.rawLen[i] = r.rawEnd - r.rawStart;
    if (r.dataStart !== undefined && r.dataStart >= 0 && r.dataEnd !== undefined) {
      this.dataOff[i] = r.dataStart - r.rawStart;
      this.dataLen[i] = r.dataEnd - r.dataStart;
    } else this.dataOff[i] = 0xffffffff;
    this.types[i] = this.typeDict.put(r.type);
    this.methods[i] = this.methodDict.put(r.method);
    this.kinds[i] = r.kind ?? RpcKind.None;
    this.flagBits[i] = r.flags ?? 0;
    this.progressCol[i] = r.progress ?? NaN;
    this.ids.push(r.id);
    this.reqIds.push(r.requestId);
    if (r.cursor !== r.id) this.cursors.set(i, r.cursor);
    if (r.retry !== undefined) this.retries.set(i, r.retry);
    return i;
  }

  private check(i: number): void {
    if (!(i >= 0 && i < this.length)) throw new RangeError(`event ${i} outside 0..${this.length}`);
  }

  time(i: number): number {
    this.check(i);
    return this.t[i]!;
  }
  raw(i: number): string {
    this.check(i);
    const s = this.rawStart[i]!;
    return this.text.slice(s, s + this.rawLen[i]!);
  }
  /** The event's data when it is one span of its raw text; undefined when it is not. */
  dataSpan(i: number): string | undefined {
    this.check(i);
    const off = this.dataOff[i]!;
    if (off === 0xffffffff) return undefined;
    const s = this.rawStart[i]! + off;
    return this.text.slice(s, s + this.dataLen[i]!);
  }
  size(i: number): number {
    this.check(i);
    return this.rawLen[i]!;
  }
  type(i: number): string | undefined {
    this.check(i);
    return this.typeDict.get(this.types[i]!);
  }
  id(i: number): string | undefined {
    this.check(i);
    return this.ids[i];
  }
  cursor(i: number): string | undefined {
    this.check(i);
    return this.cursors.has(i) ? this.cursors.get(i) : this.ids[i];
  }
  retry(i: number): number | undefined {
    this.check(i);
    return this.retries.get(i);
  }
  kind(i: number): RpcKind {
    this.check(i);
    return this.kinds[i]! as RpcKind;
  }
  method(i: number): string | undefined {
    this.check(i);
    return this.methodDict.get(this.methods[i]!);
  }
  requestId(i: number): string | undefined {
    this.check(i);
    return this.reqIds[i];
  }
  progress(i: number): number | undefined {
    this.check(i);
    const p = this.progressCol[i]!;
    return Number.isNaN(p) ? undefined : p;
  }
  flags(i: number): number {
    this.check(i);
    return this.flagBits[i]!;
  }
  has(i: number, f: EvFlag): boolean {
    return (this.flags(i) & f) !== 0;
  }
  /** Set flags of an event already pushed (a duplicate found by a later message). */
  setFlag(i: number, f: EvFlag): void {
    this.check(i);
    this.flagBits[i] = this.flagBits[i]! | f;
  }
}

const KIND: Record<JsonRpcSummary['kind'], RpcKind> = { request: RpcKind.Request, notification: RpcKind.Notification, result: RpcKind.Result, error: RpcKind.Error, invalid: RpcKind.Invalid };

/**
 * The row of an event as the analysis builds it today, its raw text appended to `text`: what the
 * columns hold of it. The facts of a batch's messages beyond the first are not columns (batches
 * are rare: the analysis reads them message by message when they arrive).
 */
export function rowOf(ev: SseEvent, text: TextStore): EventRow {
  const rawStart = text.append(ev.raw);
  const m = ev.messages[0];
  let flags = 0;
  if (ev.idOnly) flags |= EvFlag.IdOnly;
  if (ev.truncated) flags |= EvFlag.Truncated;
  if (ev.duplicate) flags |= EvFlag.Duplicate;
  if (ev.synthetic) flags |= EvFlag.Synthetic;
  if (ev.jsonError !== undefined) flags |= EvFlag.JsonError;
  if (ev.messages.length > 1) flags |= EvFlag.Batch;
  const row: EventRow = { t: ev.t, rawStart, rawEnd: rawStart + ev.raw.length, type: ev.event, cursor: ev.cursor, flags };
  // The data of a block with one data line is a span of its raw text (the parser slices it).
  const at = ev.data === '' ? -1 : ev.raw.indexOf(ev.data);
  if (at !== -1) {
    row.dataStart = rawStart + at;
    row.dataEnd = rawStart + at + ev.data.length;
  }
  if (ev.id !== undefined) row.id = ev.id;
  if (ev.retry !== undefined) row.retry = ev.retry;
  if (m) {
    row.kind = KIND[m.kind];
    if (m.method !== undefined) row.method = m.method;
    const rid = m.id ?? m.progressToken;
    if (rid !== undefined) row.requestId = rid;
    if (m.progress !== undefined) row.progress = m.progress;
  }
  return row;
}

// A stream's events as columns (issue 22, item 1). The push stages build each event as a short-
// lived object (they mark it duplicate, add finding codes, set its JSON error); `push` then keeps
// only its facts: numbers in typed columns (columns.ts); its raw text, id and data as spans of the
// text its connection's parser was fed (event-text.ts); the few JSON-RPC facts of its message in
// columns (event-messages.ts); anything rare (a retry, a cursor that is not the event's id, a JSON
// error, finding codes, a batch) on the side. Nothing per event is an object or a string of its own, so a
// long stream costs the analysis a few dozen bytes per event beyond the text it read (issue 22,
// row 7), and nothing for the garbage collector to trace. `at(i)` builds the event again, key for key in the order the push
// stages gave it (JSON.stringify of a snapshot is what it was: the pinned hashes are the net).
import { EventList, EventView } from '../event-list';
import { Column, Dict, RunColumn, U16, U8 } from './columns';
import { MessageColumns } from './event-messages';
import { EventTexts } from './event-text';
import type { FindingCode, JsonRpcSummary, SseEvent } from '../model';

const NONE: readonly never[] = Object.freeze([]);

/** Per-event flags. */
const F = { Duplicate: 1, Truncated: 2, IdOnly: 4, Synthetic: 8, CursorIsId: 16 } as const;

/**
 * Which literal of events.ts built the event: `with-id` (its keys are WITH_ID, and only
 * `duplicate` or `jsonError` may follow), `plain` (PLAIN, then anything), `other`.
 */
export type EventLiteral = 'with-id' | 'plain' | 'other';

/** The key orders the two event literals of events.ts start with (see `push`). */
const WITH_ID = 'index,event,data,t,raw,messages,findings,id,cursor';
const PLAIN = 'index,event,data,t,raw,messages,findings';
/** The shape dictionary's first entries (indices 1 and 2), the same for every stream. */
const SHAPE_SEEDS: readonly (readonly [string, readonly string[]])[] = [
  [WITH_ID, Object.freeze(WITH_ID.split(','))],
  [PLAIN, Object.freeze(PLAIN.split(','))],
];
const WITH_ID_SHAPE = 1;
const PLAIN_SHAPE = 2;
/** `message` is type 1 (the default type: `begin` does not look it up). */
const TYPE_SEEDS: readonly (readonly [string, string])[] = [['message', 'message']];

/** The columns of one stream's events, and what they are shown with now (derived codes). */
export class EventStore extends EventList {
  length = 0;
  /** Times: the events of one read share theirs, so a run per read. */
  private t = new RunColumn();
  private text = new EventTexts();
  /** The id `begin` kept, to see whether the stages changed it. */
  private begunId: string | undefined;
  private types = new Column(U16);
  private shapes = new Column(U16);
  private flagBits = new Column(U8);
  private msgs: MessageColumns;
  // The rare facts on the side are made when first needed: a stream's store is made for every
  // request (a page's JSON-RPC POSTs: one stream each, issue 22).
  private cursorX: Map<number, string> | undefined;
  private retries: Map<number, number> | undefined;
  private jsonErrors: Map<number, string> | undefined;
  private codes: Map<number, FindingCode[]> | undefined;
  private typeDict = new Dict(TYPE_SEEDS);
  /** Types past the dictionary's 65,535. */
  private typeX: Map<number, string> | undefined;
  private shapeDict = new Dict<readonly string[]>(SHAPE_SEEDS);
  /** Codes the snapshot stage derives, by event index (stream-view.ts). */
  overlay: ReadonlyMap<number, readonly FindingCode[]> | undefined;
  /** `overlay` may be held by a view (or by the derivation that made it): copied before a change. */
  private overlayShared = false;

  constructor() {
    super();
    this.msgs = new MessageColumns();
  }

  /**
   * An event the push stages begin to build (its index must be `length`): what they may read of it
   * while building it (its time, id, raw text, data, type) is kept now, the rest by `end`. `src`,
   * `at`: its raw text is the span of `src` that starts at `at` (the parser said so); -1: it is not.
   */
  begin(ev: SseEvent, src?: string, at = -1, dataAt = -1): number {
    const i = this.length++;
    this.t.push(ev.t);
    this.text.add(i, ev.raw, src, at, ev.id, ev.data, dataAt);
    this.begunId = ev.id;
    const type = ev.event === 'message' ? 1 : this.typeDict.put(ev.event, ev.event);
    this.types.set(i, type);
    if (type === 0) (this.typeX ??= new Map()).set(i, ev.event);
    this.flagBits.set(i, 0);
    this.msgs.begin(i);
    this.shapes.set(i, PLAIN_SHAPE);
    return i;
  }

  /**
   * The push stages are done with event `ev` (begun last): keep what they gave it. Its key order
   * is kept as a shape: the two literals of events.ts without additions are known without listing
   * keys. An id or cursor set after `begin` is taken too.
   */
  end(ev: SseEvent, literal: EventLiteral = 'other'): void {
    const i = ev.index;
    this.check(i);
    if (ev.id !== this.begunId) this.text.setId(i, ev.id, ev.raw);
    let flags = 0;
    if (ev.duplicate === true) flags |= F.Duplicate;
    if (ev.truncated === true) flags |= F.Truncated;
    if (ev.idOnly === true) flags |= F.IdOnly;
    if (ev.synthetic === 'json-body') flags |= F.Synthetic;
    if (ev.cursor !== undefined) {
      if (ev.cursor === ev.id) flags |= F.CursorIsId;
      else (this.cursorX ??= new Map()).set(i, ev.cursor);
    }
    this.flagBits.set(i, flags);
    if (ev.retry !== undefined) (this.retries ??= new Map()).set(i, ev.retry);
    if (ev.jsonError !== undefined) (this.jsonErrors ??= new Map()).set(i, ev.jsonError);
    if (ev.findings.length) (this.codes ??= new Map()).set(i, ev.findings.slice());
    this.msgs.set(i, ev.messages);
    this.shapes.set(i, this.shapeOf(ev, literal));
  }

  /**
   * A new event as events.ts builds the usual progress notification: the with-id literal, type
   * `message`, its cursor its id, one notification message; what begin and end keep of it, in one
   * step (event-run.ts reads runs of such events). Returns its index.
   */
  addNotification(t: number, raw: string, src: string, at: number, id: string, data: string, dataAt: number, method: string, token: string, progress: number, total: number | undefined): number {
    const i = this.length++;
    this.t.push(t);
    this.text.add(i, raw, src, at, id, data, dataAt);
    this.notification(i, method, token, progress, total);
    return i;
  }

  /** addNotification() of an event read from `src` without making its strings (EventTexts.addSpan). */
  addNotificationSpan(t: number, src: string, at: number, rawLen: number, idAt: number, idLen: number, dataAt: number, dataLen: number, method: string, token: string, progress: number, total: number | undefined): number {
    const i = this.length++;
    this.t.push(t);
    this.text.addSpan(i, src, at, rawLen, idAt, idLen, dataAt, dataLen);
    this.notification(i, method, token, progress, total);
    return i;
  }

  private notification(i: number, method: string, token: string, progress: number, total: number | undefined): void {
    this.types.set(i, 1);
    this.flagBits.set(i, F.CursorIsId);
    this.msgs.addNotification(i, method, token, progress, total);
    this.shapes.set(i, WITH_ID_SHAPE);
  }

  private shapeOf(ev: SseEvent, literal: EventLiteral): number {
    // The two literals of events.ts, without keys added after them, are known without listing
    // keys; any other event has its keys listed (rarer, and cheap).
    if (ev.duplicate === undefined && ev.jsonError === undefined) {
      if (literal === 'with-id') return WITH_ID_SHAPE;
      if (literal === 'plain' && ev.cursor === undefined && ev.id === undefined && ev.retry === undefined && ev.idOnly === undefined && ev.truncated === undefined) return PLAIN_SHAPE;
    }
    const keys = Object.keys(ev);
    // Key orders come from the push stages' code paths, a handful: never 65,535.
    return this.shapeDict.put(keys.join(','), keys);
  }

  /** The CR + LF of the last event's blank line was split across reads: its raw text gains the LF. */
  setRaw(i: number, raw: string): void {
    this.check(i);
    this.text.setRaw(i, raw);
  }

  private check(i: number): void {
    if (!(i >= 0 && i < this.length)) throw new RangeError(`event ${i} outside 0..${this.length}`);
  }

  at(i: number): SseEvent | undefined {
    return this.build(i, this.length, this.overlay);
  }

  /** The event at `i` as a list of `n` events shown with `overlay` has it. */
  build(i: number, n: number, overlay: ReadonlyMap<number, readonly FindingCode[]> | undefined): SseEvent | undefined {
    if (!(i >= 0 && i < n && i < this.length)) return undefined;
    const keys = this.shapeDict.list[this.shapes.get(i)]!;
    const o: Record<string, unknown> = {};
    for (const k of keys) {
      switch (k) {
        case 'index':
          o.index = i;
          break;
        case 'event':
          o.event = this.typeAt(i);
          break;
        case 'data':
          o.data = this.text.data(i);
          break;
        case 't':
          o.t = this.t.get(i);
          break;
        case 'raw':
          o.raw = this.text.raw(i);
          break;
        case 'messages':
          o.messages = this.msgs.get(i).slice();
          break;
        case 'findings':
          o.findings = this.codesAt(i, overlay, true);
          break;
        case 'id':
          o.id = this.text.id(i);
          break;
        case 'cursor':
          o.cursor = this.cursorAt(i);
          break;
        case 'retry':
          o.retry = this.retries?.get(i);
          break;
        case 'jsonError':
          o.jsonError = this.jsonErrors?.get(i);
          break;
        case 'duplicate':
          o.duplicate = (this.flagBits.get(i) & F.Duplicate) !== 0 ? true : undefined;
          break;
        case 'truncated':
          o.truncated = (this.flagBits.get(i) & F.Truncated) !== 0 ? true : undefined;
          break;
        case 'idOnly':
          o.idOnly = (this.flagBits.get(i) & F.IdOnly) !== 0 ? true : undefined;
          break;
        case 'synthetic':
          o.synthetic = (this.flagBits.get(i) & F.Synthetic) !== 0 ? 'json-body' : undefined;
          break;
        default:
          throw new Error(`event key ${k} is not kept`);
      }
    }
    return o as unknown as SseEvent;
  }

  private typeAt(i: number): string {
    const k = this.types.get(i);
    return k === 1 ? 'message' : k === 0 ? this.typeX!.get(i)! : this.typeDict.list[k]!;
  }
  private cursorAt(i: number): string | undefined {
    if ((this.flagBits.get(i) & F.CursorIsId) !== 0) return this.text.id(i);
    return this.cursorX?.get(i);
  }
  /** Finding codes of event `i` (which must exist) with the derived codes of `overlay`. */
  codesAt(i: number, overlay: ReadonlyMap<number, readonly FindingCode[]> | undefined, copy = false): readonly FindingCode[] {
    const base = this.codes?.get(i);
    const add = overlay?.get(i);
    if (!add) return base ? (copy ? base.slice() : base) : copy ? [] : NONE;
    const codes = base ? base.slice() : [];
    for (const c of add) if (!codes.includes(c)) codes.push(c);
    return codes;
  }
  get origin(): object {
    return this;
  }
  override answers(i: number): boolean {
    if (!(i >= 0 && i < this.length)) return false;
    return this.msgs.answers(i);
  }
  override synthetic(i: number): boolean {
    return i >= 0 && i < this.length && (this.flagBits.get(i) & F.Synthetic) !== 0;
  }
  time(i: number): number {
    return i >= 0 && i < this.length ? this.t.get(i) : NaN;
  }
  id(i: number): string | undefined {
    return i >= 0 && i < this.length ? this.text.id(i) : undefined;
  }
  duplicate(i: number): boolean {
    return i >= 0 && i < this.length && (this.flagBits.get(i) & F.Duplicate) !== 0;
  }
  messages(i: number): readonly JsonRpcSummary[] {
    return i >= 0 && i < this.length ? this.msgs.get(i) : NONE;
  }
  data(i: number): string | undefined {
    return i >= 0 && i < this.length ? this.text.data(i) : undefined;
  }
  findings(i: number): readonly FindingCode[] {
    return i >= 0 && i < this.length ? this.codesAt(i, this.overlay) : NONE;
  }
  type(i: number): string | undefined {
    return i >= 0 && i < this.length ? this.typeAt(i) : undefined;
  }

  /** The first `n` events as shown now: what a snapshot hands out. */
  view(n = this.length): EventList {
    this.overlayShared = true;
    return new EventView(this, n, this.overlay);
  }

  /** The derived codes of the latest derivation (the map is not changed here afterwards). */
  setOverlay(overlay: ReadonlyMap<number, readonly FindingCode[]> | undefined): void {
    this.overlay = overlay;
    this.overlayShared = true;
  }

  /** One more derived code on event `i`; a view handed out before keeps the codes it had. */
  addOverlayCode(i: number, code: FindingCode): void {
    const cur = this.overlay;
    const next = this.overlayShared || !cur ? new Map(cur ?? []) : (cur as Map<number, readonly FindingCode[]>);
    const l = next.get(i);
    next.set(i, l ? [...l, code] : [code]);
    this.overlay = next;
    this.overlayShared = false;
  }
}

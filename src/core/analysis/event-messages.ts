// The JSON-RPC facts of a stream's events as columns (part of event-store.ts): an event's one
// message is kept as its kind, method, id or progress token, progress and total; none is nothing;
// anything else (a batch, a request with a progress token) as the list the analysis built, which
// is rare. The summaries are built again when read, in the key order summarize() gives them
// (jsonrpc.ts: kind, method, id, progressToken, progress, total, absent keys absent).
import type { JsonRpcSummary } from '../model-events';
import { Column, Dict, RunColumn, U16, U32, U8 } from './columns';

const NONE: readonly never[] = Object.freeze([]);

/** Progress: none (ABSENT), or not a whole number below ASIDE (or -0) and kept on the side (ASIDE). */
const ABSENT = 0xffffffff;
const ASIDE = 0xfffffffe;

/** How an event's messages are kept. */
const M = { None: 0, Notification: 1, Request: 2, Result: 3, Error: 4, Invalid: 5, Listed: 6 } as const;

export class MessageColumns {
  private kind = new Column(U8);
  private method = new Column(U16);
  /** The message's id (request, result, error) or progress token (notification). */
  private refK = new Column(U16);
  /** A progress token repeats on every notification of a request, an id once: one dictionary. */
  private refs = new Dict();
  /** Refs past the dictionary's 65,535, by event index (sparse). */
  private refX: (string | undefined)[] = [];
  /** Progress: almost always a whole number, so 4 bytes (ABSENT, ASIDE: see above). */
  private progress = new Column(U32);
  private progressX: Map<number, number> | undefined;
  /** Total: the same on every notification of a request, so runs (NaN: none). */
  private total = new RunColumn();
  /** Made when first needed, as the side maps of event-store.ts. */
  private listed: Map<number, JsonRpcSummary[]> | undefined;
  private methods = new Dict();

  /** Event `i` is new (its index is the next one): no messages yet. */
  begin(i: number): void {
    this.kind.set(i, M.None);
    this.refK.set(i, 0);
    this.total.push(NaN);
    if (this.refX.length > i) this.refX[i] = undefined;
    this.listed?.delete(i);
  }

  set(i: number, ms: readonly JsonRpcSummary[]): void {
    if (ms.length === 0) return;
    const m = ms[0]!;
    let kind: number = M.Listed;
    let ref: string | undefined;
    if (ms.length === 1) {
      switch (m.kind) {
        case 'notification':
          if (m.id === undefined) {
            kind = M.Notification;
            ref = m.progressToken;
          }
          break;
        case 'request':
          if (m.progressToken === undefined && m.progress === undefined && m.total === undefined) {
            kind = M.Request;
            ref = m.id;
          }
          break;
        case 'result':
        case 'error':
          if (m.method === undefined && m.progressToken === undefined && m.progress === undefined && m.total === undefined) {
            kind = m.kind === 'result' ? M.Result : M.Error;
            ref = m.id;
          }
          break;
        case 'invalid':
          if (Object.keys(m).length === 1) kind = M.Invalid;
          break;
      }
    }
    // Past 65,535 methods in one stream (page data), the message is kept as a list.
    const method = kind === M.Listed || m.method === undefined ? 0 : this.methods.put(m.method, m.method);
    if (method === 0 && m.method !== undefined) kind = M.Listed;
    this.kind.set(i, kind);
    if (kind === M.Listed) {
      // The list holds the ref: nothing for the dictionary.
      this.refK.set(i, 0);
      if (this.refX.length > i) this.refX[i] = undefined;
      (this.listed ??= new Map()).set(i, ms.slice());
      return;
    }
    const rk = ref === undefined ? 0 : this.refs.put(ref, ref);
    this.refK.set(i, rk);
    if (rk === 0 && ref !== undefined) this.refX[i] = ref;
    this.method.set(i, method);
    if (!putNumber(this.progress, i, m.progress)) (this.progressX ??= new Map()).set(i, m.progress!);
    if (i !== this.total.length - 1) throw new RangeError(`messages of event ${i} set after event ${this.total.length - 1} began`);
    this.total.setLast(m.total ?? NaN);
  }

  /**
   * Event `i` is new and its one message is the notification `method` with progress token
   * `token`, `progress` and `total` (none: undefined): begin(i) then set(i, [that summary]), in
   * one step (event-run.ts).
   */
  addNotification(i: number, method: string, token: string, progress: number, total: number | undefined): void {
    const mk = this.methods.put(method, method);
    const rk = this.refs.put(token, token);
    if (mk === 0 || rk === 0) {
      this.begin(i);
      const m: JsonRpcSummary = total !== undefined ? { kind: 'notification', method, progressToken: token, progress, total } : { kind: 'notification', method, progressToken: token, progress };
      this.set(i, [m]);
      return;
    }
    this.kind.set(i, M.Notification);
    this.refK.set(i, rk);
    if (this.refX.length > i) this.refX[i] = undefined;
    this.listed?.delete(i);
    this.method.set(i, mk);
    if (!putNumber(this.progress, i, progress)) (this.progressX ??= new Map()).set(i, progress);
    if (i !== this.total.length) throw new RangeError(`messages of event ${i} added after event ${this.total.length - 1}`);
    this.total.push(total ?? NaN);
  }

  private refAt(i: number): string | undefined {
    const k = this.refK.get(i);
    return k === 0 ? this.refX[i] : this.refs.list[k];
  }

  /** Whether event `i` carries a result or an error. */
  answers(i: number): boolean {
    const k = this.kind.get(i);
    return k === M.Result || k === M.Error || (k === M.Listed && this.listed!.get(i)!.some((m) => m.kind === 'result' || m.kind === 'error'));
  }

  /** The messages of event `i` (a list shared with other callers when kept as built: do not change it). */
  get(i: number): readonly JsonRpcSummary[] {
    const kind = this.kind.get(i);
    switch (kind) {
      case M.None:
        return NONE;
      case M.Listed:
        return this.listed!.get(i)!;
      case M.Invalid:
        return [{ kind: 'invalid' }];
      case M.Result:
      case M.Error: {
        const ref = this.refAt(i);
        const k = kind === M.Result ? 'result' : 'error';
        return [ref !== undefined ? { kind: k, id: ref } : { kind: k }];
      }
      default: {
        const s: JsonRpcSummary = { kind: kind === M.Request ? 'request' : 'notification', method: this.methods.list[this.method.get(i)]! };
        const ref = this.refAt(i);
        if (kind === M.Request) {
          if (ref !== undefined) s.id = ref;
          return [s];
        }
        if (ref !== undefined) s.progressToken = ref;
        const p = getNumber(this.progress, this.progressX, i);
        if (p !== undefined) s.progress = p;
        const t = this.total.get(i);
        if (!Number.isNaN(t)) s.total = t;
        return [s];
      }
    }
  }
}

/** Puts `v` in the column; false when it is ASIDE there and must be kept on the side. */
function putNumber(col: Column<Uint32Array>, i: number, v: number | undefined): boolean {
  if (v === undefined) col.set(i, ABSENT);
  else if (Number.isInteger(v) && v >= 0 && v < ASIDE && !Object.is(v, -0)) col.set(i, v);
  else {
    col.set(i, ASIDE);
    return false;
  }
  return true;
}

function getNumber(col: Column<Uint32Array>, side: Map<number, number> | undefined, i: number): number | undefined {
  const v = col.get(i);
  return v === ABSENT ? undefined : v === ASIDE ? side!.get(i) : v;
}

// The JSON-RPC facts of a stream's events as columns (part of event-store.ts): an event's one
// message is kept as its kind, method, id or progress token, progress and total; none is nothing;
// anything else (a batch, a request with a progress token) as the list the analysis built, which
// is rare. The summaries are built again when read, in the key order summarize() gives them
// (jsonrpc.ts: kind, method, id, progressToken, progress, total, absent keys absent).
import type { JsonRpcSummary } from '../model-events';
import { Column, Dict } from './columns';

const NONE: readonly never[] = Object.freeze([]);

/** How an event's messages are kept. */
const M = { None: 0, Notification: 1, Request: 2, Result: 3, Error: 4, Invalid: 5, Listed: 6 } as const;

export class MessageColumns {
  private kind = new Column(new Uint8Array(0));
  private method = new Column(new Uint16Array(0));
  /** The message's id (request, result, error) or progress token (notification). */
  private ref: (string | undefined)[] = [];
  private progress = new Column(new Float64Array(0));
  private total = new Column(new Float64Array(0));
  private listed = new Map<number, JsonRpcSummary[]>();
  private methods = new Dict();

  /** Event `i` is new (its index is the next one): no messages yet. */
  begin(i: number): void {
    this.kind.set(i, M.None);
    this.ref[i] = undefined;
    this.listed.delete(i);
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
    this.kind.set(i, kind);
    this.ref[i] = ref;
    if (kind === M.Listed) {
      this.listed.set(i, ms.slice());
      return;
    }
    this.method.set(i, m.method === undefined ? 0 : this.methods.put(m.method, m.method));
    this.progress.set(i, m.progress ?? NaN);
    this.total.set(i, m.total ?? NaN);
  }

  /** Whether event `i` carries a result or an error. */
  answers(i: number): boolean {
    const k = this.kind.get(i);
    return k === M.Result || k === M.Error || (k === M.Listed && this.listed.get(i)!.some((m) => m.kind === 'result' || m.kind === 'error'));
  }

  /** The messages of event `i` (a list shared with other callers when kept as built: do not change it). */
  get(i: number): readonly JsonRpcSummary[] {
    const kind = this.kind.get(i);
    switch (kind) {
      case M.None:
        return NONE;
      case M.Listed:
        return this.listed.get(i)!;
      case M.Invalid:
        return [{ kind: 'invalid' }];
      case M.Result:
      case M.Error: {
        const ref = this.ref[i];
        const k = kind === M.Result ? 'result' : 'error';
        return [ref !== undefined ? { kind: k, id: ref } : { kind: k }];
      }
      default: {
        const s: JsonRpcSummary = { kind: kind === M.Request ? 'request' : 'notification', method: this.methods.list[this.method.get(i)]! };
        const ref = this.ref[i];
        if (kind === M.Request) {
          if (ref !== undefined) s.id = ref;
          return [s];
        }
        if (ref !== undefined) s.progressToken = ref;
        const p = this.progress.get(i);
        if (!Number.isNaN(p)) s.progress = p;
        const t = this.total.get(i);
        if (!Number.isNaN(t)) s.total = t;
        return [s];
      }
    }
  }
}

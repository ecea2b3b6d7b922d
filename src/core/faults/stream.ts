// What the active faults do to one response: replace it (a rejected resume, an expired session),
// or decide event by event what the client gets (withheld, delayed, cut, result dropped). Fed one
// event at a time, so a live stream (the panel) and a recorded one (serve) are decided alike.
import type { JsonRpcSummary } from '../model';
import type { ActiveFault } from './match';
import type { EventSelector, FaultKind } from './spec';

/** One SSE event as the server sent it. */
export interface StreamEventInfo {
  /** The block's `id` field, if any. */
  id?: string;
  /** The event carries data, so a client dispatches it (priming events and id-only blocks do not). */
  dispatched: boolean;
  /** Its decoded JSON-RPC messages (ids as JSON text). */
  messages: readonly Pick<JsonRpcSummary, 'kind' | 'id' | 'method'>[];
}

export interface EventDecision {
  deliver: boolean;
  /** Extra wait before delivering it (ms). */
  delayMs: number;
  /** After this event the stream ends: the connection breaks (`reset`) or ends cleanly (`close`). */
  end?: 'reset' | 'close';
  /**
   * Withheld as never sent nor kept by the server (a dropped result): a later replay must not
   * bring it back. Other withheld events are only kept from this client, and a replay may hold them.
   */
  lost?: boolean;
}

/** What a fault did to one exchange: for the console, the panel and the fault's record. */
export interface FaultEffect {
  index: number;
  kind: FaultKind;
  /** Ids of the events it withheld, delayed, or the result it dropped ('' for an event without id). */
  eventIds: string[];
  /** Events that carried data affected. */
  events: number;
  /** For a cut: the id cursor the client was left with, and how many events it had got. */
  cursor?: string;
  afterEvents?: number;
  /** For a replaced response: the status sent instead. */
  status?: number;
}

export interface StreamFaults {
  /** Right after the headers: a cut after 0 events. */
  start(): { end?: 'reset' | 'close' };
  event(e: StreamEventInfo): EventDecision;
  /** The server ended the stream (or its record did): keep it open instead (a dropped result with keep-open). */
  finish(): { hold: boolean };
  /** Faults that did something so far, in armed order. */
  effects(): FaultEffect[];
}

function selected(s: EventSelector | undefined, e: StreamEventInfo, pos: number): boolean {
  if (!s) return e.dispatched;
  if ((s.from !== undefined || s.to !== undefined) && !e.dispatched) return false;
  if (s.from !== undefined && pos < s.from) return false;
  if (s.to !== undefined && pos > s.to) return false;
  if (s.ids !== undefined && (e.id === undefined || !s.ids.includes(e.id))) return false;
  if (s.methods !== undefined && !e.messages.some((m) => m.method !== undefined && s.methods!.includes(m.method))) return false;
  if (s.ids === undefined && !e.dispatched) return false;
  return true;
}

/**
 * `requestIds`: JSON text of the ids of the requests this response answers (the POST's requests,
 * or those of the stream a resume continues), for drop-result.
 */
export function createStreamFaults(active: readonly ActiveFault[], requestIds: readonly string[]): StreamFaults {
  const effects = new Map<number, FaultEffect>();
  const effect = (f: ActiveFault): FaultEffect => {
    let x = effects.get(f.index);
    if (!x) effects.set(f.index, (x = { index: f.index, kind: f.spec.action.kind, eventIds: [], events: 0 }));
    return x;
  };
  let sent = 0;
  let delivered = 0;
  let cursor: string | undefined;
  let ended = false;
  let hold = false;

  const cutNow = (after: number): { f: ActiveFault; how: 'reset' | 'close' } | undefined => {
    for (const f of active) {
      const a = f.spec.action;
      if (a.kind === 'cut' && a.afterEvents === after) return { f, how: a.how ?? 'reset' };
    }
    return undefined;
  };

  return {
    start() {
      const c = cutNow(0);
      if (!c) return {};
      ended = true;
      Object.assign(effect(c.f), { afterEvents: 0 });
      return { end: c.how };
    },
    event(e) {
      if (ended) return { deliver: false, delayMs: 0 };
      if (e.dispatched) sent++;
      let deliver = true;
      let delayMs = 0;
      let end: 'reset' | 'close' | undefined;
      let lost = false;
      for (const f of active) {
        const a = f.spec.action;
        if (a.kind === 'withhold' && deliver && selected(a.events, e, sent)) {
          deliver = false;
          const x = effect(f);
          x.eventIds.push(e.id ?? '');
          if (e.dispatched) x.events++;
        } else if (a.kind === 'drop-result' && deliver) {
          const isResult = e.messages.some((m) => (m.kind === 'result' || m.kind === 'error') && m.id !== undefined && requestIds.includes(m.id));
          if (!isResult) continue;
          deliver = false;
          lost = true;
          const x = effect(f);
          x.eventIds.push(e.id ?? '');
          x.events++;
          if ((a.then ?? 'end') === 'end') end = 'close';
          else hold = true;
        }
      }
      if (deliver) {
        for (const f of active) {
          const a = f.spec.action;
          if (a.kind === 'delay' && a.ms > 0 && selected(a.events, e, sent)) {
            delayMs += a.ms;
            const x = effect(f);
            x.eventIds.push(e.id ?? '');
            if (e.dispatched) x.events++;
          }
        }
        if (e.id !== undefined) cursor = e.id;
        if (e.dispatched) {
          delivered++;
          const c = cutNow(delivered);
          if (c) {
            end = c.how;
            Object.assign(effect(c.f), { afterEvents: delivered, ...(cursor !== undefined ? { cursor } : {}) });
          }
        }
      }
      if (end) ended = true;
      return { deliver, delayMs, ...(end ? { end } : {}), ...(lost ? { lost } : {}) };
    },
    finish() {
      return { hold };
    },
    effects() {
      return [...effects.values()].sort((a, b) => a.index - b.index);
    },
  };
}

/** The SDK server's bodies for the answers faults substitute (JSON-RPC errors with a null id). */
export const SESSION_NOT_FOUND_BODY = '{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}';
export const RESUME_CONFLICT_BODY = '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Conflict: Stream already has an active connection"},"id":null}';

export interface ResponseOverride {
  status: number;
  contentType: 'application/json' | 'text/event-stream';
  body: string;
  /** An empty event stream that stays open. */
  hold: boolean;
  fault: ActiveFault;
}

/** A fault that replaces the whole response (checked before the stream starts). */
export function responseOverride(active: readonly ActiveFault[]): ResponseOverride | undefined {
  for (const f of active) {
    const a = f.spec.action;
    if (a.kind === 'expire-session') return { status: 404, contentType: 'application/json', body: SESSION_NOT_FOUND_BODY, hold: false, fault: f };
    if (a.kind === 'answer-resume') {
      if (a.answer === 404) return { status: 404, contentType: 'application/json', body: SESSION_NOT_FOUND_BODY, hold: false, fault: f };
      if (a.answer === 409) return { status: 409, contentType: 'application/json', body: RESUME_CONFLICT_BODY, hold: false, fault: f };
      return { status: 200, contentType: 'text/event-stream', body: '', hold: a.then === 'keep-open', fault: f };
    }
  }
  return undefined;
}

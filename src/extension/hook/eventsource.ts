// Native EventSource: the browser parses the stream, so the hook records the events it dispatches
// (`es-event`), for 'message' and for every named type the page listens to. A connection attempt is
// one `conn`; an 'error' while readyState is CONNECTING means the browser will reconnect (unless the
// page closes it from that error's listeners), which starts a new conn with `reconnectOf` = the
// first attempt and the Last-Event-ID the browser sends, as far as the hook sees it (see lastId).
// EventSource becomes a Proxy of the native constructor (instances stay native instances).

import type { HookRecord } from '../../core/record';
import { createConn, type Conn, type Emitter } from './emitter';
import { HOOK_MAX_TEXT } from './limits';
import { call, disguise, N, now, patchMethod } from './natives';

interface EsState {
  first: string;
  conn: Conn;
  types: Set<string>;
  url: string;
  /**
   * The last event id of an event dispatched to a type the hook listens to: what the browser sends
   * as Last-Event-ID on reconnect, unless a later id came in a block the browser does not dispatch
   * (an id-only block, or an event type nobody listens to), which moves the browser's id unseen.
   */
  lastId: string;
  /** The connection was lost and the browser will reconnect: the next attempt is still to record. */
  pending: boolean;
}

const esStates = new WeakMap<EventSource, EsState>();

export function installEventSourceHook(emitter: Emitter): typeof EventSource | null {
  const NativeES = window.EventSource;
  if (!NativeES) return null;
  const proto = NativeES.prototype;
  const nativeClose = proto.close;
  const nativeAdd = N.addEventListener;
  const readyStateGet = Object.getOwnPropertyDescriptor(proto, 'readyState')!.get!;
  const urlGet = Object.getOwnPropertyDescriptor(proto, 'url')!.get!;

  function startAttempt(es: EventSource, st: EsState | null, lastEventId: string): Conn {
    const conn = createConn(emitter);
    const url = st?.url ?? call<string>(urlGet, es);
    const headers: [string, string][] = [['Accept', 'text/event-stream']];
    if (lastEventId) headers.push(['Last-Event-ID', lastEventId]);
    const base = { kind: 'request', conn: conn.id, t: now(), transport: 'eventsource', method: 'GET', url, headers, body: null, bodyNote: 'none' } as const;
    const rec: HookRecord = st ? { ...base, reconnectOf: st.first } : base;
    conn.start(rec);
    return conn;
  }

  /** Records the reconnect the browser makes after a lost connection (see the error listener). */
  function reconnected(es: EventSource, st: EsState) {
    if (!st.pending) return;
    st.pending = false;
    if (call<number>(readyStateGet, es) !== 2) st.conn = startAttempt(es, st, st.lastId);
  }

  function listen(es: EventSource, st: EsState, type: string) {
    if (st.types.has(type)) return;
    st.types.add(type);
    call(nativeAdd, es, type, (ev: Event) => {
      const cur = esStates.get(es);
      if (!cur || !(ev instanceof MessageEvent)) return;
      reconnected(es, cur);
      cur.lastId = ev.lastEventId;
      try {
        // The relay does not record: say that an event was read, without cloning its data.
        if (!emitter.copying()) return cur.conn.emit({ kind: 'skip', conn: cur.conn.id, t: now() });
        cur.conn.emit({
          kind: 'es-event',
          conn: cur.conn.id,
          t: now(),
          type: ev.type,
          // Cut at the hook's hard bound; the relay's lower, configurable cap marks the cut.
          data: (typeof ev.data === 'string' ? ev.data : String(ev.data)).slice(0, HOOK_MAX_TEXT),
          lastEventId: ev.lastEventId,
        });
      } catch {
        /* never break dispatch */
      }
    });
  }

  function instrument(es: EventSource) {
    const conn = startAttempt(es, null, '');
    const st: EsState = { first: conn.id, conn, types: new Set(), url: call<string>(urlGet, es), lastId: '', pending: false };
    esStates.set(es, st);
    listen(es, st, 'message');
    call(nativeAdd, es, 'open', () => {
      reconnected(es, st);
      st.conn.emit({
        kind: 'response', conn: st.conn.id, t: now(), status: 200, statusText: '', headers: [],
        url: st.url, redirected: false, type: 'eventsource', capture: 'sse',
      });
    });
    call(nativeAdd, es, 'error', () => {
      const state = call<number>(readyStateGet, es);
      if (state === 0) {
        // CONNECTING: the browser will reconnect after its retry delay, with Last-Event-ID, unless
        // the page closes the EventSource from a listener of this same error (many do, to
        // reconnect themselves). This listener runs before the page's (it was added at
        // construction): the next attempt is recorded only once the dispatch is over and the
        // EventSource is still connecting, or the capture would hold a reconnect never sent.
        // (A background tab delays this timer to ~1 s, not the browser's reconnect: the new
        // connection's open or first event records the attempt first then.)
        st.conn.end('network-error', 'connection lost');
        st.pending = true;
        N.setTimeout(() => reconnected(es, st), 0);
      } else if (state === 2) {
        st.conn.end('network-error', 'connection failed; browser gave up');
      }
    });
  }

  const proxy = new Proxy(NativeES, {
    construct(target, args, newTarget) {
      const es = N.construct(target, args, newTarget) as EventSource;
      try {
        instrument(es);
      } catch {
        /* capture is best effort; the page's EventSource works regardless */
      }
      return es;
    },
  });
  disguise(proxy, NativeES);
  Object.defineProperty(proto, 'constructor', { ...Object.getOwnPropertyDescriptor(proto, 'constructor'), value: proxy });
  Object.defineProperty(window, 'EventSource', { ...Object.getOwnPropertyDescriptor(window, 'EventSource'), value: proxy });

  patchMethod(proto, 'close', {
    close(this: EventSource) {
      const st = esStates.get(this);
      if (st) st.pending = false; // closed before the browser reconnected: no attempt
      if (st && call<number>(readyStateGet, this) !== 2) st.conn.end('closed', 'EventSource.close() by the page');
      return call(nativeClose, this);
    },
  }.close);

  // Named event types: when the page listens to one on an EventSource, listen to it too.
  patchMethod(EventTarget.prototype, 'addEventListener', {
    // Two declared parameters: the native addEventListener has length 2.
    addEventListener(this: unknown, type: string, _listener: unknown) {
      const st = esStates.get(this as EventSource);
      if (st) {
        try {
          listen(this as EventSource, st, String(type));
        } catch {
          /* ignore */
        }
      }
      return N.apply(nativeAdd, this, arguments);
    },
  }.addEventListener);
  return proxy;
}

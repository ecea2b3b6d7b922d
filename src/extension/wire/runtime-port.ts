// chrome.runtime Port adapters. Typed over the few Port members they use, so tests can pass fakes.
//
// `portAdapter`: one connected Port (the background's side of every port; the relay's port,
// which lives from an attach to a detach).
// `reconnectingPort`: a Port that re-creates itself when it closes. Chrome closes every port when
// it stops the idle service worker (no keep-alive here); connecting again wakes it. Listeners
// stay registered across reconnects; `onOpen` listeners run on every (re)connect, which is where
// an endpoint says its hello again (the background keeps no state across a restart).

import { listeners, type MessageAdapter } from './adapter';

export interface PortLike {
  postMessage(msg: unknown): void;
  onMessage: { addListener(fn: (msg: unknown) => void): void };
  onDisconnect: { addListener(fn: () => void): void };
  disconnect(): void;
}

/** Read chrome.runtime.lastError after a disconnect (Chrome logs an unchecked error otherwise). */
function touchLastError() {
  try {
    if (typeof chrome !== 'undefined') void chrome.runtime?.lastError;
  } catch {
    /* extension context invalidated */
  }
}

export function portAdapter(port: PortLike): MessageAdapter & { readonly closed: boolean } {
  const msg = listeners<[unknown]>();
  const close = listeners<[]>();
  let closed = false;
  port.onMessage.addListener((m) => {
    if (!closed) msg.emit(m);
  });
  port.onDisconnect.addListener(() => {
    touchLastError();
    if (closed) return;
    closed = true;
    close.emit();
  });
  return {
    get closed() {
      return closed;
    },
    post(m) {
      if (closed) return false;
      try {
        port.postMessage(m);
        return true;
      } catch {
        // The port closed under us (its onDisconnect may not have run yet) or the context is gone.
        closed = true;
        close.emit();
        return false;
      }
    },
    listen: (fn) => msg.add(fn),
    onClose: (fn) => close.add(fn),
    close() {
      if (closed) return;
      closed = true;
      try {
        port.disconnect();
      } catch {
        /* already gone */
      }
    },
  };
}

export interface ReconnectingPort extends MessageAdapter {
  /** Called after every (re)connect, before any message of that port is delivered. */
  onOpen(fn: () => void): () => void;
  connected(): boolean;
  /** Times a port was opened. */
  opens(): number;
  /** Open the first port (after the listeners are registered). */
  start(): void;
}

export interface ReconnectingOptions {
  connect: () => PortLike;
  /** First delay before reconnecting (ms); doubled up to 5 s while ports close within 1 s. */
  retryMs?: number;
  /** When connect() throws (extension context invalidated): retry every this many ms, or stop (null). */
  failedRetryMs?: number | null;
  setTimer?: (fn: () => void, ms: number) => unknown;
  now?: () => number;
}

export function reconnectingPort(opts: ReconnectingOptions): ReconnectingPort {
  const setTimer = opts.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const now = opts.now ?? (() => Date.now());
  const base = opts.retryMs ?? 50;
  const msg = listeners<[unknown]>();
  const close = listeners<[]>();
  const open = listeners<[]>();
  let current: (MessageAdapter & { readonly closed: boolean }) | null = null;
  let count = 0;
  let stopped = false;
  let delay = base;

  function connect() {
    if (stopped) return;
    let p: PortLike;
    try {
      p = opts.connect();
    } catch {
      const ms = opts.failedRetryMs === undefined ? 1000 : opts.failedRetryMs;
      if (ms !== null) setTimer(connect, ms);
      return;
    }
    const a = portAdapter(p);
    const opened = now();
    current = a;
    count++;
    a.listen((m) => {
      if (current === a) msg.emit(m);
    });
    a.onClose(() => {
      if (current !== a) return;
      current = null;
      close.emit();
      if (stopped) return;
      // A port refused at once (wrong sender, worker failing) backs off instead of spinning.
      delay = now() - opened < 1000 ? Math.min(delay * 2, 5000) : base;
      setTimer(connect, delay);
    });
    open.emit();
  }

  const adapter: ReconnectingPort = {
    post: (m) => current?.post(m) ?? false,
    listen: (fn) => msg.add(fn),
    onClose: (fn) => close.add(fn),
    onOpen: (fn) => open.add(fn),
    connected: () => current !== null && !current.closed,
    opens: () => count,
    start() {
      if (count === 0 && !current) connect();
    },
    close() {
      stopped = true;
      current?.close();
      current = null;
    },
  };
  return adapter;
}

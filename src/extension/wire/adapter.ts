// A channel between two contexts, whatever carries it (after Apollo Client DevTools'
// MessageAdapter): post a message, listen to what arrives, learn when it closed. Adapters:
// runtime-port.ts (a chrome.runtime Port, and one that re-creates itself on disconnect),
// message-port.ts (the hook's private MessagePort), and `memoryPair` here (two ends in one
// process, for tests: messages are structured-cloned and delivered in a later microtask, as a
// real channel would).
//
// Adapters move messages; they do not read them. Endpoints (endpoint.ts) validate and dispatch.

export interface MessageAdapter {
  /** Send; false when the channel is closed (the message is dropped). */
  post(msg: unknown, transfer?: Transferable[]): boolean;
  /** Called with every message that arrives (unvalidated). Returns an unsubscribe function. */
  listen(fn: (msg: unknown) => void): () => void;
  /** Called once when the channel closes (either end, or the context went away). */
  onClose(fn: () => void): () => void;
  close(): void;
}

/** Listener sets shared by the adapters. */
export function listeners<A extends unknown[]>() {
  const set = new Set<(...a: A) => void>();
  return {
    add(fn: (...a: A) => void) {
      set.add(fn);
      return () => void set.delete(fn);
    },
    emit(...a: A) {
      for (const fn of [...set]) {
        try {
          fn(...a);
        } catch {
          // one listener's failure must not stop the others (nor the channel)
        }
      }
    },
    clear: () => set.clear(),
  };
}

export interface MemoryEnd extends MessageAdapter {
  readonly closed: boolean;
}

/**
 * Two connected ends in one process. `post` structured-clones (typed arrays and Blobs arrive as
 * copies, transferred buffers are detached) and delivers in a microtask; `close()` on either end
 * closes both and tells the other end's onClose listeners (not its own, as chrome.runtime does).
 */
export function memoryPair(): [MemoryEnd, MemoryEnd] {
  interface Side {
    msg: ReturnType<typeof listeners<[unknown]>>;
    close: ReturnType<typeof listeners<[]>>;
    closed: boolean;
    closedHere: boolean;
    peer: Side | null;
  }
  const make = (): Side => ({ msg: listeners<[unknown]>(), close: listeners<[]>(), closed: false, closedHere: false, peer: null });
  const a = make();
  const b = make();
  a.peer = b;
  b.peer = a;
  const end = (me: Side): MemoryEnd => ({
    get closed() {
      return me.closed;
    },
    post(msg, transfer) {
      if (me.closed) return false;
      const copy = structuredClone(msg, transfer ? { transfer } : undefined);
      const peer = me.peer!;
      // Posted before a close: still delivered, unless the receiver closed its own end.
      queueMicrotask(() => {
        if (!peer.closedHere) peer.msg.emit(copy);
      });
      return true;
    },
    listen: (fn) => me.msg.add(fn),
    onClose: (fn) => me.close.add(fn),
    close() {
      if (me.closed) return;
      me.closed = true;
      me.closedHere = true;
      const peer = me.peer!;
      peer.closed = true;
      queueMicrotask(() => peer.close.emit());
    },
  });
  return [end(a), end(b)];
}

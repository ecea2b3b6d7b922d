// The hook's private channel: a MessagePort of a MessageChannel the hook created at
// document_start (hook ⇄ relay, in the page's renderer, on the page's thread). The hook's side
// passes natives it captured at install (emitter.ts): a page that later patches
// MessagePort.prototype, EventTarget.prototype or MessageEvent.prototype must neither see nor
// disturb what crosses it. The relay's side (ISOLATED world, whose prototypes the page cannot
// reach) uses the port directly.

import type { MessageAdapter } from './adapter';

export interface PortNatives {
  post(port: MessagePort, msg: unknown, transfer?: Transferable[]): void;
  /** Deliver each message's data to fn (and start the port). */
  listen(port: MessagePort, fn: (data: unknown) => void): void;
  close(port: MessagePort): void;
}

/** For a context whose prototypes the page cannot touch (the relay's isolated world, tests). */
export const DIRECT: PortNatives = {
  post: (p, m, t) => (t && t.length ? p.postMessage(m, t) : p.postMessage(m)),
  listen: (p, fn) => {
    p.onmessage = (e) => fn(e.data);
  },
  close: (p) => p.close(),
};

/**
 * Listener lists without a prototype, added to by index and read by index: in the hook's realm a
 * page may patch Array.prototype (push, index setters, the iterator) or Set.prototype, and must
 * not see or call the hook's handlers through them.
 */
function slots() {
  const fns: (((x?: unknown) => void) | null)[] = [];
  Object.setPrototypeOf(fns, null);
  return {
    add(fn: (x: never) => void): () => void {
      const i = fns.length;
      fns[i] = fn as (x?: unknown) => void;
      return () => {
        fns[i] = null;
      };
    },
    // One argument, no spread: spreading would call the (patchable) array iterator.
    emit(x?: unknown) {
      for (let i = 0; i < fns.length; i++) {
        const fn = fns[i];
        if (!fn) continue;
        try {
          fn(x);
        } catch {
          /* one listener's failure must not stop the others */
        }
      }
    },
  };
}

export function messagePortAdapter(port: MessagePort, natives: PortNatives = DIRECT): MessageAdapter {
  const msg = slots();
  const close = slots();
  let closed = false;
  let listening = false;
  return {
    post(m, transfer) {
      if (closed) return false;
      try {
        natives.post(port, m, transfer);
        return true;
      } catch {
        // A message that cannot be cloned (only if the page corrupted a prototype) is dropped;
        // nothing is thrown into the page.
        return false;
      }
    },
    listen(fn) {
      if (!listening) {
        listening = true;
        natives.listen(port, (d) => {
          if (!closed) msg.emit(d);
        });
      }
      return msg.add(fn as (x: never) => void);
    },
    onClose: (fn) => close.add(fn as (x: never) => void),
    close() {
      if (closed) return;
      closed = true;
      try {
        natives.close(port);
      } catch {
        /* already closed */
      }
      close.emit();
    },
  };
}

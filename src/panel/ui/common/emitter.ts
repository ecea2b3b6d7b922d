// The one listener set of the UI's stores and sources: subscribe/emit, with hooks for the first
// subscriber and the last unsubscribe (a source attaches to what feeds it only while someone
// listens: React StrictMode mounts twice, and a store nobody reads must not keep a live capture's
// listener alive).

export interface Emitter {
  subscribe(cb: () => void): () => void;
  emit(): void;
  readonly size: number;
}

export function createEmitter(hooks: { first?(): void; last?(): void } = {}): Emitter {
  const listeners = new Set<() => void>();
  return {
    subscribe(cb) {
      // A function subscribed twice is two subscriptions (React may subscribe the same callback
      // from two components): wrap it so each unsubscribe removes its own.
      const entry = () => cb();
      listeners.add(entry);
      if (listeners.size === 1) hooks.first?.();
      let on = true;
      return () => {
        if (!on) return;
        on = false;
        listeners.delete(entry);
        if (listeners.size === 0) hooks.last?.();
      };
    },
    emit() {
      for (const l of [...listeners]) l();
    },
    get size() {
      return listeners.size;
    },
  };
}

// A small DevTools-protocol client (one browser WebSocket, flattened sessions) for the live
// bridge: the commands it needs, each with a timeout, errors as one line.
import WebSocket from 'ws';

export interface CdpTarget {
  targetId: string;
  type: string;
  url: string;
  title: string;
}

export interface Cdp {
  send<T = any>(method: string, params?: Record<string, unknown>, sessionId?: string, timeoutMs?: number): Promise<T>;
  on(event: string, fn: (params: any, sessionId?: string) => void): void;
  targets(): Promise<CdpTarget[]>;
  closed(): boolean;
  close(): void;
}

export async function connectCdp(wsUrl: string, timeoutMs = 10_000): Promise<Cdp> {
  // The browser's answers are large at times (a backfill of records); nothing else is accepted.
  const ws = new WebSocket(wsUrl, { perMessageDeflate: false, maxPayload: 256 * 1024 * 1024, handshakeTimeout: timeoutMs });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', (e) => reject(new Error(`cannot connect to the browser's DevTools protocol at ${wsUrl} (${e.message})`)));
  });
  let nextId = 1;
  let isClosed = false;
  const pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void; method: string; timer: NodeJS.Timeout }>();
  const listeners = new Map<string, Set<(p: any, s?: string) => void>>();
  ws.on('message', (data) => {
    let msg: any;
    try {
      msg = JSON.parse(String(data));
    } catch {
      return;
    }
    if (typeof msg?.id === 'number') {
      const p = pending.get(msg.id);
      if (!p) return;
      pending.delete(msg.id);
      clearTimeout(p.timer);
      if (msg.error) p.reject(new Error(`${p.method}: ${String(msg.error.message ?? 'error').slice(0, 300)}`));
      else p.resolve(msg.result);
    } else if (typeof msg?.method === 'string') {
      for (const fn of listeners.get(msg.method) ?? []) fn(msg.params, msg.sessionId);
    }
  });
  ws.on('close', () => {
    isClosed = true;
    for (const p of pending.values()) {
      clearTimeout(p.timer);
      p.reject(new Error(`${p.method}: the browser closed the DevTools connection`));
    }
    pending.clear();
  });
  ws.on('error', () => {});
  const cdp: Cdp = {
    send(method, params = {}, sessionId, ms = timeoutMs) {
      if (isClosed) return Promise.reject(new Error(`${method}: the browser closed the DevTools connection`));
      const id = nextId++;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`${method}: no answer from the browser in ${ms} ms`));
        }, ms);
        pending.set(id, { resolve, reject, method, timer });
        ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
      });
    },
    on(event, fn) {
      let s = listeners.get(event);
      if (!s) listeners.set(event, (s = new Set()));
      s.add(fn);
    },
    async targets() {
      const r = await cdp.send<{ targetInfos: CdpTarget[] }>('Target.getTargets');
      return r.targetInfos;
    },
    closed: () => isClosed,
    close() {
      isClosed = true;
      ws.close();
    },
  };
  return cdp;
}

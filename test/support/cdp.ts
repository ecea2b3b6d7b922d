// A minimal Chrome DevTools Protocol client over one browser WebSocket with flattened sessions.
// Enough for the e2e suite: send commands to the browser or to an attached target's session,
// listen to events, evaluate expressions.

import WebSocket from 'ws';

type Listener = (params: any, sessionId?: string) => void;

export interface Cdp {
  send<T = any>(method: string, params?: Record<string, unknown>, sessionId?: string): Promise<T>;
  on(event: string, fn: Listener): () => void;
  /** Attach to a target (flatten) and return its session id. */
  attach(targetId: string): Promise<string>;
  /** Evaluate an expression in a session; returns its value (by value), throws on exceptions. */
  evaluate<T = any>(sessionId: string, expression: string, opts?: { awaitPromise?: boolean; timeoutMs?: number }): Promise<T>;
  targets(): Promise<TargetInfo[]>;
  close(): void;
}

export interface TargetInfo {
  targetId: string;
  type: string;
  url: string;
  title: string;
  attached: boolean;
}

export async function connectCdp(wsUrl: string): Promise<Cdp> {
  const ws = new WebSocket(wsUrl, { perMessageDeflate: false, maxPayload: 512 * 1024 * 1024 });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let nextId = 1;
  const pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void; method: string; sessionId?: string }>();
  // A target that crashed or went away never answers what was asked of it: its calls fail then,
  // with the reason, instead of waiting forever (a bench run once waited 25 minutes on one).
  const failSession = (sessionId: string, why: string) => {
    for (const [id, p] of pending) {
      if (p.sessionId !== sessionId) continue;
      pending.delete(id);
      p.reject(new Error(`${p.method}: ${why}`));
    }
  };
  const listeners = new Map<string, Set<Listener>>();
  ws.on('message', (data) => {
    const msg = JSON.parse(String(data));
    if (msg.id !== undefined) {
      const p = pending.get(msg.id);
      if (!p) return;
      pending.delete(msg.id);
      if (msg.error) p.reject(new Error(`${p.method}: ${msg.error.message}`));
      else p.resolve(msg.result);
    } else if (msg.method) {
      if (msg.method === 'Target.detachedFromTarget' && msg.params?.sessionId) failSession(msg.params.sessionId, 'the target was detached (closed or crashed)');
      else if (msg.method === 'Inspector.targetCrashed' && msg.sessionId) failSession(msg.sessionId, 'the target crashed');
      for (const fn of listeners.get(msg.method) ?? []) fn(msg.params, msg.sessionId);
    }
  });
  ws.on('close', () => {
    for (const p of pending.values()) p.reject(new Error(`${p.method}: CDP connection closed`));
    pending.clear();
  });

  const cdp: Cdp = {
    send(method, params = {}, sessionId) {
      const id = nextId++;
      const msg: Record<string, unknown> = { id, method, params };
      if (sessionId) msg.sessionId = sessionId;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject, method, ...(sessionId ? { sessionId } : {}) });
        ws.send(JSON.stringify(msg));
      });
    },
    on(event, fn) {
      let s = listeners.get(event);
      if (!s) listeners.set(event, (s = new Set()));
      s.add(fn);
      return () => s!.delete(fn);
    },
    async attach(targetId) {
      const r = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
      return r.sessionId;
    },
    async evaluate(sessionId, expression, opts = {}) {
      const r = await cdp.send<any>(
        'Runtime.evaluate',
        { expression, awaitPromise: opts.awaitPromise ?? true, returnByValue: true, timeout: opts.timeoutMs },
        sessionId,
      );
      if (r.exceptionDetails) {
        const d = r.exceptionDetails;
        throw new Error(`evaluate failed: ${d.exception?.description ?? d.text}`);
      }
      return r.result.value as any;
    },
    async targets() {
      const r = await cdp.send<{ targetInfos: TargetInfo[] }>('Target.getTargets', { filter: [{}] });
      return r.targetInfos;
    },
    close() {
      ws.close();
    },
  };
  return cdp;
}

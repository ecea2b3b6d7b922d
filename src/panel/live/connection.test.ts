import { describe, expect, it, vi } from 'vitest';
import { CHANNEL, PROTOCOL_VERSION } from '../../extension/wire/protocol';
import { createPanelConnection, type PortLike } from './connection';
import { createLiveStore } from './store';

const env = (body: { type: string } & Record<string, unknown>) => ({ ch: CHANNEL, v: PROTOCOL_VERSION, ...body });

function fakePort() {
  const msgs: ((m: unknown) => void)[] = [];
  const discs: (() => void)[] = [];
  const sent: unknown[] = [];
  const p: PortLike & { sent: unknown[]; deliver(m: unknown): void; drop(): void } = {
    sent,
    postMessage: (m) => sent.push(m),
    onMessage: { addListener: (fn) => msgs.push(fn) },
    onDisconnect: { addListener: (fn) => discs.push(fn) },
    disconnect: () => {},
    deliver: (m) => msgs.forEach((f) => f(m)),
    drop: () => discs.forEach((f) => f()),
  };
  return p;
}
const rec = (seq: number) => ({ kind: 'chunk', conn: 'c1', t: seq, text: 'x', bytes: 1, src: 'S', seq });

describe('panel connection', () => {
  it('says hello with its cursors, and on every reconnect asks again from where it is', () => {
    const store = createLiveStore();
    const ports: ReturnType<typeof fakePort>[] = [];
    const timers: (() => void)[] = [];
    const c = createPanelConnection({
      tabId: 7,
      store,
      connect: () => {
        const p = fakePort();
        ports.push(p);
        return p;
      },
      setTimer: (fn) => timers.push(fn),
    });
    expect(ports[0]!.sent).toEqual([env({ type: 'panel-hello', tabId: 7, cursors: {} })]);
    ports[0]!.deliver(env({ type: 'records', src: 'S', backfill: false, records: [rec(1), rec(2)] }));
    ports[0]!.deliver({ type: 'records', records: [rec(3)] }); // not a valid batch: ignored
    expect(store.cursors()).toEqual({ S: 2 });
    ports[0]!.drop();
    expect(c.connected()).toBe(false);
    timers.shift()!();
    expect(c.connects()).toBe(2);
    expect(ports[1]!.sent).toEqual([env({ type: 'panel-hello', tabId: 7, cursors: { S: 2 } })]);
    // the backfill overlaps what the panel had: no duplicates
    ports[1]!.deliver(env({ type: 'records', src: 'S', backfill: true, records: [rec(2), rec(3)] }));
    expect(store.getSnapshot().records.map((r) => r.seq)).toEqual([1, 2, 3]);
  });

  it('decodes chunk bytes, inline or in a Blob, and hands batches to the store in arrival order', async () => {
    const store = createLiveStore();
    const p = fakePort();
    const c = createPanelConnection({ tabId: 7, store, connect: () => p, setTimer: () => {} });
    const enc = (t: string) => new TextEncoder().encode(t);
    const wire = (seq: number, extra: Record<string, unknown>) => ({ kind: 'chunk', conn: 'c1', t: seq, src: 'S', seq, max: 4, ...extra });
    // a Blob batch first, then an inline one that must wait for it
    p.deliver(env({ type: 'records', src: 'S', backfill: false, records: [wire(1, { part: 0, at: 2, len: 3 }), wire(2, { part: 0, at: 5, len: 6, hold: 1 })], blobs: [new Blob([enc('..abcé€\xff')].map((b) => b))] }));
    p.deliver(env({ type: 'records', src: 'S', backfill: false, records: [wire(3, { data: enc('xyz'), head: new Uint8Array([0xac]) }), wire(4, { text: 'héllo!' })] }));
    expect(store.getSnapshot().records).toEqual([]);
    await c.idle();
    const recs = store.getSnapshot().records as readonly { seq: number; text: string; bytes: number; droppedBytes?: number }[];
    expect(recs.map((r) => r.seq)).toEqual([1, 2, 3, 4]);
    // the 6th byte of the second chunk (the first of ÿ) waits for the next read (hold)
    expect(recs.map((r) => r.text)).toEqual(['abc', 'é€', '\uFFFDxyz', 'héll']);
    expect(recs.map((r) => r.bytes)).toEqual([3, 6, 3, 7]);
    expect(recs[3]!.droppedBytes).toBe(2); // the cap (max 4): 'o!' left out
    expect(recs[0]).toEqual({ kind: 'chunk', conn: 'c1', t: 1, text: 'abc', bytes: 3, seq: 1, src: 'S' });
  });

  it('says once what it missed when no relay of this instance runs in a page older than the instance', async () => {
    const store = createLiveStore();
    const ports: ReturnType<typeof fakePort>[] = [];
    createPanelConnection({
      tabId: 7,
      store,
      connect: () => {
        const p = fakePort();
        ports.push(p);
        return p;
      },
      setTimer: () => {},
      pageStartedAt: async () => 1000,
      networkRequestsSince: async (since) => (since === 1000 ? 3 : -1),
    });
    const status = (relays: boolean, installedAt: number, installReason = 'update') =>
      ports[0]!.deliver(env({ type: 'tab-status', relays, installedAt, installReason }));
    status(true, 5000); // a relay answered: nothing to say
    status(false, 500); // page newer than the instance: its relay will come
    await new Promise((r) => setTimeout(r, 0));
    expect(store.getSnapshot().records).toEqual([]);
    status(false, 5000);
    status(false, 5000); // said once
    await new Promise((r) => setTimeout(r, 0));
    const recs = store.getSnapshot().records;
    expect(recs.map((r) => r.kind)).toEqual(['notice', 'capture-gap']);
    expect(recs[0]).toMatchObject({ src: 'panel', seq: 1, level: 'error', code: 'extension-reloaded' });
    expect(recs[1]).toMatchObject({ src: 'panel', seq: 2, reason: 'extension-reloaded', lost: 3, conns: [] });
    expect((recs[0] as { message: string }).message).toContain('3 event-stream / JSON-RPC request(s)');
  });

  it("says it even when DevTools' network log never answers: how much is missing is unknown", async () => {
    vi.useFakeTimers();
    try {
      const store = createLiveStore();
      const p = fakePort();
      createPanelConnection({
        tabId: 7, store, connect: () => p, setTimer: (fn, ms) => setTimeout(fn, ms),
        pageStartedAt: async () => 1000,
        networkRequestsSince: () => new Promise<number>(() => {}), // getHAR's callback never called
      });
      p.deliver(env({ type: 'tab-status', relays: false, installedAt: 2000, installReason: 'update' }));
      await vi.advanceTimersByTimeAsync(15_000);
      // before: nothing, for the panel's life (the notice waited on the count)
      const recs = store.getSnapshot().records;
      expect(recs.map((r) => r.kind)).toEqual(['notice', 'capture-gap']);
      expect(recs[0]).toMatchObject({ level: 'error', code: 'extension-reloaded' });
      expect((recs[0] as { message: string }).message).toContain("How much is missing is unknown: DevTools' network log could not be read within 10 s.");
      expect(recs[1]).toMatchObject({ reason: 'extension-reloaded', lost: 0 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('calls it hook-missing when the extension was installed (not reloaded) after the page loaded', async () => {
    const store = createLiveStore();
    const p = fakePort();
    createPanelConnection({ tabId: 7, store, connect: () => p, setTimer: () => {}, pageStartedAt: async () => 1000, networkRequestsSince: async () => 0 });
    p.deliver(env({ type: 'tab-status', relays: false, installedAt: 2000, installReason: 'install' }));
    await new Promise((r) => setTimeout(r, 0));
    expect(store.getSnapshot().records.map((r) => (r as { code?: string; reason?: string }).code ?? (r as { reason?: string }).reason)).toEqual(['hook-missing', 'hook-missing']);
  });
});

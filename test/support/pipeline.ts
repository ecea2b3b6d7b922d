// The capture pipeline in one Node process, over in-memory adapters (src/extension/wire/
// adapter.ts memoryPair; after React DevTools' tests, which run backend and frontend over an
// in-memory wall): hook batches → relay (relay-core, control, relay-link: the code relay.ts wires
// to chrome) → background router → panel link (the panel's connection, which decodes) → live
// store. A service-worker restart is "drop the router, make a new one": every port the old one
// held closes, the panel's port re-creates itself against the new router, the relays backfill.
//
// The hook is a stand-in that speaks the hook's protocol (hook/emitter.ts needs a page): it posts
// `hook-batch` messages with chunk bytes transferred, and honours `mode` (no copy: `skip`s with
// the read's length and last ≤ 3 bytes) with a `mode-ack` after the batch made before it.

import type { CaptureRecord, HookRecord } from '../../src/core/record';
import { createRouter, type Router } from '../../src/extension/background/router';
import { createRelayControl } from '../../src/extension/relay/control';
import { createRelayCore, type RelayCore, type RelayOptions } from '../../src/extension/relay/relay-core';
import { createRelayLink, type RelayLink } from '../../src/extension/relay/relay-link';
import { memoryPair, type MemoryEnd } from '../../src/extension/wire/adapter';
import { decodeBatch } from '../../src/extension/wire/decode';
import { isMessage } from '../../src/extension/wire/guards';
import { envelope } from '../../src/extension/wire/protocol';
import type { HookWireRecord, WireRecord } from '../../src/extension/wire/records';
import type { PortLike } from '../../src/extension/wire/runtime-port';
import { createPanelConnection, type PanelConnection } from '../../src/panel/live/connection';
import { createLiveStore, type LiveStore } from '../../src/panel/live/store';

/** A hook record as the page's reads make it: fetch chunks as bytes. */
export type PageRead = HookRecord | { kind: 'chunk'; conn: string; t: number; data: Uint8Array };

export interface FakeHook {
  /** Post one batch of what the page read (converted to skips while the relay says not to copy). */
  send(records: readonly PageRead[]): void;
  copying(): boolean;
}

export interface PipelineRelay {
  src: string;
  core: RelayCore;
  link: RelayLink;
  hook: FakeHook;
  /** Every record the relay holds now, decoded as the panel would (a fresh attach of its own). */
  bufferRecords(): Promise<CaptureRecord[]>;
}

export interface Pipeline {
  store: LiveStore;
  panel: PanelConnection | null;
  router(): Router;
  relays: PipelineRelay[];
  addRelay(src: string, opts?: { frameId?: number; relay?: Partial<RelayOptions>; captureWhileClosed?: boolean }): PipelineRelay;
  /** Open the panel (a DevTools panel on the tab: it attaches the relays). */
  openPanel(): PanelConnection;
  /** Chrome stopped the service worker: every port closes; a new router takes over. */
  restartWorker(): void;
  /** Let every message, reconnect timer and Blob read run. */
  settle(): Promise<void>;
}

/** A chrome.runtime.Port over one end of a memory pair. */
function portLike(end: MemoryEnd): PortLike {
  return {
    postMessage: (m) => {
      if (!end.post(m)) throw new Error('Attempting to use a disconnected port object');
    },
    onMessage: { addListener: (fn) => void end.listen(fn) },
    onDisconnect: { addListener: (fn) => void end.onClose(fn) },
    disconnect: () => end.close(),
  };
}

const tick = () => new Promise<void>((r) => setTimeout(r, 0));

export function createPipeline(opts: { tabId?: number } = {}): Pipeline {
  const tabId = opts.tabId ?? 5;
  const store = createLiveStore({ preserveLog: true });
  const relays: PipelineRelay[] = [];
  /** The ends the current router holds: a worker restart closes them. */
  let routerEnds: MemoryEnd[] = [];
  const makeRouter = () =>
    createRouter({
      sendToTab: (tab, msg) => {
        if (tab !== tabId) return Promise.reject(new Error('Receiving end does not exist.'));
        let reply: unknown;
        for (const r of relays) reply ??= r.link.onRuntimeMessage(msg);
        return reply === undefined ? Promise.reject(new Error('Receiving end does not exist.')) : Promise.resolve(reply);
      },
    });
  let router = makeRouter();
  /** A port: the caller's end, and the router's end (tracked for restarts). */
  const pair = (): [MemoryEnd, MemoryEnd] => {
    const [mine, theirs] = memoryPair();
    routerEnds.push(theirs);
    return [mine, theirs];
  };

  const p: Pipeline = {
    store,
    panel: null,
    router: () => router,
    relays,
    addRelay(src, o = {}) {
      const core = createRelayCore(src, { ...o.relay });
      const control = createRelayControl(core);
      const frameId = o.frameId ?? 0;
      const link = createRelayLink(core, control, {
        connect: () => {
          const [mine, theirs] = pair();
          router.relayConnected(theirs, tabId, frameId);
          return mine;
        },
        orphaned: () => false,
      });
      // What relay.ts does at document_start: the document's navigation record, the settings.
      core.add({ kind: 'navigation', t: Date.now(), url: `http://page.test/${src}`, top: frameId === 0 });
      control.settings({ captureWhileClosed: o.captureWhileClosed ?? false }, true);
      // The hook's private channel.
      const [hookEnd, relayEnd] = memoryPair();
      let copy = true;
      let pending: HookWireRecord[] = [];
      const flushPending = () => {
        if (pending.length === 0) return;
        const records = pending;
        pending = [];
        const transfer = records.flatMap((r) => (r.kind === 'chunk' && 'data' in r ? [r.data.buffer as ArrayBuffer] : []));
        hookEnd.post(envelope('hook-batch', { records }), transfer);
      };
      hookEnd.listen((m) => {
        if (!isMessage(m, 'mode')) return;
        flushPending();
        copy = m.copy;
        hookEnd.post(envelope('mode-ack', { copy }));
      });
      link.hook(relayEnd);
      const hook: FakeHook = {
        copying: () => copy,
        send(records) {
          for (const r of records) {
            if (copy) {
              pending.push(r.kind === 'chunk' && 'data' in r ? { ...r, data: r.data.slice() } : (r as HookWireRecord));
            } else if (r.kind === 'chunk' && 'data' in r) {
              const n = r.data.length;
              pending.push({ kind: 'skip', conn: r.conn, t: r.t, n, tail: r.data.slice(Math.max(0, n - 3)) });
            } else if (r.kind === 'chunk' || r.kind === 'es-event') pending.push({ kind: 'skip', conn: r.conn, t: r.t });
            else pending.push(r as HookWireRecord);
          }
          flushPending();
        },
      };
      const relay: PipelineRelay = {
        src,
        core,
        link,
        hook,
        async bufferRecords() {
          const batches: { records: WireRecord[]; blobs?: Blob[] }[] = [];
          const out: CaptureRecord[] = [];
          // Sent straight to this collector: what a new panel would get from the relay.
          const was = core.attached();
          if (was) throw new Error('bufferRecords() needs the relay detached');
          core.attach({ send: (b) => batches.push(b) }, {});
          core.detach();
          for (const b of batches) out.push(...(await decodeBatch(b.records, b.blobs)));
          return out;
        },
      };
      relays.push(relay);
      // The relay asks whether its tab is inspected (chrome.runtime.sendMessage: async).
      const token = control.asking();
      const reply = router.onRuntimeMessage(envelope('relay-hello', { src }), tabId);
      queueMicrotask(() => link.onHelloReply(token, reply));
      return relay;
    },
    openPanel() {
      p.panel = createPanelConnection({
        tabId,
        store,
        connect: () => {
          const [mine, theirs] = pair();
          router.panelConnected(theirs);
          return portLike(mine);
        },
        retryMs: 1,
        setTimer: (fn, ms) => setTimeout(fn, ms),
        pageStartedAt: async () => null,
        networkRequestsSince: async () => 0,
      });
      return p.panel;
    },
    restartWorker() {
      const ends = routerEnds;
      routerEnds = [];
      router = makeRouter();
      for (const e of ends) e.close();
    },
    async settle() {
      // Until nothing moves: messages are microtasks, reconnects timers (backing off up to a few
      // ms after quick restarts), Blob reads promises. A closed panel port is not "quiet".
      let last = -1;
      let since = Date.now();
      for (;;) {
        await tick();
        await p.panel?.idle();
        const n = store.getSnapshot().revision + (p.panel?.connects() ?? 0);
        if (n !== last || (p.panel && !p.panel.connected())) {
          last = n;
          since = Date.now();
        } else if (Date.now() - since >= 20) return;
      }
    },
  };
  return p;
}

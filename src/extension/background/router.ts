// The background's routing, over minimal port/tab interfaces so it can be unit-tested.
//
// It holds only live ports (panels by tab, relays by tab, DevTools pages by inspected tab). A
// service-worker stop closes every port: panels reconnect with their cursors, which re-attaches
// the tab's relays, which backfill from those cursors; DevTools pages reconnect and say again
// which tab they inspect. Nothing here survives a restart, and nothing needs to.
//
// "Inspected" = a DevTools page or a panel port of the tab is connected. Relays record only while
// their tab is inspected (unless capture while DevTools is closed is on): they learn it from the
// relay-hello reply and from an `inspected` broadcast whenever the tab changes state.

import {
  envelope,
  isAttachAck,
  isDevtoolsHello,
  isPanelHello,
  isRecordsBatch,
  isRelayHello,
  type Attach,
  type Detach,
  type Inspected,
  type RecordsBatch,
  type RelayHelloReply,
  type TabStatus,
} from '../shared/messages';

export interface PortLike {
  postMessage(msg: unknown): void;
  disconnect(): void;
}

export interface RouterEnv {
  /**
   * Broadcast to every frame of a tab (chrome.tabs.sendMessage without frameId). Resolves with the
   * first frame's reply; rejects (or resolves undefined) when no content script answered.
   */
  sendToTab(tabId: number, msg: unknown): Promise<unknown> | void;
  /** When and why this extension instance was installed (chrome.runtime.onInstalled, stored). */
  installInfo?(): Promise<{ installedAt?: number; installReason?: string }>;
}

export interface Router {
  panelConnected(port: PortLike): {
    onMessage(msg: unknown): void;
    onDisconnect(): void;
  };
  /** The DevTools page of a DevTools window (DEVTOOLS_PORT). */
  devtoolsConnected(port: PortLike): {
    onMessage(msg: unknown): void;
    onDisconnect(): void;
  };
  relayConnected(port: PortLike, tabId: number, frameId: number): {
    onMessage(msg: unknown): void;
    onDisconnect(): void;
  };
  /** chrome.runtime.onMessage from a content script; returns the reply (or undefined). */
  onRuntimeMessage(msg: unknown, tabId: number | undefined): RelayHelloReply | undefined;
  panelsOf(tabId: number): number;
  /** Tabs a DevTools window or a panel inspects now (diagnostics). */
  inspectedTabs(): number[];
}

export function createRouter(env: RouterEnv): Router {
  const panels = new Map<number, Set<PortLike>>();
  const relays = new Map<number, Set<PortLike>>();
  const devtools = new Map<number, Set<PortLike>>();

  const add = (m: Map<number, Set<PortLike>>, k: number, p: PortLike) => {
    let s = m.get(k);
    if (!s) m.set(k, (s = new Set()));
    s.add(p);
  };
  const remove = (m: Map<number, Set<PortLike>>, k: number, p: PortLike) => {
    const s = m.get(k);
    if (!s) return;
    s.delete(p);
    if (s.size === 0) m.delete(k);
  };
  const isInspected = (tabId: number) => panels.has(tabId) || devtools.has(tabId);
  /** Tell every frame of the tab; a tab without relays (chrome:// page) rejects: nothing to tell. */
  const broadcastInspected = (tabId: number, inspected: boolean) => {
    try {
      const r = env.sendToTab(tabId, envelope<Inspected>({ type: 'inspected', inspected }));
      if (r) r.then(undefined, () => {});
    } catch {
      /* tab gone */
    }
  };
  /** Run a change of the tab's inspecting ports; broadcast when the tab's state flipped. */
  const inspecting = (tabId: number, change: () => void, broadcastOn: 'both' | 'stop') => {
    const before = isInspected(tabId);
    change();
    const after = isInspected(tabId);
    if (before !== after && (after ? broadcastOn === 'both' : true)) broadcastInspected(tabId, after);
  };
  const safePost = (p: PortLike, msg: unknown) => {
    try {
      p.postMessage(msg);
    } catch {
      /* port already closed; its onDisconnect cleans up */
    }
  };

  return {
    panelConnected(port) {
      let tabId: number | null = null;
      return {
        onMessage(msg) {
          if (!isPanelHello(msg)) return;
          if (tabId !== null && tabId !== msg.tabId) {
            const old = tabId;
            inspecting(old, () => remove(panels, old, port), 'stop');
          }
          const tab = (tabId = msg.tabId);
          // No 'inspected' broadcast when a panel starts the inspection: the attach below tells
          // the relays (an attached relay records).
          inspecting(tab, () => add(panels, tab, port), 'stop');
          const sent = env.sendToTab(tabId, envelope<Attach>({ type: 'attach', cursors: msg.cursors }));
          // Tell the panel whether a relay of this instance answered: if none did, the page is
          // older than this extension instance (reloaded/installed since) or out of its reach.
          const status = (relays: boolean) =>
            (env.installInfo?.() ?? Promise.resolve({})).then(
              (info) => safePost(port, envelope<TabStatus>({ type: 'tab-status', relays, ...info })),
              () => safePost(port, envelope<TabStatus>({ type: 'tab-status', relays })),
            );
          Promise.resolve(sent).then(
            (reply) => status(isAttachAck(reply)),
            () => status(false),
          );
        },
        onDisconnect() {
          if (tabId === null) return;
          const tab = tabId;
          inspecting(tab, () => remove(panels, tab, port), 'stop');
          if (!panels.has(tab)) {
            for (const r of relays.get(tab) ?? []) safePost(r, envelope<Detach>({ type: 'detach' }));
          }
        },
      };
    },
    devtoolsConnected(port) {
      let tabId: number | null = null;
      return {
        onMessage(msg) {
          if (!isDevtoolsHello(msg)) return;
          if (tabId !== null && tabId !== msg.tabId) {
            const old = tabId;
            inspecting(old, () => remove(devtools, old, port), 'both');
          }
          const tab = (tabId = msg.tabId);
          inspecting(tab, () => add(devtools, tab, port), 'both');
        },
        onDisconnect() {
          if (tabId === null) return;
          const tab = tabId;
          inspecting(tab, () => remove(devtools, tab, port), 'both');
        },
      };
    },
    relayConnected(port, tabId, frameId) {
      add(relays, tabId, port);
      return {
        onMessage(msg) {
          if (!isRecordsBatch(msg)) return;
          const out: RecordsBatch = { ...msg, frameId };
          const ps = panels.get(tabId);
          if (!ps) {
            safePost(port, envelope<Detach>({ type: 'detach' }));
            return;
          }
          for (const p of ps) safePost(p, out);
        },
        onDisconnect() {
          remove(relays, tabId, port);
        },
      };
    },
    onRuntimeMessage(msg, tabId) {
      if (!isRelayHello(msg) || tabId === undefined) return undefined;
      return envelope<RelayHelloReply>({ type: 'relay-hello-reply', attach: panels.has(tabId), inspected: isInspected(tabId) });
    },
    panelsOf: (tabId) => panels.get(tabId)?.size ?? 0,
    inspectedTabs: () => [...new Set([...panels.keys(), ...devtools.keys()])].sort((a, b) => a - b),
  };
}

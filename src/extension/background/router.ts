// The background's routing, over adapters (wire/adapter.ts) so it runs in Node tests.
//
// It holds only live ports (panels by tab, relays by tab, DevTools pages by inspected tab). A
// service-worker stop closes every port: panels reconnect with their cursors, which re-attaches
// the tab's relays, which backfill from those cursors; DevTools pages reconnect and say again
// which tab they inspect. Nothing here survives a restart, and nothing needs to: a restart is
// "drop the router, make a new one" (test/unit/extension/pipeline.test.ts).
//
// "Inspected" = a DevTools page or a panel port of the tab is connected. Relays record only while
// their tab is inspected (unless capture while DevTools is closed is on): they learn it from the
// relay-hello reply and from an `inspected` broadcast whenever the tab changes state.
//
// Relay batches are forwarded as they came, with the frame id from the port's sender: the relay
// validated their records where they entered the extension (relay-core.ts), so the router checks
// the batch's envelope only (guards.ts), and blobs of chunk bytes pass as handles.

import type { MessageAdapter } from '../wire/adapter';
import { createEndpoint, type Endpoint } from '../wire/endpoint';
import { isMessage } from '../wire/guards';
import {
  envelope,
  type BackgroundFromDevtools,
  type BackgroundFromPanel,
  type BackgroundFromRelay,
  type PanelInbox,
  type RelayFromBackground,
  type RelayHelloReply,
} from '../wire/protocol';

type PanelEnd = Endpoint<BackgroundFromPanel, PanelInbox>;
type RelayEnd = Endpoint<BackgroundFromRelay, RelayFromBackground>;

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
  /** A panel port (PANEL_PORT) from one of this extension's pages. */
  panelConnected(port: MessageAdapter): void;
  /** The DevTools page of a DevTools window (DEVTOOLS_PORT). */
  devtoolsConnected(port: MessageAdapter): void;
  /** A relay port (RELAY_PORT) from a content script in tab `tabId`, frame `frameId`. */
  relayConnected(port: MessageAdapter, tabId: number, frameId: number): void;
  /** chrome.runtime.onMessage from a content script; returns the reply (or undefined). */
  onRuntimeMessage(msg: unknown, tabId: number | undefined): RelayHelloReply | undefined;
  panelsOf(tabId: number): number;
  /** Tabs a DevTools window or a panel inspects now (diagnostics). */
  inspectedTabs(): number[];
}

export function createRouter(env: RouterEnv): Router {
  const panels = new Map<number, Set<PanelEnd>>();
  const relays = new Map<number, Set<RelayEnd>>();
  const devtools = new Map<number, Set<unknown>>();

  const add = <T>(m: Map<number, Set<T>>, k: number, p: T) => {
    let s = m.get(k);
    if (!s) m.set(k, (s = new Set()));
    s.add(p);
  };
  const remove = <T>(m: Map<number, Set<T>>, k: number, p: T) => {
    const s = m.get(k);
    if (!s) return;
    s.delete(p);
    if (s.size === 0) m.delete(k);
  };
  const isInspected = (tabId: number) => panels.has(tabId) || devtools.has(tabId);
  /** Tell every frame of the tab; a tab without relays (chrome:// page) rejects: nothing to tell. */
  const broadcastInspected = (tabId: number, inspected: boolean) => {
    try {
      const r = env.sendToTab(tabId, envelope('inspected', { inspected }));
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

  return {
    panelConnected(adapter) {
      const ep: PanelEnd = createEndpoint<BackgroundFromPanel, PanelInbox>(adapter, ['panel-hello']);
      let tabId: number | null = null;
      ep.on('panel-hello', (msg) => {
        if (tabId !== null && tabId !== msg.tabId) {
          const old = tabId;
          inspecting(old, () => remove(panels, old, ep), 'stop');
        }
        const tab = (tabId = msg.tabId);
        // No 'inspected' broadcast when a panel starts the inspection: the attach below tells
        // the relays (an attached relay records).
        inspecting(tab, () => add(panels, tab, ep), 'stop');
        const sent = env.sendToTab(tab, envelope('attach', { cursors: msg.cursors }));
        // Tell the panel whether a relay of this instance answered: if none did, the page is
        // older than this extension instance (reloaded/installed since) or out of its reach.
        const status = (relays: boolean) =>
          (env.installInfo?.() ?? Promise.resolve({})).then(
            (info) => void ep.send('tab-status', { relays, ...info }),
            () => void ep.send('tab-status', { relays }),
          );
        Promise.resolve(sent).then(
          (reply) => status(isMessage(reply, 'attach-ack')),
          () => status(false),
        );
      });
      adapter.onClose(() => {
        if (tabId === null) return;
        const tab = tabId;
        inspecting(tab, () => remove(panels, tab, ep), 'stop');
        if (!panels.has(tab)) for (const r of relays.get(tab) ?? []) r.send('detach', {});
      });
    },
    devtoolsConnected(adapter) {
      const ep = createEndpoint<BackgroundFromDevtools, Record<never, never>>(adapter, ['devtools-hello']);
      let tabId: number | null = null;
      ep.on('devtools-hello', (msg) => {
        if (tabId !== null && tabId !== msg.tabId) {
          const old = tabId;
          inspecting(old, () => remove(devtools, old, ep), 'both');
        }
        const tab = (tabId = msg.tabId);
        inspecting(tab, () => add(devtools, tab, ep), 'both');
      });
      adapter.onClose(() => {
        if (tabId === null) return;
        const tab = tabId;
        inspecting(tab, () => remove(devtools, tab, ep), 'both');
      });
    },
    relayConnected(adapter, tabId, frameId) {
      const ep: RelayEnd = createEndpoint<BackgroundFromRelay, RelayFromBackground>(adapter, ['records']);
      add(relays, tabId, ep);
      ep.on('records', (msg) => {
        const ps = panels.get(tabId);
        if (!ps) {
          ep.send('detach', {});
          return;
        }
        const { ch: _c, v: _v, type: _t, ...body } = msg;
        for (const p of ps) p.send('records', { ...body, frameId });
      });
      adapter.onClose(() => remove(relays, tabId, ep));
    },
    onRuntimeMessage(msg, tabId) {
      if (!isMessage(msg, 'relay-hello') || tabId === undefined) return undefined;
      return envelope('relay-hello-reply', { attach: panels.has(tabId), inspected: isInspected(tabId) });
    },
    panelsOf: (tabId) => panels.get(tabId)?.size ?? 0,
    inspectedTabs: () => [...new Set([...panels.keys(), ...devtools.keys()])].sort((a, b) => a - b),
  };
}

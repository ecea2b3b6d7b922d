// The panel's link to the background: a port that re-creates itself when it closes (Chrome
// stopped the service worker, the extension was updated). Each (re)connect sends the store's
// cursors, so the relays backfill exactly what the panel lacks; the store drops duplicates.

import { envelope, isRecordsBatch, PANEL_PORT, type PanelHello } from '../../extension/shared/messages';
import type { LiveStore } from './store';

export interface PortLike {
  postMessage(msg: unknown): void;
  onMessage: { addListener(fn: (msg: unknown) => void): void };
  onDisconnect: { addListener(fn: () => void): void };
  disconnect(): void;
}

export interface PanelConnection {
  /** Number of times the port was (re)opened. */
  connects(): number;
  connected(): boolean;
  /** Record batches received (diagnostics: how well the pipeline batches). */
  batches(): number;
  close(): void;
}

export interface PanelConnectionOptions {
  tabId: number;
  store: LiveStore;
  connect?: () => PortLike;
  /** Delay before reconnecting after a disconnect (ms). */
  retryMs?: number;
  setTimer?: (fn: () => void, ms: number) => unknown;
}

export function createPanelConnection(opts: PanelConnectionOptions): PanelConnection {
  const connect = opts.connect ?? (() => chrome.runtime.connect({ name: PANEL_PORT }) as unknown as PortLike);
  const setTimer = opts.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  let port: PortLike | null = null;
  let count = 0;
  let batches = 0;
  let closed = false;

  function open() {
    if (closed) return;
    let p: PortLike;
    try {
      p = connect();
    } catch {
      setTimer(open, 1000); // extension context gone; keep trying slowly
      return;
    }
    port = p;
    count++;
    p.onMessage.addListener((msg) => {
      if (!isRecordsBatch(msg)) return;
      batches++;
      opts.store.ingest(msg.records);
    });
    p.onDisconnect.addListener(() => {
      if (port === p) port = null;
      if (typeof chrome !== 'undefined') void chrome.runtime?.lastError;
      setTimer(open, opts.retryMs ?? 50);
    });
    p.postMessage(envelope<PanelHello>({ type: 'panel-hello', tabId: opts.tabId, cursors: opts.store.cursors() }));
  }
  open();

  return {
    connects: () => count,
    connected: () => port !== null,
    batches: () => batches,
    close() {
      closed = true;
      port?.disconnect();
      port = null;
    },
  };
}

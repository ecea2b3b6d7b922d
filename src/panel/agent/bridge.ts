// The agent bridge (issue 21): an extension page that a local MCP server (`mcp-stream-inspector
// mcp --browser-url`) drives over the DevTools protocol to read a tab's capture as one more panel
// would: the panel's own store, connection (panel port, backfill from cursors, the same numbering)
// and fault control, per tab. Nothing is added to the inspected page; no second hook.
//
// Off unless the user turned on "Let coding agents read this browser's MCP captures and arm faults
// over the DevTools protocol" in the panel's settings (chrome.storage.local `agentAccess`): every
// call but hello() refuses while it is off, and turning it off closes every tab's connection and
// disarms its faults. Only a client of the browser's DevTools protocol can call this page's
// functions (a web page cannot reach an extension page's globals).
import type { CaptureRecord } from '../../core/record';
import type { PanelConnection } from '../live/connection';
import { createFaultControl, type FaultControl } from '../live/faults';
import { createLiveStore, type LiveStore } from '../live/store';
import type { InspectorSettings } from '../ui/store/types';

/** Bumped when the calls below change shape; the MCP server refuses another bridge version. */
export const AGENT_BRIDGE_VERSION = 1;
export const AGENT_ACCESS_KEY = 'agentAccess';
/** Most records one read() returns (the server reads again from where it stopped). */
export const READ_MAX = 2000;

export interface BridgeEnv {
  version: string;
  access(): Promise<boolean>;
  onAccessChange(fn: (on: boolean) => void): void;
  /** Tabs of the browser with their title and URL (when the extension may see them). */
  tabs(): Promise<{ id: number; title?: string; url?: string }[]>;
  /** Tabs a DevTools window or a panel inspects now (the background's router). */
  inspectedTabs(): Promise<number[]>;
  connect(tabId: number, store: LiveStore): PanelConnection;
  /** The panel's analysis settings (id-scheme overrides, cumulative methods…), so the agent's analysis is the panel's. */
  settings(): Promise<InspectorSettings>;
}

interface Opened {
  store: LiveStore;
  connection: PanelConnection;
  faults: FaultControl;
  /** Changes when the store's record list is replaced (navigation, eviction): read again from 0. */
  generation: number;
  list: readonly CaptureRecord[];
}

export class AccessOff extends Error {
  constructor() {
    super('access-off');
  }
}

export function createBridge(env: BridgeEnv) {
  const opened = new Map<number, Opened>();
  const closeAll = () => {
    for (const [, o] of opened) {
      o.faults.disarmAll();
      o.connection.close();
    }
    opened.clear();
  };
  env.onAccessChange((on) => {
    if (!on) closeAll();
  });
  const gate = async () => {
    if (!(await env.access())) {
      closeAll();
      throw new AccessOff();
    }
  };
  const get = (tabId: number): Opened => {
    const o = opened.get(tabId);
    if (!o) throw new Error(`tab ${tabId} is not open in the bridge`);
    return o;
  };

  return {
    async hello() {
      return { product: 'mcp-stream-inspector', version: env.version, bridge: AGENT_BRIDGE_VERSION, access: await env.access() };
    },
    /** The analysis part of the panel's settings. */
    async settings() {
      await gate();
      const s = await env.settings();
      return { idSchemeOverrides: s.idSchemeOverrides, cumulativeMethods: s.cumulativeMethods, idempotentMethods: s.idempotentMethods, gaplessKey: s.gaplessKey, resyncEventNames: s.resyncEventNames };
    },
    async tabs() {
      await gate();
      const [tabs, inspected] = await Promise.all([env.tabs(), env.inspectedTabs()]);
      return tabs
        // A tab without a known http(s) URL has no capture script of this extension.
        .filter((t) => t.url !== undefined && /^https?:/.test(t.url))
        .map((t) => {
          const o = opened.get(t.id);
          const page = o?.store.getSnapshot().page;
          return { tabId: t.id, title: t.title ?? '', url: t.url ?? page?.url ?? '', recording: inspected.includes(t.id) || opened.has(t.id), opened: opened.has(t.id) };
        });
    },
    async open(tabId: number) {
      await gate();
      if (!Number.isInteger(tabId) || tabId < 0) throw new Error('not a tab id');
      if (opened.has(tabId)) return;
      const store = createLiveStore();
      const connection = env.connect(tabId, store);
      const faults = createFaultControl({ send: (list) => connection.armFaults(list), records: () => store.getSnapshot().records, subscribeRecords: (fn) => store.subscribe(fn) });
      const o: Opened = { store, connection, faults, generation: 0, list: store.getSnapshot().records };
      store.subscribe(() => {
        const recs = store.getSnapshot().records;
        if (recs !== o.list) {
          o.list = recs;
          o.generation++;
        }
      });
      opened.set(tabId, o);
    },
    /** Records from index `from` of generation `generation` (a new generation starts at 0). */
    async read(tabId: number, from: number, generation: number) {
      await gate();
      const o = get(tabId);
      await o.connection.idle();
      const snap = o.store.getSnapshot();
      const start = generation === o.generation ? Math.max(0, from) : 0;
      const records = snap.records.slice(start, Math.min(snap.count, start + READ_MAX));
      return { generation: o.generation, from: start, total: snap.count, records, connected: o.connection.connected(), relays: o.connection.status()?.relays ?? null };
    },
    async arm(tabId: number, text: string) {
      await gate();
      const err = get(tabId).faults.arm(String(text));
      if (err) throw new Error(err);
      return get(tabId).faults.getSnapshot().armed;
    },
    async faults(tabId: number) {
      await gate();
      return get(tabId).faults.getSnapshot().armed;
    },
    async disarm(tabId: number, id?: string) {
      await gate();
      const f = get(tabId).faults;
      if (id === undefined) f.disarmAll();
      else f.disarm(id);
      return f.getSnapshot().armed;
    },
    async close(tabId: number) {
      const o = opened.get(tabId);
      if (!o) return;
      o.faults.disarmAll();
      o.connection.close();
      opened.delete(tabId);
    },
  };
}
export type Bridge = ReturnType<typeof createBridge>;

// DevTools panel entry: one live store per panel, fed by the background port (with backfill on
// every reconnect); the network witness (chrome.devtools.network) cross-checks it and adds what
// the hook could not see; the health model tells the toolbar whether the panel records.

import type { CaptureRecord } from '../core/record';
import { panelBlobReader } from './live/blob-reader';
import { createPanelConnection } from './live/connection';
import { createCaptureHealth } from './live/health';
import { createLiveStore } from './live/store';
import { startWitness, type WitnessEntry } from './live/witness';
import { createFaultControl } from './live/faults';
import { mountDevtoolsInspector } from './ui/app/mount';
import { TEST_HOOKS } from '../extension/shared/test-hooks';

// "Preserve log" survives panel reloads and DevTools restarts, as the Network panel's does.
const PRESERVE_KEY = 'msi.preserveLog';
const store = createLiveStore({ preserveLog: localStorage.getItem(PRESERVE_KEY) === '1' });
// Written when it changes, not on every batch of records (a synchronous storage write per batch).
let preserveSaved = store.getSnapshot().preserveLog;
store.subscribe(() => {
  const on = store.getSnapshot().preserveLog;
  if (on === preserveSaved) return;
  preserveSaved = on;
  localStorage.setItem(PRESERVE_KEY, on ? '1' : '0');
});
const tabId = chrome.devtools.inspectedWindow.tabId;
const blobReader = panelBlobReader();
const connection = createPanelConnection({ tabId, store, readBlobs: blobReader.read });
const witness = startWitness(store, {
  onRequestFinished: (cb) => chrome.devtools.network.onRequestFinished.addListener((e) => cb(e as unknown as WitnessEntry)),
  getHar: () =>
    new Promise((resolve) => {
      try {
        chrome.devtools.network.getHAR((har) => resolve(((har as { entries?: unknown[] })?.entries ?? []) as WitnessEntry[]));
      } catch {
        resolve([]);
      }
    }),
  tabStatus: () => {
    const st = connection.status();
    return st ? { relays: st.relays, ...(st.installReason !== undefined ? { installReason: st.installReason } : {}) } : { relays: null };
  },
  visible: () => document.visibilityState === 'visible',
  extensionUrl: chrome.runtime.getURL(''),
});
const health = createCaptureHealth(connection, witness);
const faults = createFaultControl({
  send: (list) => connection.armFaults(list),
  records: () => store.getSnapshot().records,
  subscribeRecords: (fn) => store.subscribe(fn),
});

/** Read-only hooks for the end-to-end tests (and for curious users in the panel's console). */
const api = {
  records: (): CaptureRecord[] => store.getSnapshot().records.slice(),
  cursors: () => store.cursors(),
  preserveLog: () => store.getSnapshot().preserveLog,
  setPreserveLog: (on: boolean) => store.setPreserveLog(on),
  duplicates: () => store.getSnapshot().duplicates,
  connects: () => connection.connects(),
  connected: () => connection.connected(),
  batches: () => connection.batches(),
  /** Batches whose Blobs the panel's worker read / read on the panel's thread (its fallback). */
  blobReads: () => blobReader.stats(),
  status: () => connection.status(),
  evicted: () => store.getSnapshot().evicted,
  witness: () => witness.snapshot(),
  health: () => health.getSnapshot(),
  faults: () => faults.getSnapshot(),
  /**
   * Arms faults as the panel's own box would (`npm run demo -- --fault`, over CDP). Only this
   * extension's page has it, and only in builds with test hooks: a web page cannot reach it.
   */
  armFaults: (text: string) => faults.arm(text) ?? 'armed',
  tabId,
};
if (TEST_HOOKS) Object.defineProperty(globalThis, '__MSI_PANEL__', { value: Object.freeze(api) });

mountDevtoolsInspector(document.getElementById('root')!, {
  store,
  health,
  faults,
  label: () => store.getSnapshot().page?.url,
  // The relay reads its buffer cap (when a page starts) and whether to record while DevTools is
  // closed (live) from chrome.storage.local, under keys of their own. Only on 'save': 'load' runs
  // when settings are read and must not overwrite values set elsewhere.
  onSettingsChange: (s, why) => {
    if (why === 'save') void chrome.storage.local.set({ bufferMaxRecords: s.captureBufferCap, captureWhileClosed: s.captureWhileClosed, agentAccess: s.agentAccess });
  },
});

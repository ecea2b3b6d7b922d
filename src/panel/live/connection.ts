// The panel's link to the background: a port that re-creates itself when it closes (Chrome
// stopped the service worker, the extension was updated). Each (re)connect sends the store's
// cursors, so the relays backfill exactly what the panel lacks; the store drops duplicates.
//
// It is also where records are finished (wire/decode.ts): the relay sends fetch chunks as bytes,
// inline or in a Blob, and the panel decodes them, applies the record size cap and counts XHR
// bytes, off the page's thread. Batches are handed to the store in arrival order (a batch waiting
// for its Blob holds back the ones after it; their Blobs are read meanwhile).

import type { CaptureRecord } from '../../core/record';
import { mcpMarkers, type NetEntry } from '../../core/witness';
import { decodeBatch, decodeRecords, type BlobRead } from '../../extension/wire/decode';
import { createEndpoint } from '../../extension/wire/endpoint';
import { PANEL_PORT, type ArmedFault, type BackgroundFromPanel, type PanelInbox, type RecordsBatch, type TabStatus } from '../../extension/wire/protocol';
import { reconnectingPort, type PortLike } from '../../extension/wire/runtime-port';
import { answerWithin } from './devtools-answer';
import type { LiveStore } from './store';

export type { PortLike };

export interface PanelConnection {
  /** Number of times the port was (re)opened. */
  connects(): number;
  connected(): boolean;
  /** Record batches received (diagnostics: how well the pipeline batches). */
  batches(): number;
  /** The last tab-status from the background (null before the first). */
  status(): TabStatus | null;
  /** Resolves when every batch received so far is in the store (Blobs read, records decoded). */
  idle(): Promise<void>;
  /** Called when connected() or status() changed. */
  subscribe(fn: () => void): () => void;
  /** Arm these faults in the tab (issue 14; [] disarms). Sent again after every reconnect. */
  armFaults(list: ArmedFault[]): void;
  close(): void;
}

export interface PanelConnectionOptions {
  tabId: number;
  store: LiveStore;
  connect?: () => PortLike;
  /** Delay before reconnecting after a disconnect (ms). */
  retryMs?: number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  /**
   * When the inspected document started (its performance.timeOrigin), or null if unknown.
   * Default: chrome.devtools.inspectedWindow.eval (a number read from the page; only compared).
   */
  pageStartedAt?: () => Promise<number | null>;
  /** Event-stream / JSON-RPC requests in DevTools' network log since `since` (default: getHAR). */
  networkRequestsSince?: (since: number) => Promise<number>;
  /** Where a batch's Blobs are read (default: on this thread; the panel passes its worker's reader). */
  readBlobs?: BlobRead;
}

/**
 * The panel's own records (src 'panel'): what it learnt about capture itself. Today: the tab has
 * no relay of this extension instance although the page is older than it (the extension was
 * reloaded or installed after the page loaded). Its capture scripts, if any, belong to the old
 * instance and can never deliver; what they captured is gone. Said once per panel.
 */
export const PANEL_SRC = 'panel';

function defaultPageStartedAt(): Promise<number | null> {
  return new Promise((resolve) => {
    try {
      chrome.devtools.inspectedWindow.eval('performance.timeOrigin', (result: unknown, exc: unknown) =>
        resolve(!exc && typeof result === 'number' && Number.isFinite(result) ? result : null),
      );
    } catch {
      resolve(null);
    }
  });
}

function defaultNetworkRequestsSince(since: number): Promise<number> {
  return new Promise((resolve) => {
    try {
      chrome.devtools.network.getHAR((har: { entries?: unknown[] }) => {
        let n = 0;
        for (const e of har?.entries ?? []) {
          const entry = e as NetEntry;
          try {
            if (Date.parse(entry.startedDateTime) >= since - 1000 && mcpMarkers(entry).length > 0) n++;
          } catch {
            /* skip */
          }
        }
        resolve(n);
      });
    } catch {
      resolve(0);
    }
  });
}

/**
 * How long the panel waits for DevTools' network log (getHAR) when it says what a page without a
 * relay missed. The callback is DevTools' to call and nothing promises it: the notice that
 * nothing is captured must not wait on it (it did, for the panel's life).
 */
const NETWORK_LOG_WAIT_MS = 10_000;

function clock(t: number): string {
  return new Date(t).toISOString().slice(11, 19) + ' UTC';
}

export function createPanelConnection(opts: PanelConnectionOptions): PanelConnection {
  const port = reconnectingPort({
    connect: opts.connect ?? (() => chrome.runtime.connect({ name: PANEL_PORT }) as unknown as PortLike),
    ...(opts.retryMs !== undefined ? { retryMs: opts.retryMs } : {}),
    ...(opts.setTimer ? { setTimer: opts.setTimer } : {}),
  });
  const ep = createEndpoint<PanelInbox, BackgroundFromPanel>(port, ['records', 'tab-status']);
  let batches = 0;

  let panelSeq = 0;
  let reported = false;
  let lastStatus: TabStatus | null = null;
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const l of [...listeners]) l();
  };
  let faults: ArmedFault[] = [];
  const hello = () => {
    ep.send('panel-hello', { tabId: opts.tabId, cursors: opts.store.cursors() });
    // A new port (worker restarted): the background forgot the tab's faults with the old one.
    if (faults.length) ep.send('arm-faults', { faults });
  };

  // Batches in arrival order: decoded at once when nothing waits, else after the ones before.
  let queue: Promise<void> = Promise.resolve();
  let waiting = 0;
  function ingest(msg: RecordsBatch) {
    if (waiting === 0 && !msg.blobs) {
      opts.store.ingest(decodeRecords(msg.records));
      return;
    }
    waiting++;
    // Read this batch's Blobs now, beside those of the batches before it (each read is a round
    // trip to the browser process; one after another they made a 50 MB stream reach the panel
    // hundreds of ms after the page had read it: row 1c); hand them to the store in order.
    const decoded = decodeBatch(msg.records, msg.blobs, opts.readBlobs);
    decoded.catch(() => {}); // handled below, in order; not an unhandled rejection meanwhile
    queue = queue
      .then(() => decoded)
      .then(
        (recs) => void opts.store.ingest(recs),
        () => {
          // A Blob that could not be read (not seen on Chromium: a Blob handle keeps its bytes
          // alive): the chunks it held are lost, and said so, each by a capture-gap in its place.
          opts.store.ingest(
            msg.records.map((r): CaptureRecord =>
              r.kind === 'chunk'
                ? { kind: 'capture-gap', src: r.src, seq: r.seq, t: r.t, lost: 1, fromSeq: r.seq, toSeq: r.seq, conns: [r.conn], reason: 'other' }
                : r,
            ),
          );
        },
      )
      .finally(() => void waiting--);
  }

  async function onStatus(st: TabStatus) {
    lastStatus = st;
    notify();
    if (st.relays || reported || st.installedAt === undefined) return;
    const started = await (opts.pageStartedAt ?? defaultPageStartedAt)();
    // A page loaded after this instance started has (or will have) its relay: nothing to say.
    if (reported || started === null || started >= st.installedAt) return;
    reported = true;
    const reloaded = st.installReason === 'update';
    const count = (opts.networkRequestsSince ?? defaultNetworkRequestsSince)(started);
    const missed = (await answerWithin(count, NETWORK_LOG_WAIT_MS, opts.setTimer ?? ((fn, ms) => setTimeout(fn, ms)))) ?? null;
    const t = Date.now();
    const what = reloaded ? `The extension was reloaded or updated at ${clock(st.installedAt)}` : `The extension was installed at ${clock(st.installedAt)}`;
    const recs: CaptureRecord[] = [
      {
        kind: 'notice', src: PANEL_SRC, seq: ++panelSeq, t, level: 'error', code: reloaded ? 'extension-reloaded' : 'hook-missing',
        message:
          `${what}, after this page was loaded (${clock(started)}). Chrome does not inject capture scripts into open pages, ` +
          `and the old instance's scripts can no longer deliver: nothing this page reads is captured, and what was captured before is lost. ` +
          (missed === null
            ? `How much is missing is unknown: DevTools' network log could not be read within ${NETWORK_LOG_WAIT_MS / 1000} s. `
            : missed > 0
              ? `${missed} event-stream / JSON-RPC request(s) of this page are in DevTools' network log since it loaded: at least that many connections are missing here (finished ones that DevTools saw appear as observed after completion). `
              : `How much is missing is unknown: DevTools' network log holds no event-stream / JSON-RPC request of this page (requests made before DevTools was opened are not in it). `) +
          `Reload the page to capture it again.`,
      },
      {
        // lost: a lower bound (one per request DevTools saw); 0 when unknown.
        kind: 'capture-gap', src: PANEL_SRC, seq: ++panelSeq, t, lost: missed ?? 0, conns: [],
        reason: reloaded ? 'extension-reloaded' : 'hook-missing',
      },
    ];
    opts.store.ingest(recs);
  }

  ep.on('tab-status', (msg) => void onStatus(msg).catch(() => {}));
  ep.on('records', (msg) => {
    batches++;
    // Records from a relay: the tab has one now (a document loaded after the status said none).
    if (lastStatus && !lastStatus.relays) {
      lastStatus = { ...lastStatus, relays: true };
      notify();
    }
    ingest(msg);
  });
  port.onOpen(() => {
    notify();
    hello();
  });
  port.onClose(notify);
  port.start();

  return {
    connects: () => port.opens(),
    connected: () => port.connected(),
    batches: () => batches,
    status: () => lastStatus,
    idle: () => queue,
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    armFaults(list) {
      faults = list;
      ep.send('arm-faults', { faults: list });
    },
    close: () => port.close(),
  };
}

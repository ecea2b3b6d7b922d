// One-call setup for e2e tests: server + browser with the extension, a page opened, the panel
// selected; helpers to read what the panel shows.

import type { CaptureRecord } from '../../src/core/record';
import { launchBrowser, type Browser } from './browser';
import { openPanel, setDockSide, type DockSide, type PanelHandle } from './devtools';
import { waitFor } from './wait';

export interface Harness {
  browser: Browser;
  panel: PanelHandle;
  /** Session attached to the inspected page. */
  page: string;
  evalPage<T = any>(expression: string): Promise<T>;
  close(): Promise<void>;
}

/** Navigate the browser's first tab (launched on about:blank) to `url`; its page session and target. */
async function navigateBlankTab(browser: Browser, url: string) {
  const blank = await browser.pageTarget('about:blank');
  const s = await browser.cdp.attach(blank.targetId);
  await browser.cdp.send('Page.navigate', { url }, s);
  return { blank, page: await browser.attachPage(new URL(url).host) };
}

/**
 * Launch with the extension and DevTools open, then load `url` in the inspected tab, wait for the
 * page, then open the panel. The page is loaded only once the extension's DevTools page has told
 * the background that the tab is inspected: relays record only while DevTools inspects their tab
 * (setting "capture while DevTools is closed" off by default), and --auto-open-devtools-for-tabs
 * opens DevTools while a page given on the command line is already loading (seen: 83-125
 * body records of such a page dropped before recording started, in three launches).
 */
export async function openInspected(
  url: string,
  opts: { openPanel?: boolean; extraArgs?: string[]; dock?: DockSide; preferences?: Record<string, unknown> } = {},
): Promise<Harness & { openPanel(): Promise<PanelHandle> }> {
  const browser = await launchBrowser({
    extension: true,
    url: 'about:blank',
    ...(opts.extraArgs ? { extraArgs: opts.extraArgs } : {}),
    ...(opts.preferences ? { preferences: opts.preferences } : {}),
  });
  try {
    await waitForInspected(browser, 1);
    // DevTools in this layout before the page loads (as the dock menu would put it).
    if (opts.dock) await setDockSide(browser, opts.dock);
    const { page } = await navigateBlankTab(browser, url);
    const h = {
      browser,
      page,
      panel: undefined as unknown as PanelHandle,
      evalPage: <T = any>(expression: string) => browser.cdp.evaluate<T>(page, expression),
      async openPanel() {
        h.panel = await openPanel(browser);
        return h.panel;
      },
      close: () => browser.close(),
    };
    if (opts.openPanel ?? true) await h.openPanel();
    return h;
  } catch (e) {
    await browser.close();
    throw e;
  }
}

/** Poll the panel until `pred(records)` holds; returns the records. */
export async function waitForRecords(
  panel: PanelHandle,
  pred: (records: CaptureRecord[]) => boolean,
  message = 'panel records',
  timeoutMs = 15_000,
): Promise<CaptureRecord[]> {
  let last: CaptureRecord[] = [];
  await waitFor(
    async () => {
      last = (await panel.records()) as CaptureRecord[];
      return pred(last);
    },
    { timeoutMs, message: () => `${message}; last records: ${JSON.stringify(summarize(last)).slice(0, 3000)}` },
  );
  return last;
}

export function summarize(records: CaptureRecord[]): unknown[] {
  return records.map((r) => {
    switch (r.kind) {
      case 'request':
        return `${r.src.slice(0, 4)}#${r.seq} ${r.conn} request ${r.transport} ${r.method} ${r.url}`;
      case 'response':
        return `${r.src.slice(0, 4)}#${r.seq} ${r.conn} response ${r.status} ${r.capture}`;
      case 'chunk':
        return `${r.src.slice(0, 4)}#${r.seq} ${r.conn} chunk ${JSON.stringify(r.text.slice(0, 60))}`;
      case 'es-event':
        return `${r.src.slice(0, 4)}#${r.seq} ${r.conn} es-event ${r.type} ${r.lastEventId} ${r.data.slice(0, 40)}`;
      case 'end':
        return `${r.src.slice(0, 4)}#${r.seq} ${r.conn} end ${r.how} ${r.reason ?? ''}`;
      default:
        return `${r.src.slice(0, 4)}#${r.seq} ${r.kind} ${JSON.stringify(r).slice(0, 120)}`;
    }
  });
}

/** Concatenated chunk text of the connections whose request URL contains `urlPart`. */
export function bodyText(records: CaptureRecord[], urlPart: string): string {
  const conns = new Set(records.filter((r) => r.kind === 'request' && r.url.includes(urlPart)).map((r) => `${r.src}/${(r as { conn: string }).conn}`));
  return records
    .filter((r) => r.kind === 'chunk' && conns.has(`${r.src}/${r.conn}`))
    .map((r) => (r as { text: string }).text)
    .join('');
}

/** Navigate the inspected tab (CDP Page.navigate) and wait until the new document has loaded. */
export async function navigate(h: Harness, url: string): Promise<void> {
  await h.browser.cdp.send('Page.navigate', { url }, h.page);
  await waitFor(
    () => h.evalPage(`location.href === ${JSON.stringify(url)} && document.readyState === 'complete'`).catch(() => false),
    { message: `navigation to ${url}` },
  );
}

/**
 * Evaluate in the extension's service worker (attached for the call, then detached). Right after
 * launch the worker's target can exist before its extension bindings (seen: "chrome is not
 * defined"), so the call waits for them first.
 */
export async function evalServiceWorker<T = any>(browser: Browser, expression: string): Promise<T> {
  const sw = await waitFor(async () =>
    (await browser.cdp.targets()).find((t) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${browser.extensionId}/`)),
  );
  const s = await browser.cdp.attach(sw.targetId);
  try {
    await waitFor(() => browser.cdp.evaluate<boolean>(s, `typeof chrome === 'object' && !!chrome.storage && !!globalThis.__MSI_BACKGROUND__`), {
      message: 'extension service worker ready',
    });
    return await browser.cdp.evaluate<T>(s, expression);
  } finally {
    await browser.cdp.send('Target.detachFromTarget', { sessionId: s }).catch(() => {});
  }
}

/** Tabs the background counts as inspected (a DevTools window or a panel is connected for them). */
export function inspectedTabs(browser: Browser): Promise<number[]> {
  return evalServiceWorker<number[]>(browser, 'globalThis.__MSI_BACKGROUND__.inspectedTabs()');
}

/** Wait until at least `count` tabs are inspected (the DevTools pages have connected). */
export async function waitForInspected(browser: Browser, count: number): Promise<number[]> {
  let last: number[] = [];
  return waitFor(
    async () => {
      last = await inspectedTabs(browser);
      return last.length >= count ? last : null;
    },
    { timeoutMs: 20_000, message: () => `${count} inspected tab(s); the background knows ${JSON.stringify(last)}` },
  );
}

/** Set an option of the extension in chrome.storage.local (through its service worker). */
export async function setExtensionStorage(browser: Browser, values: Record<string, unknown>): Promise<void> {
  await evalServiceWorker(browser, `chrome.storage.local.set(${JSON.stringify(values)}).then(() => true)`);
}

/** Records unique by (src, seq)? Returns the duplicated keys. */
export function duplicateKeys(records: CaptureRecord[]): string[] {
  const seen = new Set<string>();
  const dup: string[] = [];
  for (const r of records) {
    const k = `${r.src}#${r.seq}`;
    if (seen.has(k)) dup.push(k);
    seen.add(k);
  }
  return dup;
}

/**
 * A tab the extension runs in with no DevTools open on it (Chromium launched without
 * --auto-open-devtools-for-tabs); `openDevTools()` later opens DevTools on that tab as F12 would
 * (CDP Target.openDevTools), waits until the background counts the tab as inspected, and selects
 * the panel. `storage` is written to chrome.storage.local before the page loads.
 */
export async function openUninspected(
  url: string,
  opts: { storage?: Record<string, unknown> } = {},
): Promise<Omit<Harness, 'panel'> & { panel: PanelHandle | null; targetId: string; openDevTools(): Promise<PanelHandle> }> {
  const browser = await launchBrowser({ extension: true, devtools: false, url: 'about:blank' });
  try {
    if (opts.storage) await setExtensionStorage(browser, opts.storage);
    const { page, blank } = await navigateBlankTab(browser, url);
    const h = {
      browser,
      page,
      targetId: blank.targetId,
      panel: null as PanelHandle | null,
      evalPage: <T = any>(expression: string) => browser.cdp.evaluate<T>(page, expression),
      async openDevTools() {
        const before = await inspectedTabs(browser);
        await browser.cdp.send('Target.openDevTools', { targetId: blank.targetId });
        await waitForInspected(browser, before.length + 1);
        h.panel = await openPanel(browser);
        return h.panel;
      },
      close: () => browser.close(),
    };
    return h;
  } catch (e) {
    await browser.close();
    throw e;
  }
}

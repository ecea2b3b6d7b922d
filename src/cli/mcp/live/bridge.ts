// The live browser over the DevTools protocol (--browser-url), as chrome-devtools-mcp attaches to
// a Chrome started with --remote-debugging-port. The server reads captures through the
// extension's agent bridge page (src/panel/agent-bridge.html): it opens that page (or finds it
// open), and calls its functions with Runtime.evaluate. The page reads each tab as one more
// DevTools panel (the panel's store, port, backfill and fault control), so the numbering and the
// records are the panel's, nothing is injected into the inspected page, and the extension's
// setting decides whether any of it is allowed.
import { analyzeRecords, createAnalyzer, type Analyzer } from '../../../core/analyzer';
import { optionsFromSettings } from '../../../core/options';
import type { AnalyzerOptions } from '../../../core/options';
import { isRecord } from '../../../core/contract/validate';
import type { AnalysisSnapshot } from '../../../core/model';
import type { CaptureRecord } from '../../../core/record';
import { PRODUCT_VERSION } from '../../../export/version';
import type { Capture, CaptureSet } from '../captures';
import { LiveRefused, type LiveAccess, type LiveFault, type LiveTab } from './access';
import { connectCdp, type Cdp } from './cdp';

/** The bridge's call shapes (src/panel/agent/bridge.ts AGENT_BRIDGE_VERSION; a test keeps them equal). */
export const AGENT_BRIDGE_VERSION = 1;
export const BRIDGE_PATH = 'src/panel/agent-bridge.html';

export const SETTING_TEXT = 'Let coding agents read this browser’s MCP captures and arm faults over the DevTools protocol';
export const ACCESS_OFF = `Live access is off. In Chrome, open DevTools on any page, the "MCP Streams" panel, Settings, and turn on “${SETTING_TEXT}”; then call this tool again. (It is off by default because it exposes the pages' MCP traffic.)`;
const NOT_LOADED = (where: string) =>
  `The MCP Stream Inspector extension is not loaded in the Chrome at ${where} (no extension page answered as its agent bridge). Load it (chrome://extensions, Developer mode, "Load unpacked": the extension's dist/ folder), or start Chrome with --load-extension=<dist>, then call this tool again.`;

export interface BrowserOptions {
  browserUrl: string;
  extensionId?: string;
  captures: CaptureSet;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** --browser-url: an http(s) URL on a loopback address (a remote browser's pages are not ours to read). */
export function checkBrowserUrl(u: string): string {
  let url: URL;
  try {
    url = new URL(u);
  } catch {
    throw new Error(`--browser-url ${u}: not a URL (e.g. http://127.0.0.1:9222)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`--browser-url ${u}: http://127.0.0.1:<port> expected`);
  if (!LOOPBACK.has(url.hostname)) throw new Error(`--browser-url ${u}: only a browser on this machine (127.0.0.1, localhost, [::1])`);
  return url.origin;
}

interface Link {
  cdp: Cdp;
  session: string;
  targetId: string;
  created: boolean;
  extensionId: string;
}

interface ReadAnswer {
  generation: number;
  from: number;
  total: number;
  records: unknown[];
  connected: boolean;
  relays: boolean | null;
}

const firstLine = (s: unknown) => String(s ?? '').split('\n')[0]!.slice(0, 300);

export function connectBrowser(o: BrowserOptions): LiveAccess {
  const base = checkBrowserUrl(o.browserUrl);
  let link: Link | null = null;
  let linking: Promise<Link> | null = null;

  async function discover(): Promise<Link> {
    let ws: string;
    try {
      const r = await fetch(`${base}/json/version`, { signal: AbortSignal.timeout(5000) });
      const v = (await r.json()) as { webSocketDebuggerUrl?: unknown };
      ws = String(v.webSocketDebuggerUrl ?? '');
    } catch {
      throw new LiveRefused(`No browser answers at ${base}: start Chrome with --remote-debugging-port (e.g. 9222) and the extension loaded, or fix --browser-url.`);
    }
    let wsUrl: URL;
    try {
      wsUrl = new URL(ws);
    } catch {
      throw new LiveRefused(`${base}/json/version gave no DevTools WebSocket URL`);
    }
    if (!LOOPBACK.has(wsUrl.hostname)) throw new LiveRefused(`${base} pointed at a DevTools WebSocket on ${wsUrl.hostname}, not this machine: refused`);
    const cdp = await connectCdp(wsUrl.href).catch((e: unknown) => {
      throw new LiveRefused(firstLine(e instanceof Error ? e.message : e));
    });
    try {
      const targets = await cdp.targets();
      const hosts = (t: { url: string }) => (t.url.startsWith('chrome-extension://') ? t.url.slice('chrome-extension://'.length).split('/')[0]! : null);
      const ids = o.extensionId
        ? [o.extensionId]
        : [...new Set([...targets.filter((t) => t.type === 'service_worker'), ...targets].map(hosts).filter((x): x is string => !!x && /^[a-p]{32}$/.test(x)))];
      for (const id of ids) {
        const url = `chrome-extension://${id}/${BRIDGE_PATH}`;
        const open = targets.find((t) => t.type === 'page' && t.url.split('?')[0] === url);
        const targetId = open?.targetId ?? (await cdp.send<{ targetId: string }>('Target.createTarget', { url, background: true })).targetId;
        const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
        // A new target starts on about:blank (already "complete"): decide only on the bridge's URL.
        // Another extension has no such page: Chrome shows its error page (chrome-error://).
        const probe = `location.protocol === 'chrome-error:' ? 'no' : location.href.startsWith(${JSON.stringify(url)}) && document.readyState === 'complete' ? (typeof globalThis.__MSI_AGENT__ === 'object' ? 'yes' : 'no') : 'wait'`;
        let state = 'wait';
        for (let i = 0; i < 150 && state === 'wait'; i++) {
          const r = await cdp.send<any>('Runtime.evaluate', { expression: probe, returnByValue: true }, sessionId).catch(() => ({ result: { value: 'wait' } }));
          state = String(r?.result?.value ?? 'wait');
          if (state === 'wait') await new Promise((r2) => setTimeout(r2, 100));
        }
        if (state === 'yes') return { cdp, session: sessionId, targetId, created: !open, extensionId: id };
        if (!open) await cdp.send('Target.closeTarget', { targetId }).catch(() => {});
      }
      throw new LiveRefused(NOT_LOADED(base));
    } catch (e) {
      cdp.close();
      throw e;
    }
  }

  async function ensure(): Promise<Link> {
    if (link && !link.cdp.closed()) return link;
    link = null;
    linking ??= discover().finally(() => (linking = null));
    link = await linking;
    return link;
  }

  async function evaluate<T>(l: Link, method: string, args: unknown[]): Promise<T> {
    // Method names are fixed here; arguments are JSON (a JSON text is a JS expression).
    const expression = `globalThis.__MSI_AGENT__.${method}(${args.map((a) => JSON.stringify(a)).join(', ')})`;
    const r = await l.cdp.send<any>('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }, l.session, 30_000);
    if (r.exceptionDetails) {
      const msg = firstLine(r.exceptionDetails.exception?.description ?? r.exceptionDetails.text);
      if (msg.includes('access-off')) throw new LiveRefused(ACCESS_OFF);
      throw new LiveRefused(`the extension refused: ${msg.replace(/^Error: /, '')}`);
    }
    return r.result?.value as T;
  }

  let checked = false;
  async function call<T>(method: string, ...args: unknown[]): Promise<T> {
    let l = await ensure();
    if (!checked) {
      const hello = await evaluate<{ product?: string; version?: string; bridge?: number; access?: boolean }>(l, 'hello', []);
      if (hello?.bridge !== AGENT_BRIDGE_VERSION) {
        throw new LiveRefused(`The MCP Stream Inspector extension in this Chrome is another version (${firstLine(hello?.version)}, agent bridge ${firstLine(hello?.bridge)}); this server is ${PRODUCT_VERSION} (agent bridge ${AGENT_BRIDGE_VERSION}). Use the extension and the command of the same release.`);
      }
      checked = true;
    }
    try {
      return await evaluate<T>(l, method, args);
    } catch (e) {
      if (e instanceof LiveRefused) throw e;
      // The bridge tab was closed (by the user?) or the connection dropped: find it again once.
      link?.cdp.close();
      link = null;
      checked = false;
      l = await ensure();
      return evaluate<T>(l, method, args);
    }
  }

  const captures = new Map<number, LiveCapture>();

  /** The panel's analysis settings (checked: they come from the browser), so verdicts are the panel's. */
  async function analysisOptions(): Promise<AnalyzerOptions> {
    const s = await call<Record<string, unknown>>('settings').catch(() => ({}) as Record<string, unknown>);
    const strs = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string').slice(0, 200).map((x) => x.slice(0, 500)) : undefined);
    const overrides = Array.isArray(s.idSchemeOverrides)
      ? s.idSchemeOverrides.filter((x): x is { origin: string; pattern: string } => typeof x?.origin === 'string' && typeof x?.pattern === 'string').slice(0, 100)
      : undefined;
    const o = {
      ...(overrides ? { idSchemeOverrides: overrides } : {}),
      ...(strs(s.cumulativeMethods) ? { cumulativeMethods: strs(s.cumulativeMethods)! } : {}),
      ...(strs(s.idempotentMethods) ? { idempotentMethods: strs(s.idempotentMethods)! } : {}),
      ...(typeof s.gaplessKey === 'string' ? { gaplessKey: s.gaplessKey.slice(0, 500) } : {}),
      ...(strs(s.resyncEventNames) ? { resyncEventNames: strs(s.resyncEventNames)! } : {}),
    };
    return optionsFromSettings(o);
  }

  class LiveCapture implements Capture {
    readonly kind = 'live' as const;
    readonly format = 'live';
    readonly id: string;
    private list: CaptureRecord[] = [];
    private analyzer: Analyzer = createAnalyzer();
    private generation = -1;
    private from = 0;
    private snap: AnalysisSnapshot = analyzeRecords([]);
    relays: boolean | null = null;
    constructor(
      readonly tabId: number,
      public label: string,
    ) {
      this.id = `tab-${tabId}`;
    }
    records = () => this.list;
    /** One page of records; a bridge page opened anew (the old one was closed) is asked to open the tab again. */
    private async read(): Promise<ReadAnswer> {
      try {
        return await call<ReadAnswer>('read', this.tabId, this.from, this.generation);
      } catch (e) {
        if (!(e instanceof LiveRefused) || !/is not open in the bridge/.test(e.message)) throw e;
        await call('open', this.tabId);
        return call<ReadAnswer>('read', this.tabId, 0, -1);
      }
    }
    snapshot = () => this.snap;
    async refresh(): Promise<void> {
      for (let i = 0; i < 1000; i++) {
        const r = await this.read();
        if (r.generation !== this.generation) {
          this.generation = r.generation;
          this.list = [];
          this.analyzer = createAnalyzer(await analysisOptions());
        }
        // The panel's store accepted these; they still cross a boundary, so each is checked
        // against the record contract (a record that is not one is left out).
        const recs = (Array.isArray(r.records) ? r.records : []).filter((x): x is CaptureRecord => isRecord(x));
        this.list.push(...recs);
        this.analyzer.pushAll(recs);
        this.relays = r.relays;
        this.from = r.from + (Array.isArray(r.records) ? r.records.length : 0);
        if (this.from >= r.total || !Array.isArray(r.records) || r.records.length === 0) break;
      }
      this.snap = this.analyzer.snapshot();
    }
  }

  async function tabs(): Promise<LiveTab[]> {
    const t = await call<{ tabId: number; title: string; url: string; recording: boolean }[]>('tabs');
    // The extension has no "tabs" permission, so no titles: the browser's page targets have them.
    const pages = link ? await link.cdp.targets().catch(() => []) : [];
    const titleOf = (url: string) => pages.find((p) => p.type === 'page' && p.url === url)?.title ?? '';
    return (Array.isArray(t) ? t : []).map((x) => {
      const url = String(x.url ?? '').slice(0, 2000);
      return { tabId: Number(x.tabId), title: firstLine(x.title || titleOf(url)), url, recording: x.recording === true };
    });
  }

  async function openTab(tabId: number): Promise<LiveCapture> {
    const known = captures.get(tabId);
    if (known && o.captures.list().includes(known)) return known;
    const tab = (await tabs()).find((t) => t.tabId === tabId);
    if (!tab) throw new LiveRefused(`No tab ${tabId} with a web page in this browser; list_tabs names them.`);
    await call('open', tabId);
    const c = new LiveCapture(tabId, `tab ${tabId}: ${tab.title || tab.url} (${tab.url})`);
    // The panel's connection says, once the background answered, whether the tab has a capture
    // script of this extension instance.
    for (let i = 0; i < 50; i++) {
      await c.refresh();
      if (c.relays !== null) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    if (c.relays === false && c.records().length === 0) {
      await call('close', tabId);
      throw new LiveRefused(
        `The extension does not record tab ${tabId} (${tab.url}): no capture script of this extension runs in it, because the page was loaded before the extension was installed or reloaded, or it is not an http(s) page. Reload the tab, then call open_tab again.`,
      );
    }
    captures.set(tabId, c);
    o.captures.add(c);
    return c;
  }

  const faultView = (xs: unknown): LiveFault[] =>
    (Array.isArray(xs) ? xs : []).map((f: any) => ({ id: String(f.id), text: firstLine(f.text), ...(typeof f.preset === 'string' ? { preset: f.preset } : {}) }));

  return {
    tabs,
    openTab,
    async armFaults(tabId, text) {
      await openTab(tabId);
      return faultView(await call('arm', tabId, text));
    },
    async listFaults(tabId) {
      await openTab(tabId);
      return faultView(await call('faults', tabId));
    },
    async disarmFaults(tabId, id) {
      await openTab(tabId);
      return faultView(await call('disarm', tabId, ...(id !== undefined ? [id] : [])));
    },
    async close() {
      const l = link;
      link = null;
      if (!l) return;
      // The page this server opened is closed (its tabs' connections and faults end with it); a
      // page another server opened is left as it is: that server may still read through it.
      if (l.created) await l.cdp.send('Target.closeTarget', { targetId: l.targetId }).catch(() => {});
      l.cdp.close();
    },
  };
}

// Drive the real DevTools front-end: select the "MCP Streams" panel and evaluate in its iframe.

import type { Browser } from './browser';
import type { TargetInfo } from './cdp';
import { waitFor } from './wait';

export const PANEL_TITLE = 'MCP Streams';

export interface PanelHandle {
  sessionId: string;
  target: TargetInfo;
  /** Evaluate in the panel window (chrome-extension://<id>/src/panel/panel.html). */
  eval<T = any>(expression: string): Promise<T>;
  /** globalThis.__MSI_PANEL__.records() */
  records(): Promise<any[]>;
}

/**
 * A DevTools front-end (devtools_app.html). Not any devtools:// page: an undocked DevTools adds
 * a `device_mode_emulation_frame.html` page target (the toolbox that hosts device mode).
 */
export const isFrontendTarget = (t: TargetInfo) => t.type === 'page' && t.url.startsWith('devtools://devtools/bundled/devtools_app.html');

/** The (first) DevTools front-end page. */
export async function devtoolsFrontend(browser: Browser): Promise<TargetInfo> {
  return waitFor(
    async () => (await browser.cdp.targets()).find(isFrontendTarget),
    { timeoutMs: 20_000, message: 'DevTools front-end target not found' },
  );
}

/** Select the panel in the DevTools window (if not yet) and attach to the panel iframe. */
export async function openPanel(browser: Browser): Promise<PanelHandle> {
  const { cdp } = browser;
  const fe = await devtoolsFrontend(browser);
  const feSession = await cdp.attach(fe.targetId);
  const panelId = `chrome-extension://${browser.extensionId}${PANEL_TITLE.replace(/\s+/g, '')}`;
  await waitFor(
    () =>
      cdp.evaluate(
        feSession,
        `(async () => { const L = await import('./ui/legacy/legacy.js');
           const v = L.InspectorView.InspectorView.maybeGetInspectorViewInstance();
           return !!(v && v.hasPanel(${JSON.stringify(panelId)})); })()`,
      ),
    { timeoutMs: 20_000, message: `panel ${panelId} not registered in DevTools` },
  );
  await cdp.evaluate(
    feSession,
    `(async () => { const L = await import('./ui/legacy/legacy.js');
       await L.InspectorView.InspectorView.instance().showPanel(${JSON.stringify(panelId)}); return true; })()`,
  );
  const panelUrl = `chrome-extension://${browser.extensionId}/src/panel/panel.html`;
  const target = await waitFor(
    async () => (await cdp.targets()).find((t) => t.url.startsWith(panelUrl)),
    { timeoutMs: 20_000, message: 'panel iframe target not found' },
  );
  const sessionId = await cdp.attach(target.targetId);
  await waitFor(() => cdp.evaluate(sessionId, `typeof globalThis.__MSI_PANEL__ === 'object'`), {
    message: 'panel did not expose __MSI_PANEL__',
  });
  const handle: PanelHandle = {
    sessionId,
    target,
    eval: (expression) => cdp.evaluate(sessionId, expression),
    records: () => cdp.evaluate(sessionId, 'globalThis.__MSI_PANEL__.records()'),
  };
  return handle;
}

/** Close the extension's service worker (Chrome restarts it on the next event). */
export async function stopServiceWorker(browser: Browser): Promise<void> {
  const sw = (await browser.cdp.targets()).find(
    (t) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${browser.extensionId}/`),
  );
  if (!sw) throw new Error('extension service worker target not found');
  await browser.cdp.send('Target.closeTarget', { targetId: sw.targetId });
  await waitFor(async () => !(await browser.cdp.targets()).some((t) => t.targetId === sw.targetId), {
    message: 'service worker did not stop',
  });
}

/**
 * Every DevTools window (one per tab with --auto-open-devtools-for-tabs): select the panel in each
 * and attach to each panel iframe. Handles come with the panel's inspected tab id. `except` skips
 * panel iframe targets already known (e.g. from before an extension reload).
 */
export async function openAllPanels(browser: Browser, count: number, except: Set<string> = new Set()): Promise<(PanelHandle & { tabId: number })[]> {
  const { cdp } = browser;
  const panelId = `chrome-extension://${browser.extensionId}${PANEL_TITLE.replace(/\s+/g, '')}`;
  const fes = await waitFor(
    async () => {
      const f = (await cdp.targets()).filter(isFrontendTarget);
      return f.length >= count ? f : null;
    },
    { timeoutMs: 20_000, message: `${count} DevTools front-ends` },
  );
  for (const fe of fes) {
    const s = await cdp.attach(fe.targetId);
    await waitFor(
      () =>
        cdp.evaluate(
          s,
          `(async () => { const L = await import('./ui/legacy/legacy.js');
             const v = L.InspectorView.InspectorView.maybeGetInspectorViewInstance();
             return !!(v && v.hasPanel(${JSON.stringify(panelId)})); })()`,
        ),
      { timeoutMs: 20_000, message: `panel ${panelId} not registered in a DevTools window` },
    );
    await cdp.evaluate(s, `(async () => { const L = await import('./ui/legacy/legacy.js');
       await L.InspectorView.InspectorView.instance().showPanel(${JSON.stringify(panelId)}); return true; })()`);
  }
  const panelUrl = `chrome-extension://${browser.extensionId}/src/panel/panel.html`;
  const targets = await waitFor(
    async () => {
      const t = (await cdp.targets()).filter((x) => x.url.startsWith(panelUrl) && !except.has(x.targetId));
      return t.length >= count ? t : null;
    },
    { timeoutMs: 20_000, message: `${count} panel iframes` },
  );
  const out: (PanelHandle & { tabId: number })[] = [];
  for (const target of targets) {
    const sessionId = await cdp.attach(target.targetId);
    await waitFor(() => cdp.evaluate(sessionId, `typeof globalThis.__MSI_PANEL__ === 'object'`), { message: 'panel did not expose __MSI_PANEL__' });
    const tabId = await cdp.evaluate<number>(sessionId, '__MSI_PANEL__.tabId');
    out.push({
      sessionId,
      target,
      tabId,
      eval: (expression) => cdp.evaluate(sessionId, expression),
      records: () => cdp.evaluate(sessionId, 'globalThis.__MSI_PANEL__.records()'),
    });
  }
  return out;
}

export type DockSide = 'undocked' | 'bottom' | 'right' | 'left';

/**
 * Every DevTools front-end with the URL of the page it inspects (the SDK's primary page target),
 * so a test with several DevTools windows can tell them apart.
 */
export async function devtoolsFrontends(browser: Browser): Promise<{ target: TargetInfo; session: string; inspectedUrl: string }[]> {
  const out: { target: TargetInfo; session: string; inspectedUrl: string }[] = [];
  for (const target of (await browser.cdp.targets()).filter(isFrontendTarget)) {
    const session = await browser.cdp.attach(target.targetId);
    const inspectedUrl = await waitFor(
      () =>
        browser.cdp.evaluate<string>(
          session,
          `(async () => { const S = await import('./core/sdk/sdk.js'); return S.TargetManager.TargetManager.instance().primaryPageTarget()?.inspectedURL() ?? ''; })()`,
        ),
      { timeoutMs: 20_000, message: 'DevTools front-end knows its inspected page' },
    ).catch(() => '');
    out.push({ target, session, inspectedUrl });
  }
  return out;
}

/**
 * Dock a DevTools window as its dock menu (and Ctrl+Shift+D) does: DockController.setDockSide in
 * the front-end. `frontend` is a session attached to the front-end (default: the first one).
 * Resolves with the side the front-end reports afterwards.
 */
export async function setDockSide(browser: Browser, side: DockSide, frontend?: string): Promise<string> {
  const session = frontend ?? (await browser.cdp.attach((await devtoolsFrontend(browser)).targetId));
  return waitFor(
    () =>
      browser.cdp.evaluate<string>(
        session,
        `(async () => { const L = await import('./ui/legacy/legacy.js'); const d = L.DockController.DockController.instance();
           d.setDockSide(${JSON.stringify(side)}); return d.dockSide() === ${JSON.stringify(side)} ? d.dockSide() : ''; })()`,
      ),
    { timeoutMs: 20_000, message: `DevTools docked ${side}` },
  );
}

/** What `__MSI_PANEL__.witness()` tells the witness e2e files: its counts and what it found missed. */
export type WitnessSnap = { seen: number; captured: number; checking: number; missing: { method: string; url: string; reason: string }[] };

/** The panel's network witness, now. */
export const witnessOf = (panel: PanelHandle) => panel.eval<WitnessSnap>('__MSI_PANEL__.witness()');

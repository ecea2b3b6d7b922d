// Background service worker entry: wires chrome.runtime ports (as adapters) and messages to the
// router. No state beyond live ports; no keep-alive. See router.ts.

import { TEST_HOOKS } from '../shared/test-hooks';
import { DEVTOOLS_PORT, PANEL_PORT, RELAY_PORT, envelope } from '../wire/protocol';
import { isMessage } from '../wire/guards';
import { portAdapter } from '../wire/runtime-port';
import { createRouter } from './router';
import { classifySender } from './senders';

const INSTALL_KEY = 'msi.install';

// Remembered in storage (the worker keeps no state of its own): lets a panel tell "this page was
// loaded before the extension was reloaded" from "content scripts cannot run here".
chrome.runtime.onInstalled.addListener((details) => {
  void chrome.storage.local.set({ [INSTALL_KEY]: { installedAt: Date.now(), installReason: details.reason } });
});

const router = createRouter({
  // Rejects when no content script of this instance is in the tab (chrome:// page, a page loaded
  // before the extension was installed or reloaded): the router reports that to the panel.
  sendToTab: (tabId, msg) => chrome.tabs.sendMessage(tabId, msg),
  installInfo: () =>
    chrome.storage.local.get(INSTALL_KEY).then((v) => {
      const i = v[INSTALL_KEY] as { installedAt?: unknown; installReason?: unknown } | undefined;
      const out: { installedAt?: number; installReason?: string } = {};
      if (typeof i?.installedAt === 'number') out.installedAt = i.installedAt;
      if (typeof i?.installReason === 'string') out.installReason = i.installReason;
      return out;
    }),
});

// Deliberately no chrome.runtime.onMessageExternal / onConnectExternal listener, and the manifest
// declares externally_connectable with no ids and no matches: no other extension and no web page
// can message or connect to this extension (e2e: hostile-isolation.test.ts).

// Diagnostics for tests (read over CDP from the worker): which tabs count as inspected now.
if (TEST_HOOKS) Object.defineProperty(globalThis, '__MSI_BACKGROUND__', { value: Object.freeze({ inspectedTabs: () => router.inspectedTabs() }) });

chrome.runtime.onConnect.addListener((port) => {
  const kind = classifySender(port.sender, chrome.runtime.id);
  // Only this extension's pages (the DevTools page and the panel, in any dock layout) may connect
  // as these; senders.ts says why this is not a `sender.tab` check. Relays: content scripts only.
  if (port.name === PANEL_PORT && kind === 'extension-page') router.panelConnected(portAdapter(port));
  else if (port.name === DEVTOOLS_PORT && kind === 'extension-page') router.devtoolsConnected(portAdapter(port));
  else if (port.name === RELAY_PORT && kind === 'content-script') router.relayConnected(portAdapter(port), port.sender!.tab!.id!, port.sender?.frameId ?? 0);
  else if (port.name === PANEL_PORT || port.name === DEVTOOLS_PORT || port.name === RELAY_PORT) port.disconnect();
});

// The top-frame URL of each tab with a capture script, as its relay said hello (sender.url: set by
// the browser, needs no "tabs" permission), for the agent bridge's tab list (issue 21). Kept in
// session storage (trusted contexts only) so a worker restart does not forget it.
const TAB_URLS_KEY = 'msi.tabUrls';
const rememberTabUrl = (tabId: number, url: string | undefined) => {
  if (typeof url !== 'string') return;
  void chrome.storage.session.get(TAB_URLS_KEY).then((v) => {
    const m = { ...((v[TAB_URLS_KEY] as Record<string, string> | undefined) ?? {}), [tabId]: url.slice(0, 2000) };
    return chrome.storage.session.set({ [TAB_URLS_KEY]: m });
  }, () => {});
};
chrome.tabs.onRemoved.addListener((tabId) => {
  void chrome.storage.session.get(TAB_URLS_KEY).then((v) => {
    const m = { ...((v[TAB_URLS_KEY] as Record<string, string> | undefined) ?? {}) };
    if (!(tabId in m)) return;
    delete m[tabId];
    return chrome.storage.session.set({ [TAB_URLS_KEY]: m });
  }, () => {});
});

chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
  const kind = classifySender(sender, chrome.runtime.id);
  if (kind === 'content-script' && sender.frameId === 0 && typeof sender.tab?.id === 'number' && isMessage(msg, 'relay-hello')) rememberTabUrl(sender.tab.id, sender.url);
  // The agent bridge page (src/panel/agent-bridge.html) lists which tabs are recorded; only this
  // extension's own pages may ask.
  if (kind === 'extension-page' && isMessage(msg, 'inspected-tabs')) {
    sendResponse(envelope('inspected-tabs-reply', { tabs: router.inspectedTabs() }));
    return false;
  }
  const reply = router.onRuntimeMessage(msg, kind === 'content-script' ? sender.tab?.id : undefined);
  if (reply) sendResponse(reply);
  return false;
});

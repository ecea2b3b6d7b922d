// Entry of the agent bridge page (agent/bridge.ts): chrome.* wiring, and what the page shows so
// the user sees that an agent reads the browser's captures.
import { panelBlobReader } from './live/blob-reader';
import { createPanelConnection } from './live/connection';
import { AGENT_ACCESS_KEY, createBridge } from './agent/bridge';
import { createChromeStorageAdapter, loadSettings } from './ui/settings/settings';
import { envelope } from '../extension/wire/protocol';
import { isMessage } from '../extension/wire/guards';

// One Blob-reading worker for every tab this page opens (a connection closes; its worker would not).
const blobReader = panelBlobReader();

const access = () => chrome.storage.local.get(AGENT_ACCESS_KEY).then((v) => v[AGENT_ACCESS_KEY] === true);

const bridge = createBridge({
  version: chrome.runtime.getManifest().version,
  access,
  onAccessChange: (fn) =>
    chrome.storage.onChanged.addListener((changes, area) => {
      if (area === 'local' && AGENT_ACCESS_KEY in changes) fn(changes[AGENT_ACCESS_KEY]!.newValue === true);
    }),
  // Tab URLs: Chrome gives them only with the "tabs" permission, which this extension does not
  // ask for; the background remembers each tab's top-frame URL from its relay's hello instead.
  tabs: async () => {
    const [ts, v] = await Promise.all([chrome.tabs.query({}), chrome.storage.session.get('msi.tabUrls').catch(() => ({}) as Record<string, unknown>)]);
    const urls = ((v as Record<string, unknown>)['msi.tabUrls'] ?? {}) as Record<string, string>;
    return ts
      .filter((t) => typeof t.id === 'number')
      .map((t) => {
        const url = t.url ?? urls[String(t.id)];
        return { id: t.id!, ...(t.title !== undefined ? { title: t.title } : {}), ...(url !== undefined ? { url } : {}) };
      });
  },
  inspectedTabs: () =>
    chrome.runtime.sendMessage(envelope('inspected-tabs', {})).then(
      (r: unknown) => (isMessage(r, 'inspected-tabs-reply') ? r.tabs : []),
      () => [],
    ),
  settings: () => loadSettings(createChromeStorageAdapter()),
  // The panel's own connection; no DevTools page here, so nothing to read from an inspected window.
  connect: (tabId, store) =>
    createPanelConnection({ tabId, store, pageStartedAt: async () => null, networkRequestsSince: async () => 0, readBlobs: blobReader.read }),
});

const state = document.getElementById('state')!;
const list = document.getElementById('tabs')!;
async function show() {
  const on = await access();
  state.textContent = on
    ? 'Live access is on: a coding agent may read the MCP captures of these tabs and arm faults in them.'
    : 'Live access is off (the panel\u2019s settings): the agent gets a refusal.';
  list.replaceChildren();
  if (!on) return;
  for (const t of await bridge.tabs().catch(() => [])) {
    if (!t.opened) continue;
    const li = document.createElement('li');
    li.textContent = `Reading tab ${t.tabId}: ${t.title || t.url}`;
    list.append(li);
  }
}
void show();
setInterval(() => void show(), 2000);
chrome.storage.onChanged.addListener(() => void show());

// Only a DevTools-protocol client (Runtime.evaluate in this page) calls these.
Object.defineProperty(globalThis, '__MSI_AGENT__', { value: Object.freeze(bridge) });

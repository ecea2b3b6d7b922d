// Background service worker entry: wires chrome.runtime ports and messages to the router.
// No state beyond live ports; no keep-alive. See router.ts.

import { PANEL_PORT, RELAY_PORT } from '../shared/messages';
import { createRouter } from './router';

const router = createRouter({
  sendToTab(tabId, msg) {
    chrome.tabs.sendMessage(tabId, msg).catch(() => {
      // No content script in the tab (chrome:// page, hook not injected yet): nothing to attach.
    });
  },
});

chrome.runtime.onConnect.addListener((port) => {
  if (port.name === PANEL_PORT) {
    // Only extension pages (the DevTools panel) may connect as a panel.
    if (port.sender?.id !== chrome.runtime.id || port.sender?.tab) {
      port.disconnect();
      return;
    }
    const h = router.panelConnected(port);
    port.onMessage.addListener((m) => h.onMessage(m));
    port.onDisconnect.addListener(() => h.onDisconnect());
  } else if (port.name === RELAY_PORT) {
    const tabId = port.sender?.tab?.id;
    if (tabId === undefined || port.sender?.id !== chrome.runtime.id) {
      port.disconnect();
      return;
    }
    const h = router.relayConnected(port, tabId, port.sender?.frameId ?? 0);
    port.onMessage.addListener((m) => h.onMessage(m));
    port.onDisconnect.addListener(() => h.onDisconnect());
  }
});

chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
  const reply = router.onRuntimeMessage(msg, sender.tab?.id);
  if (reply) sendResponse(reply);
  return false;
});

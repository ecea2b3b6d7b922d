// DevTools page: runs in every DevTools window as soon as it opens, whether or not the user ever
// shows our panel. It creates the "MCP Streams" panel (the panel page does the rest: it has
// chrome.devtools.inspectedWindow and chrome.devtools.network itself), and it keeps a port to the
// background saying which tab this window inspects: relays record only while a DevTools window
// inspects their tab, unless "capture while DevTools is closed" is on (docs/capture.md).

import { DEVTOOLS_PORT, envelope, type DevtoolsHello } from '../shared/messages';

chrome.devtools.panels.create('MCP Streams', '', 'src/panel/panel.html');

const tabId = chrome.devtools.inspectedWindow.tabId;
// The port closes when Chrome stops the idle service worker: connect again (which wakes it) so
// the background, which keeps no state across a restart, learns the inspected tab again. A port
// refused at once (wrong sender, worker failing) backs off instead of spinning.
let delay = 50;
function connect() {
  let port: chrome.runtime.Port;
  try {
    port = chrome.runtime.connect({ name: DEVTOOLS_PORT });
  } catch {
    return; // extension context invalidated (extension reloaded): this window's page is stale
  }
  const opened = Date.now();
  port.onDisconnect.addListener(() => {
    try {
      void chrome.runtime.lastError;
    } catch {
      /* context invalidated */
    }
    delay = Date.now() - opened < 1000 ? Math.min(delay * 2, 5000) : 50;
    setTimeout(connect, delay);
  });
  port.postMessage(envelope<DevtoolsHello>({ type: 'devtools-hello', tabId }));
}
// Not a tab (DevTools on a worker or an extension page): no relay to tell.
if (Number.isInteger(tabId) && tabId >= 0) connect();

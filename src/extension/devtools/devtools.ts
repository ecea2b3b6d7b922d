// DevTools page: runs in every DevTools window as soon as it opens, whether or not the user ever
// shows our panel. It creates the "MCP Streams" panel (the panel page does the rest: it has
// chrome.devtools.inspectedWindow and chrome.devtools.network itself), and it keeps a port to the
// background saying which tab this window inspects: relays record only while a DevTools window
// inspects their tab, unless "capture while DevTools is closed" is on (docs/capture.md).

import { createEndpoint } from '../wire/endpoint';
import { DEVTOOLS_PORT, type BackgroundFromDevtools } from '../wire/protocol';
import { reconnectingPort } from '../wire/runtime-port';

chrome.devtools.panels.create('MCP Streams', '', 'src/panel/panel.html');

const tabId = chrome.devtools.inspectedWindow.tabId;
// Not a tab (DevTools on a worker or an extension page): no relay to tell.
if (Number.isInteger(tabId) && tabId >= 0) {
  // The port closes when Chrome stops the idle service worker: it re-creates itself (which wakes
  // the worker) and says the tab again, since the background keeps no state across a restart.
  // An extension context gone (extension reloaded) stops it: this window's page is stale.
  const port = reconnectingPort({ connect: () => chrome.runtime.connect({ name: DEVTOOLS_PORT }), failedRetryMs: null });
  const ep = createEndpoint<Record<never, never>, BackgroundFromDevtools>(port, []);
  port.onOpen(() => ep.send('devtools-hello', { tabId }));
  port.start();
}

// Page hook entry: MAIN world, document_start, all frames. Built as a self-contained IIFE (crxjs
// `standaloneFiles`), so it runs before the page's first inline script. See docs/capture.md.
//
// No eval, no Function constructor, no string timers, no innerHTML, no DOM writes: the hook runs
// the same under a strict CSP and Trusted Types (checked by a unit test over the hook's sources
// and the built bundle, and end to end on a CSP page).

import { watchBypass, type BypassWatch, type Installed } from './bypass';
import { createEmitter, openConnections } from './emitter';
import { installEventSourceHook } from './eventsource';
import { installFetchHook } from './fetch';
import { call, installToStringMask, N } from './natives';
import { installXhrHook } from './xhr';

// Chrome injects a manifest content script once per document (an extension reload does not
// re-inject into open pages), so no "already installed" mark is needed or exposed to the page.
function install() {
  installToStringMask();
  const emitter = createEmitter();
  let bypass: BypassWatch | null = null;
  const fetchProxy = installFetchHook(emitter, () => bypass?.onCall('window.fetch'));
  const esProxy = installEventSourceHook(emitter);
  installXhrHook(emitter);
  const desc = Object.getOwnPropertyDescriptor;
  const installed: Installed[] = [{ name: 'window.fetch', owner: window, prop: 'fetch', kind: 'value', mine: fetchProxy }];
  if (esProxy) installed.push({ name: 'window.EventSource', owner: window, prop: 'EventSource', kind: 'value', mine: esProxy });
  installed.push(
    { name: 'window.XMLHttpRequest', owner: window, prop: 'XMLHttpRequest', kind: 'value', mine: desc(window, 'XMLHttpRequest')?.value },
    { name: 'XMLHttpRequest.prototype.send', owner: XMLHttpRequest.prototype, prop: 'send', kind: 'value', mine: desc(XMLHttpRequest.prototype, 'send')?.value },
    { name: 'Response.prototype.body', owner: N.Response.prototype, prop: 'body', kind: 'get', mine: desc(N.Response.prototype, 'body')?.get },
  );
  bypass = watchBypass(emitter, installed);
  call(N.addEventListener, window, 'pagehide', (ev: PageTransitionEvent) => {
    if (!ev.persisted) for (const c of [...openConnections()]) c.end('unread', 'document unloaded');
    bypass?.check();
    emitter.flush();
  }, { capture: true });
}

try {
  install();
} catch {
  // Never break the page. The panel reports pages without hook records via chrome.devtools.network.
}

// Page hook entry: MAIN world, document_start, all frames. Built as a self-contained IIFE (crxjs
// `standaloneFiles`), so it runs before the page's first inline script. See docs/capture.md.

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
  installFetchHook(emitter);
  installEventSourceHook(emitter);
  installXhrHook(emitter);
  call(N.addEventListener, window, 'pagehide', (ev: PageTransitionEvent) => {
    if (!ev.persisted) for (const c of [...openConnections()]) c.end('unread', 'document unloaded');
    emitter.flush();
  }, { capture: true });
}

try {
  install();
} catch {
  // Never break the page. The panel reports pages without hook records via chrome.devtools.network.
}

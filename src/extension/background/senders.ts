// Who is at the other end of a chrome.runtime port or message: one of this extension's own pages
// (the DevTools page, the panel), one of its content scripts (a relay in a tab's frame), or
// anything else. Decided from the frame's origin, which the browser sets from the sending frame
// (a page cannot forge it), never from `sender.tab`.
//
// Why not `sender.tab` (issue 9, measured on Chromium 156): a DevTools window that is undocked is a
// browser window of its own, and from then on the extension pages inside it report a `tab`: the
// DevTools window's (`id: -1`, url devtools://...) while undocked, and, once docked again, a tab
// with a positive id that the DevTools front-end keeps for the rest of its life. A rule "an
// extension page has no tab" refused every panel and DevTools-page port opened after the first
// undock (the panel retried every 50 ms and got nothing; the tab stopped counting as inspected, so
// new documents did not record either). Content scripts always report the web page's origin.

export type SenderKind = 'extension-page' | 'content-script' | 'foreign';

/** The parts of chrome.runtime.MessageSender this looks at. */
export interface SenderLike {
  id?: string;
  url?: string;
  origin?: string;
  tab?: { id?: number };
}

function originOf(s: SenderLike, extensionOrigin: string): string | null {
  if (typeof s.origin === 'string') return s.origin;
  if (typeof s.url !== 'string') return null;
  // (URL parsers outside Chrome give chrome-extension: URLs an opaque origin.)
  if (s.url.startsWith(extensionOrigin + '/')) return extensionOrigin;
  try {
    return new URL(s.url).origin;
  } catch {
    return null;
  }
}

export function classifySender(sender: SenderLike | undefined, extensionId: string): SenderKind {
  if (!sender || sender.id !== extensionId) return 'foreign';
  const own = `chrome-extension://${extensionId}`;
  const origin = originOf(sender, own);
  if (origin === own) return 'extension-page';
  // A content script of this extension: the manifest injects it into http(s) frames only (and
  // about:blank / srcdoc / sandboxed frames of those, whose origin is the creator's or opaque),
  // which always belong to a tab.
  const tabId = sender.tab?.id;
  const web = origin !== null && (origin === 'null' || origin.startsWith('http://') || origin.startsWith('https://'));
  if (web && typeof tabId === 'number' && Number.isInteger(tabId) && tabId >= 0) return 'content-script';
  return 'foreign';
}

// Writing text to the clipboard from the panel. A DevTools extension panel is an iframe whose
// embedder may not grant the Clipboard API ("clipboard-write"); `execCommand('copy')` on a
// selected textarea works there from a user gesture, so it goes first (synchronously, while the
// gesture's activation holds), the Clipboard API second.

export type ClipboardWriter = (text: string) => Promise<void>;

export const writeClipboard: ClipboardWriter = async (text) => {
  const doc = typeof document !== 'undefined' ? document : undefined;
  if (doc?.body && typeof doc.execCommand === 'function') {
    const active = doc.activeElement as HTMLElement | null;
    const ta = doc.createElement('textarea');
    ta.value = text;
    ta.setAttribute('readonly', '');
    ta.style.cssText = 'position:fixed;top:0;left:0;width:1px;height:1px;opacity:0;';
    doc.body.appendChild(ta);
    ta.select();
    let ok = false;
    try {
      ok = doc.execCommand('copy');
    } catch {
      ok = false;
    }
    ta.remove();
    active?.focus?.({ preventScroll: true });
    if (ok) return;
  }
  if (typeof navigator !== 'undefined' && navigator.clipboard?.writeText) return navigator.clipboard.writeText(text);
  throw new Error('the clipboard is not available here');
};

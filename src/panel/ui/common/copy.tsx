// Copy with feedback: `useCopy()(text, what)` writes the clipboard and says "Copied <what>" (or why
// not) in a status line for two seconds, as DevTools does.

import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { writeClipboard, type ClipboardWriter } from './clipboard';

type Copy = (text: string, what: string) => void;
const CopyContext = createContext<Copy>(() => {});

export function CopyProvider({ writer = writeClipboard, children }: { writer?: ClipboardWriter | undefined; children: ReactNode }) {
  const [toast, setToast] = useState<{ text: string; ok: boolean } | undefined>(undefined);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = useCallback<Copy>(
    (text, what) => {
      const say = (t: { text: string; ok: boolean }) => {
        setToast(t);
        clearTimeout(timer.current);
        timer.current = setTimeout(() => setToast(undefined), 2000);
      };
      writer(text).then(
        () => say({ text: `Copied ${what}`, ok: true }),
        (e: unknown) => say({ text: `Could not copy ${what}: ${(e as Error)?.message ?? String(e)}`, ok: false }),
      );
    },
    [writer],
  );
  return (
    <CopyContext.Provider value={copy}>
      {children}
      <div className={`copy-toast${toast ? ' shown' : ''}${toast && !toast.ok ? ' bad' : ''}`} role="status" data-testid="copy-toast">
        {toast?.text ?? ''}
      </div>
    </CopyContext.Provider>
  );
}

export const useCopy = (): Copy => useContext(CopyContext);

/** Ctrl/Cmd+C in a grid copies the selected row, unless the user selected text to copy. */
export function isCopyKey(e: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean }): boolean {
  if (!(e.key === 'c' || e.key === 'C') || !(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return false;
  const sel = typeof getSelection === 'function' ? getSelection() : null;
  return !sel || sel.isCollapsed || !sel.toString();
}

import { useLayoutEffect, type RefObject } from 'react';

/**
 * Places an open drop-down menu under its button, moved left as far as needed to stay inside the
 * panel, and no taller than the room below it (it scrolls inside). DevTools docked right or left
 * often leaves a panel narrower than the menu's button offset plus its width, and docked bottom
 * one lower than the menu; a menu placed at the button's left edge ran off the panel's edge, its
 * items out of reach. Positioned imperatively before paint: the menu's width is measured where it
 * has the whole window, then placed.
 */
export function useAnchoredMenu(open: boolean, button: RefObject<HTMLElement | null>, menu: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    if (!open) return;
    const place = () => {
      const b = button.current?.getBoundingClientRect();
      const m = menu.current;
      if (!b || !m) return;
      const s = m.style;
      Object.assign(s, { position: 'fixed', boxSizing: 'border-box', top: '0px', left: '0px', maxWidth: `${window.innerWidth - 8}px`, maxHeight: '', overflowY: 'auto' });
      const width = Math.ceil(m.getBoundingClientRect().width);
      const top = Math.round(b.bottom + 2);
      const left = Math.max(4, Math.min(Math.round(b.left), window.innerWidth - width - 4));
      Object.assign(s, { top: `${top}px`, left: `${left}px`, maxHeight: `${Math.max(60, window.innerHeight - top - 4)}px` });
    };
    place();
    window.addEventListener('resize', place);
    return () => window.removeEventListener('resize', place);
  }, [open, button, menu]);
}

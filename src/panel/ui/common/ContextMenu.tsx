// Right-click menus, DevTools style: one menu at a time, opened at the pointer (or, from the
// keyboard — Shift+F10 or the context-menu key — at the focused row), ↑/↓ Home/End to move, Enter
// to choose, Esc or a click elsewhere to close; focus returns where it was.

import { createContext, useCallback, useContext, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';

export type MenuItem = { label: string; onSelect(): void; disabled?: boolean; testId?: string } | 'separator';

type Open = (at: MouseEvent | Element, items: MenuItem[]) => void;
const MenuContext = createContext<Open>(() => {});

interface MenuState {
  x: number;
  y: number;
  items: MenuItem[];
  back: HTMLElement | null;
}

export function ContextMenuHost({ children }: { children: ReactNode }) {
  const [menu, setMenu] = useState<MenuState | undefined>(undefined);
  const open = useCallback<Open>((at, items) => {
    const back = (typeof document !== 'undefined' ? document.activeElement : null) as HTMLElement | null;
    if ('clientX' in at) {
      at.preventDefault();
      setMenu({ x: at.clientX, y: at.clientY, items, back });
    } else {
      const r = at.getBoundingClientRect();
      setMenu({ x: r.left + 24, y: r.bottom, items, back });
    }
  }, []);
  return (
    <MenuContext.Provider value={open}>
      {children}
      {menu && <Menu menu={menu} close={() => setMenu(undefined)} />}
    </MenuContext.Provider>
  );
}

export const useContextMenu = (): Open => useContext(MenuContext);

/** Shift+F10 or the context-menu key: the keyboard's right click. */
export const isMenuKey = (e: KeyboardEvent) => e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey);

function Menu({ menu, close }: { menu: MenuState; close(): void }) {
  const ref = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState({ left: menu.x, top: menu.y });
  // Kept inside the panel: flipped left/up when it would overflow.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const r = el.getBoundingClientRect();
    const w = window.innerWidth || 1e9;
    const h = window.innerHeight || 1e9;
    setPos({ left: r.width && menu.x + r.width > w ? Math.max(0, w - r.width - 2) : menu.x, top: r.height && menu.y + r.height > h ? Math.max(0, menu.y - r.height) : menu.y });
    el.querySelector<HTMLButtonElement>('button:not(:disabled)')?.focus();
  }, [menu]);
  const done = (back = true) => {
    close();
    if (back) menu.back?.focus?.({ preventScroll: true });
  };
  useEffect(() => {
    const away = (e: Event) => {
      if (!ref.current?.contains(e.target as Node)) done(false);
    };
    const blur = () => done(false);
    document.addEventListener('mousedown', away, true);
    window.addEventListener('blur', blur);
    return () => {
      document.removeEventListener('mousedown', away, true);
      window.removeEventListener('blur', blur);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const onKey = (e: KeyboardEvent) => {
    const items = [...(ref.current?.querySelectorAll<HTMLButtonElement>('button:not(:disabled)') ?? [])];
    const i = items.indexOf(document.activeElement as HTMLButtonElement);
    let to: number | undefined;
    if (e.key === 'ArrowDown') to = (i + 1) % items.length;
    else if (e.key === 'ArrowUp') to = (i + items.length - 1) % items.length;
    else if (e.key === 'Home') to = 0;
    else if (e.key === 'End') to = items.length - 1;
    else if (e.key === 'Escape' || e.key === 'Tab') {
      e.preventDefault();
      e.stopPropagation();
      done();
      return;
    }
    if (to !== undefined) {
      e.preventDefault();
      e.stopPropagation();
      items[to]?.focus();
    }
  };
  return (
    <div className="menu ctx-menu" role="menu" ref={ref} style={{ position: 'fixed', left: pos.left, top: pos.top }} onKeyDown={onKey} data-testid="context-menu" onContextMenu={(e) => e.preventDefault()}>
      {menu.items.map((it, i) =>
        it === 'separator' ? (
          <div key={i} className="menu-sep" role="separator" />
        ) : (
          <button
            key={i}
            type="button"
            role="menuitem"
            className="menu-item"
            disabled={it.disabled}
            data-testid={it.testId}
            onClick={() => {
              done();
              it.onSelect();
            }}
          >
            {it.label}
          </button>
        ),
      )}
    </div>
  );
}

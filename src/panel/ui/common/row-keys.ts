// The keys of every list and grid, DevTools style: ↑/↓, Home/End, PageUp/PageDown move the
// selection; Enter opens it; Ctrl/Cmd+C copies it; Shift+F10 or the context-menu key opens its menu.

import type { KeyboardEvent } from 'react';
import { isMenuKey } from './ContextMenu';
import { isCopyKey } from './copy';

export interface RowKeyActions {
  /** The selected row, -1 for none. */
  index: number;
  count: number;
  /** Rows per page (PageUp / PageDown); none when absent. */
  page?: number;
  move(to: number): void;
  open?(): void;
  copy?(): void;
  menu?(): void;
}

/** Handles `e` for a list; returns false for a key it does not use. */
export function onRowKeys(e: KeyboardEvent, a: RowKeyActions): boolean {
  const cur = a.index;
  const last = a.count - 1;
  let to: number | undefined;
  if (e.key === 'ArrowDown') to = cur + 1;
  else if (e.key === 'ArrowUp') to = cur < 0 ? 0 : cur - 1;
  else if (e.key === 'Home') to = 0;
  else if (e.key === 'End') to = last;
  else if (a.page && e.key === 'PageDown') to = cur + a.page;
  else if (a.page && e.key === 'PageUp') to = cur - a.page;
  else if (cur >= 0 && e.key === 'Enter' && a.open) a.open();
  else if (cur >= 0 && a.copy && isCopyKey(e)) a.copy();
  else if (cur >= 0 && a.menu && isMenuKey(e)) a.menu();
  else return false;
  e.preventDefault();
  if (to !== undefined && a.count > 0) a.move(Math.max(0, Math.min(last, to)));
  return true;
}

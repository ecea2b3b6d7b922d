import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, type RefObject } from 'react';
import type { Virtualizer } from '@tanstack/react-virtual';
import { HEAD_H } from './grid';

/**
 * Element-rect observer for useVirtualizer that falls back to a default size when layout reports
 * 0 (DOM emulations in tests; a panel that is hidden at first).
 */
export function observeRectWithFallback(instance: Virtualizer<HTMLDivElement, Element>, cb: (rect: { width: number; height: number }) => void): (() => void) | undefined {
  const el = instance.scrollElement;
  if (!el) return undefined;
  const measure = () => cb({ width: el.clientWidth || 800, height: el.clientHeight || 600 });
  measure();
  if (typeof ResizeObserver === 'undefined') return undefined;
  const ro = new ResizeObserver(measure);
  ro.observe(el);
  return () => ro.disconnect();
}


export const ROW_H = 21;

/** A row the grid renders: its index and its top, in the scroller's content. */
export interface RowItem {
  index: number;
  start: number;
}

/** What the grids use of a virtualizer: the rows to render, the canvas height, scrolling to a row. */
export interface Rows {
  getVirtualItems(): readonly RowItem[];
  getTotalSize(): number;
  scrollToIndex(index: number, opts: { align: 'auto' | 'center' | 'start' | 'end' }): void;
}

/**
 * Rows per virtualized item in a long grid. The virtualizer keeps, per item it knows, a start and a
 * size (a Float64Array of two slots) and a key: 20 bytes per row, about a tenth of what the panel
 * holds per event of a 100k-event session (row 7 of the benchmarks). Long grids hand it pages of
 * PAGE_ROWS fixed-height rows instead, so it holds 2.5 bytes per row; a page costs at most
 * PAGE_ROWS - 1 rows rendered beyond the view on each side.
 */
export const PAGE_ROWS = 8;
/** Grids up to this many rows are virtualized row by row (their overscan renders them whole). */
export const PAGED_FROM = 200;

/** The rows of the pages in view: page p holds rows p*per .. p*per+per-1 (fewer in the last). */
export function rowsOfPages(pages: readonly RowItem[], per: number, count: number): RowItem[] {
  const out: RowItem[] = [];
  for (const p of pages) {
    const first = p.index * per;
    const end = Math.min(count, first + per);
    for (let i = first; i < end; i++) out.push({ index: i, start: p.start + (i - first) * ROW_H });
  }
  return out;
}

/**
 * The scroll offset that shows row `index` as `align` asks, or undefined when 'auto' finds it in
 * view. The same rule as the virtualizer's own scrollToIndex: 'auto' scrolls only as far as needed,
 * and a row is hidden under the sticky header when its top is within HEAD_H of the view's top.
 */
export function offsetForRow(index: number, align: 'auto' | 'center' | 'start' | 'end', view: { offset: number; size: number }): { to: number; align: 'center' | 'start' | 'end' } | undefined {
  const start = HEAD_H + index * ROW_H;
  const end = start + ROW_H;
  if (align === 'auto') {
    if (end >= view.offset + view.size) align = 'end';
    else if (start <= view.offset + HEAD_H) align = 'start';
    else return undefined;
  }
  if (align === 'center') return { to: start + ROW_H / 2, align };
  return align === 'end' ? { to: end, align } : { to: start - HEAD_H, align };
}

/**
 * Row virtualizer for the grids (fixed 21px rows). The sticky header is inside the scroller, above
 * the rows: rows start HEAD_H down, and scrolling a row into view keeps it clear of the header.
 * Long grids are virtualized by pages of rows (PAGE_ROWS); `overscan` is in rows either way.
 */
export function useRows(count: number, ref: RefObject<HTMLDivElement | null>, overscan = 12): Rows {
  const per = count > PAGED_FROM ? PAGE_ROWS : 1;
  const v = useVirtualizer({
    count: Math.ceil(count / per),
    getScrollElement: () => ref.current,
    estimateSize: () => per * ROW_H,
    overscan: Math.ceil(overscan / per),
    paddingStart: HEAD_H,
    scrollPaddingStart: HEAD_H,
    observeElementRect: observeRectWithFallback,
    initialRect: { width: 800, height: 600 },
  });
  const pages = v.getVirtualItems();
  const items = useMemo(() => (per === 1 ? pages : rowsOfPages(pages, per, count)), [pages, per, count]);
  return {
    getVirtualItems: () => items,
    // The virtualizer's size counts whole pages; the canvas ends at the last row.
    getTotalSize: () => HEAD_H + count * ROW_H,
    scrollToIndex(index, { align }) {
      if (count === 0) return;
      const to = offsetForRow(Math.max(0, Math.min(index, count - 1)), align, { offset: v.scrollOffset ?? 0, size: v.scrollRect?.height ?? 600 });
      if (to) v.scrollToOffset(to.to, { align: to.align });
    },
  };
}

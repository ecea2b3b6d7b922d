import { useVirtualizer } from '@tanstack/react-virtual';
import type { RefObject } from 'react';
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

/**
 * Row virtualizer for the grids (fixed 21px rows). The sticky header is inside the scroller, above
 * the rows: rows start HEAD_H down, and scrolling a row into view keeps it clear of the header.
 */
export function useRows(count: number, ref: RefObject<HTMLDivElement | null>, overscan = 12) {
  return useVirtualizer({
    count,
    getScrollElement: () => ref.current,
    estimateSize: () => ROW_H,
    overscan,
    paddingStart: HEAD_H,
    scrollPaddingStart: HEAD_H,
    observeElementRect: observeRectWithFallback,
    initialRect: { width: 800, height: 600 },
  });
}

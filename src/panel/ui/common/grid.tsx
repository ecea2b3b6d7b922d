// One column definition per grid, shared by its header and its rows through CSS variables on the
// grid element (`--cols`, `--grid-min`): the header sits in the same scroller as the rows (sticky),
// so a vertical scrollbar or a horizontal scroll moves both alike and they cannot drift apart.
//
// Rows first lay out with the same grid template as the header. Once the header's cells are
// measured, rows switch to flex with those exact widths (`--c1`…, on the canvas, updated by a
// ResizeObserver before the next paint): a grid with fr tracks per row cost twice the layout time
// of fixed-width flex cells when a jump through 100k events re-fills every visible row.

import { useCallback, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type PointerEvent as ReactPointerEvent, type ReactElement } from 'react';

export interface Column {
  label: string;
  /** px; the minimum for a flexible column. */
  width: number;
  /** Share of the room left over (fr); fixed width when absent. */
  flex?: number;
  className?: string;
}

/** Header row height (border included); rows start below it in the scroller. */
export const HEAD_H = 22;
const MIN_COL = 32;

export interface GridColumns {
  /** CSS variables for the grid element. */
  style: CSSProperties;
  header: ReactElement;
}

/**
 * Column template for a grid, with widths the user can drag (header separators; a double click
 * gives the column back its default). The last column always takes the room left over.
 */
export function useGridColumns(columns: readonly Column[]): GridColumns {
  const [widths, setWidths] = useState<readonly (number | undefined)[]>(() => columns.map(() => undefined));
  const headRef = useRef<HTMLDivElement>(null);
  const last = columns.length - 1;
  const style = useMemo(() => {
    let min = 0;
    const parts = columns.map((c, i) => {
      const w = widths[i];
      min += w ?? c.width;
      if (w !== undefined) return i === last ? `minmax(${w}px,1fr)` : `${w}px`;
      return c.flex ? `minmax(${c.width}px,${c.flex}fr)` : `${c.width}px`;
    });
    return { '--cols': parts.join(' '), '--grid-min': `${min}px` } as CSSProperties;
  }, [columns, widths, last]);

  const drag = useRef<{ i: number; x: number; start: number[] } | null>(null);
  const onDown = useCallback((e: ReactPointerEvent<HTMLSpanElement>, i: number) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.stopPropagation();
    // Freeze every column at its current width, so dragging one does not redistribute the others.
    const cells = headRef.current ? [...headRef.current.children] : [];
    const start = cells.map((c) => Math.round((c as HTMLElement).getBoundingClientRect().width));
    drag.current = { i, x: e.clientX, start };
    e.currentTarget.setPointerCapture?.(e.pointerId);
  }, []);
  const onMove = useCallback((e: ReactPointerEvent<HTMLSpanElement>) => {
    const d = drag.current;
    if (!d) return;
    const w = Math.max(MIN_COL, (d.start[d.i] ?? MIN_COL) + e.clientX - d.x);
    setWidths(d.start.map((s, j) => (j === d.i ? w : s)));
  }, []);
  const onUp = useCallback(() => {
    drag.current = null;
  }, []);
  const reset = useCallback(() => setWidths(columns.map(() => undefined)), [columns]);

  useLayoutEffect(() => {
    const head = headRef.current;
    const canvas = head?.parentElement;
    if (!head || !canvas) return;
    const measure = () => {
      const cells = [...head.children] as HTMLElement[];
      const ws = cells.map((c) => c.getBoundingClientRect().width);
      // No layout (a hidden panel, DOM emulations): rows keep the grid template.
      if (!ws.some((w) => w > 0)) return canvas.classList.remove('measured');
      ws.forEach((w, i) => canvas.style.setProperty(`--c${i + 1}`, `${w}px`));
      canvas.classList.add('measured');
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(measure);
    for (const c of head.children) ro.observe(c);
    return () => ro.disconnect();
  }, [columns]);

  const header = (
    <div className="grid-head" role="row" aria-rowindex={1} ref={headRef}>
      {columns.map((c, i) => (
        <div key={c.label} role="columnheader" className={c.className}>
          {c.label}
          {i < last && (
            <span
              className="col-resizer"
              aria-hidden="true"
              title="Drag to resize; double-click to reset"
              onPointerDown={(e) => onDown(e, i)}
              onPointerMove={onMove}
              onPointerUp={onUp}
              onPointerCancel={onUp}
              onDoubleClick={reset}
            />
          )}
        </div>
      ))}
    </div>
  );
  return { style, header };
}

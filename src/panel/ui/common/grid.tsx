// One column definition per grid, shared by its header and its rows through CSS variables on the
// grid element (`--cols`, `--grid-min`): the header sits in the same scroller as the rows (sticky),
// so a vertical scrollbar or a horizontal scroll moves both alike and they cannot drift apart.
//
// Rows first lay out with the same grid template as the header. Once the header's cells are
// measured, rows switch to flex with those exact widths (`--c1`…, on the canvas, updated by a
// ResizeObserver before the next paint): a grid with fr tracks per row cost twice the layout time
// of fixed-width flex cells when a jump through 100k events re-fills every visible row.
//
// Widths are the navigation state's (`columns[gridId]`), so they are kept with the settings and
// survive a reload, like the Network panel's. A separator resizes with the mouse (drag; a double
// click gives every column its default back) and with the keyboard (the WAI-ARIA window splitter:
// a focusable separator, ←/→ by 8 px, Shift by 32, Home resets).

import { useCallback, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type KeyboardEvent, type PointerEvent as ReactPointerEvent, type ReactElement } from 'react';
import { useNav, useNavDispatch } from '../navigation/NavigationProvider';

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
const NONE: readonly (number | undefined)[] = [];

export interface GridColumns {
  /** CSS variables for the grid element. */
  style: CSSProperties;
  header: ReactElement;
}

function template(columns: readonly Column[], widths: readonly (number | undefined)[]): CSSProperties {
  const last = columns.length - 1;
  let min = 0;
  const parts = columns.map((c, i) => {
    const w = widths[i];
    min += w ?? c.width;
    if (w !== undefined) return i === last ? `minmax(${w}px,1fr)` : `${w}px`;
    return c.flex ? `minmax(${c.width}px,${c.flex}fr)` : `${c.width}px`;
  });
  return { '--cols': parts.join(' '), '--grid-min': `${min}px` } as CSSProperties;
}

/** Column template for grid `gridId`, with widths the user can change. The last column takes the room left over. */
export function useGridColumns(gridId: string, columns: readonly Column[]): GridColumns {
  const stored = useNav().columns[gridId] ?? NONE;
  const dispatch = useNavDispatch();
  // While dragging, widths change on every pointer move: kept here, committed on release.
  const [dragging, setDragging] = useState<readonly (number | undefined)[] | undefined>(undefined);
  const widths = dragging ?? stored;
  const headRef = useRef<HTMLDivElement>(null);
  const last = columns.length - 1;
  const style = useMemo(() => template(columns, widths), [columns, widths]);
  const commit = useCallback((ws: readonly (number | undefined)[]) => dispatch({ type: 'set-columns', grid: gridId, widths: ws }), [dispatch, gridId]);

  /** Every column at its current width, so that changing one does not redistribute the others. */
  const measured = () => (headRef.current ? [...headRef.current.children] : []).map((c, i) => Math.round((c as HTMLElement).getBoundingClientRect().width) || widths[i] || columns[i]!.width);
  const drag = useRef<{ i: number; x: number; start: number[]; latest?: number[] } | null>(null);
  const onDown = (e: ReactPointerEvent<HTMLSpanElement>, i: number) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.stopPropagation();
    drag.current = { i, x: e.clientX, start: measured() };
    e.currentTarget.setPointerCapture?.(e.pointerId);
  };
  const onMove = (e: ReactPointerEvent<HTMLSpanElement>) => {
    const d = drag.current;
    if (!d) return;
    const w = Math.max(MIN_COL, (d.start[d.i] ?? MIN_COL) + e.clientX - d.x);
    d.latest = d.start.map((s, j) => (j === d.i ? w : s));
    setDragging(d.latest);
  };
  const onUp = () => {
    const d = drag.current;
    drag.current = null;
    if (d?.latest) commit(d.latest);
    setDragging(undefined);
  };
  const reset = () => commit(columns.map(() => undefined));
  const onKey = (e: KeyboardEvent<HTMLSpanElement>, i: number) => {
    const step = e.shiftKey ? 32 : 8;
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      const ws = measured();
      ws[i] = Math.max(MIN_COL, ws[i]! + (e.key === 'ArrowRight' ? step : -step));
      commit(ws);
    } else if (e.key === 'Home') reset();
    else return;
    e.preventDefault();
    e.stopPropagation();
  };

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
              role="separator"
              aria-orientation="vertical"
              aria-label={`Resize the ${c.label} column`}
              aria-valuenow={widths[i] ?? c.width}
              aria-valuemin={MIN_COL}
              tabIndex={0}
              title="Drag or ←/→ to resize; double-click or Home resets"
              data-testid="col-resizer"
              onPointerDown={(e) => onDown(e, i)}
              onPointerMove={onMove}
              onPointerUp={onUp}
              onPointerCancel={onUp}
              onDoubleClick={reset}
              onKeyDown={(e) => onKey(e, i)}
            />
          )}
        </div>
      ))}
    </div>
  );
  return { style, header };
}

// The long grids' pages of rows: the rows rendered from the virtualizer's pages are exactly the
// rows of those pages at their places, and scrolling to a row follows the virtualizer's own rule.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HEAD_H } from './grid';
import { offsetForRow, PAGE_ROWS, ROW_H, rowsOfPages } from './virtual';

/** The pages a virtualizer over pages of `per` rows shows for a view (no overscan). */
function pagesInView(count: number, per: number, offset: number, size: number) {
  const pages = Math.ceil(count / per);
  const out = [];
  for (let p = 0; p < pages; p++) {
    const start = HEAD_H + p * per * ROW_H;
    if (start + per * ROW_H > offset && start < offset + size) out.push({ index: p, start });
  }
  return out;
}

describe('rows of pages', () => {
  it('covers the view with consecutive rows at their fixed places, and nothing past the last row', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5_000 }), fc.integer({ min: 1, max: 16 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 50, max: 1_200 }), (count, per, at, size) => {
        const offset = Math.floor(at * Math.max(0, HEAD_H + count * ROW_H - size));
        const rows = rowsOfPages(pagesInView(count, per, offset, size), per, count);
        for (const r of rows) expect(r.start).toBe(HEAD_H + r.index * ROW_H);
        for (let k = 1; k < rows.length; k++) expect(rows[k]!.index).toBe(rows[k - 1]!.index + 1);
        expect(rows.at(-1)!.index).toBeLessThan(count);
        // every row that intersects the view is rendered
        const first = Math.max(0, Math.floor((offset - HEAD_H) / ROW_H));
        const last = Math.min(count - 1, Math.floor((offset + size - 1 - HEAD_H) / ROW_H));
        expect(rows[0]!.index).toBeLessThanOrEqual(first);
        expect(rows.at(-1)!.index).toBeGreaterThanOrEqual(last);
        // and at most a page's worth beyond it on each side
        expect(first - rows[0]!.index).toBeLessThan(per);
        expect(rows.at(-1)!.index - last).toBeLessThan(per);
      }),
    );
  });

  it('holds the last, partial page', () => {
    expect(rowsOfPages([{ index: 2, start: HEAD_H + 2 * PAGE_ROWS * ROW_H }], PAGE_ROWS, 2 * PAGE_ROWS + 3).map((r) => r.index)).toEqual([16, 17, 18]);
  });
});

describe('scrolling to a row', () => {
  const view = { offset: 1_000, size: 400 };
  it("'auto' leaves a row in view where it is", () => {
    const inView = Math.ceil((view.offset + HEAD_H - HEAD_H) / ROW_H) + 1;
    expect(offsetForRow(inView, 'auto', view)).toBeUndefined();
  });
  it("'auto' brings a row below the view up to its bottom edge, and one above it down under the header", () => {
    const below = 100;
    expect(offsetForRow(below, 'auto', view)).toEqual({ to: HEAD_H + (below + 1) * ROW_H, align: 'end' });
    const above = 10;
    expect(offsetForRow(above, 'auto', view)).toEqual({ to: above * ROW_H, align: 'start' });
  });
  it("a row hidden under the sticky header counts as out of view for 'auto'", () => {
    const under = Math.floor((view.offset - HEAD_H) / ROW_H) + 1; // its top within the header's band
    expect(HEAD_H + under * ROW_H).toBeLessThanOrEqual(view.offset + HEAD_H);
    expect(offsetForRow(under, 'auto', view)?.align).toBe('start');
  });
  it("'center' aims at the row's middle", () => {
    expect(offsetForRow(7, 'center', view)).toEqual({ to: HEAD_H + 7 * ROW_H + ROW_H / 2, align: 'center' });
  });
});

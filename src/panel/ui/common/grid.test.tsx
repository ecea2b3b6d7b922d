// @vitest-environment happy-dom
// The grids' header and rows come from one column definition and live in one scroller, so they
// cannot drift apart (a vertical scrollbar, a horizontal scroll); dragging a header separator
// resizes a column for header and rows at once.
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { InspectorApp } from '../app/InspectorApp';
import { createStaticSource } from '../sources/static-source';
import { captureRecords, coreAnalyzer as factory } from '../test-support/fixtures';
import { COLUMNS_KEY } from '../navigation/persist';
import { createMemoryStorageAdapter } from '../settings/settings';
import { $, $$, click, key, mount, until, type Mounted } from '../test-support/render';

let m: Mounted | undefined;
afterEach(() => {
  m?.unmount();
  m = undefined;
});

function pointer(el: Element, type: string, clientX: number) {
  const e = new MouseEvent(type, { bubbles: true, cancelable: true, clientX, button: 0 });
  Object.defineProperty(e, 'pointerId', { value: 1 });
  el.dispatchEvent(e);
}

describe('grids', () => {
  it('header and rows share the column template and the scroller; columns resize', async () => {
    m = await mount(<InspectorApp source={createStaticSource(captureRecords('lossy'))} analyzerFactory={factory} mode="viewer" />);
    for (const [tab, grid] of [
      ['events', 'events-grid'],
      ['requests', 'requests-grid'],
      ['findings', 'findings-grid'],
    ] as const) {
      await click($(m.container, `[data-testid=tab-${tab}]`));
      const g = $(m.container, `[data-testid=${grid}]`)!;
      const body = $(g, '.grid-body')!;
      expect(body.getAttribute('role')).toBe('grid');
      // the header scrolls with the rows (sticky inside the same scroller)
      expect(body.contains($(g, '.grid-head'))).toBe(true);
      expect(g.style.getPropertyValue('--cols')).toMatch(/px/);
      const rows = $$(g, '[role=row]').filter((r) => !r.classList.contains('grid-head'));
      expect(rows.length).toBeGreaterThan(0);
      // no per-row template that could differ from the header's
      for (const r of rows) expect(r.style.gridTemplateColumns).toBe('');
      expect($$(g, '.grid-head [role=columnheader]').length).toBe(rows[0]!.querySelectorAll('[role=gridcell]').length);
    }
    await click($(m.container, '[data-testid=tab-events]'));
    const g = $(m.container, '[data-testid=events-grid]')!;
    const before = g.style.getPropertyValue('--cols');
    const handle = $$(g, '.col-resizer')[2]!; // after "Stream"
    await act(async () => {
      pointer(handle, 'pointerdown', 100);
      pointer(handle, 'pointermove', 400);
      pointer(handle, 'pointerup', 400);
    });
    const after = g.style.getPropertyValue('--cols');
    expect(after).not.toBe(before);
    expect(after.split(' ')[2]).toMatch(/^\d+px$/);
    await act(async () => {
      handle.dispatchEvent(new MouseEvent('dblclick', { bubbles: true }));
    });
    expect(g.style.getPropertyValue('--cols')).toBe(before);
  });
});

describe('column resize from the keyboard, kept with the settings', () => {
  it('a separator is a focusable splitter: ←/→ resize, Shift by more, Home resets; widths survive a remount', async () => {
    const storage = createMemoryStorageAdapter();
    const app = () => <InspectorApp source={createStaticSource(captureRecords('lossy'))} analyzerFactory={factory} mode="viewer" storage={storage} />;
    m = await mount(app());
    await click($(m.container, '[data-testid=tab-events]'));
    const g = () => $(m!.container, '[data-testid=events-grid]')!;
    const sep = $$(g(), '[data-testid=col-resizer]')[2]!; // after "Stream"
    expect(sep.getAttribute('role')).toBe('separator');
    expect(sep.tabIndex).toBe(0);
    const before = g().style.getPropertyValue('--cols');
    const w0 = Number(sep.getAttribute('aria-valuenow'));
    await key(sep, 'ArrowRight');
    const w1 = Number(sep.getAttribute('aria-valuenow'));
    expect(g().style.getPropertyValue('--cols')).not.toBe(before);
    await key(sep, 'ArrowRight', { shiftKey: true });
    expect(Number($$(g(), '[data-testid=col-resizer]')[2]!.getAttribute('aria-valuenow'))).toBe(w1 + 32);
    await key($$(g(), '[data-testid=col-resizer]')[2]!, 'ArrowLeft');
    const kept = g().style.getPropertyValue('--cols');
    expect(w1).toBeGreaterThan(0);
    expect(w0).toBeGreaterThan(0);
    // stored with the settings, restored in a new app (a reload of the panel)
    await until(() => expect((storage.data[COLUMNS_KEY] as Record<string, unknown>)?.events).toBeTruthy());
    m.unmount();
    m = await mount(app());
    await click($(m.container, '[data-testid=tab-events]'));
    await until(() => expect(g().style.getPropertyValue('--cols')).toBe(kept));
    await key($$(g(), '[data-testid=col-resizer]')[0]!, 'Home');
    expect(g().style.getPropertyValue('--cols')).toBe(before);
  });
});

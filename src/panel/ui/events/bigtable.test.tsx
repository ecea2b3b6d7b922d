// @vitest-environment happy-dom
// 100k events through the real analyzer: the table renders only a window of rows, jumps to a
// finding's event, and filters.
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { InspectorApp } from '../app/InspectorApp';
import { createStaticSource } from '../sources/static-source';
import type { UiTestHook } from '../store/types';
import { coreAnalyzer } from '../test-support/fixtures';
import { bigSession } from '../test-support/generated';
import { $, $$, click, key, mount, type, until } from '../test-support/render';

describe('100k events', () => {
  it('renders a window of rows, jumps to a finding, filters', async () => {
    const m = await mount(<InspectorApp source={createStaticSource(bigSession(100_000, { gapAt: 50_000 }))} analyzerFactory={coreAnalyzer} mode="viewer" />);
    try {
      await act(async () => void (globalThis as { __MSI_UI__?: UiTestHook }).__MSI_UI__!.snapshot());
      await until(() => expect($(m.container, '[data-testid=worst-finding]')?.dataset.code).toBe('live-gap'));
      await click($(m.container, '[data-testid=tab-events]'));
      const rendered = $$(m.container, '[data-testid=event-row]').length;
      expect(rendered).toBeGreaterThan(10);
      expect(rendered).toBeLessThan(120);
      const body = $(m.container, '[data-testid=events-grid] .grid-body');
      await key(body, 'End');
      // (happy-dom does not scroll, so check the grid's active row rather than the rendered window)
      expect(body!.getAttribute('aria-activedescendant')).toBe('ev-row-100000');
      await click($(m.container, '[data-testid=show-events]'));
      // the initialize event is row 0; the GET stream's event 50000 (id 50003, after the gap) is row 50001
      expect($(m.container, '[data-testid=events-grid] .grid-body')!.getAttribute('aria-activedescendant')).toBe('ev-row-50001');
      expect($(m.container, '[data-testid=event-raw]')!.textContent).toContain('id: 50003');
      await type($(m.container, '[data-testid=tb-filter]') as HTMLInputElement, 'code:live-gap');
      expect($$(m.container, '[data-testid=event-row]').map((r) => r.dataset.eventId)).toEqual(['50003']);
      await type($(m.container, '[data-testid=tb-filter]') as HTMLInputElement, '"chunk 99999"');
      expect($$(m.container, '[data-testid=event-row]').map((r) => r.dataset.eventId)).toEqual(['100002']);
    } finally {
      m.unmount();
    }
  }, 60_000);
});

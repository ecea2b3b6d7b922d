// @vitest-environment happy-dom
// 100k events in one lane stay readable: aggregated into a density where they overlap, the events
// with findings drawn as marks on top and the gap drawn over everything, expanded into marks when
// zoomed in; ] and [ step through the findings.
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { InspectorApp } from '../app/InspectorApp';
import { createStaticSource } from '../sources/static-source';
import type { UiTestHook } from '../store/types';
import { coreAnalyzer } from '../test-support/fixtures';
import { bigSession } from '../test-support/generated';
import { $, $$, key, mount, until } from '../test-support/render';

describe('timeline density', () => {
  it('100k events: a density, the gap on top, marks again when zoomed in, [ ] between findings', async () => {
    const records = bigSession(100_000, { gapAt: 60_000, gap: 3 });
    const m = await mount(<InspectorApp source={createStaticSource(records)} analyzerFactory={coreAnalyzer} mode="viewer" />);
    try {
      await act(async () => void (globalThis as { __MSI_UI__?: UiTestHook }).__MSI_UI__!.snapshot());
      await until(() => expect($(m.container, '[data-testid=timeline-gap]')).toBeTruthy());
      const tl = $(m.container, '[data-testid=timeline]')!;
      const density = $(tl, '[data-testid=timeline-density]')!;
      expect(density).toBeTruthy();
      expect(density.getAttribute('d')!.length).toBeGreaterThan(100);
      expect($(tl, '[data-testid=timeline-density-label]')!.textContent).toMatch(/^100,000 events · ids 1…100003$/);
      // far fewer marks than events; the gap is painted after (over) the density
      expect($$(tl, 'circle').length).toBeLessThan(100);
      const order = $$(tl, '[data-testid=timeline-density], [data-testid=timeline-gap]').map((e) => e.dataset.testid);
      expect(order.at(-1)).toBe('timeline-gap');
      expect(tl.textContent).toContain('ids 60001–60003 missing');
      // ] selects the finding's event (the first after the gap)
      const canvas = $(tl, '.tl-canvas')!;
      await key(canvas, ']');
      const active = canvas.getAttribute('aria-activedescendant')!;
      expect(m.container.querySelector(`#${active}`)!.getAttribute('aria-label')).toMatch(/^event 60004 .*live-gap/);
      // zoomed in around it: one mark per event again, no density on the lane
      for (let i = 0; i < 24; i++) await key($(m.container, '.tl-canvas'), '+');
      expect($(m.container, '[data-testid=timeline-density]')).toBeNull();
      expect($$(m.container, '[data-testid=timeline] circle').length).toBeGreaterThan(10);
      expect($(m.container, '[data-testid=timeline-gap]')).toBeTruthy();
      await key($(m.container, '.tl-canvas'), '[');
      await key($(m.container, '.tl-canvas'), '0');
      expect($(m.container, '[data-testid=timeline-density]')).toBeTruthy();
    } finally {
      m.unmount();
    }
  }, 60_000);
});

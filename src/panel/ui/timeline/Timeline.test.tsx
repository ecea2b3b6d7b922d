// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { InspectorApp } from '../app/InspectorApp';
import { createStaticSource } from '../sources/static-source';
import { lowerBound, niceStep, panView, zoomView } from './timeline-geom';
import { captureRecords, coreAnalyzer as factory } from '../test-support/fixtures';
import { $, $$, click, key, mount, until, type Mounted } from '../test-support/render';
import type { UiTestHook } from '../store/types';

const lossy = captureRecords('lossy');
let m: Mounted | undefined;
afterEach(() => {
  m?.unmount();
  m = undefined;
});

const range = () => $(m!.container, '.tl-bar .tl-range')!.textContent!;

describe('timeline', () => {
  it('draws lanes, events with ids as listbox options (the gaps described in words), the gap and the reconnect link', async () => {
    m = await mount(<InspectorApp source={createStaticSource(lossy)} analyzerFactory={factory} mode="viewer" />);
    const tl = $(m.container, '[data-testid=timeline]')!;
    expect($$(tl, '.tl-label').length).toBeGreaterThanOrEqual(4);
    const items = $$(tl, '[role=option]');
    expect($(tl, '[role=listbox]')!.getAttribute('aria-describedby')).toBeTruthy();
    expect(tl.querySelector(`#${$(tl, '[role=listbox]')!.getAttribute('aria-describedby')}`)!.textContent).toMatch(/replay-gap: ids 12–13 missing on GET/);
    expect(items.length).toBeGreaterThan(10);
    expect(items.some((i) => /^event 14 /.test(i.getAttribute('aria-label') ?? ''))).toBe(true);
    expect(tl.textContent).toContain('ids 12–13 missing');
    expect(tl.textContent).toMatch(/✂ cut/);
    expect(tl.querySelector('path.tl-link')).toBeTruthy();
  });

  it('keyboard: arrows select events, +/- zoom, 0 resets, Enter opens the event', async () => {
    m = await mount(<InspectorApp source={createStaticSource(lossy)} analyzerFactory={factory} mode="viewer" />);
    const canvas = $(m.container, '.tl-canvas')!;
    const initial = range();
    await key(canvas, 'ArrowRight');
    const first = canvas.getAttribute('aria-activedescendant');
    expect(first).toMatch(/^tl-ev-/);
    await key(canvas, 'ArrowRight');
    expect(canvas.getAttribute('aria-activedescendant')).not.toBe(first);
    await key(canvas, 'ArrowDown');
    await key(canvas, '+');
    await key(canvas, '+');
    expect(range()).not.toBe(initial);
    await key(canvas, 'ArrowRight', { shiftKey: true });
    await key(canvas, '0');
    expect(range()).toBe(initial);
    await key(canvas, 'Enter');
    expect($(m.container, '[data-testid=tab-events]')!.getAttribute('aria-selected')).toBe('true');
    expect($(m.container, '[data-testid=event-row][aria-selected=true]')).toBeTruthy();
  });

  it('"Show in timeline" selects the finding’s event', async () => {
    m = await mount(<InspectorApp source={createStaticSource(lossy)} analyzerFactory={factory} mode="viewer" />);
    await click($(m.container, '[data-testid=tab-events]'));
    await click($(m.container, '[data-testid=show-in-timeline]'));
    const canvas = $(m.container, '.tl-canvas')!;
    const id = canvas.getAttribute('aria-activedescendant');
    expect(id).toMatch(/^tl-ev-/);
    expect(m.container.querySelector(`#${id}`)?.getAttribute('aria-label')).toMatch(/result/);
  });

  it('a focus request is applied once: a finding selected elsewhere zooms without taking keyboard focus; revisits show the whole range', async () => {
    m = await mount(<InspectorApp source={createStaticSource(lossy)} analyzerFactory={factory} mode="viewer" />);
    const full = range();
    await click($(m.container, '[data-testid=tab-findings]'));
    await click($(m.container, '[data-testid=finding-row][data-code=replay-gap]'));
    await click($(m.container, '[data-testid=tab-timeline]'));
    expect(range()).not.toBe(full); // centred on the finding's event
    expect(document.activeElement?.classList.contains('tl-canvas')).toBe(false);
    await click($(m.container, '[data-testid=tab-events]'));
    await click($(m.container, '[data-testid=tab-timeline]'));
    expect(range()).toBe(full); // not re-applied on a later visit
    await click($(m.container, '[data-testid=show-in-timeline]'));
    expect(document.activeElement?.classList.contains('tl-canvas')).toBe(true);
  });
});

describe('timeline geometry', () => {
  it('niceStep, lowerBound, zoom and pan', () => {
    expect(niceStep(1000, 900)).toBe(100);
    expect(niceStep(60_000, 900)).toBe(10_000);
    const evs = [1, 5, 9].map((t, index) => ({ t, index }) as never);
    expect(lowerBound(evs, 0)).toBe(0);
    expect(lowerBound(evs, 5)).toBe(1);
    expect(lowerBound(evs, 10)).toBe(3);
    expect(zoomView({ start: 0, end: 100 }, 0.5, 50)).toEqual({ start: 25, end: 75 });
    expect(zoomView({ start: 0, end: 100 }, 0.5, 0)).toEqual({ start: 0, end: 50 });
    expect(panView({ start: 0, end: 100 }, 10)).toEqual({ start: 10, end: 110 });
  });
});

describe('streams named by their lane labels', () => {
  it('a finding, a request and an event name their streams as the timeline does, never by internal id', async () => {
    m = await mount(<InspectorApp source={createStaticSource(lossy)} analyzerFactory={factory} mode="viewer" />);
    const labels = $$(m.container, '.tl-label .l1').map((e) => e.textContent);
    expect(labels).toContain('GET resumed (Last-Event-ID 11)');
    await click($(m.container, '[data-testid=tab-findings]'));
    await click($(m.container, '[data-testid=finding-row][data-code=replay-gap]'));
    const streams = $(m.container, '[data-testid=finding-streams]')!.textContent!;
    expect(streams).toContain('GET resumed (Last-Event-ID 11)');
    expect(streams).toContain('POST #2 tools/call');
    expect(m.container.textContent).not.toMatch(/node:lossy:c\d/);
    await click($(m.container, '[data-testid=tab-requests]'));
    await click($(m.container, '[data-testid=request-row][data-request-id="2"]'));
    expect($(m.container, '[data-testid=request-detail]')!.textContent).toContain('result on GET resumed (Last-Event-ID 11)');
    expect(m.container.textContent).not.toMatch(/node:lossy:c\d/);
    // a lane label is a way to the lane
    await click([...$(m.container, '[data-testid=request-detail]')!.querySelectorAll('button')].find((b) => b.textContent === 'POST #2 tools/call'));
    expect($(m.container, '[data-testid=tab-timeline]')!.getAttribute('aria-selected')).toBe('true');
  });

  it('a finding message that names a stream by its internal id shows the lane label (the core words it; the panel names the stream)', async () => {
    const dup = captureRecords('duplicate-replay');
    m = await mount(<InspectorApp source={createStaticSource(dup)} analyzerFactory={factory} mode="viewer" />);
    const raw = (globalThis as { __MSI_UI__?: { snapshot(): { findings: { code: string; message: string }[] } } }).__MSI_UI__!.snapshot().findings.find((f) => f.code === 'replay-duplicate')!;
    expect(raw.message).toMatch(/first on stream node:duplicate-replay:c\d/); // the core's text today
    await click($(m.container, '[data-testid=tab-findings]'));
    await click($(m.container, '[data-testid=finding-row][data-code=replay-duplicate]'));
    const detail = $(m.container, '[data-testid=finding-detail]')!.textContent!;
    expect(detail).toMatch(/first on stream “POST #2 tools\/call”/);
    expect(m.container.textContent).not.toMatch(/node:duplicate-replay:c\d/);
  });

  it('timeline buttons: zoom, whole session, next/previous finding', async () => {
    m = await mount(<InspectorApp source={createStaticSource(lossy)} analyzerFactory={factory} mode="viewer" />);
    const full = range();
    await click($(m.container, '[data-testid=tl-zoom-in]'));
    expect(range()).not.toBe(full);
    await click($(m.container, '[data-testid=tl-reset]'));
    expect(range()).toBe(full);
    await click($(m.container, '[data-testid=tl-next-finding]'));
    const a = $(m.container, '.tl-canvas')!.getAttribute('aria-activedescendant');
    expect(m.container.querySelector(`#${a}`)!.getAttribute('aria-label')).toMatch(/replay-gap/);
    await click($(m.container, '[data-testid=tl-next-finding]'));
    const b = $(m.container, '.tl-canvas')!.getAttribute('aria-activedescendant');
    expect(m.container.querySelector(`#${b}`)!.getAttribute('aria-label')).toMatch(/lossy-result-accepted/);
    await click($(m.container, '[data-testid=tl-prev-finding]'));
    expect($(m.container, '.tl-canvas')!.getAttribute('aria-activedescendant')).toBe(a);
  });
});

describe('timeline lanes are virtualized', () => {
  it('draws only the lanes in view of the body (labels and marks), the rest is room of their height', async () => {
    const { manyCalls } = await import('../test-support/generated');
    m = await mount(<InspectorApp source={createStaticSource(manyCalls(300, 2))} analyzerFactory={factory} mode="viewer" />);
    // The import is time-sliced: on a loaded machine one tick does not read all 300 calls (a
    // clean-clone CI run measured 81 of 301 lanes here). Wait until it is done.
    await until(() => expect((globalThis as { __MSI_UI__?: UiTestHook }).__MSI_UI__!.progress!()).toBeUndefined());
    const tl = $(m.container, '[data-testid=timeline]')!;
    const labels = $$(tl, '.tl-label');
    // 301 lanes (initialize and 300 calls): a screen of them and the overscan, not all
    expect(labels.length).toBeGreaterThan(5);
    expect(labels.length).toBeLessThan(60);
    const lanesDrawn = new Set($$(tl, '[data-ev]').map((e) => e.getAttribute('data-ev')!.split(':')[0]));
    expect(lanesDrawn.size).toBeGreaterThan(0);
    expect(lanesDrawn.size).toBeLessThanOrEqual(labels.length);
    const room = $$(tl, '.tl-lanes-room');
    const h = labels[0]!.style.height;
    const total = room.reduce((n, r) => n + parseFloat(r.style.height), 0) + labels.length * parseFloat(h);
    expect(total).toBe(301 * parseFloat(h));
    // scrolled to the end: the last lanes are drawn, the first are not
    const body = $(tl, '.tl-body')!;
    await act(async () => {
      body.scrollTop = 301 * parseFloat(h);
      body.dispatchEvent(new Event('scroll'));
      await new Promise((r) => setTimeout(r, 20));
    });
    const after = $$(tl, '.tl-label').map((l) => l.textContent);
    expect(after.some((t) => t?.includes('tools/call'))).toBe(true);
    expect(after).not.toEqual(labels.map((l) => l.textContent));
  });
});

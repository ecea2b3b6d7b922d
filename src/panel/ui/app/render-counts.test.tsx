// @vitest-environment happy-dom
// Render counts (issue 22): a panel renders at the pace of its snapshots. Records that add events
// to a stream already shown change the timeline and the toolbar's counts, not the sessions list,
// the banners, the capture strip, the session's frame or the toolbar itself.
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CaptureRecord } from '../../../core/record';
import { createMutableSource } from '../sources/static-source';
import type { UiTestHook } from '../store/types';
import { coreAnalyzer as factory } from '../test-support/fixtures';
import { RecordWriter, initSession } from '../test-support/generated';
import { $, $$, mount, type Mounted } from '../test-support/render';
import { InspectorApp } from './InspectorApp';

let m: Mounted | undefined;
afterEach(() => {
  m?.unmount();
  m = undefined;
});

const sse = (id: number) => `id: ${id}\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `n ${id}` } })}\n\n`;

/** A live session with an open GET stream; `more(n)` gives n chunk records of one event each on it. */
function liveSession() {
  const w = new RecordWriter();
  const h = initSession(w, 'render-session');
  const get = w.request('GET', [['accept', 'text/event-stream'], ...h]);
  w.response(get);
  w.chunk(get, sse(1));
  const initial = w.records.splice(0);
  let id = 1;
  return {
    initial,
    more(n: number): CaptureRecord[] {
      for (let i = 0; i < n; i++) w.chunk(get, sse(++id), 10);
      return w.records.splice(0);
    },
  };
}

const hook = () => (globalThis as unknown as { __MSI_UI__: UiTestHook }).__MSI_UI__;

async function countRenders(tab: 'timeline' | 'events', records: number) {
  const live = liveSession();
  const source = createMutableSource(live.initial);
  const counts = new Map<string, number>();
  const probe = (v: string) => counts.set(v, (counts.get(v) ?? 0) + 1);
  m = await mount(<InspectorApp source={source} analyzerFactory={factory} mode="devtools" renderProbe={probe} />);
  await act(async () => void hook().snapshot());
  expect($$(m.container, '[data-testid=session-row]').length).toBe(1);
  if (tab === 'events') await act(async () => $(m!.container, '[data-testid=tab-events]')!.click());
  counts.clear();
  // one published snapshot per record: the live panel's worst case
  for (const r of live.more(records)) {
    source.push(r);
    await act(async () => void hook().snapshot());
  }
  expect(hook().snapshot().streams[Object.keys(hook().snapshot().streams).at(-1)!]!.events.length).toBe(records + 1);
  // what changed is shown: the toolbar's counts render on their own
  expect($(m.container, '.tb-status')!.textContent).toContain(`${records + 2} events`);
  return Object.fromEntries(counts);
}

describe('render counts: records that add events to a shown stream', () => {
  it('a new stream in the session does re-render the sessions list (the count of streams changed)', async () => {
    const live = liveSession();
    const source = createMutableSource(live.initial);
    const counts = new Map<string, number>();
    m = await mount(<InspectorApp source={source} analyzerFactory={factory} mode="devtools" renderProbe={(v) => counts.set(v, (counts.get(v) ?? 0) + 1)} />);
    await act(async () => void hook().snapshot());
    counts.clear();
    const w = new RecordWriter('other');
    const c = w.request('GET', [['accept', 'text/event-stream'], ['mcp-session-id', 'render-session'], ['mcp-protocol-version', '2025-11-25']]);
    w.response(c);
    source.push(...w.records);
    await act(async () => void hook().snapshot());
    expect(counts.get('sessions') ?? 0).toBeGreaterThan(0);
    expect($(m.container, '[data-testid=session-row] .srow-l3')!.textContent).toContain('3 streams');
  });

  it('re-render the timeline, not the sessions list, banners, capture strip, toolbar or the shell', async () => {
    const n = 20;
    const c = await countRenders('timeline', n);
    // eslint-disable-next-line no-console
    console.log('render counts (timeline tab)', JSON.stringify(c));
    expect(c.timeline ?? 0).toBeGreaterThanOrEqual(n);
    expect(c.timeline ?? 0).toBeLessThanOrEqual(n + 2);
    for (const v of ['sessions', 'banners', 'capture-notices', 'toolbar', 'shell', 'search', 'faults']) expect({ view: v, renders: c[v] ?? 0 }).toEqual({ view: v, renders: 0 });
    // The requests under the timeline are listed, and none of them changed: no row renders again.
    expect($$(m!.container, '[data-testid=summary-request-row]').length).toBeGreaterThan(0);
    expect(c['summary-row'] ?? 0).toBe(0);
  });

  it('on the events tab, the timeline (not shown) and the session list do not render', async () => {
    const n = 20;
    const c = await countRenders('events', n);
    // eslint-disable-next-line no-console
    console.log('render counts (events tab)', JSON.stringify(c));
    expect(c.timeline ?? 0).toBe(0);
    expect(c.events ?? 0).toBeGreaterThanOrEqual(n);
    for (const v of ['sessions', 'banners', 'capture-notices', 'toolbar', 'shell', 'search', 'faults']) expect({ view: v, renders: c[v] ?? 0 }).toEqual({ view: v, renders: 0 });
  });
});

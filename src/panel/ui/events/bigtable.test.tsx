// @vitest-environment happy-dom
// 100k events: the table renders only a window of rows, and filtering stays fast.
import { describe, expect, it } from 'vitest';
import type { AnalysisSnapshot, SseEvent, Stream } from '../../../core/model';
import { EMPTY_SNAPSHOT } from '../store/analysis';
import { InspectorApp } from '../app/InspectorApp';
import { createStaticSource } from '../sources/static-source';
import { $, $$, click, key, mount, type } from '../test-support/render';

function bigSnapshot(n: number): AnalysisSnapshot {
  const events: SseEvent[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const id = String(i + 1);
    const data = `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"chunk ${i}"}}`;
    events[i] = { index: i, id, cursor: id, event: 'message', data, t: 1_000_000 + i, raw: `id: ${id}\ndata: ${data}\n\n`, messages: [{ kind: 'notification', method: 'notifications/message' }], findings: i === 50_000 ? ['replay-gap'] : [] };
  }
  const stream: Stream = { id: 's:1', sessionKey: 'S', kind: 'get', method: 'GET', url: 'http://x/mcp', requestHeaders: [], responseHeaders: [], requestIds: [], resumedBy: [], start: 1_000_000, state: 'open', events, comments: 0, bytes: 0, transport: 'fetch' };
  return {
    ...EMPTY_SNAPSHOT,
    sessions: [{ key: 'S', sessionId: 'S', endpoint: 'http://x/mcp', origin: 'http://x', idScheme: { kind: 'contiguous', evidence: '' }, gaplessDeclared: false, lossless: false, losslessReasons: [], streamIds: ['s:1'], requestIds: [] }],
    streams: { 's:1': stream },
    requests: { S: [] },
    findings: [{ code: 'replay-gap', severity: 'error', sessionKey: 'S', sessionId: 'S', streamId: 's:1', eventIds: ['x'], eventIndex: 50_000, message: 'gap' }],
  };
}

describe('100k events', () => {
  it('renders a window of rows, jumps to a finding, filters', async () => {
    const snap = bigSnapshot(100_000);
    const m = await mount(<InspectorApp source={createStaticSource([])} analyzerFactory={() => ({ push() {}, snapshot: () => snap })} mode="viewer" />);
    // The timeline bins dense events instead of drawing 100k marks.
    expect(m.container.querySelectorAll('[data-testid=timeline] circle').length).toBeLessThan(2000);
    let t = performance.now();
    await click($(m.container, '[data-testid=tab-events]'));
    const rendered = $$(m.container, '[data-testid=event-row]').length;
    expect(rendered).toBeGreaterThan(10);
    expect(rendered).toBeLessThan(120);
    const body = $(m.container, '[data-testid=events-grid] .grid-body');
    await key(body, 'End');
    // (happy-dom does not scroll, so check the grid's active row rather than the rendered window)
    expect(body!.getAttribute('aria-activedescendant')).toBe('ev-row-99999');
    await click($(m.container, '[data-testid=show-events]'));
    expect($(m.container, '[data-testid=events-grid] .grid-body')!.getAttribute('aria-activedescendant')).toBe('ev-row-50000');
    expect($(m.container, '[data-testid=event-raw]')!.textContent).toContain('id: 50001');
    await type($(m.container, '[data-testid=tb-filter]') as HTMLInputElement, 'code:replay-gap');
    expect($$(m.container, '[data-testid=event-row]').map((r) => r.dataset.eventId)).toEqual(['50001']);
    await type($(m.container, '[data-testid=tb-filter]') as HTMLInputElement, '"chunk 99999"');
    expect($$(m.container, '[data-testid=event-row]').map((r) => r.dataset.eventId)).toEqual(['100000']);
    t = performance.now() - t;
    expect(t).toBeLessThan(10_000);
    m.unmount();
  });
});

// @vitest-environment happy-dom
// The live panel's capture health (issue 9): the toolbar indicator, the witness banner, the empty
// state that never says "waiting" while the network shows MCP traffic; and, in the viewer, the
// witness's records in the capture-notices strip.
import { describe, expect, it } from 'vitest';
import { createAnalyzer } from '../../../core';
import type { CaptureRecord } from '../../../core/record';
import { InspectorApp } from '../app/InspectorApp';
import { CaptureHealthContext } from './NetworkWitness';
import type { CaptureHealthSnapshot, CaptureHealthSource } from './network-witness-types';
import { createStaticSource } from '../sources/static-source';
import { captureRecords } from '../test-support/fixtures';
import { $, click, mount } from '../test-support/render';

const healthOf = (snap: CaptureHealthSnapshot): CaptureHealthSource => ({ subscribe: () => () => {}, getSnapshot: () => snap });
const unseen = (i: number) => ({
  method: 'POST',
  url: `http://127.0.0.1:9/mcp?${i}`,
  markers: ['text/event-stream'],
  reasonText: 'made by a worker (Web Worker or Service Worker): no content script runs there',
  t: 1_800_000_000_000 + i,
  body: 'pending' as const,
});

function live(records: CaptureRecord[], health: CaptureHealthSnapshot) {
  return mount(
    <CaptureHealthContext.Provider value={healthOf(health)}>
      <InspectorApp source={createStaticSource(records)} analyzerFactory={() => createAnalyzer()} mode="devtools" />
    </CaptureHealthContext.Provider>,
  );
}

describe('capture health in the live panel', () => {
  it('nothing captured but the network saw MCP requests: the banner counts them, the toolbar says so, the empty state does not say waiting', async () => {
    const m = await live([], { state: 'blind', label: '2 not captured', detail: 'Recording, but…', seen: 2, captured: 0, checking: 0, unseen: [unseen(1), unseen(2)] });
    try {
      const banner = $(m.container, '[data-testid=witness-banner]')!;
      expect(banner.textContent).toContain('2 MCP requests seen by the network but not captured');
      expect(banner.textContent).toContain('made by a worker');
      expect($(m.container, '[data-testid=capture-health]')!.getAttribute('data-state')).toBe('blind');
      const empty = $(m.container, '[data-testid=empty-state]')!.textContent!;
      expect(empty).not.toContain('Waiting for MCP traffic');
      expect(empty).toContain('the capture holds none of them');
      await click($(m.container, '[data-testid=witness-toggle]'));
      expect(m.container.querySelectorAll('[data-testid=witness-request]').length).toBe(2);
    } finally {
      m.unmount();
    }
  });

  it('while the witness is still checking, "MCP traffic on the network" instead of waiting; with nothing seen, waiting', async () => {
    const m = await live([], { state: 'recording', label: 'Recording', detail: 'Recording…', seen: 1, captured: 0, checking: 1, unseen: [] });
    try {
      expect($(m.container, '[data-testid=empty-state]')!.textContent).toContain('MCP traffic on the network: 1 request');
      expect($(m.container, '[data-testid=witness-banner]')).toBeNull();
    } finally {
      m.unmount();
    }
    const w = await live([], { state: 'recording', label: 'Recording', detail: 'Recording…', seen: 0, captured: 0, checking: 0, unseen: [] });
    try {
      expect($(w.container, '[data-testid=empty-state]')!.textContent).toContain('Waiting for MCP traffic');
      expect($(w.container, '[data-testid=capture-health]')!.textContent).toContain('Recording');
    } finally {
      w.unmount();
    }
  });

  it("the witness's gaps are in the banner, not repeated in the capture-notices strip; other notices stay there", async () => {
    const recs = captureRecords('lossy');
    const t = recs[recs.length - 1]!.t + 1;
    const all: CaptureRecord[] = [
      ...recs,
      { kind: 'capture-gap', src: 'network', seq: 1, t, lost: 1, conns: [], reason: 'not-seen-by-hook', method: 'GET', url: 'http://127.0.0.1:9/mcp', why: 'worker' },
      { kind: 'notice', src: 'network', seq: 2, t, level: 'error', code: 'cors-preflight-rejected', message: 'refused mcp-protocol-version', url: 'http://127.0.0.1:9/mcp' },
    ];
    const m = await live(all, { state: 'blind', label: '1 not captured', detail: '…', seen: 1, captured: 0, checking: 0, unseen: [unseen(1)] });
    try {
      const strip = $(m.container, '[data-testid=capture-notices]')!;
      // The core's words (src/core/presentation.ts), as in the Markdown report and audit.
      expect(strip.textContent).toContain('1 capture notice(s)');
      expect(strip.textContent).not.toContain('capture hook did not');
      expect(strip.textContent).not.toContain('lost');
      expect($(m.container, '[data-testid=witness-banner]')).toBeTruthy();
    } finally {
      m.unmount();
    }
  });
});

describe("the witness's records in the viewer", () => {
  it('not-seen-by-hook gaps are counted as MCP requests not captured, not as lost records', async () => {
    const recs = captureRecords('lossy');
    const t = recs[recs.length - 1]!.t + 1;
    const gap = (seq: number): CaptureRecord => ({ kind: 'capture-gap', src: 'network', seq, t: t + seq, lost: 1, conns: [], reason: 'not-seen-by-hook', method: 'POST', url: 'http://127.0.0.1:9/mcp', why: 'worker' });
    const m = await mount(<InspectorApp source={createStaticSource([...recs, gap(1), gap(2), gap(3)])} analyzerFactory={() => createAnalyzer()} mode="viewer" />);
    try {
      const strip = $(m.container, '[data-testid=capture-notices]')!;
      expect(strip.textContent).toContain("Capture: The browser's network view saw 3 MCP request(s) the capture hook did not");
      expect(strip.textContent).not.toContain('lost');
      expect($(m.container, '[data-testid=capture-health]')).toBeNull();
    } finally {
      m.unmount();
    }
  });
});

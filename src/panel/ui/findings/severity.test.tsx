// @vitest-environment happy-dom
// Marks follow each finding's own severity, not its code's usual one: the core lowers a live-gap
// whose ids may be in records the inspector lost to a warning, and the events table, the
// timeline and the event detail must not paint it as a server's error (⛔).
import { describe, expect, it } from 'vitest';
import { createAnalyzer, analyzeRecords } from '../../../core';
import { InspectorApp } from '../app/InspectorApp';
import { createStaticSource } from '../sources/static-source';
import { createSeverityIndex } from './severity-index';
import { Capture, call, ev, initSession, message, result } from '../../../../test/unit/core/helpers';
import { $, click, mount } from '../test-support/render';

const note = { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'x' } };
const notes = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, k) => ev(String(a + k), note)).join('');

/** Shared counter; the inspector loses records of GET stream y while POST x jumps 10 → 14. */
function scenario(lostOnOtherStream: boolean) {
  const c = new Capture();
  initSession(c);
  const y = c.request({ sessionId: 'sess-1' });
  c.response(y);
  c.chunk(y, notes(1, 9));
  const x = c.request({ sessionId: 'sess-1', body: call(2) });
  c.response(x);
  c.chunk(x, ev('10', message('a')));
  if (lostOnOtherStream) c.records.push({ kind: 'capture-gap', seq: 0, src: c.src, t: ++c.t, lost: 3, conns: [y], reason: 'buffer-cap' });
  for (let i = 14; i < 18; i++) c.chunk(x, ev(String(i), message(`m${i}`)));
  c.chunk(x, ev('18', result(2)));
  c.end(x);
  c.chunk(y, 'x\n\n' + notes(19, 20));
  c.end(y);
  return { records: c.records, x: `tab1:${x}` };
}

describe('finding severity on events', () => {
  for (const lost of [true, false]) {
    const want = lost ? 'warning' : 'error';
    it(`a live-gap ${lost ? 'that lost records may explain' : 'with nothing lost'} is marked as ${want} in the table, the timeline data and the detail`, async () => {
      const { records, x } = scenario(lost);
      const snap = analyzeRecords(records);
      const gap = snap.findings.find((f) => f.code === 'live-gap')!;
      expect(gap.severity).toBe(want);
      const st = snap.streams[x]!;
      const i = st.events.findIndex((e) => e.id === '14');
      expect(st.events.at(i)!.findings).toContain('live-gap');
      expect(createSeverityIndex(snap.findings).eventAt(x, i, st.events.at(i)!)).toBe(lost ? 'warning' : 'error');

      const m = await mount(<InspectorApp source={createStaticSource(records)} analyzerFactory={() => createAnalyzer()} mode="viewer" />);
      try {
        await click($(m.container, '[data-testid=tab-events]'));
        const row = $(m.container, '[data-testid=event-row][data-event-id="14"]')!;
        expect(row).toBeTruthy();
        expect(row.className).toContain(`row-${want}`);
        expect(row.className).not.toContain(`row-${lost ? 'error' : 'warning'}`);
        await click(row);
        const detail = $(m.container, '[data-testid=event-findings]')!;
        expect(detail.querySelector('.mono')!.className).toContain(`sev-${want}`);
      } finally {
        m.unmount();
      }
    });
  }
});

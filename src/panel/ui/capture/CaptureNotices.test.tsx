// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { createAnalyzer } from '../../../core';
import type { CaptureRecord } from '../../../core/record';
import { InspectorApp } from '../app/InspectorApp';
import { createStaticSource } from '../sources/static-source';
import { captureRecords } from '../test-support/fixtures';
import { $, click, mount } from '../test-support/render';

describe('capture notices in the app', () => {
  it('a gap of the panel store and notices show in a strip; a session-less gap does not blank the view', async () => {
    const recs = captureRecords('lossy');
    const lastT = recs[recs.length - 1]!.t;
    const all: CaptureRecord[] = [
      ...recs,
      { kind: 'notice', src: 'page', seq: 9001, t: lastT + 1, level: 'warning', code: 'hook-bypassed', message: 'fetch restored \u202Eevil' },
      { kind: 'capture-gap', src: 'panel-store', seq: 1, t: lastT + 2, lost: 40, conns: ['zz'], reason: 'buffer-cap' },
    ];
    const m = await mount(<InspectorApp source={createStaticSource(all)} analyzerFactory={() => createAnalyzer()} mode="viewer" />);
    try {
      const strip = $(m.container, '[data-testid=capture-notices]')!;
      expect(strip).toBeTruthy();
      expect(strip.getAttribute('data-worst')).toBe('error');
      // The core's words (src/core/presentation.ts), as in the Markdown report and audit.
      expect(strip.textContent).toContain('Capture: The inspector lost 40 record(s); 1 capture notice(s)');
      expect($(m.container, '[data-testid=tab-events]')).toBeTruthy(); // a session is shown
      await click($(m.container, '[data-testid=capture-notices-toggle]'));
      const items = [...m.container.querySelectorAll('[data-testid=capture-notice]')];
      expect(items.map((x) => x.getAttribute('data-code'))).toEqual(['capture-gap:buffer-cap', 'hook-bypassed']);
      expect(m.container.textContent).not.toContain('\u202E');
      expect(m.container.textContent).toContain('⟨U+202E⟩');
    } finally {
      m.unmount();
    }
  });

  it('a not-recording gap (capture while DevTools is closed off) is a warning that says so, not a loss', async () => {
    const recs = captureRecords('lossy');
    const lastT = recs[recs.length - 1]!.t;
    const all: CaptureRecord[] = [
      ...recs,
      { kind: 'capture-gap', src: 'rel1', seq: 50, t: lastT + 1, lost: 7, conns: ['c1'], reason: 'not-recording' },
      { kind: 'capture-gap', src: 'rel1', seq: 53, t: lastT + 2, lost: 5, conns: ['c2'], reason: 'not-recording' },
      { kind: 'notice', src: 'rel1', seq: 54, t: lastT + 3, level: 'info', code: 'not-recording', message: '2 connections ended before recording began' },
    ];
    const m = await mount(<InspectorApp source={createStaticSource(all)} analyzerFactory={() => createAnalyzer()} mode="viewer" />);
    try {
      const strip = $(m.container, '[data-testid=capture-notices]')!;
      expect(strip.getAttribute('data-worst')).toBe('warning');
      expect(strip.textContent).not.toContain('lost');
      expect(strip.textContent).toContain('12 record(s) were not kept (recording began only when DevTools opened)');
      await click($(m.container, '[data-testid=capture-notices-toggle]'));
      const gap = [...m.container.querySelectorAll('[data-testid=capture-notice]')].find((x) => x.getAttribute('data-code') === 'capture-gap:not-recording')!;
      expect(gap.className).toContain('sev-warning');
      expect(gap.textContent).toContain('×2');
      expect(gap.textContent).toContain('12 earlier record(s) were not kept');
      expect(gap.textContent).toContain('2 connection(s) affected');
      expect(gap.textContent).toContain('"capture while DevTools is closed" is off');
    } finally {
      m.unmount();
    }
  });
});

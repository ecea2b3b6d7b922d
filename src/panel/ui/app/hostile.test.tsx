// @vitest-environment happy-dom
// Random hostile strings in every page-controlled field: the UI renders every view without
// throwing, shows no raw bidi/control character, and creates no element from data.
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { InspectorApp } from './InspectorApp';
import { createStaticSource } from '../sources/static-source';
import { captureRecords, coreAnalyzer as factory } from '../test-support/fixtures';
import { poison } from '../test-support/hostile';
import { $, $$, click, mount } from '../test-support/render';

const nasty = fc.oneof(
  fc.constantFrom('\u202E', '\u2066', '\u200B', '\u0000', '\u001B[31m', '\uFEFF', '<img src=x onerror=alert(1)>', '<a href="javascript:alert(1)">x</a>', '|', '`', '\n', '\r', '"', '\\', '\u061C'),
  fc.string({ unit: 'binary', maxLength: 12 }),
);
const hostile = fc.array(nasty, { minLength: 1, maxLength: 4 }).map((a) => a.join(''));
const BAD = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/;

describe('hostile page data', () => {
  it('every view renders escaped text only', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(hostile, { minLength: 3, maxLength: 6 }), async (h) => {
        const recs = poison(captureRecords('lossy'), h);
        const m = await mount(<InspectorApp source={createStaticSource(recs)} analyzerFactory={factory} mode="viewer" testHook={false} />);
        try {
          for (const tab of ['timeline', 'events', 'requests', 'findings']) {
            await click($(m.container, `[data-testid=tab-${tab}]`));
            const rows = $$(m.container, '[data-testid=event-row], [data-testid=request-row], [data-testid=finding-row]');
            for (const r of rows.slice(0, 6)) await click(r);
            // each row's context menu too (its labels name ids from the page)
            for (const r of rows.slice(0, 4)) {
              await act(async () => void r.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true })));
              expect(m.container.textContent ?? '').not.toMatch(BAD);
              await act(async () => void document.dispatchEvent(new MouseEvent('mousedown', { bubbles: true })));
            }
            expect(m.container.textContent ?? '').not.toMatch(BAD);
            expect(m.container.querySelector('img, script, iframe, a[href], object, embed')).toBeNull();
          }
        } finally {
          m.unmount();
        }
      }),
      { numRuns: 12 },
    );
  }, 120_000);
});

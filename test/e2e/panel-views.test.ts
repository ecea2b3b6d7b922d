// The panel as a DevTools user meets it, in real DevTools over the demo's lossy run:
// - the view (tab, selected event, filter, column widths) survives a reload of the panel
//   (sessionStorage and chrome.storage.local in the real extension iframe) and a new capture of
//   the same page (the page reloaded and run again: a new session, the same event selected);
// - a 100k-event HAR (100 tool calls) imported through the panel's own Import input shows a progress bar and its
//   first records before the file is read (Cancel: src/panel/ui/app/import.test.tsx), and the timeline
//   draws the events as a density with the gap on top;
// - screenshots of every view (timeline, event selected, events with detail, an event's context
//   menu, requests, findings, search, settings, the 100k events table and timeline) in DevTools' light and dark
//   themes, docked right (narrow) and bottom (short): test-artifacts/screenshots/views-*.png.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../demo/server';
import { exportHar } from '../../src/export/har';
import { manyCalls } from '../../src/panel/ui/test-support/generated';
import { devtoolsFrontend } from '../support/devtools';
import { navigate, openInspected, type Harness } from '../support/extension';
import { clickTestId, keyOn, reloadPanel, rightClick, screenshot, setDevtoolsTheme, setDock, setInputFiles, showTab, snapSummary } from '../support/panel-ui';
import { waitFor } from '../support/wait';

let demo: DemoServer;
let h: Harness;
let dir: string;
let bigHar: string;

async function runLossy(): Promise<string> {
  await waitFor(() => h.evalPage('typeof window.__demo?.run === "function"'), { message: 'demo page ready' });
  const outcome = await h.evalPage('window.__demo.run("lossy")');
  expect(outcome.callSucceeded).toBe(true);
  const s = await waitFor(
    async () => {
      const x = await snapSummary(h.panel);
      return x.calls.includes('lossy') && x.codes.includes('replay-gap') ? x : null;
    },
    { timeoutMs: 20_000, message: 'live panel shows the lossy call' },
  );
  expect(s.calls).toContain('lossy');
  return h.panel.eval<string>(`document.querySelector('[data-testid=session-row][aria-selected=true]').dataset.sessionKey`);
}

beforeAll(async () => {
  demo = await startDemoServer({ mode: 'lossy' });
  dir = mkdtempSync(join(tmpdir(), 'msi-views-'));
  bigHar = join(dir, 'big-100k.har');
  // An agent's session of 100 tool calls with 1,000 notifications each: one HAR entry per call.
  writeFileSync(bigHar, exportHar(manyCalls(100, 1000, { gap: 3 })));
  h = await openInspected(demo.pageUrl({ mode: 'lossy', chunks: 6, delayMs: 50 }));
  await waitFor(() => h.panel.eval(`typeof globalThis.__MSI_UI__ === 'object'`), { message: 'inspector UI mounted' });
  await runLossy();
}, 180_000);

afterAll(async () => {
  await h?.close();
  await demo?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const view = () => h.panel.eval<{ tab: string; filter: string; sessionKey: string; selectedEvent?: { streamId: string; index: number }; columns: Record<string, unknown> }>('globalThis.__MSI_UI__.view()');
const selectedEventId = () => h.panel.eval<string | null>(`document.querySelector('[data-testid=event-row][aria-selected=true]')?.dataset.eventId ?? null`);

describe('the panel in real DevTools', () => {
  it('keeps the view across a reload of the panel and a new capture of the same page', async () => {
    await showTab(h.panel, 'findings');
    await h.panel.eval(`(() => { document.querySelector('[data-testid=finding-row][data-code=replay-gap]').click(); return true; })()`);
    await clickTestId(h.panel, 'tab-events');
    const id = await waitFor(selectedEventId, { message: 'the gap finding selects its event' });
    await h.panel.eval(`(() => { const i = document.querySelector('[data-testid=tb-filter]'); const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set; set.call(i, 'method:notifications'); i.dispatchEvent(new Event('input', { bubbles: true })); return true; })()`);
    await keyOn(h.panel, '[data-testid=events-grid] [data-testid=col-resizer]', 'ArrowRight', { shiftKey: true });
    const before = await view();
    expect(before.tab).toBe('events');
    expect(before.columns.events).toBeTruthy();

    await reloadPanel(h.panel);
    await waitFor(async () => (await selectedEventId()) === id, { timeoutMs: 20_000, message: 'the selected event is back after the panel reload' });
    const after = await view();
    expect({ tab: after.tab, filter: after.filter, sessionKey: after.sessionKey }).toEqual({ tab: 'events', filter: 'method:notifications', sessionKey: before.sessionKey });
    await waitFor(async () => JSON.stringify((await view()).columns.events) === JSON.stringify(before.columns.events), { message: 'column widths back from chrome.storage.local' });

    // The page reloaded and run again: a new document, a new MCP session.
    await navigate(h, demo.pageUrl({ mode: 'lossy', chunks: 6, delayMs: 50 }));
    const second = await runLossy();
    expect(second).not.toBe(before.sessionKey);
    await waitFor(async () => (await selectedEventId()) === id, { timeoutMs: 20_000, message: 'the same event selected in the new capture' });
    expect((await view()).tab).toBe('events');
    await h.panel.eval(`(() => { const i = document.querySelector('[data-testid=tb-filter]'); const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set; set.call(i, ''); i.dispatchEvent(new Event('input', { bubbles: true })); return true; })()`);
  });

  it('imports a 100k-event HAR progressively: a progress bar and the first records before the file is read, then the density with the gap on top', async () => {
    await setInputFiles(h.browser.cdp, h.panel.sessionId, '[data-testid=import-input]', [bigHar]);
    const early = await waitFor(
      () => h.panel.eval<{ n: number; reading: boolean } | null>(`(() => { const p = document.querySelector('[data-testid=import-progress]'); const b = document.querySelector('[data-testid=imported-banner]'); return b && p ? { n: globalThis.__MSI_UI__.records().length, reading: true } : null; })()`),
      { intervalMs: 10, timeoutMs: 30_000, message: 'the imported file is shown while it is still read' },
    );
    expect(early.n).toBeGreaterThan(0);
    await waitFor(() => h.panel.eval(`!document.querySelector('[data-testid=import-progress]') && !document.querySelector('[data-testid=analysis-progress]')`), { timeoutMs: 60_000, message: 'the HAR read and analysed' });
    const snap = await h.panel.eval<{ events: number; codes: string[] }>(`(() => { const s = globalThis.__MSI_UI__.snapshot(); return { events: Object.values(s.streams).reduce((n, x) => n + x.events.length, 0), codes: s.findings.map((f) => f.code) }; })()`);
    expect(snap.events).toBe(100_101); // 100 x (1,000 notifications + the result) + initialize
    expect(snap.codes).toContain('live-gap');
    await showTab(h.panel, 'timeline');
    const tl = await h.panel.eval<{ density: boolean; gapLast: boolean }>(`(() => { const els = [...document.querySelectorAll('[data-testid=timeline-density], [data-testid=timeline-gap]')]; return { density: els.some((e) => e.dataset.testid === 'timeline-density'), gapLast: els.at(-1)?.dataset.testid === 'timeline-gap' }; })()`);
    expect(tl).toEqual({ density: true, gapLast: true });
  });

  it('the 100k-event table shows every row in view wherever it is scrolled, and the keys reach the last row', async () => {
    // The long grids are virtualized by pages of rows (src/panel/ui/common/virtual.ts): whatever
    // the scroll position, the rendered rows must cover the visible band below the sticky header,
    // each at its own place, and nothing may be missing when the scroll stops inside a page.
    await showTab(h.panel, 'events');
    const report = await h.panel.eval<{ at: number; count: number; rendered: number; missing: number[]; misplaced: number }[]>(`(async () => {
      const el = document.querySelector('[data-testid=events-grid] .grid-body');
      const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const out = [];
      for (const f of [0, 0.0001, 0.37, 0.5, 0.8123, 1]) {
        el.scrollTop = Math.round((el.scrollHeight - el.clientHeight) * f);
        await frame();
        const box = el.getBoundingClientRect();
        const head = el.querySelector('[role=columnheader]').getBoundingClientRect().bottom;
        const rows = new Map([...el.querySelectorAll('[data-testid=event-row]')].map((r) => [Number(r.getAttribute('aria-rowindex')) - 2, r.getBoundingClientRect()]));
        const count = Number(el.getAttribute('aria-rowcount')) - 1;
        const first = Math.max(0, Math.floor((el.scrollTop) / 21));
        const missing = [];
        let misplaced = 0;
        for (let i = first; i < count; i++) {
          const want = box.top - el.scrollTop + 22 + i * 21;
          if (want >= box.bottom) break;
          if (want + 21 <= head) continue;
          const r = rows.get(i);
          if (!r) missing.push(i);
          else if (Math.abs(r.top - want) > 1) misplaced++;
        }
        out.push({ at: el.scrollTop, count, rendered: rows.size, missing, misplaced });
      }
      return out;
    })()`);
    for (const r of report) {
      expect(r.count).toBe(100_101);
      expect(r.missing).toEqual([]);
      expect(r.misplaced).toBe(0);
      expect(r.rendered).toBeLessThan(120);
    }
    await keyOn(h.panel, '[data-testid=events-grid] .grid-body', 'End');
    const end = await waitFor(
      () => h.panel.eval<{ active: string | null; shown: boolean } | null>(`(() => { const el = document.querySelector('[data-testid=events-grid] .grid-body'); const a = el.getAttribute('aria-activedescendant'); const row = a && document.getElementById(a); if (!row) return null; const r = row.getBoundingClientRect(), b = el.getBoundingClientRect(); return { active: a, shown: r.top >= b.top + 22 - 1 && r.bottom <= b.bottom + 1 }; })()`),
      { message: 'End selects the last row and scrolls it into view' },
    );
    expect(end).toEqual({ active: 'ev-row-100100', shown: true });
  });

  it('screenshots of every view, light and dark, docked right (narrow) and bottom (short)', async () => {
    const fe = await devtoolsFrontend(h.browser);
    const feSession = await h.browser.cdp.attach(fe.targetId);
    const written: string[] = [];
    const frame = () => h.panel.eval('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))');
    const shot = async (name: string) => {
      await frame();
      written.push(await screenshot(h.browser.cdp, feSession, `views-${name}`));
    };
    const esc = () => h.panel.eval(`(() => { document.activeElement?.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true })); return true; })()`);
    const combos = (['light', 'dark'] as const).flatMap((theme) => (['right', 'bottom'] as const).map((dock) => ({ theme, dock, tag: `${dock}-${theme}` })));
    // A 1280 x 900 browser window; DevTools docked into it gives the panel its real shape.
    await h.browser.cdp.send('Emulation.setDeviceMetricsOverride', { width: 1280, height: 900, deviceScaleFactor: 1, mobile: false }, feSession);
    const setup = async (c: (typeof combos)[number]) => {
      await setDevtoolsTheme(h.browser, c.theme === 'dark' ? 'dark' : 'default');
      await waitFor(() => h.panel.eval(`document.querySelector('[data-testid=msi-app]')?.classList.contains('theme-${c.theme}')`), { message: `panel in the ${c.theme} theme` });
      await setDock(h.browser, c.dock);
      const shape = c.dock === 'right' ? 'innerWidth < 820 && innerHeight > 600' : 'innerHeight < 560 && innerWidth > 1000';
      await waitFor(() => h.panel.eval(shape), { message: () => `docked ${c.dock}: a ${c.dock === 'right' ? 'narrow' : 'short'} panel` });
    };
    // The big import (shown since the previous test): its timeline in every shape.
    for (const c of combos) {
      await setup(c);
      await showTab(h.panel, 'events');
      // The table scrolled to a row inside a page of rows (virtual.ts), its scroll position off a row boundary.
      await h.panel.eval(`(() => { const el = document.querySelector('[data-testid=events-grid] .grid-body'); el.scrollTop = 21 * 50_003 + 7; return true; })()`);
      await shot(`events-100k-${c.tag}`);
      await showTab(h.panel, 'timeline');
      await shot(`timeline-100k-${c.tag}`);
    }
    await clickTestId(h.panel, 'back-to-live');
    await waitFor(() => h.panel.eval(`!document.querySelector('[data-testid=back-to-live]')`), { message: 'live capture shown' });
    for (const c of combos) {
      await setup(c);
      const tag = c.tag;
        await showTab(h.panel, 'events');
        await showTab(h.panel, 'timeline');
        await shot(`timeline-${tag}`);
        await clickTestId(h.panel, 'show-in-timeline');
        await shot(`timeline-selected-${tag}`);
        await clickTestId(h.panel, 'show-events');
        await waitFor(() => h.panel.eval(`!!document.querySelector('[data-testid=event-detail]')`), { message: 'event detail' });
        await shot(`events-${tag}`);
        await rightClick(h.panel, '[data-testid=event-row][aria-selected=true]');
        await waitFor(() => h.panel.eval(`!!document.querySelector('[data-testid=context-menu]')`), { message: 'context menu' });
        await shot(`events-menu-${tag}`);
        await esc();
        await showTab(h.panel, 'requests');
        await h.panel.eval(`(() => { [...document.querySelectorAll('[data-testid=request-row]')].find((r) => r.textContent.includes('tools/call'))?.click(); return true; })()`);
        await waitFor(() => h.panel.eval(`!!document.querySelector('[data-testid=request-detail]')`), { message: 'request detail' });
        await shot(`requests-${tag}`);
        await showTab(h.panel, 'findings');
        await h.panel.eval(`(() => { document.querySelector('[data-testid=finding-row][data-code=lossy-result-accepted]')?.click(); return true; })()`);
        await waitFor(() => h.panel.eval(`!!document.querySelector('[data-testid=finding-detail]')`), { message: 'finding detail' });
        await shot(`findings-${tag}`);
        await clickTestId(h.panel, 'tb-search');
        await h.panel.eval(`(() => { const i = document.querySelector('[data-testid=search-input]'); const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set; set.call(i, 'tools/call'); i.dispatchEvent(new Event('input', { bubbles: true })); return true; })()`);
        await waitFor(() => h.panel.eval(`/of \\d+/.test(document.querySelector('[data-testid=search-count]')?.textContent ?? '')`), { message: 'search results' });
        await clickTestId(h.panel, 'search-next');
        await shot(`search-${tag}`);
        await clickTestId(h.panel, 'tb-settings');
        await waitFor(() => h.panel.eval(`!!document.querySelector('[data-testid=settings-dialog]')`), { message: 'settings' });
        await shot(`settings-${tag}`);
        await h.panel.eval(`(() => { [...document.querySelectorAll('[data-testid=settings-dialog] button')].find((b) => /cancel/i.test(b.textContent))?.click(); return true; })()`);
        await h.panel.eval(`(() => { document.querySelector('.search-close')?.click(); return true; })()`);
        // The Export menu stays inside the panel, however narrow or short (it scrolls inside).
        await waitFor(() => h.panel.eval(`!document.querySelector('[data-testid=settings-dialog]')`), { message: 'settings closed (a modal dialog leaves the toolbar inert)' });
        await clickTestId(h.panel, 'tb-export');
        let menuState = '';
        const box = await waitFor(
          async () => {
            const b = await h.panel.eval<{ left: number; right: number; bottom: number; w: number; h: number; state: string }>(
              `(() => { const m = document.querySelector('.menu[role=menu]'); const state = JSON.stringify([...document.querySelectorAll('[role=menu], [role=dialog], [aria-expanded]')].map((e) => [e.tagName, e.className, e.getAttribute('style'), e.getAttribute('aria-expanded'), e.dataset.testid])); if (!m || getComputedStyle(m).visibility === 'hidden') return { state }; const r = m.getBoundingClientRect(); return { left: r.left, right: r.right, bottom: r.bottom, w: innerWidth, h: innerHeight, state }; })()`,
            );
            menuState = b.state;
            return b.w === undefined ? null : b;
          },
          { message: () => `export menu open; the panel had ${menuState}` },
        );
        expect(box.left).toBeGreaterThanOrEqual(0);
        expect(box.right).toBeLessThanOrEqual(box.w);
        expect(box.bottom).toBeLessThanOrEqual(box.h);
        await shot(`export-menu-${tag}`);
        await clickTestId(h.panel, 'tb-export');
        await waitFor(() => h.panel.eval(`document.querySelector('[data-testid=tb-export]').getAttribute('aria-expanded') === 'false'`), { message: 'export menu closed' });
    }
    await h.browser.cdp.send('Emulation.clearDeviceMetricsOverride', {}, feSession);
    await setDevtoolsTheme(h.browser, 'default');
    expect(written.length).toBe(8 + 4 * 9);
    for (const f of written) expect(readFileSync(f).length).toBeGreaterThan(10_000);
  });
});

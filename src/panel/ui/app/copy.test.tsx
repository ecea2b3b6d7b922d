// @vitest-environment happy-dom
// Context menus and copy, DevTools style: right-click or Shift+F10 on a row opens its menu,
// Ctrl/Cmd+C copies the selected row; an event as raw SSE or JSON, a request as cURL (and a resume
// of its stream with Last-Event-ID), a finding as Markdown with the report's escaping.
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CaptureRecord } from '../../../core/record';
import { createStaticSource } from '../sources/static-source';
import { captureRecords, coreAnalyzer } from '../test-support/fixtures';
import { $, click, key, mount, until, type Mounted } from '../test-support/render';
import { InspectorApp } from './InspectorApp';

let m: Mounted | undefined;
afterEach(() => {
  m?.unmount();
  m = undefined;
});

async function app(records: readonly CaptureRecord[] = captureRecords('lossy')) {
  const copied: string[] = [];
  m = await mount(<InspectorApp source={createStaticSource(records)} analyzerFactory={coreAnalyzer} mode="viewer" clipboard={async (t) => void copied.push(t)} />);
  return copied;
}

async function rightClick(el: Element | null) {
  if (!el) throw new Error('no element');
  await act(async () => {
    el.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true, clientX: 40, clientY: 40 }));
  });
}
const menuItem = (id: string) => $(document.body, `[data-testid=context-menu] [data-testid=${id}]`);

describe('copy', () => {
  it('an event: right-click menu (raw SSE, JSON, a resume after it as cURL), Ctrl+C, Shift+F10', async () => {
    const copied = await app();
    await click($(m!.container, '[data-testid=tab-events]'));
    const row = $(m!.container, '[data-testid=event-row][data-event-id="22"]');
    await rightClick(row);
    expect(row!.getAttribute('aria-selected')).toBe('true');
    await click(menuItem('menu-copy-raw'));
    await until(() => expect(copied.at(-1)).toMatch(/^event: message\nid: 22\ndata: \{"result"/));
    expect($(document.body, '[data-testid=context-menu]')).toBeNull();
    await rightClick(row);
    await click(menuItem('menu-copy-json'));
    await until(() => expect(JSON.parse(copied.at(-1)!)).toMatchObject({ id: 2, result: { content: [{ type: 'text' }] } }));
    await rightClick($(m!.container, '[data-testid=event-row][data-event-id="11"]'));
    await click(menuItem('menu-copy-resume-curl'));
    await until(() => expect(copied.at(-1)).toContain(`-H 'Last-Event-ID: 11'`));
    expect(copied.at(-1)).toMatch(/^curl 'http:\/\/127\.0\.0\.1:\d+\/mcp'/);
    expect(copied.at(-1)).toMatch(/-H 'mcp-session-id: [0-9a-f-]+'/);
    expect(copied.at(-1)).not.toContain('--data-raw');
    // keyboard: Ctrl+C copies the selected row; Shift+F10 opens its menu, Esc closes it
    const grid = $(m!.container, '[data-testid=events-grid] .grid-body')!;
    await key(grid, 'c', { ctrlKey: true });
    await until(() => expect(copied.at(-1)).toMatch(/^event: message\nid: 11\n/));
    await key(grid, 'F10', { shiftKey: true });
    const menu = $(document.body, '[data-testid=context-menu]')!;
    expect(document.activeElement?.getAttribute('data-testid')).toBe('menu-copy-raw');
    await key(menu, 'ArrowDown');
    expect(document.activeElement?.getAttribute('data-testid')).toBe('menu-copy-json');
    await key(menu, 'Escape');
    expect($(document.body, '[data-testid=context-menu]')).toBeNull();
  });

  it('a request as cURL, as the page sent it, and a resume of its stream with the last id received', async () => {
    const copied = await app();
    await click($(m!.container, '[data-testid=tab-requests]'));
    const row = $(m!.container, '[data-testid=request-row][data-request-id="2"]');
    await rightClick(row);
    await click(menuItem('menu-copy-curl'));
    await until(() => expect(copied.at(-1)).toContain('--data-raw'));
    const curl = copied.at(-1)!;
    expect(curl).toMatch(/--data-raw '\{"method":"tools\/call"/);
    expect(curl).toContain(`-H 'content-type: application/json'`);
    expect(curl).toContain(' \\\n  -H ');
    await rightClick(row);
    await click(menuItem('menu-copy-resume-curl'));
    await until(() => expect(copied.at(-1)).toContain(`-H 'Last-Event-ID: 22'`));
    expect(copied.at(-1)).toContain(`-H 'Accept: text/event-stream'`);
    expect(copied.at(-1)).toMatch(/ -N$/);
    // Ctrl+C on the selected request: the request as cURL
    await key($(m!.container, '[data-testid=requests-grid] .grid-body'), 'c', { metaKey: true });
    await until(() => expect(copied.at(-1)).toBe(curl));
  });

  it('a finding as Markdown: streams by their lane labels, page data escaped like the report', async () => {
    const sid = /"mcp-session-id","([^"]+)"/.exec(JSON.stringify(captureRecords('lossy')))![1]!;
    const hostile = JSON.stringify(captureRecords('lossy')).replaceAll(sid, `${sid}<img src=x onerror=alert(1)>\\u0060code\\u0060 *b* [l](javascript:x) |`);
    const copied = await app(JSON.parse(hostile) as CaptureRecord[]);
    await click($(m!.container, '[data-testid=tab-findings]'));
    await click($(m!.container, '[data-testid=finding-row][data-code=replay-gap]'));
    await key($(m!.container, '[data-testid=findings-grid] .grid-body'), 'c', { ctrlKey: true });
    await until(() => expect(copied.at(-1)).toMatch(/^\*\*⛔ `replay-gap`\*\* \(error\)/));
    const md = copied.at(-1)!;
    expect(md).toContain('- Stream: GET resumed (Last-Event-ID 11)');
    expect(md).not.toMatch(/node:lossy:c\d/);
    expect(md).not.toContain('<img');
    expect(md).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(md).not.toMatch(/(^|[^\\])`code/);
    // the same from the detail's button and the row's menu
    await click($(m!.container, '[data-testid=copy-finding-markdown]'));
    await until(() => expect(copied.at(-1)).toBe(md));
  });
});

// @vitest-environment happy-dom
// Search across every session: an event id, a request id, a text; next/previous with the buttons,
// Enter / Shift+Enter, F3; each result opened where it lives (its session, its tab, selected).
import { afterEach, describe, expect, it } from 'vitest';
import { InspectorApp } from '../app/InspectorApp';
import { createStaticSource } from '../sources/static-source';
import { captureRecords, coreAnalyzer } from '../test-support/fixtures';
import { $, $$, click, key, mount, type, type Mounted } from '../test-support/render';

let m: Mounted | undefined;
afterEach(() => {
  m?.unmount();
  m = undefined;
});

const two = () => [...captureRecords('lossy'), ...captureRecords('lossless')].sort((a, b) => a.t - b.t);
const selectedSession = () => $(m!.container, '[data-testid=session-row][aria-selected=true]')!.dataset.sessionKey;
const count = () => $(m!.container, '[data-testid=search-count]')!.textContent;

describe('search every session', () => {
  it('finds a request in each session and steps through them, switching session and tab', async () => {
    m = await mount(<InspectorApp source={createStaticSource(two())} analyzerFactory={coreAnalyzer} mode="viewer" />);
    const sessions = $$(m.container, '[data-testid=session-row]').map((r) => r.dataset.sessionKey);
    expect(sessions).toHaveLength(2);
    await key($(m.container, '.msi-root'), 'F', { ctrlKey: true, shiftKey: true });
    const input = $(m.container, '[data-testid=search-input]') as HTMLInputElement;
    expect(document.activeElement).toBe(input);
    await type(input, 'id:2');
    // request 2 (tools/call) in each session, and the events with id 2
    expect(count()).toMatch(/^– of \d+$/);
    await key(input, 'Enter');
    expect(count()).toMatch(/^1 of /);
    const firstSession = selectedSession();
    expect($(m.container, '[data-testid=tab-requests]')!.getAttribute('aria-selected')).toBe('true');
    expect($(m.container, '[data-testid=request-row][aria-selected=true]')!.dataset.requestId).toBe('2');
    await key(input, 'Enter');
    expect($(m.container, '[data-testid=tab-events]')!.getAttribute('aria-selected')).toBe('true');
    expect($(m.container, '[data-testid=event-row][aria-selected=true]')!.dataset.eventId).toBe('2');
    await click($(m.container, '[data-testid=search-next]'));
    expect(selectedSession()).not.toBe(firstSession);
    await key(input, 'Enter', { shiftKey: true });
    expect(selectedSession()).toBe(firstSession);
    await key(input, 'Escape');
    expect($(m.container, '[data-testid=search-bar]')).toBeNull();
  });

  it('finds text in event data and findings; F3 from anywhere goes to the next; no match says so', async () => {
    m = await mount(<InspectorApp source={createStaticSource(two())} analyzerFactory={coreAnalyzer} mode="viewer" />);
    await click($(m.container, '[data-testid=tb-search]'));
    const input = $(m.container, '[data-testid=search-input]') as HTMLInputElement;
    await type(input, 'replay-gap');
    await key(input, 'Enter');
    expect($(m.container, '[data-testid=tab-findings]')!.getAttribute('aria-selected')).toBe('true');
    expect($(m.container, '[data-testid=finding-row][aria-selected=true]')!.dataset.code).toBe('replay-gap');
    await type(input, 'sha256=');
    await key(document.body, 'F3');
    expect($(m.container, '[data-testid=event-row][aria-selected=true] [role=gridcell]:nth-child(5)')!.textContent).toBe('result');
    expect($(m.container, '[data-testid=event-raw]')!.textContent).toContain('sha256=');
    await type(input, 'no such text anywhere');
    expect(count()).toBe('No matches');
  });
});

// @vitest-environment happy-dom
// The selection and the view survive a reload of the panel (a new app over the same
// sessionStorage) and a new capture of the same page (new session id, new stream ids), as the
// Network panel keeps its columns and filters.
import { afterEach, describe, expect, it } from 'vitest';
import type { CaptureRecord } from '../../../core/record';
import { InspectorApp } from '../app/InspectorApp';
import { createMutableSource, createStaticSource } from '../sources/static-source';
import type { InspectorSource } from '../store/types';
import { captureRecords, coreAnalyzer } from '../test-support/fixtures';
import { $, click, mount, type, until, type Mounted } from '../test-support/render';
import { memoryViewStorage } from './persist';

let m: Mounted | undefined;
afterEach(() => {
  m?.unmount();
  m = undefined;
});

const lossy = captureRecords('lossy');
const sid = /"mcp-session-id","([^"]+)"/.exec(JSON.stringify(lossy))![1]!;
/** The same page captured again: another document, another session id. */
const again = (): CaptureRecord[] => JSON.parse(JSON.stringify(lossy).replaceAll(sid, 'second-session').replaceAll('"node:lossy"', '"node:again"')) as CaptureRecord[];

const app = (source: InspectorSource, viewStorage: ReturnType<typeof memoryViewStorage>) => <InspectorApp source={source} analyzerFactory={coreAnalyzer} mode="devtools" viewStorage={viewStorage} />;
const selectedEvent = () => $(m!.container, '[data-testid=event-row][aria-selected=true]')?.dataset.eventId;

describe('the view survives', () => {
  it('a reload of the panel: tab, selected event and finding, filter, search', async () => {
    const storage = memoryViewStorage();
    m = await mount(app(createStaticSource(lossy), storage));
    await click($(m.container, '[data-testid=tab-findings]'));
    await click($(m.container, '[data-testid=finding-row][data-code=replay-gap]'));
    await click($(m.container, '[data-testid=tab-events]'));
    expect(selectedEvent()).toBe('14');
    await type($(m.container, '[data-testid=tb-filter]') as HTMLInputElement, 'method:notifications');
    await click($(m.container, '[data-testid=tb-search]'));
    await type($(m.container, '[data-testid=search-input]') as HTMLInputElement, 'tools/call');
    m.unmount();

    m = await mount(app(createStaticSource(lossy), storage));
    expect($(m.container, '[data-testid=tab-events]')!.getAttribute('aria-selected')).toBe('true');
    expect(($(m.container, '[data-testid=tb-filter]') as HTMLInputElement).value).toBe('method:notifications');
    expect(selectedEvent()).toBe('14');
    expect(($(m.container, '[data-testid=search-input]') as HTMLInputElement).value).toBe('tools/call');
    await click($(m.container, '[data-testid=tab-findings]'));
    expect($(m.container, '[data-testid=finding-row][aria-selected=true]')?.dataset.code).toBe('replay-gap');
  });

  it('a reload before the records are back (the live store backfills later): the selection applies once they are', async () => {
    const storage = memoryViewStorage();
    m = await mount(app(createStaticSource(lossy), storage));
    await click($(m.container, '[data-testid=tab-requests]'));
    await click($(m.container, '[data-testid=request-row][data-request-id="1"]'));
    m.unmount();
    const src = createMutableSource([]);
    m = await mount(app(src, storage));
    src.push(...lossy);
    await until(() => expect($(m!.container, '[data-testid=request-row][aria-selected=true]')?.dataset.requestId).toBe('1'));
  });

  it('a new capture of the same page: the same event, request and tab in the new session', async () => {
    const storage = memoryViewStorage();
    const src = createMutableSource(lossy);
    m = await mount(app(src, storage));
    await click($(m.container, '[data-testid=tab-events]'));
    await click($(m.container, '[data-testid=event-row][data-event-id="17"]'));
    const first = $(m.container, '[data-testid=session-row]')!.dataset.sessionKey;
    src.clear();
    src.push(...again());
    await until(() => expect($(m!.container, '[data-testid=session-row]')!.dataset.sessionKey).toBe('second-session'));
    expect(first).not.toBe('second-session');
    expect($(m.container, '[data-testid=tab-events]')!.getAttribute('aria-selected')).toBe('true');
    await until(() => expect(selectedEvent()).toBe('17'));
    expect($(m.container, '[data-testid=event-detail]')!.textContent).toContain('GET resumed (Last-Event-ID 11)');
  });
});

// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CaptureRecord } from '../../../core/record';
import { InspectorApp } from './InspectorApp';
import { createMemoryStorageAdapter, SETTINGS_KEY } from '../settings/settings';
import { createMutableSource, createStaticSource } from '../sources/static-source';
import type { InspectorSettings, UiTestHook } from '../store/types';
import { captureRecords, coreAnalyzer as factory } from '../test-support/fixtures';
import { $, $$, click, key, mount, tick, type, until, type Mounted } from '../test-support/render';

const lossy = captureRecords('lossy');
let m: Mounted | undefined;
afterEach(() => {
  m?.unmount();
  m = undefined;
});

describe('InspectorApp on a lossy capture', () => {
  it('shows the worst finding, its missing ids and the advice on the first screen', async () => {
    m = await mount(<InspectorApp source={createStaticSource(lossy, 'lossy')} analyzerFactory={factory} mode="viewer" theme="light" />);
    const rows = $$(m.container, '[data-testid=session-row]');
    expect(rows.length).toBe(1);
    expect(rows[0]!.getAttribute('aria-selected')).toBe('true');
    expect(rows[0]!.dataset.lossless).toBe('false');
    const callout = $(m.container, '[data-testid=worst-finding]')!;
    expect(callout.dataset.code).toBe('lossy-result-accepted');
    expect(callout.textContent).toContain('lossy-result-accepted');
    expect(callout.textContent).toContain('12–13');
    expect(callout.textContent).toMatch(/Discard the accumulated state/);
    expect($(m.container, '[data-testid=lossy-detail]')!.textContent).toMatch(/Cumulative notifications accumulated: \d+/);
    // timeline with the gap drawn and the reconnect label
    expect($(m.container, '[data-testid=timeline-gap]')).toBeTruthy();
    expect($(m.container, '[data-testid=timeline]')!.textContent).toContain('Last-Event-ID: 11');
    expect($(m.container, '[data-testid=summary-request-row][data-request-id="2"] [data-verdict]')!.dataset.verdict).toBe('lossy');
  });

  it('requests view shows verdicts and the lossy detail', async () => {
    m = await mount(<InspectorApp source={createStaticSource(lossy)} analyzerFactory={factory} mode="viewer" theme="dark" />);
    expect($(m.container, '.msi-root')!.className).toContain('theme-dark');
    await click($(m.container, '[data-testid=tab-requests]'));
    expect($(m.container, '[data-testid="verdict-2"]')!.dataset.verdict).toBe('lossy');
    expect($(m.container, '[data-testid="verdict-0"]')!.dataset.verdict).toBe('complete');
    await click($(m.container, '[data-testid=request-row][data-request-id="2"]'));
    const d = $(m.container, '[data-testid=request-detail]')!;
    expect(d.textContent).toContain('12–13');
    expect(d.textContent).toMatch(/re-issue the request or read the state explicitly/);
    // the notifications list shows the hole where the lost ids were
    expect($(m.container, '[data-testid=notification-gap]')!.textContent).toContain('12–13');
    await key($(m.container, '[data-testid=requests-grid] .grid-body'), 'Enter');
    expect($(m.container, '[data-testid=tab-events]')!.getAttribute('aria-selected')).toBe('true');
    expect($(m.container, '[data-testid=event-raw]')!.textContent).toMatch(/"result"/);
  });

  it('findings view lists codes; selecting jumps to timeline and events', async () => {
    m = await mount(<InspectorApp source={createStaticSource(lossy)} analyzerFactory={factory} mode="viewer" />);
    await click($(m.container, '[data-testid=tab-findings]'));
    const codes = $$(m.container, '[data-testid=finding-row]').map((r) => r.dataset.code);
    expect(codes).toContain('replay-gap');
    expect(codes[0]).toBe('lossy-result-accepted');
    const gapRow = $(m.container, '[data-testid=finding-row][data-code=replay-gap]');
    await click(gapRow);
    expect($(m.container, '[data-testid=finding-detail]')!.textContent).toContain('replay-gap');
    await click([...$(m.container, '[data-testid=finding-detail]')!.querySelectorAll('button')].find((b) => b.textContent === 'Show in events'));
    expect($(m.container, '[data-testid=tab-events]')!.getAttribute('aria-selected')).toBe('true');
    const sel = $(m.container, '[data-testid=event-row][aria-selected=true]');
    expect(sel?.dataset.eventId).toBe('14');
    expect($(m.container, '[data-testid=event-raw]')!.textContent).toContain('id: 14');
    await click($(m.container, '[data-testid=tab-findings]'));
    await click($(m.container, '[data-testid=finding-row][data-code=replay-gap]'));
    // selecting a finding selects its event: the table opens on it
    await click($(m.container, '[data-testid=tab-events]'));
    expect($(m.container, '[data-testid=event-row][aria-selected=true]')?.dataset.eventId).toBe('14');
    await click($(m.container, '[data-testid=tab-findings]'));
    await key($(m.container, '[data-testid=findings-grid] .grid-body'), 'Enter');
    expect($(m.container, '[data-testid=tab-timeline]')!.getAttribute('aria-selected')).toBe('true');
  });

  it('events table: keyboard, filter by code/method/text, / focuses the filter', async () => {
    m = await mount(<InspectorApp source={createStaticSource(lossy)} analyzerFactory={factory} mode="viewer" />);
    await click($(m.container, '[data-testid=tab-events]'));
    const all = $$(m.container, '[data-testid=event-row]').length;
    expect(all).toBeGreaterThan(10);
    const body = $(m.container, '[data-testid=events-grid] .grid-body');
    await key(body, 'ArrowDown');
    await key(body, 'ArrowDown');
    expect($$(m.container, '[data-testid=event-row]').findIndex((r) => r.getAttribute('aria-selected') === 'true')).toBe(1);
    await key(body, 'End');
    expect($(m.container, '[data-testid=event-row][aria-selected=true] [role=gridcell]:nth-child(5)')!.textContent).toBe('result');
    await key($(m.container, '.msi-root'), '/');
    expect(document.activeElement).toBe($(m.container, '[data-testid=tb-filter]'));
    await type($(m.container, '[data-testid=tb-filter]') as HTMLInputElement, 'code:replay-gap');
    expect($$(m.container, '[data-testid=event-row]').map((r) => r.dataset.eventId)).toEqual(['14']);
    await type($(m.container, '[data-testid=tb-filter]') as HTMLInputElement, 'method:notifications/progress');
    const prog = $$(m.container, '[data-testid=event-row]').length;
    expect(prog).toBeGreaterThan(0);
    expect(prog).toBeLessThan(all);
    // request:2 includes its notifications on the resumed GET, not the other requests' events
    await type($(m.container, '[data-testid=tb-filter]') as HTMLInputElement, 'request:2');
    const ids = $$(m.container, '[data-testid=event-row]').map((r) => r.dataset.eventId);
    expect(ids).toContain('14');
    expect(ids).not.toContain('1');
    await key($(m.container, '[data-testid=tb-filter]'), 'Escape');
    expect(($(m.container, '[data-testid=tb-filter]') as HTMLInputElement).value).toBe('');
  });

  it('test hook exposes the snapshot and exports', async () => {
    m = await mount(<InspectorApp source={createStaticSource(lossy)} analyzerFactory={factory} mode="viewer" />);
    const hook = (globalThis as { __MSI_UI__?: UiTestHook }).__MSI_UI__!;
    expect(hook.snapshot().findings.map((f) => f.code)).toContain('lossy-result-accepted');
    const har = JSON.parse(hook.exportAs('har')) as { log: { entries: unknown[] } };
    expect(har.log.entries.length).toBeGreaterThan(3);
    expect(hook.exportAs('markdown')).toContain('`lossy-result-accepted`');
    expect(() => {
      (globalThis as { __MSI_UI__?: unknown }).__MSI_UI__ = 1;
    }).toThrow();
  });
});

describe('hostile data', () => {
  it('renders bidi/control characters escaped and never creates markup from data', async () => {
    const h = (s: string) => `${s}\u202Eevil\u0007 <img src=x onerror=alert(1)> | \`x\``;
    const recs: CaptureRecord[] = lossy.map((r) => {
      if (r.kind === 'chunk' && r.conn === 'c5') return { ...r, text: r.text.replace('hotel kilo', JSON.stringify(h('chunk')).slice(1, -1)) };
      if (r.kind === 'response' && r.conn === 'c1') return { ...r, headers: r.headers.map(([k, v]) => [k, k === 'mcp-session-id' ? h('sess') : v] as [string, string]) };
      return r;
    });
    m = await mount(<InspectorApp source={createStaticSource(recs)} analyzerFactory={factory} mode="viewer" />);
    await click($(m.container, '[data-testid=tab-events]'));
    for (const r of $$(m.container, '[data-testid=event-row]')) {
      await click(r);
      if ($(m.container, '[data-testid=event-raw]')!.textContent!.includes('evil')) break;
    }
    const text = m.container.textContent!;
    expect(text).toContain('⟨U+202E⟩evil⟨U+0007⟩');
    expect(text).not.toMatch(/[\u202E\u0007]/);
    expect(m.container.querySelector('img')).toBeNull();
    expect(m.container.querySelector('a[href]')).toBeNull();
  });
});

describe('import, settings, live updates', () => {
  it('a bad file shows one clear error and leaves the capture untouched', async () => {
    m = await mount(<InspectorApp source={createStaticSource(lossy)} analyzerFactory={factory} mode="devtools" />);
    const before = $$(m.container, '[data-testid=session-row]').length;
    const input = $(m.container, '[data-testid=import-input]') as HTMLInputElement;
    const file = new File(['{"not":"a capture"}'], 'bad.json', { type: 'application/json' });
    Object.defineProperty(input, 'files', { value: [file], configurable: true });
    await vi.waitFor(async () => {
      input.dispatchEvent(new Event('change', { bubbles: true }));
      await tick(20);
      expect($(m!.container, '[data-testid=error-banner]')).toBeTruthy();
    });
    expect($$(m.container, '[role=alert]')).toHaveLength(1);
    expect($(m.container, '[data-testid=error-banner]')!.textContent).toMatch(/Could not open bad\.json: not a HAR 1\.2 file nor an mcp-stream-inspector capture/);
    expect($$(m.container, '[data-testid=session-row]').length).toBe(before);
    expect($(m.container, '[data-testid=worst-finding]')!.dataset.code).toBe('lossy-result-accepted');
  });

  it('a capture file with a record outside the record contract: one error naming the path; the capture stays', async () => {
    m = await mount(<InspectorApp source={createStaticSource(lossy)} analyzerFactory={factory} mode="devtools" />);
    const before = $$(m.container, '[data-testid=session-row]').length;
    const input = $(m.container, '[data-testid=import-input]') as HTMLInputElement;
    const bad = [...lossy.slice(0, 3), { kind: 'capture-gap', seq: 4, src: 'tab', t: 1, lost: 2, conns: [], reason: 'made-up' }, ...lossy.slice(3)];
    const file = new File([JSON.stringify({ format: 'mcp-stream-inspector', version: 1, createdAt: 'x', records: bad })], 'bad-record.json', { type: 'application/json' });
    Object.defineProperty(input, 'files', { value: [file], configurable: true });
    await vi.waitFor(async () => {
      input.dispatchEvent(new Event('change', { bubbles: true }));
      await tick(20);
      expect($(m!.container, '[data-testid=error-banner]')).toBeTruthy();
    });
    expect($$(m.container, '[role=alert]')).toHaveLength(1);
    expect($(m.container, '[data-testid=error-banner]')!.textContent).toContain(
      'Could not open bad-record.json: invalid capture file: records[3].reason: not one of buffer-cap, event-size-cap, extension-reloaded, hook-missing, import, not-recording, not-seen-by-hook, other',
    );
    expect($$(m.container, '[data-testid=session-row]').length).toBe(before);
    expect($(m.container, '[data-testid=worst-finding]')!.dataset.code).toBe('lossy-result-accepted');
  });

  it('a file dropped on the panel opens', async () => {
    m = await mount(<InspectorApp source={createStaticSource([])} analyzerFactory={factory} mode="viewer" />);
    const file = new File([JSON.stringify({ format: 'mcp-stream-inspector', version: 1, createdAt: 'x', records: lossy })], 'dropped.json');
    const root = $(m.container, '.msi-root')!;
    const ev = new Event('drop', { bubbles: true, cancelable: true }) as Event & { dataTransfer: unknown };
    Object.defineProperty(ev, 'dataTransfer', { value: { files: [file], types: ['Files'] } });
    await vi.waitFor(async () => {
      if (!$(m!.container, '[data-testid=session-row]')) root.dispatchEvent(ev);
      await tick(20);
      expect($(m!.container, '[data-testid=worst-finding]')?.dataset.code).toBe('lossy-result-accepted');
    });
  });

  it('a good file replaces the view; Back to live restores it', async () => {
    const src = createMutableSource([]);
    m = await mount(<InspectorApp source={src} analyzerFactory={factory} mode="devtools" />);
    expect($(m.container, '[data-testid=empty-state]')).toBeTruthy();
    const input = $(m.container, '[data-testid=import-input]') as HTMLInputElement;
    const file = new File([JSON.stringify({ format: 'mcp-stream-inspector', version: 1, createdAt: 'x', records: lossy })], 'good.json');
    Object.defineProperty(input, 'files', { value: [file], configurable: true });
    await vi.waitFor(async () => {
      input.dispatchEvent(new Event('change', { bubbles: true }));
      await tick(20);
      expect($(m!.container, '[data-testid=imported-banner]')).toBeTruthy();
    });
    expect($(m.container, '[data-testid=worst-finding]')!.dataset.code).toBe('lossy-result-accepted');
    await click([...$(m.container, '[data-testid=imported-banner]')!.querySelectorAll('button')][0]);
    expect($(m.container, '[data-testid=empty-state]')).toBeTruthy();
  });

  it('settings persist through the storage adapter and are reported', async () => {
    const storage = createMemoryStorageAdapter({ [SETTINGS_KEY]: { captureBufferCap: 5000, resyncEventNames: ['reset'] } });
    const seen: InspectorSettings[] = [];
    const why: string[] = [];
    m = await mount(
      <InspectorApp
        source={createStaticSource(lossy)}
        analyzerFactory={factory}
        mode="devtools"
        storage={storage}
        onSettingsChange={(s, reason) => {
          seen.push(s);
          why.push(reason);
        }}
      />,
    );
    expect(seen[0]!.captureBufferCap).toBe(5000);
    expect(seen[0]!.resyncEventNames).toEqual(['reset']);
    await click($(m.container, '[data-testid=tb-settings]'));
    const dlg = $(m.container, '[data-testid=settings-dialog]')!;
    const cap = dlg.querySelector('input[type=number]') as HTMLInputElement;
    await type(cap, '20000');
    const box = dlg.querySelector('input[type=checkbox]') as HTMLInputElement;
    await click(box);
    await click($(m.container, '[data-testid=settings-save]'));
    await tick(5);
    expect($(m.container, '[data-testid=settings-dialog]')).toBeNull();
    expect((storage.data[SETTINGS_KEY] as InspectorSettings).captureBufferCap).toBe(20000);
    expect((storage.data[SETTINGS_KEY] as InspectorSettings).captureWhileClosed).toBe(true);
    expect(seen.at(-1)!.captureWhileClosed).toBe(true);
    expect(why).toEqual(['load', 'save']);
  });

  it('an invalid id-scheme pattern cannot be saved', async () => {
    m = await mount(<InspectorApp source={createStaticSource(lossy)} analyzerFactory={factory} mode="viewer" />);
    await click($(m.container, '[data-testid=tb-settings]'));
    const dlg = $(m.container, '[data-testid=settings-dialog]')!;
    await click([...dlg.querySelectorAll('button')].find((b) => b.textContent === 'Add override'));
    await type(dlg.querySelector('input[aria-label="Origin 1"]') as HTMLInputElement, 'http://127.0.0.1:1');
    await type(dlg.querySelector('input[aria-label="Pattern 1"]') as HTMLInputElement, '^(\\d+$');
    expect(dlg.textContent).toContain('Not a valid regular expression');
    expect(($(m.container, '[data-testid=settings-save]') as HTMLButtonElement).disabled).toBe(true);
    await type(dlg.querySelector('input[aria-label="Pattern 1"]') as HTMLInputElement, '^(?<counter>\\d+)$');
    expect(($(m.container, '[data-testid=settings-save]') as HTMLButtonElement).disabled).toBe(false);
    await key(dlg, 'Escape');
    expect($(m.container, '[data-testid=settings-dialog]')).toBeNull();
  });

  it('live records appear as they arrive; controls drive the source', async () => {
    const src = createMutableSource([]);
    const calls: string[] = [];
    let status = { recording: true, preserveLog: false };
    const live = {
      ...src,
      controls: {
        getStatus: () => status,
        setRecording: (on: boolean) => {
          calls.push(`rec:${on}`);
          status = { ...status, recording: on };
        },
        setPreserveLog: (on: boolean) => {
          calls.push(`preserve:${on}`);
          status = { ...status, preserveLog: on };
        },
        clear: () => {
          calls.push('clear');
          src.clear();
        },
      },
    };
    const mounted = (m = await mount(<InspectorApp source={live} analyzerFactory={factory} mode="devtools" />));
    expect($(mounted.container, '[data-testid=tb-record]')).toBeTruthy();
    src.push(...lossy.slice(0, Math.floor(lossy.length / 2)));
    // Polled: the analysis publishes at an interval that adapts to what a publication costs.
    await until(() => expect($$(mounted.container, '[data-testid=session-row]').length).toBe(1));
    src.push(...lossy.slice(Math.floor(lossy.length / 2)));
    await until(() => expect($(mounted.container, '[data-testid=worst-finding]')).toBeTruthy());
    await click($(m.container, '[data-testid=preserve-log]'));
    await click($(m.container, '[data-testid=tb-record]'));
    await click($(m.container, '[data-testid=tb-clear]'));
    expect(calls).toEqual(['preserve:true', 'rec:false', 'clear']);
    await until(() => expect($$(mounted.container, '[data-testid=session-row]').length).toBe(0));
  });
});

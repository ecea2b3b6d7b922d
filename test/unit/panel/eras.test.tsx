// @vitest-environment happy-dom
// The eras in the panel (issue 12): the era badge of each session row, the header's era with its
// evidence, a 2026-07-28 conversation's client, re-issue link and subscription, and the timeline's
// re-issue link and outage window — on the SDK v2 captures.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createAnalyzer } from '../../../src/core';
import { importText } from '../../../src/core/import';
import { InspectorApp } from '../../../src/panel/ui/app/InspectorApp';
import { createMutableSource } from '../../../src/panel/ui/sources/static-source';
import { $, $$, click, mount, until, type Mounted } from '../../../src/panel/ui/test-support/render';

let m: Mounted | undefined;
afterEach(() => {
  m?.unmount();
  m = undefined;
});

const records = (name: string) => importText(readFileSync(`test/fixtures/captures/v2/${name}.capture.json`, 'utf8')).records;

async function show(name: string) {
  m = await mount(<InspectorApp source={createMutableSource(records(name))} analyzerFactory={() => createAnalyzer()} mode="devtools" />);
  await until(() => expect($(m!.container, '[data-testid=session-header]')).not.toBeNull());
  return m.container;
}

describe('eras in the panel', () => {
  it('modern-reissue: a 2026-07-28 conversation, its client, the re-issue link in the header and the timeline', async () => {
    const c = await show('modern-reissue');
    const badge = $(c, '[data-testid=session-row] [data-testid=era-badge]') as HTMLElement;
    expect(badge.dataset.era).toBe('modern');
    expect(badge.textContent).toBe('2026-07-28');
    expect($(c, '[data-testid=session-row]')!.textContent).toContain('fixture-agent-v2');
    const era = $(c, '[data-testid=session-era]') as HTMLElement;
    expect(era.dataset.serverEra).toBe('modern');
    expect(era.textContent).toMatch(/2026-07-28 \(modern\) — 2026-07-28: requests carry _meta/);
    expect($(c, '[data-testid=session-header]')!.textContent).toContain('client: fixture-agent-v2 2.0.0');
    const link = $(c, '[data-testid=request-link]') as HTMLElement;
    expect([link.dataset.kind, link.dataset.from, link.dataset.to]).toEqual(['reissue', '1', '2']);
    await until(() => expect($$(c, '[data-testid=timeline-request-link]').map((e) => (e as HTMLElement).dataset.kind)).toEqual(['reissue']));
    // The Requests view: the broken attempt names its re-issue, which opens on a click and names it back.
    await click($(c, '[data-testid=tab-requests]'));
    await until(() => expect($$(c, '[data-testid=request-row]').length).toBe(4));
    await click($$(c, '[data-testid=request-row]')[2]!);
    await until(() => expect($(c, '[data-testid=request-reissuedAs]')?.textContent).toBe('request 2'));
    await click($(c, '[data-testid=request-reissuedAs]'));
    await until(() => expect($(c, '[data-testid=request-reissueOf]')?.textContent).toBe('request 1'));
    expect($(c, '[data-testid=request-detail]')!.textContent).toContain('Request 2 · tools/call long_task');
  });

  it('modern-listen-drop: the dropped subscription in the header, its outage window in the timeline', async () => {
    const c = await show('modern-listen-drop');
    expect($$(c, '[data-testid=subscription]').map((e) => (e as HTMLElement).dataset.state)).toEqual(['dropped', 'closed']);
    await until(() => expect($$(c, '[data-testid=timeline-outage]')).toHaveLength(1));
  });

  it('era-modern-to-legacy: two sessions of one 2025 server, each with its own era badge', async () => {
    const c = await show('era-modern-to-legacy');
    await until(() => expect($$(c, '[data-testid=era-badge]').map((e) => (e as HTMLElement).dataset.era)).toEqual(['modern', 'legacy']));
    expect($$(c, '[data-testid=era-badge]').map((e) => (e as HTMLElement).dataset.serverEra)).toEqual(['legacy', 'legacy']);
  });
});

// @vitest-environment happy-dom
// "Probe this server" in a session's header: a button (keyboard: Tab + Enter, as any button) that
// copies the probe command for the session's endpoint and the tool it saw; the panel sends nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { analyzeRecords } from '../../../src/core/analyzer';
import { InspectorApp } from '../../../src/panel/ui/app/InspectorApp';
import { probeCommandFor } from '../../../src/panel/ui/sessions/probe-command';
import { createStaticSource } from '../../../src/panel/ui/sources/static-source';
import { captureRecords, coreAnalyzer } from '../../../src/panel/ui/test-support/fixtures';
import { $, click, mount, until, type Mounted } from '../../../src/panel/ui/test-support/render';

let m: Mounted | undefined;
afterEach(() => {
  m?.unmount();
  m = undefined;
});

describe('Probe this server', () => {
  it('copies the probe command for the endpoint and the streaming tool the session called', async () => {
    const copied: string[] = [];
    let requests = 0;
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async (...args: Parameters<typeof fetch>) => {
      requests++;
      return realFetch(...args);
    }) as typeof fetch;
    try {
      m = await mount(<InspectorApp source={createStaticSource(captureRecords('lossy'))} analyzerFactory={coreAnalyzer} mode="viewer" clipboard={async (t) => void copied.push(t)} />);
      await until(() => expect($(m!.container, '[data-testid=probe-server]')).not.toBeNull());
      const button = $(m!.container, '[data-testid=probe-server]') as HTMLButtonElement;
      expect(button.tagName).toBe('BUTTON');
      expect(button.textContent).toBe('Probe this server');
      await click(button);
      await until(() => expect(copied).toHaveLength(1));
      expect(copied[0]).toMatch(/^npx mcp-stream-inspector probe 'http:\/\/127\.0\.0\.1:\d+\/mcp' --tool 'long_task' --args '\{"chunks":\d+,"delayMs":\d+,"tag":"[^"]*"\}'$/);
      expect($(document.body, '[data-testid=copy-toast]')!.textContent).toBe('Copied probe command');
      expect(requests).toBe(0);
    } finally {
      globalThis.fetch = realFetch;
    }
  });

  it('adds --remote for a server that is not on this machine, quotes for the shell, and offers nothing without an http endpoint', () => {
    const snap = analyzeRecords(captureRecords('lossy'));
    const s = snap.sessions[0]!;
    expect(probeCommandFor(snap, { ...s, endpoint: "https://mcp.example.com/it's" })).toMatch(/^npx mcp-stream-inspector probe 'https:\/\/mcp\.example\.com\/it'\\''s' --tool 'long_task' .* --remote$/);
    expect(probeCommandFor(snap, { ...s, endpoint: 'chrome-extension://x/y' })).toBeUndefined();
    expect(probeCommandFor({ ...snap, requests: {} }, s)).toMatch(/^npx mcp-stream-inspector probe 'http:\/\/127\.0\.0\.1:\d+\/mcp'$/);
  });
});

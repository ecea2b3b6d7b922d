// The store package (`npm run package`, scripts/package.ts): the zip unpacks to a Manifest V3
// extension at its root whose version is package.json's, with no source maps and no test hooks;
// loaded from that unpacked copy into Chromium, it captures the demo's lossy call and its DevTools
// panel shows the findings and the verdict, read from the DOM only (the package has no
// __MSI_PANEL__ / __MSI_UI__ to ask).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../demo/server';
import { packageExtension } from '../../scripts/package';
import { launchBrowser, type Browser } from '../support/browser';
import { devtoolsFrontend, PANEL_TITLE } from '../support/devtools';
import { clickTestId, findingRows, requestVerdicts, screenshot, showTab, type UiTarget } from '../support/panel-ui';
import { waitFor } from '../support/wait';

const ROOT = resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

let unpacked: string;
let zipPath: string;
let entries: Record<string, Uint8Array>;
let browser: Browser;
let demo: DemoServer;

beforeAll(async () => {
  const out = packageExtension({ log: () => {} });
  zipPath = out.zip;
  entries = unzipSync(new Uint8Array(readFileSync(zipPath)));
  unpacked = mkdtempSync(join(tmpdir(), 'msi-package-'));
  for (const [name, data] of Object.entries(entries)) {
    if (name.endsWith('/')) continue;
    mkdirSync(dirname(join(unpacked, name)), { recursive: true });
    writeFileSync(join(unpacked, name), data);
  }
  demo = await startDemoServer({ mode: 'lossy' });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await demo?.close();
  if (unpacked) rmSync(unpacked, { recursive: true, force: true });
});

/** Select the MCP Streams panel in the DevTools window and attach to its iframe (no test hooks to wait for). */
async function openPackagedPanel(b: Browser): Promise<UiTarget & { sessionId: string }> {
  const fe = await devtoolsFrontend(b);
  const feSession = await b.cdp.attach(fe.targetId);
  const panelId = `chrome-extension://${b.extensionId}${PANEL_TITLE.replace(/\s+/g, '')}`;
  await waitFor(
    () =>
      b.cdp.evaluate(feSession, `(async () => { const L = await import('./ui/legacy/legacy.js');
        const v = L.InspectorView.InspectorView.maybeGetInspectorViewInstance(); return !!(v && v.hasPanel(${JSON.stringify(panelId)})); })()`),
    { timeoutMs: 20_000, message: 'the packaged extension registered its panel' },
  );
  await b.cdp.evaluate(feSession, `(async () => { const L = await import('./ui/legacy/legacy.js'); await L.InspectorView.InspectorView.instance().showPanel(${JSON.stringify(panelId)}); return true; })()`);
  const target = await waitFor(async () => (await b.cdp.targets()).find((t) => t.url.startsWith(`chrome-extension://${b.extensionId}/src/panel/panel.html`)), {
    timeoutMs: 20_000,
    message: 'panel iframe target',
  });
  const sessionId = await b.cdp.attach(target.targetId);
  await waitFor(() => b.cdp.evaluate(sessionId, `!!document.querySelector('[data-testid=tb-export]')`), { message: 'the panel rendered its toolbar' });
  return { sessionId, eval: (e) => b.cdp.evaluate(sessionId, e) };
}

describe('npm run package', () => {
  it('a versioned zip: manifest at the root with package.json\'s version, no source maps, no test hooks', () => {
    expect(zipPath.endsWith(`mcp-stream-inspector-${pkg.version}.zip`)).toBe(true);
    const names = Object.keys(entries);
    expect(names).toContain('manifest.json');
    const manifest = JSON.parse(new TextDecoder().decode(entries['manifest.json']!)) as Record<string, unknown>;
    expect(manifest.manifest_version).toBe(3);
    expect(manifest.version).toBe(pkg.version);
    // The same manifest as the tested build (permissions, content scripts, CSP…), and every file it names is in the zip.
    const built = JSON.parse(readFileSync(join(ROOT, 'dist/manifest.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toEqual(built);
    const named = [
      (manifest.background as { service_worker: string }).service_worker,
      manifest.devtools_page as string,
      ...Object.values(manifest.icons as Record<string, string>),
      ...(manifest.content_scripts as { js: string[] }[]).flatMap((c) => c.js),
    ];
    for (const f of named) expect(names, f).toContain(f);
    expect(names.filter((n) => n.endsWith('.map'))).toEqual([]);
    for (const n of names.filter((x) => /\.(js|html)$/.test(x))) {
      const text = new TextDecoder().decode(entries[n]!);
      for (const hook of ['__MSI_RELAY__', '__MSI_BACKGROUND__', '__MSI_PANEL__', '__MSI_UI__']) expect(text.includes(hook), `${n} has ${hook}`).toBe(false);
      expect(text.includes('sourceMappingURL'), `${n} points to a source map`).toBe(false);
    }
    // The tested build keeps its hooks (the e2e suite reads them).
    expect(readFileSync(join(ROOT, 'dist', 'src/extension/relay/relay.js'), 'utf8')).toContain('__MSI_RELAY__');
  });

  it('the unpacked zip loads in Chromium; its panel captures the lossy call and shows the findings and the verdict', async () => {
    browser = await launchBrowser({ dist: unpacked, url: 'about:blank' });
    expect(browser.extensionId).toMatch(/^[a-p]{32}$/);
    // No test hook in the running worker either.
    const sw = await waitFor(async () => (await browser.cdp.targets()).find((t) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${browser.extensionId}/`)));
    const swSession = await browser.cdp.attach(sw.targetId);
    await waitFor(() => browser.cdp.evaluate<boolean>(swSession, `typeof chrome === 'object' && !!chrome.storage`), { message: 'worker ready' });
    expect(await browser.cdp.evaluate(swSession, `typeof globalThis.__MSI_BACKGROUND__`)).toBe('undefined');
    expect(await browser.cdp.evaluate(swSession, `chrome.runtime.getManifest().version`)).toBe(pkg.version);

    const panel = await openPackagedPanel(browser);
    expect(await panel.eval(`typeof globalThis.__MSI_PANEL__ + ' ' + typeof globalThis.__MSI_UI__`)).toBe('undefined undefined');

    // The inspected tab (DevTools is open on it) goes to the demo page; its agent makes the lossy call.
    const blank = await browser.pageTarget('about:blank');
    const tab = await browser.cdp.attach(blank.targetId);
    await browser.cdp.send('Page.navigate', { url: demo.pageUrl({ mode: 'lossy', chunks: 6, delayMs: 50 }) }, tab);
    const page = await browser.attachPage(new URL(demo.pageUrl()).host);
    await waitFor(() => browser.cdp.evaluate(page, 'typeof window.__demo?.run === "function"'), { message: 'demo page ready' });
    const outcome = await browser.cdp.evaluate<{ callSucceeded: boolean }>(page, 'window.__demo.run("lossy")');
    expect(outcome.callSucceeded).toBe(true);

    await waitFor(
      async () => {
        const codes = (await findingRows(panel)).map((r) => r.code);
        return codes.includes('replay-gap') && codes.includes('lossy-result-accepted');
      },
      { timeoutMs: 30_000, message: 'the packaged panel lists replay-gap and lossy-result-accepted' },
    );
    expect((await requestVerdicts(panel)).find((v) => /tools\/call/.test(v.text))?.verdict).toBe('lossy');
    await showTab(panel, 'timeline');
    await waitFor(() => panel.eval(`document.querySelector('[data-testid=worst-finding]')?.dataset.code === 'lossy-result-accepted'`), { message: 'worst finding on the first screen' });
    // The Export menu offers every format, OpenTelemetry included.
    await clickTestId(panel, 'tb-export');
    const items = await waitFor(async () => {
      const ids = await panel.eval<string[]>(`[...document.querySelectorAll('[data-testid^=export-all-]')].map((e) => e.dataset.testid)`);
      return ids.length ? ids : null;
    });
    expect(items).toEqual(expect.arrayContaining(['export-all-json', 'export-all-har', 'export-all-trace', 'export-all-otlp', 'export-all-markdown']));
    const fe = await browser.cdp.attach((await devtoolsFrontend(browser)).targetId);
    await screenshot(browser.cdp, fe, 'package-panel-export-menu');
  });
});

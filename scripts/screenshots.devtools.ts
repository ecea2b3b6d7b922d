// Screenshots of the inspector inside real Chrome DevTools (needs dist/ built with the panel wired
// to mountDevtoolsInspector). The official SDK client runs in a page against the fixture server
// in the chosen mode; the DevTools window is captured in light and dark.
//   npx tsx scripts/screenshots.devtools.ts [mode=lossy] [outDir=test-artifacts/screenshots]
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startFixtureServer } from '../test/fixtures/mcp-server/index';
import { devtoolsFrontend } from '../test/support/devtools';
import { openInspected } from '../test/support/extension';
import { buildSdkClientBundle } from '../test/support/sdk-bundle';
import { startTestServer } from '../test/support/server';
import { waitFor } from '../test/support/wait';

const mode = (process.argv[2] ?? 'lossy') as Parameters<typeof startFixtureServer>[0] extends { mode?: infer M } ? M : never;
const out = resolve(process.argv[3] ?? 'test-artifacts/screenshots');
mkdirSync(out, { recursive: true });

const sdk = await buildSdkClientBundle();
const mcp = await startFixtureServer({ mode, keepAliveMs: 0 });
const pages = await startTestServer();
pages.route('/sdk.js', (_q, res) => res.writeHead(200, { 'content-type': 'text/javascript' }).end(sdk));
pages.page(
  '/agent.html',
  `<!doctype html><html><head><title>demo agent</title><script type="module">
    import { Client, StreamableHTTPClientTransport } from '/sdk.js';
    window.start = () => { window.run = (async () => {
      const client = new Client({ name: 'demo-agent', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(${JSON.stringify(mcp.url)}), {
        reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 500, reconnectionDelayGrowFactor: 1.5, maxRetries: 3 },
      });
      await client.connect(transport);
      await client.listTools();
      const result = await client.callTool({ name: 'long_task', arguments: { chunks: 8, delayMs: 60, tag: 'demo' } }, undefined, { resetTimeoutOnProgress: true, timeout: 8000, onprogress: () => {} });
      await client.close();
      return { text: result.content[0].text };
    })().catch((e) => ({ error: String(e) })).then((r) => (window.done = r)); return true; };
  </script></head><body>demo agent (${mode})</body></html>`,
);
const h = await openInspected(pages.url('/agent.html'));
try {
  await waitFor(() => h.evalPage('typeof window.start === "function"'), { message: 'agent ready' });
  await waitFor(() => h.panel.eval(`typeof globalThis.__MSI_UI__ === 'object'`), { message: 'panel shows the inspector UI (__MSI_UI__)' });
  await h.evalPage('window.start()');
  await waitFor(() => h.evalPage('!!window.done'), { timeoutMs: 30_000, message: 'agent finished' });
  console.log('agent:', JSON.stringify(await h.evalPage('window.done')));
  await new Promise((r) => setTimeout(r, 800));
  const snap = await h.panel.eval<{ findings: { code: string }[]; sessions: unknown[] }>('globalThis.__MSI_UI__.snapshot()');
  console.log('panel findings:', snap.findings.map((f) => f.code).join(', '), '| sessions:', snap.sessions.length);
  // Export from the panel is a real download (Blob + <a download>): check one lands on disk.
  const dl = join(out, `devtools-${mode}-downloads`);
  mkdirSync(dl, { recursive: true });
  await h.browser.cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: dl, eventsEnabled: true });
  for (const kind of ['json', 'har', 'trace', 'markdown']) {
    await h.panel.eval(`(() => { document.querySelector('[data-testid=tb-export]').click(); return true; })()`);
    await waitFor(() => h.panel.eval(`!!document.querySelector('[data-testid=export-all-${kind}]')`), { message: 'export menu' });
    await h.panel.eval(`(() => { document.querySelector('[data-testid=export-all-${kind}]').click(); return true; })()`);
  }
  await waitFor(() => readdirSync(dl).filter((f) => !f.endsWith('.crdownload')).length >= 4, { timeoutMs: 10_000, message: 'four exports downloaded' });
  console.log('downloaded:', readdirSync(dl).join(', '));
  const fe = await devtoolsFrontend(h.browser);
  const feSession = await h.browser.cdp.attach(fe.targetId);
  await h.browser.cdp.send('Emulation.setDeviceMetricsOverride', { width: 1400, height: 900, deviceScaleFactor: 1, mobile: false }, feSession);
  const shots: [string, 'light' | 'dark', string][] = [
    ['right', 'light', 'docked-right'],
    ['undocked', 'light', 'light'],
    ['undocked', 'dark', 'dark'],
  ];
  for (const [dock, theme, label] of shots) {
    await h.browser.cdp.evaluate(
      feSession,
      `(async () => { const L = await import('./ui/legacy/legacy.js'); L.DockController.DockController.instance().setDockSide(${JSON.stringify(dock)}); return true; })()`,
    );
    // DevTools' own theme setting; the panel follows it through setThemeChangeHandler.
    await h.browser.cdp.evaluate(
      feSession,
      `(async () => { const C = await import('./core/common/common.js'); C.Settings.Settings.instance().moduleSetting('ui-theme').set(${JSON.stringify(theme === 'dark' ? 'dark' : 'default')}); return true; })()`,
    );
    await new Promise((r) => setTimeout(r, 700));
    const shot = await h.browser.cdp.send<{ data: string }>('Page.captureScreenshot', { format: 'png' }, feSession);
    const p = join(out, `devtools-${mode}-${label}.png`);
    writeFileSync(p, Buffer.from(shot.data, 'base64'));
    console.log(p);
  }
} finally {
  await h.close();
  await pages.close();
  await mcp.close();
}

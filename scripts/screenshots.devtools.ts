// The inspector inside real Chrome DevTools, end to end (needs dist/ built with the panel wired to
// mountDevtoolsInspector). For each fixture-server mode, the official SDK client runs in a page;
// the script checks the finding codes and verdicts the panel shows, downloads the four exports
// from the panel, opens the JSON export in the standalone viewer (chrome-extension://…/viewer.html)
// and checks it gives the same findings, and captures the DevTools window (docked right, light,
// dark) into test-artifacts/screenshots/.
//   npx tsx scripts/screenshots.devtools.ts [modes=lossy,lossless,opaque,dropped-result] [outDir]
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startFixtureServer } from '../test/fixtures/mcp-server/index';
import { devtoolsFrontend } from '../test/support/devtools';
import { openInspected } from '../test/support/extension';
import { buildSdkClientBundle } from '../test/support/sdk-bundle';
import { startTestServer } from '../test/support/server';
import { waitFor } from '../test/support/wait';

type Mode = NonNullable<Parameters<typeof startFixtureServer>[0]>['mode'];
const modes = (process.argv[2] ?? 'lossy,lossless,opaque,dropped-result').split(',') as NonNullable<Mode>[];
const out = resolve(process.argv[3] ?? 'test-artifacts/screenshots');
mkdirSync(out, { recursive: true });

/** What the issue's acceptance says each mode must show. */
const EXPECT: Record<string, { codes: string[]; noErrors?: boolean; verdict: string[] }> = {
  lossy: { codes: ['replay-gap', 'lossy-result-accepted'], verdict: ['lossy'] },
  lossless: { codes: [], noErrors: true, verdict: ['complete', 'complete-unverified'] },
  opaque: { codes: ['replay-unverifiable', 'unverified-result-accepted'], verdict: ['complete-unverified'] },
  'dropped-result': { codes: ['result-missing'], verdict: ['incomplete'] },
};

interface Snap {
  findings: { code: string; severity: string }[];
  requests: Record<string, { method: string; verdict: string }[]>;
}
const summary = (s: Snap) => ({
  codes: s.findings.map((f) => f.code).sort(),
  calls: Object.values(s.requests)
    .flat()
    .filter((r) => r.method === 'tools/call')
    .map((r) => r.verdict),
});

const sdk = await buildSdkClientBundle();
let failures = 0;
for (const mode of modes) {
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
          reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 500, reconnectionDelayGrowFactor: 1.5, maxRetries: 2 },
        });
        await client.connect(transport);
        try {
          await client.listTools();
          const result = await client.callTool({ name: 'long_task', arguments: { chunks: 8, delayMs: 60, tag: 'demo' } }, undefined, { resetTimeoutOnProgress: true, timeout: 4000, onprogress: () => {} });
          return { text: result.content[0].text };
        } finally {
          await client.close();
        }
      })().catch((e) => ({ error: String(e) })).then((r) => (window.done = r)); return true; };
    </script></head><body>demo agent (${mode})</body></html>`,
  );
  const h = await openInspected(pages.url('/agent.html'));
  try {
    await waitFor(() => h.evalPage('typeof window.start === "function"'), { message: 'agent ready' });
    await waitFor(() => h.panel.eval(`typeof globalThis.__MSI_UI__ === 'object'`), { message: 'panel shows the inspector UI (__MSI_UI__)' });
    await h.evalPage('window.start()');
    await waitFor(() => h.evalPage('!!window.done'), { timeoutMs: 40_000, message: 'agent finished' });
    console.log(`[${mode}] agent:`, JSON.stringify(await h.evalPage('window.done')).slice(0, 160));
    const exp = EXPECT[mode];
    let snap: Snap | undefined;
    try {
      await waitFor(
        async () => {
          snap = await h.panel.eval<Snap>('globalThis.__MSI_UI__.snapshot()');
          const s = summary(snap);
          if (!exp) return s.calls.length > 0;
          return exp.codes.every((c) => s.codes.includes(c)) && s.calls.length > 0 && s.calls.every((v) => exp.verdict.includes(v)) && (!exp.noErrors || !snap.findings.some((f) => f.severity === 'error'));
        },
        { timeoutMs: 15_000, message: `panel shows the expected codes/verdicts for ${mode}` },
      );
      console.log(`[${mode}] OK panel:`, JSON.stringify(summary(snap!)));
    } catch (e) {
      failures++;
      console.log(`[${mode}] FAIL panel:`, JSON.stringify(snap && summary(snap)), (e as Error).message.split('\n')[0]);
    }
    // Visible: the worst finding's code and each verdict in the DOM, not only in the snapshot.
    const dom = await h.panel.eval<{ worst: string | null; verdicts: string[] }>(
      `({ worst: document.querySelector('[data-testid=worst-finding]')?.dataset.code ?? null,
          verdicts: [...document.querySelectorAll('[data-testid=summary-request-row] [data-verdict]')].map((e) => e.dataset.verdict) })`,
    );
    console.log(`[${mode}] DOM:`, JSON.stringify(dom));

    // Exports are downloads made by the panel.
    const dl = join(out, `devtools-${mode}-downloads`);
    mkdirSync(dl, { recursive: true });
    await h.browser.cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: dl, eventsEnabled: true });
    const before = new Set(readdirSync(dl));
    for (const kind of ['json', 'har', 'trace', 'markdown']) {
      await h.panel.eval(`(() => { document.querySelector('[data-testid=tb-export]').click(); return true; })()`);
      await waitFor(() => h.panel.eval(`!!document.querySelector('[data-testid=export-all-${kind}]')`), { message: 'export menu' });
      await h.panel.eval(`(() => { document.querySelector('[data-testid=export-all-${kind}]').click(); return true; })()`);
    }
    const fresh = await waitFor(
      () => {
        const now = readdirSync(dl).filter((f) => !before.has(f) && !f.endsWith('.crdownload'));
        return now.length >= 4 ? now : null;
      },
      { timeoutMs: 10_000, message: 'four exports downloaded' },
    );
    console.log(`[${mode}] downloaded:`, fresh.join(', '));

    // The standalone viewer (the extension's viewer page) opens the JSON export.
    const json = fresh.find((f) => f.endsWith('.msi.json'))!;
    const { targetId } = await h.browser.cdp.send<{ targetId: string }>('Target.createTarget', { url: `chrome-extension://${h.browser.extensionId}/src/panel/viewer.html` });
    const vs = await h.browser.cdp.attach(targetId);
    await waitFor(() => h.browser.cdp.evaluate(vs, `typeof globalThis.__MSI_UI__ === 'object' && !!document.querySelector('[data-testid=import-input]')`), { message: 'viewer ready' });
    await h.browser.cdp.send('DOM.enable', {}, vs);
    const doc = await h.browser.cdp.send<{ root: { nodeId: number } }>('DOM.getDocument', {}, vs);
    const input = await h.browser.cdp.send<{ nodeId: number }>('DOM.querySelector', { nodeId: doc.root.nodeId, selector: '[data-testid=import-input]' }, vs);
    await h.browser.cdp.send('DOM.setFileInputFiles', { nodeId: input.nodeId, files: [join(dl, json)] }, vs);
    const viewerSnap = await waitFor(
      async () => {
        const s = await h.browser.cdp.evaluate<Snap>(vs, 'globalThis.__MSI_UI__.snapshot()');
        return s.findings.length || summary(s).calls.length ? s : null;
      },
      { message: 'viewer shows the imported export' },
    );
    const same = JSON.stringify(summary(viewerSnap)) === JSON.stringify(summary(snap!));
    if (!same) failures++;
    console.log(`[${mode}] viewer from export: ${same ? 'same findings and verdicts' : `DIFFERENT ${JSON.stringify(summary(viewerSnap))}`}`);
    await h.browser.cdp.send('Target.closeTarget', { targetId });

    // Screenshots of the DevTools window.
    const fe = await devtoolsFrontend(h.browser);
    const feSession = await h.browser.cdp.attach(fe.targetId);
    await h.browser.cdp.send('Emulation.setDeviceMetricsOverride', { width: 1400, height: 900, deviceScaleFactor: 1, mobile: false }, feSession);
    const shots: [string, 'light' | 'dark', string, 'session' | 'events'][] = [
      ['right', 'light', 'docked-right', 'session'],
      ['undocked', 'light', 'light', 'session'],
      ['undocked', 'dark', 'dark', 'session'],
      // The events table (its rows are runs of one stream's events: src/panel/ui/events/event-rows.ts).
      ['bottom', 'light', 'events-docked-bottom', 'events'],
      ['right', 'dark', 'events-docked-right-dark', 'events'],
    ];
    for (const [dock, theme, label, tab] of shots) {
      if (tab === 'events') {
        await h.panel.eval(`(() => { document.querySelector('[data-testid=tab-events]').click(); return true; })()`);
        await waitFor(() => h.panel.eval(`!!document.querySelector('[data-testid=event-row]')`), { message: 'events table rows' });
      }
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
      console.log(`[${mode}]`, p);
    }
  } finally {
    await h.close();
    await pages.close();
    await mcp.close();
  }
}
console.log(failures ? `${failures} check(s) failed` : 'all checks passed');
process.exit(failures ? 1 : 0);

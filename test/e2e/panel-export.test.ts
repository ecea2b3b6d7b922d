// Export from the real DevTools panel and open the files again: the demo page's agent runs once in
// 'lossy' mode; the four exports are downloaded through the panel's own Export menu (CDP
// Browser.setDownloadBehavior into a temp dir); the JSON and the HAR are imported back into the
// panel through its Import file input (CDP DOM.setFileInputFiles) and must show the same findings
// and verdicts; the standalone viewer — the extension's page and the dist/ copy served by the demo
// server — opens the JSON export (file input and ?src=); the CLI's `audit --json` on the exported
// HAR gives the same codes and verdicts.

import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../demo/server';
import { devtoolsFrontend } from '../support/devtools';
import { openInspected, type Harness } from '../support/extension';
import { cdpTarget, clickTestId, findingRows, requestVerdicts, screenshot, setDevtoolsTheme, setDock, setInputFiles, settledSummary, showTab, snapSummary, type SnapSummary, type UiTarget } from '../support/panel-ui';
import { startTestServer, type TestServer } from '../support/server';
import { waitFor } from '../support/wait';

const ROOT = resolve(import.meta.dirname, '../..');
const KINDS = ['json', 'har', 'trace', 'otlp', 'markdown'] as const;

let demo: DemoServer;
let files: TestServer;
let h: Harness;
let dl: string;
let live: SnapSummary;
const exported: Partial<Record<(typeof KINDS)[number], string>> = {};

beforeAll(async () => {
  demo = await startDemoServer({ mode: 'lossy' });
  files = await startTestServer();
  dl = mkdtempSync(join(tmpdir(), 'msi-downloads-'));
  h = await openInspected(demo.pageUrl({ mode: 'lossy', chunks: 6, delayMs: 50 }));
  await waitFor(() => h.evalPage('typeof window.__demo?.run === "function"'), { message: 'demo page ready' });
  await waitFor(() => h.panel.eval(`typeof globalThis.__MSI_UI__ === 'object'`), { message: 'inspector UI mounted' });
  const outcome = await h.evalPage('window.__demo.run("lossy")');
  expect(outcome.callSucceeded).toBe(true);
  live = await waitFor(
    async () => {
      const s = await snapSummary(h.panel);
      return s.calls.includes('lossy') && s.codes.includes('replay-gap') ? s : null;
    },
    { timeoutMs: 20_000, message: 'live panel shows the lossy call' },
  );
}, 180_000);

afterAll(async () => {
  await h?.close();
  await files?.close();
  await demo?.close();
  if (dl) rmSync(dl, { recursive: true, force: true });
});

/** Summary of what a UI shows, in the same shape as the live one (codes + verdicts). */
async function summaryOf(t: UiTarget): Promise<SnapSummary> {
  return waitFor(
    async () => {
      // An import is read and analysed progressively: the summary counts only once the file is
      // read whole and analysed (no progress bar left), else a partial analysis is compared.
      const s = await settledSummary(t);
      return s && s.verdicts.length > 0 ? s : null;
    },
    { message: 'imported capture analysed' },
  );
}

describe('export and import in the real panel', () => {
  it('the Export menu downloads JSON, HAR, Perfetto trace and Markdown', async () => {
    await h.browser.cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: dl, eventsEnabled: true });
    for (const kind of KINDS) {
      await clickTestId(h.panel, 'tb-export');
      await clickTestId(h.panel, `export-all-${kind}`);
    }
    const names = await waitFor(
      () => {
        const now = readdirSync(dl).filter((f) => !f.endsWith('.crdownload'));
        return now.length >= KINDS.length ? now : null;
      },
      { timeoutMs: 20_000, message: () => `${KINDS.length} downloads in ${dl}: ${readdirSync(dl).join(', ')}` },
    );
    exported.json = join(dl, names.find((f) => f.endsWith('.msi.json'))!);
    exported.har = join(dl, names.find((f) => f.endsWith('.har'))!);
    exported.trace = join(dl, names.find((f) => f.endsWith('.trace.json'))!);
    exported.otlp = join(dl, names.find((f) => f.endsWith('.otlp.json'))!);
    exported.markdown = join(dl, names.find((f) => f.endsWith('.md'))!);
    for (const k of KINDS) expect(exported[k], k).toBeTruthy();

    const json = JSON.parse(readFileSync(exported.json, 'utf8'));
    expect(json).toMatchObject({ format: 'mcp-stream-inspector', version: 1 });
    expect(json.records.length).toBeGreaterThan(20);

    const har = JSON.parse(readFileSync(exported.har, 'utf8'));
    expect(har.log.version).toBe('1.2');
    // The ids the live panel says were lost are absent from the HAR's events; ids on both sides are there.
    const snap = await h.panel.eval<any>('globalThis.__MSI_UI__.snapshot()');
    const gap = snap.findings.find((f: any) => f.code === 'replay-gap');
    const perEntry = har.log.entries.map((e: any) => `${e.request.method} ${e._msi?.conn}: ${(e._sseEvents ?? []).map((ev: any) => ev.id).join(',')}`);
    const sseIds = har.log.entries.flatMap((e: any) => (e._sseEvents ?? []).map((ev: any) => ev.id)).filter(Boolean);
    expect(gap.eventIds.length, perEntry.join('\n')).toBeGreaterThan(0);
    for (const id of gap.eventIds) expect(sseIds, `lost id ${id} in the HAR:\n${perEntry.join('\n')}`).not.toContain(id);
    expect(sseIds).toContain(String(Number(gap.eventIds[0]) - 1)); // the cut stream's last id…
    expect(sseIds).toContain(String(Number(gap.eventIds.at(-1)) + 1)); // …and the replay after the gap

    const trace = JSON.parse(readFileSync(exported.trace, 'utf8'));
    const instants = trace.traceEvents.filter((e: any) => e.ph === 'I' && e.args?.code);
    expect(instants.map((e: any) => e.args.code)).toEqual(expect.arrayContaining(['replay-gap', 'lossy-result-accepted']));

    // OTLP/JSON (validated against the proto definitions in test/unit/export/otlp.test.ts): the
    // lossy tools/call is a failed CLIENT span carrying its findings.
    const otlp = JSON.parse(readFileSync(exported.otlp, 'utf8'));
    const spans = otlp.resourceSpans.flatMap((r: any) => r.scopeSpans.flatMap((x: any) => x.spans));
    const call = spans.find((x: any) => x.name.startsWith('tools/call ') && x.status?.code === 2);
    expect(call, spans.map((x: any) => x.name).join(', ')).toBeTruthy();
    expect(call.attributes).toEqual(expect.arrayContaining([{ key: 'error.type', value: { stringValue: 'lossy-result-accepted' } }]));
    expect(call.events.map((e: any) => e.attributes.find((a: any) => a.key === 'mcp_stream_inspector.finding.code')?.value.stringValue)).toEqual(expect.arrayContaining(['replay-gap', 'lossy-result-accepted']));
    // The HAR carries the events in `_eventSourceMessages` too, with the same ids.
    const esmIds = har.log.entries.flatMap((e: any) => (e._eventSourceMessages ?? []).map((m: any) => m.eventId)).filter(Boolean);
    for (const id of sseIds) expect(esmIds).toContain(id);

    const md = readFileSync(exported.markdown, 'utf8');
    expect(md).toContain('`lossy-result-accepted`');
    expect(md).toContain('`replay-gap`');
    expect(md).toContain(gap.missing);
    expect(md).toMatch(/`lossy`/);

    // The download is what the hook's exportAs gives (one exporter, two ways in).
    const viaHook = await h.panel.eval<string>(`globalThis.__MSI_UI__.exportAs('markdown')`);
    expect(viaHook.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'T')).toBe(md.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'T'));
  });

  it('importing the JSON and the HAR into the panel gives the same findings and verdicts', async () => {
    for (const f of [exported.json!, exported.har!]) {
      await setInputFiles(h.browser.cdp, h.panel.sessionId, '[data-testid=import-input]', [f]);
      await waitFor(() => h.panel.eval(`document.querySelector('[data-testid=imported-banner]')?.textContent.includes(${JSON.stringify(f.split('/').pop())})`), {
        message: `panel shows imported ${f}`,
      });
      expect(await summaryOf(h.panel)).toEqual(live);
      // …and in the DOM
      await showTab(h.panel, 'timeline');
      expect(await h.panel.eval(`document.querySelector('[data-testid=worst-finding]')?.dataset.code`)).toBe('lossy-result-accepted');
      expect((await requestVerdicts(h.panel)).find((v) => /tools\/call/.test(v.text))?.verdict).toBe('lossy');
      expect((await findingRows(h.panel)).map((r) => r.code)).toEqual(expect.arrayContaining(['replay-gap', 'lossy-result-accepted']));
      await clickTestId(h.panel, 'back-to-live');
      await waitFor(() => h.panel.eval(`!document.querySelector('[data-testid=imported-banner]')`), { message: 'back to live' });
    }
    expect(await snapSummary(h.panel)).toEqual(live);
  });

  it('the standalone viewer opens the JSON export: extension page (file input, ?src=) and dist/ served by the demo', async () => {
    const body = readFileSync(exported.json!);
    files.route('/export.msi.json', (_q, res) => res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' }).end(body));
    const urls = [
      `chrome-extension://${h.browser.extensionId}/src/panel/viewer.html`,
      `chrome-extension://${h.browser.extensionId}/src/panel/viewer.html?src=${encodeURIComponent(files.url('/export.msi.json'))}`,
      demo.viewerUrl(files.url('/export.msi.json')),
      demo.viewerUrl('/captures/lossy.capture.json'), // what `npm run demo` prints
    ];
    for (const url of urls) {
      const { targetId } = await h.browser.cdp.send<{ targetId: string }>('Target.createTarget', { url });
      try {
        const s = await h.browser.cdp.attach(targetId);
        const v = cdpTarget(h.browser.cdp, s);
        await waitFor(() => v.eval(`typeof globalThis.__MSI_UI__ === 'object' && !!document.querySelector('[data-testid=import-input]')`), { message: `viewer ready: ${url}` });
        if (!url.includes('?src=')) await setInputFiles(h.browser.cdp, s, '[data-testid=import-input]', [exported.json!]);
        const got = await summaryOf(v);
        if (url.includes('/captures/')) expect(got.codes).toEqual(expect.arrayContaining(['lossy-result-accepted', 'replay-gap']));
        else expect(got, url).toEqual(live);
        expect(await v.eval(`document.querySelector('[data-testid=error-banner]')?.textContent ?? null`)).toBeNull();
        await waitFor(() => v.eval(`document.querySelector('[data-testid=worst-finding]')?.dataset.code === 'lossy-result-accepted'`), {
          message: `viewer shows the lossy call first: ${url}`,
        });
        // What a user sees of the viewer (test-artifacts/screenshots/viewer-*.png).
        if (url === urls[1] || url === urls[3]) await screenshot(h.browser.cdp, s, url === urls[1] ? 'viewer-extension-src' : 'viewer-demo-served');
      } finally {
        await h.browser.cdp.send('Target.closeTarget', { targetId });
      }
    }
  });

  it('the CLI `audit --json` on the exported HAR gives the same codes and verdicts', async () => {
    const cli = join(ROOT, 'dist-cli', 'cli.mjs');
    expect(existsSync(cli), 'dist-cli/cli.mjs: run `npm run build`').toBe(true);
    const r = await promisify(execFile)(process.execPath, [join(ROOT, 'bin', 'mcp-stream-inspector.mjs'), 'audit', '--json', '--fail-on', 'never', exported.har!]);
    const out = JSON.parse(r.stdout);
    const codes = [...new Set(out.findings.map((f: any) => f.code as string))].sort();
    const verdicts = out.sessions.flatMap((s: any) => s.requests.map((q: any) => `${q.method}:${q.verdict}`)).sort();
    expect({ codes, verdicts }).toEqual({ codes: live.codes, verdicts: live.verdicts });
  });

  it('screenshots of the main views in DevTools light and dark themes, and of the first screen at 420x900 and 1400x420 (test-artifacts/screenshots/panel-*.png)', async () => {
    const fe = await devtoolsFrontend(h.browser);
    const feSession = await h.browser.cdp.attach(fe.targetId);
    await h.browser.cdp.send('Emulation.setDeviceMetricsOverride', { width: 1280, height: 800, deviceScaleFactor: 1, mobile: false }, feSession);
    const written: string[] = [];
    const panelWidth = () => h.panel.eval<number>('innerWidth');
    for (const theme of ['light', 'dark'] as const) {
      await setDock(h.browser, 'undocked'); // the panel gets the whole 1280 x 800 window
      await waitFor(async () => (await panelWidth()) > 1000, { message: 'undocked DevTools: wide panel' });
      await setDevtoolsTheme(h.browser, theme === 'dark' ? 'dark' : 'default');
      // the panel follows chrome.devtools.panels.setThemeChangeHandler
      await waitFor(() => h.panel.eval(`document.querySelector('[data-testid=msi-app]')?.classList.contains('theme-${theme}')`), {
        message: `panel switched to the ${theme} theme`,
      });
      const shot = async (view: string) => {
        await h.panel.eval('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))');
        written.push(await screenshot(h.browser.cdp, feSession, `panel-${view}-${theme}`));
      };
      await showTab(h.panel, 'timeline');
      await shot('timeline');
      // Events: the lossy finding's events, the accepted result selected with its detail.
      await clickTestId(h.panel, 'show-events');
      await waitFor(() => h.panel.eval(`!!document.querySelector('[data-testid=event-detail]')`), { message: 'event detail' });
      await shot('events');
      await showTab(h.panel, 'requests');
      await h.panel.eval(`(() => { [...document.querySelectorAll('[data-testid=request-row]')].find((r) => r.textContent.includes('tools/call'))?.click(); return true; })()`);
      await waitFor(() => h.panel.eval(`!!document.querySelector('[data-testid=request-detail]')`), { message: 'request detail' });
      await shot('requests');
      await showTab(h.panel, 'findings');
      await h.panel.eval(`(() => { document.querySelector('[data-testid=finding-row][data-code=lossy-result-accepted]')?.click(); return true; })()`);
      await waitFor(() => h.panel.eval(`!!document.querySelector('[data-testid=finding-detail]')`), { message: 'finding detail' });
      await shot('findings');
      await clickTestId(h.panel, 'tb-settings');
      await waitFor(() => h.panel.eval(`!!document.querySelector('[data-testid=settings-dialog]')`), { message: 'settings' });
      await shot('settings');
      await h.panel.eval(`(() => { [...document.querySelectorAll('[data-testid=settings-dialog] button')].find((b) => /cancel/i.test(b.textContent))?.click(); return true; })()`);
      await waitFor(() => h.panel.eval(`!document.querySelector('[data-testid=settings-dialog]')`), { message: 'settings closed' });
      await showTab(h.panel, 'timeline');
      // The two shapes a docked DevTools gives the panel — narrow and tall (docked right), wide and
      // short (docked bottom): the timeline's gap is on the first screen, without scrolling.
      for (const [w, ht] of [
        [420, 900],
        [1400, 420],
      ] as const) {
        await h.browser.cdp.send('Emulation.setDeviceMetricsOverride', { width: w, height: ht, deviceScaleFactor: 1, mobile: false }, feSession);
        await waitFor(async () => Math.abs((await panelWidth()) - w) < 40, { message: `panel ${w} px wide` });
        // Tab switch remounts the timeline in this shape (it scrolls its gap lane into view on mount).
        await showTab(h.panel, 'events');
        await showTab(h.panel, 'timeline');
        let where: unknown;
        await waitFor(
          async () => {
            where = await h.panel.eval(`(() => {
              const g = document.querySelector('[data-testid=timeline-gap]');
              const b = document.querySelector('[data-testid=timeline] .tl-body');
              const w = document.querySelector('[data-testid=worst-finding]');
              if (!g || !b || !w) return null;
              const r = g.getBoundingClientRect(), br = b.getBoundingClientRect(), wr = w.getBoundingClientRect();
              return { gap: [r.top, r.bottom], body: [br.top, br.bottom], worst: [wr.top, wr.bottom], h: innerHeight,
                ok: r.height > 0 && r.top >= br.top + 18 && r.bottom <= br.bottom && r.bottom <= innerHeight && wr.top >= 0 && wr.top < innerHeight - 20 };
            })()`);
            return (where as { ok?: boolean } | null)?.ok === true;
          },
          { timeoutMs: 10_000, message: () => `gap lane on the first screen at ${w}x${ht}: ${JSON.stringify(where)}` },
        );
        await shot(`first-screen-${w}x${ht}`);
      }
      await h.browser.cdp.send('Emulation.setDeviceMetricsOverride', { width: 1280, height: 800, deviceScaleFactor: 1, mobile: false }, feSession);
      // Docked to the right (a narrow panel): the first screen still names the lossy call.
      await setDock(h.browser, 'right');
      await waitFor(async () => (await panelWidth()) < 820, { message: 'docked right: narrow panel' });
      await shot('first-screen-docked-right');
    }
    await setDevtoolsTheme(h.browser, 'default');
    expect(written).toHaveLength(16);
    for (const f of written) expect(readFileSync(f).length).toBeGreaterThan(10_000);
  });
});

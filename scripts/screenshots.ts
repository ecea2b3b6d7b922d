// npm run screenshots: the pictures the README, docs/ and the Chrome Web Store listing show, made
// from the demo as a user meets it. The demo page in lossy mode (the official SDK client in the
// page, the fixture server dropping ids 12–13 from its replay), real Chromium with the built
// extension and real DevTools, the page's agent run once, the "MCP Streams" panel selected; then
// CDP Page.captureScreenshot:
//
//   docs/images/panel-docked-right.png   the browser window, 960 × 720: the demo page on the left,
//                                        DevTools docked right with the panel (the ⛔ callout, the
//                                        timeline's `ids 12–13 missing`); narrower than the store's
//                                        so that GitHub shows it close to its own size
//   docs/images/timeline.png             the panel's timeline, undocked DevTools (size: IMAGES below)
//   docs/store/screenshot-*.png          the Chrome Web Store's 1280 × 800 images
//
// Headless Chromium draws DevTools and the page as two targets, so the docked-right window is put
// together the way the browser would: the DevTools front-end docked right (its left part is the
// inspected page's place) with the page's own screenshot, at that place's size, drawn over it.
// The composition is one more page in the same browser. Every picture is checked before it is
// written (the callout, the gap's label, the panel's shape), so a picture that no longer shows
// what the README says is an error, not a silent change. test/unit/docs/images.test.ts checks that
// each committed PNG has the size the Markdown says.
//
// Needs dist/ (built here when stale) and Chromium ($CHROMIUM_PATH, default /usr/bin/chromium).
// On a shared machine: flock /tmp/chromium.lock npm run screenshots.

import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isStale } from '../demo/build.js';
import { REPO_ROOT, startDemoServer } from '../demo/server.js';
import { chromiumProblem } from '../test/setup/chromium.js';
import type { Cdp } from '../test/support/cdp.js';
import { devtoolsFrontend } from '../test/support/devtools.js';
import { openInspected } from '../test/support/extension.js';
import { pngSize } from '../test/support/png.js';
import { setDevtoolsTheme, setDock, showTab } from '../test/support/panel-ui.js';
import { waitFor } from '../test/support/wait.js';

/** Every picture this script writes, with its size in CSS pixels (deviceScaleFactor 1). */
export const IMAGES = {
  'docs/images/panel-docked-right.png': { width: 960, height: 720 },
  'docs/images/timeline.png': { width: 1010, height: 262 },
  'docs/store/screenshot-1-docked-right.png': { width: 1280, height: 800 },
  'docs/store/screenshot-2-timeline.png': { width: 1280, height: 800 },
  'docs/store/screenshot-3-requests-dark.png': { width: 1280, height: 800 },
} as const;
type ImagePath = keyof typeof IMAGES;

const WINDOW = { width: 1280, height: 800 };

function buildIfStale(): void {
  const inputs = ['src', 'public', 'manifest.json', 'vite.config.ts'].map((p) => join(REPO_ROOT, p));
  if (!isStale(join(REPO_ROOT, 'dist', 'manifest.json'), inputs)) return;
  console.log('screenshots: dist/ is stale: npm run build');
  const r = spawnSync('npm', ['run', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (r.status !== 0) process.exit(1);
}

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The panel iframe's box in the DevTools front-end (DevTools keeps it inside shadow roots). */
const PANEL_IFRAME_RECT = `(() => {
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.tagName === 'IFRAME' && (el.src || '').includes('/src/panel/panel.html')) return el;
      if (el.shadowRoot) { const f = walk(el.shadowRoot); if (f) return f; }
    }
    return null;
  };
  const f = walk(document);
  if (!f) return null;
  const r = f.getBoundingClientRect();
  return r.width > 0 && r.height > 0 ? { x: r.x, y: r.y, width: r.width, height: r.height } : null;
})()`;

async function capture(cdp: Cdp, session: string, clip?: Rect): Promise<Buffer> {
  const shot = await cdp.send<{ data: string }>(
    'Page.captureScreenshot',
    { format: 'png', optimizeForSpeed: false, ...(clip ? { clip: { ...clip, scale: 1 }, captureBeyondViewport: false } : {}) },
    session,
  );
  return Buffer.from(shot.data, 'base64');
}

function write(path: ImagePath, png: Buffer): void {
  const want = IMAGES[path];
  const got = pngSize(png);
  if (got.width !== want.width || got.height !== want.height) throw new Error(`${path}: ${got.width}×${got.height}, expected ${want.width}×${want.height}`);
  const abs = join(REPO_ROOT, path);
  mkdirSync(join(abs, '..'), { recursive: true });
  writeFileSync(abs, png);
  console.log(`screenshots: ${path} ${got.width}×${got.height} ${(png.length / 1024).toFixed(0)} KiB`);
}

async function main(): Promise<void> {
  const problem = chromiumProblem();
  if (problem) {
    console.error(problem.replace('The end-to-end tests need', 'npm run screenshots needs'));
    process.exit(1);
  }
  buildIfStale();
  const demo = await startDemoServer({ mode: 'lossy' });
  const h = await openInspected(demo.pageUrl({ mode: 'lossy' }));
  const { cdp } = h.browser;
  try {
    const fe = await devtoolsFrontend(h.browser);
    const feSession = await cdp.attach(fe.targetId);
    await setDevtoolsTheme(h.browser, 'default');
    await cdp.send('Emulation.setDeviceMetricsOverride', { ...WINDOW, deviceScaleFactor: 1, mobile: false }, feSession);
    await setDock(h.browser, 'right');
    await waitFor(() => h.panel.eval(`typeof globalThis.__MSI_UI__ === 'object'`), { message: 'inspector UI mounted in the panel' });
    await waitFor(() => h.evalPage('typeof window.__demo?.run === "function"'), { message: 'demo page ready' });

    // The README's story: the call "succeeds", the data is wrong, the panel says why.
    const outcome = await h.evalPage<{ callSucceeded: boolean; hashMatches: boolean }>('window.__demo.run("lossy")');
    if (!outcome.callSucceeded || outcome.hashMatches) throw new Error(`the lossy demo did not end as the README says: ${JSON.stringify(outcome)}`);
    await waitFor(
      () => h.panel.eval<boolean>(`document.querySelector('[data-testid=worst-finding]')?.dataset.code === 'lossy-result-accepted'`),
      { timeoutMs: 20_000, message: 'the panel shows the ⛔ lossy-result-accepted callout' },
    );
    await showTab(h.panel, 'timeline');
    const gapLabel = () => h.panel.eval<string>(`[...document.querySelectorAll('[data-testid=timeline] text')].map((t) => t.textContent).find((t) => /missing/.test(t)) ?? ''`);
    await waitFor(async () => (await gapLabel()).includes('12–13'), { message: 'the timeline draws `ids 12–13 missing`' });
    const frame = () => h.panel.eval('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))');

    /** The front-end docked right in a window of this size, the page's screenshot over its left part. */
    const dockedRight = async (win: { width: number; height: number }): Promise<Buffer> => {
      await cdp.send('Emulation.setDeviceMetricsOverride', { ...win, deviceScaleFactor: 1, mobile: false }, feSession);
      await showTab(h.panel, 'events');
      await showTab(h.panel, 'timeline');
      const docked = await waitFor(
        async () => {
          const r = await cdp.evaluate<Rect | null>(feSession, PANEL_IFRAME_RECT);
          return r && r.x > 300 && r.x + r.width <= win.width + 1 ? r : null;
        },
        { message: 'DevTools docked right with the panel visible' },
      );
      let onScreen = { callout: false, gap: false };
      await waitFor(
        async () => {
          onScreen = await h.panel.eval<{ callout: boolean; gap: boolean }>(`(() => {
            const vis = (el) => { if (!el) return false; const r = el.getBoundingClientRect(); return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth + 1; };
            return { callout: vis(document.querySelector('[data-testid=worst-finding]')), gap: vis(document.querySelector('[data-testid=timeline-gap]')) };
          })()`);
          return onScreen.callout && onScreen.gap;
        },
        { timeoutMs: 10_000, message: () => `docked right in ${win.width}×${win.height}, the first screen shows the callout and the gap (${JSON.stringify(onScreen)})` },
      );
      await frame();
      const devtoolsPng = await capture(cdp, feSession);
      // DevTools' frame starts at its toolbar's splitter, a few pixels left of the panel iframe.
      const pageWidth = Math.floor(await cdp.evaluate<number>(feSession, `(() => {
        const walk = (root) => { for (const el of root.querySelectorAll('*')) { if (el.classList?.contains('insertion-point-sidebar') || el.classList?.contains('shadow-split-widget-sidebar')) return el; if (el.shadowRoot) { const f = walk(el.shadowRoot); if (f) return f; } } return null; };
        const s = walk(document); return s ? s.getBoundingClientRect().left : ${docked.x};
      })()`));
      // DevTools draws the page's new size over it on a resize ("725px × 800px"): not in the picture.
      await cdp.evaluate(
        feSession,
        `(async () => { const S = await import('./core/sdk/sdk.js');
           for (const m of S.TargetManager.TargetManager.instance().models(S.OverlayModel.OverlayModel)) m.setShowViewportSizeOnResize(false);
           return true; })()`,
      );
      await cdp.send('Emulation.setDeviceMetricsOverride', { width: pageWidth, height: win.height, deviceScaleFactor: 1, mobile: false }, h.page);
      await h.evalPage('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))');
      const pagePng = await capture(cdp, h.page);
      await cdp.send('Emulation.clearDeviceMetricsOverride', {}, h.page);
      return compose(cdp, devtoolsPng, pagePng, win);
    };


    // 1. Docked right, as the browser window a user sees: for the store at 1280 × 800, and for the
    // README in a narrower window, which GitHub shows at its own size (a 1280-pixel picture is
    // scaled to about two thirds there, and DevTools' 11-pixel text with it).
    const store = await dockedRight({ width: 1280, height: 800 });
    write('docs/store/screenshot-1-docked-right.png', store);
    write('docs/images/panel-docked-right.png', await dockedRight(IMAGES['docs/images/panel-docked-right.png']));
    await cdp.send('Emulation.setDeviceMetricsOverride', { ...WINDOW, deviceScaleFactor: 1, mobile: false }, feSession);

    // 2. The timeline, with room: DevTools undocked fills the window.
    await setDock(h.browser, 'undocked');
    await waitFor(async () => ((await cdp.evaluate<Rect | null>(feSession, PANEL_IFRAME_RECT))?.x ?? 999) < 20, { message: 'DevTools undocked' });
    await showTab(h.panel, 'events');
    await showTab(h.panel, 'timeline');
    await waitFor(async () => (await gapLabel()).includes('12–13'), { message: 'the undocked timeline draws the gap' });
    await frame();
    write('docs/store/screenshot-2-timeline.png', await capture(cdp, feSession));
    const iframe = (await cdp.evaluate<Rect | null>(feSession, PANEL_IFRAME_RECT))!;
    const tl = await h.panel.eval<Rect>(`(() => { const r = document.querySelector('[data-testid=timeline]').getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; })()`);
    const want = IMAGES['docs/images/timeline.png'];
    // The whole timeline (its bar, lanes and legend) in an undocked 1280 × 800 DevTools; a layout
    // change that makes it another size is an error here, so the README's stated size stays true.
    if (Math.abs(tl.width - want.width) > 2 || Math.abs(tl.height - want.height) > 2) {
      throw new Error(`the timeline is ${tl.width.toFixed(1)}×${tl.height.toFixed(1)}, not ${want.width}×${want.height}: update IMAGES and the Markdown that shows it`);
    }
    write('docs/images/timeline.png', await capture(cdp, feSession, { x: Math.round(iframe.x + tl.x), y: Math.round(iframe.y + tl.y), ...want }));

    // 3. The request's verdict and what to do, in DevTools' dark theme.
    await setDevtoolsTheme(h.browser, 'dark');
    await waitFor(() => h.panel.eval(`document.querySelector('[data-testid=msi-app]')?.classList.contains('theme-dark')`), { message: 'panel in the dark theme' });
    await showTab(h.panel, 'requests');
    await h.panel.eval(`(() => { [...document.querySelectorAll('[data-testid=request-row]')].find((r) => r.textContent.includes('tools/call'))?.click(); return true; })()`);
    await waitFor(() => h.panel.eval(`!!document.querySelector('[data-testid=request-detail]')`), { message: 'request detail' });
    await frame();
    write('docs/store/screenshot-3-requests-dark.png', await capture(cdp, feSession));
    await setDevtoolsTheme(h.browser, 'default');
  } finally {
    await h.close();
    await demo.close();
  }
}

/**
 * The browser window: the DevTools front-end (docked right) with the page's screenshot drawn over
 * its left part, made by one more page of the same browser at the window's size.
 */
async function compose(cdp: Cdp, devtoolsPng: Buffer, pagePng: Buffer, win: { width: number; height: number }): Promise<Buffer> {
  const { targetId } = await cdp.send<{ targetId: string }>('Target.createTarget', { url: 'about:blank' });
  try {
    const s = await cdp.attach(targetId);
    await cdp.send('Emulation.setDeviceMetricsOverride', { ...win, deviceScaleFactor: 1, mobile: false }, s);
    const src = (b: Buffer) => `data:image/png;base64,${b.toString('base64')}`;
    await cdp.evaluate(
      s,
      `(async () => {
        document.documentElement.style.cssText = 'margin:0;padding:0;overflow:hidden';
        document.body.style.cssText = 'margin:0;padding:0;position:relative;width:${win.width}px;height:${win.height}px;overflow:hidden';
        const add = (src) => { const i = new Image(); i.src = src; i.style.cssText = 'position:absolute;left:0;top:0;display:block'; document.body.append(i); return i.decode(); };
        await add(${JSON.stringify(src(devtoolsPng))});
        await add(${JSON.stringify(src(pagePng))});
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        return true;
      })()`,
    );
    return await capture(cdp, s);
  } finally {
    await cdp.send('Target.closeTarget', { targetId }).catch(() => {});
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(`screenshots: ${e instanceof Error ? e.message : String(e)}`);
      process.exit(1);
    },
  );
}

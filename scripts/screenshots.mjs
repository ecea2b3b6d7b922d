#!/usr/bin/env node
// Screenshots of the standalone viewer (the same UI as the DevTools panel) in light and dark, wide,
// narrow (the shape of DevTools docked right) and short (docked bottom), for people to look at.
// Usage:
//   node scripts/screenshots.mjs [capture.json|file.har ...]
// Builds the viewer into a temp dir, serves it and the captures on 127.0.0.1, opens each capture in
// headless Chromium and writes test-artifacts/screenshots/<capture>-<view>-<theme>[-<shape>].png.
// MSI_SHOTS=timeline,events limits the views; MSI_SHAPES=wide,narrow,short the shapes.
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { basename, extname, join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const root = resolve(new URL('..', import.meta.url).pathname);
const out = join(root, 'test-artifacts', 'screenshots');
const viewerDir = process.env.MSI_VIEWER_OUT ?? '/tmp/msi-viewer-dist';
const captures = (process.argv.slice(2).length ? process.argv.slice(2) : [join(root, 'test/fixtures/captures/lossy.capture.json')]).map((p) => resolve(p));
const only = process.env.MSI_SHOTS; // comma list of views to shoot
const SHAPES = { wide: [1400, 860], narrow: [440, 900], short: [1400, 440] };
const shapes = (process.env.MSI_SHAPES ?? 'wide,narrow,short').split(',').filter((k) => k in SHAPES);
mkdirSync(out, { recursive: true });

if (!process.env.MSI_NO_BUILD) {
  const r = spawnSync('npx', ['vite', 'build', '--config', 'scripts/screenshots.viewer.config.ts'], { cwd: root, stdio: 'inherit', env: { ...process.env, MSI_VIEWER_OUT: viewerDir } });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.har': 'application/json', '.png': 'image/png' };
const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  let file;
  if (url.pathname.startsWith('/capture/')) file = captures[Number(url.pathname.split('/')[2])];
  else file = join(viewerDir, decodeURIComponent(url.pathname));
  if (!file || !file.startsWith('/') || !existsSync(file) || !statSync(file).isFile()) {
    res.writeHead(404).end('not found');
    return;
  }
  res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
  createReadStream(file).pipe(res);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const port = server.address().port;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
});
const written = [];
try {
  for (const [ci, cap] of captures.entries()) {
    const name = basename(cap).replace(/\.(capture\.json|json|har)$/, '');
    for (const [theme, shape] of ['light', 'dark'].flatMap((t) => shapes.map((sh) => [t, sh]))) {
      const [width, height] = SHAPES[shape];
      const suffix = shape === 'wide' ? theme : `${theme}-${shape}`;
      const page = await browser.newPage({ viewport: { width, height }, colorScheme: theme, deviceScaleFactor: 1 });
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      await page.goto(`http://127.0.0.1:${port}/src/panel/viewer.html?src=/capture/${ci}/${encodeURIComponent(basename(cap))}`);
      try {
        await page.waitForSelector('[data-testid=session-row]', { timeout: 15000 });
      } catch (e) {
        const p = join(out, `${name}-FAILED-${suffix}.png`);
        await page.screenshot({ path: p });
        console.error(`${name} ${suffix}: no session row (${e.message.split('\n')[0]}); errors: ${errors.join(' | ')}; screenshot ${p}`);
        await page.close();
        continue;
      }
      const shot = async (view, prepare) => {
        if (only && !only.split(',').includes(view)) return;
        if (prepare) await prepare();
        await page.waitForTimeout(150);
        const p = join(out, `${name}-${view}-${suffix}.png`);
        await page.screenshot({ path: p });
        written.push(p);
      };
      await shot('timeline');
      await shot('timeline-selected', async () => {
        await page.click('[data-testid=show-in-timeline]').catch(() => {});
      });
      await shot('events', async () => {
        await page.click('[data-testid=show-events]').catch(() => page.click('[data-testid=tab-events]'));
      });
      await shot('events-menu', async () => {
        const row = await page.$('[data-testid=event-row][aria-selected=true]');
        await row?.click({ button: 'right' });
      });
      await shot('search', async () => {
        await page.keyboard.press('Escape');
        await page.click('[data-testid=tb-search]');
        await page.fill('[data-testid=search-input]', 'tools/call');
        await page.click('[data-testid=search-next]').catch(() => {});
      });
      await shot('requests', async () => {
        await page.click('.search-close').catch(() => {});
        await page.click('[data-testid=tab-requests]');
        const lossy = await page.$('[data-verdict=lossy]');
        await (lossy ?? (await page.$('[data-testid=request-row]')))?.click();
      });
      await shot('findings', async () => {
        await page.click('[data-testid=tab-findings]');
        await page.click('[data-testid=finding-row]').catch(() => {});
      });
      await shot('settings', async () => {
        await page.click('[data-testid=tab-timeline]');
        await page.click('[data-testid=tb-settings]');
      });
      if (errors.length) console.error(`${name} ${suffix}: page errors:\n  ${errors.join('\n  ')}`);
      await page.close();
    }
  }
} finally {
  await browser.close();
  server.close();
}
console.log(written.join('\n'));

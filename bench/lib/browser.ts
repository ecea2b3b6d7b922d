// Chromium for the benchmarks. The launch flags, CDP client, panel driver and polling helper are
// the e2e harness's (test/support); the only difference is *which* extension build is loaded:
// test/support/browser.ts always loads ./dist, which other engineers rebuild while we measure, so
// the bench builds its own copy (`vite build --outDir <tmp>`) and loads that.

import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser } from '../../test/support/browser';
import { CHROMIUM } from '../../test/support/browser';
import { connectCdp } from '../../test/support/cdp';
import { waitFor } from '../../test/support/wait';

export const ROOT = resolve(import.meta.dirname, '../..');

/** Build the extension into a private temp dir (crxjs honours --outDir). Returns its path. */
export function buildExtension(): string {
  const out = mkdtempSync(join(tmpdir(), 'msi-bench-dist-'));
  execFileSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', out, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (!existsSync(join(out, 'manifest.json'))) throw new Error(`extension build into ${out} produced no manifest.json`);
  process.once('exit', () => rmSync(out, { recursive: true, force: true }));
  return out;
}

export interface BenchLaunch {
  /** Path of a built extension to load, or null for none. */
  dist: string | null;
  devtools: boolean;
  url?: string;
  extraArgs?: string[];
}

/** Same flags as test/support/browser.ts (docs: /work/shared/notes/browser-e2e.md). */
export async function launch(opts: BenchLaunch): Promise<Browser> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'msi-bench-chromium-'));
  const args = [
    `--user-data-dir=${userDataDir}`,
    '--remote-debugging-port=0',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-dev-shm-usage',
    '--headless=new',
    // Both arms alike: no timer throttling of a tab that headless Chromium may consider hidden.
    '--disable-background-timer-throttling',
    '--disable-renderer-backgrounding',
    '--disable-backgrounding-occluded-windows',
    '--enable-precise-memory-info',
    ...(opts.dist ? [`--disable-extensions-except=${opts.dist}`, `--load-extension=${opts.dist}`] : ['--disable-extensions']),
    ...(opts.devtools ? ['--auto-open-devtools-for-tabs'] : []),
    ...(opts.extraArgs ?? []),
    opts.url ?? 'about:blank',
  ];
  const proc = spawn(CHROMIUM, args, { detached: true, stdio: 'ignore' });
  let closed = false;
  const kill = () => {
    if (closed) return;
    closed = true;
    try {
      process.kill(-proc.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
  };
  process.once('exit', kill);
  try {
    const portFile = join(userDataDir, 'DevToolsActivePort');
    const [port, path] = await waitFor(
      () => {
        if (!existsSync(portFile)) return null;
        const lines = readFileSync(portFile, 'utf8').split('\n');
        return lines.length >= 2 && lines[1] ? [lines[0]!, lines[1]!] : null;
      },
      { timeoutMs: 30_000, message: 'Chromium did not write DevToolsActivePort' },
    );
    const cdp = await connectCdp(`ws://127.0.0.1:${port}${path}`);
    let extensionId: string | null = null;
    if (opts.dist) {
      extensionId = await waitFor(
        async () => {
          const t = (await cdp.targets()).find((x) => x.url.startsWith('chrome-extension://') && x.type === 'service_worker');
          return t ? new URL(t.url).host : null;
        },
        { timeoutMs: 20_000, message: 'extension service worker did not start' },
      );
    }
    const browser: Browser = {
      cdp,
      proc,
      userDataDir,
      extensionId,
      pageTarget: (urlPart) =>
        waitFor(async () => (await cdp.targets()).find((t) => t.type === 'page' && t.url.includes(urlPart)), {
          message: `no page target with url containing ${urlPart}`,
        }),
      async attachPage(urlPart) {
        const t = await browser.pageTarget(urlPart);
        const s = await cdp.attach(t.targetId);
        await waitFor(
          () => cdp.evaluate(s, `location.href.includes(${JSON.stringify(urlPart)}) && document.readyState === 'complete'`).catch(() => false),
          { message: `page ${urlPart} did not finish loading` },
        );
        return s;
      },
      async close() {
        try {
          await cdp.send('Browser.close').catch(() => {});
          cdp.close();
        } finally {
          await waitFor(() => proc.exitCode !== null || proc.signalCode !== null, { timeoutMs: 3000 }).catch(() => {});
          kill();
          process.removeListener('exit', kill);
          rmSync(userDataDir, { recursive: true, force: true });
        }
      },
    };
    return browser;
  } catch (e) {
    kill();
    rmSync(userDataDir, { recursive: true, force: true });
    throw e;
  }
}

export function chromiumVersion(): string {
  try {
    return execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

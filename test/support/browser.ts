// Launch Chromium ($CHROMIUM_PATH, default /usr/bin/chromium; headless=new) with or without the built extension (dist/) and with
// real DevTools opened for each tab, then connect over CDP. One browser at a time on these
// machines; close() kills the whole process group and removes the profile.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { connectCdp, type Cdp, type TargetInfo } from './cdp';
import { waitFor } from './wait';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
/** The built extension; MSI_DIST overrides it (e.g. to run a test against an older build). */
export const DIST = process.env.MSI_DIST ? resolve(process.env.MSI_DIST) : resolve(import.meta.dirname, '../../dist');

export interface LaunchOptions {
  /** Which built extension to load (default: DIST). The benchmarks load a private build. */
  dist?: string;
  /** Load dist/ (default true). */
  extension?: boolean;
  /** Open DevTools for every tab (default: same as `extension`). */
  devtools?: boolean;
  /** First page to open (default about:blank). */
  url?: string;
  extraArgs?: string[];
  /**
   * Headless (default) or a headed window (needs a display: run under `xvfb-run -a`). MSI_HEADED=1
   * makes every launch headed. DevTools' dock layouts behave differently in a real window (an
   * undocked DevTools is its own browser window there), so the layout tests run both ways.
   */
  headless?: boolean;
  /**
   * Written to the fresh profile's Default/Preferences before launch. DevTools keeps its own
   * settings there (`devtools.preferences`, values JSON-encoded strings), so a test can start
   * DevTools in a layout as a user's saved choice would: { devtools: { preferences: {
   * currentDockState: '"undocked"' } } }.
   */
  preferences?: Record<string, unknown>;
}

export interface Browser {
  cdp: Cdp;
  proc: ChildProcess;
  userDataDir: string;
  extensionId: string | null;
  /** The first http(s) page target matching `urlPart` (polls). */
  pageTarget(urlPart: string): Promise<TargetInfo>;
  /** Attach to a page target whose url contains `urlPart`; returns the session id. */
  attachPage(urlPart: string): Promise<string>;
  close(): Promise<void>;
}

export async function launchBrowser(opts: LaunchOptions = {}): Promise<Browser> {
  const extension = opts.extension ?? true;
  const devtools = opts.devtools ?? extension;
  const dist = opts.dist ?? DIST;
  if (extension && !existsSync(join(dist, 'manifest.json'))) throw new Error(`${dist} has no manifest.json: run \`npx vite build\` first`);
  const userDataDir = mkdtempSync(join(tmpdir(), 'msi-chromium-'));
  if (opts.preferences) {
    mkdirSync(join(userDataDir, 'Default'), { recursive: true });
    writeFileSync(join(userDataDir, 'Default', 'Preferences'), JSON.stringify(opts.preferences));
  }
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
    ...((opts.headless ?? !process.env.MSI_HEADED) ? ['--headless=new'] : []),
    ...(extension ? [`--disable-extensions-except=${dist}`, `--load-extension=${dist}`] : ['--disable-extensions']),
    ...(devtools ? ['--auto-open-devtools-for-tabs'] : []),
    ...(opts.extraArgs ?? []),
    opts.url ?? 'about:blank',
  ];
  // MSI_CHROME_LOG=<dir>: each browser's stderr (crashes, OOM, renderer kills) to a file there.
  const log = process.env.MSI_CHROME_LOG ? openSync(join(process.env.MSI_CHROME_LOG, `chromium-${Date.now()}-${Math.random().toString(36).slice(2, 6)}.log`), 'a') : 'ignore';
  const proc = spawn(CHROMIUM, args, { detached: true, stdio: ['ignore', 'ignore', log] });
  let closed = false;
  const kill = () => {
    if (closed) return;
    closed = true;
    try {
      process.kill(-proc.pid!, 'SIGKILL');
    } catch {
      /* already gone */
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
    if (extension) {
      extensionId = await waitFor(
        async () => {
          // Our worker is crxjs's service-worker-loader.js (other test extensions may be loaded).
          const t = (await cdp.targets()).find(
            (x) => x.url.startsWith('chrome-extension://') && x.type === 'service_worker' && x.url.endsWith('/service-worker-loader.js'),
          );
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
          () =>
            cdp
              .evaluate(s, `location.href.includes(${JSON.stringify(urlPart)}) && document.readyState === 'complete'`)
              .catch(() => false),
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

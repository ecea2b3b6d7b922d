// Chromium for the benchmarks: the e2e harness's launcher (test/support/browser.ts), loading the
// bench's own build (`vite build --outDir <tmp>`), since ./dist may be rebuilt while we measure.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser } from '../../test/support/browser';
import { CHROMIUM, launchBrowser } from '../../test/support/browser';

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

/** The e2e harness's launcher with the bench's own build and flags that treat both arms alike. */
export function launch(opts: BenchLaunch): Promise<Browser> {
  return launchBrowser({
    extension: opts.dist !== null,
    ...(opts.dist ? { dist: opts.dist } : {}),
    devtools: opts.devtools,
    ...(opts.url ? { url: opts.url } : {}),
    extraArgs: [
      // Both arms alike: no timer throttling of a tab that headless Chromium may consider hidden.
      '--disable-background-timer-throttling',
      '--disable-renderer-backgrounding',
      '--disable-backgrounding-occluded-windows',
      '--enable-precise-memory-info',
      ...(opts.extraArgs ?? []),
    ],
  });
}

export function chromiumVersion(): string {
  try {
    return execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

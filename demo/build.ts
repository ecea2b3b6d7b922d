// Builds the demo page (demo/dist) with vite when it is missing or older than its sources.

import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DEMO_DIR = fileURLToPath(new URL('.', import.meta.url));
const REPO_ROOT = join(DEMO_DIR, '..');
export const DEMO_DIST_INDEX = join(DEMO_DIR, 'dist', 'index.html');

/** Newest mtime of the files under `paths` (recursively), skipping node_modules and dist dirs. */
export function newestMtime(paths: string[]): number {
  let newest = 0;
  const walk = (p: string) => {
    if (!existsSync(p)) return;
    const s = statSync(p);
    if (s.isDirectory()) {
      for (const e of readdirSync(p)) if (e !== 'node_modules' && e !== 'dist') walk(join(p, e));
    } else newest = Math.max(newest, s.mtimeMs);
  };
  paths.forEach(walk);
  return newest;
}

export function isStale(output: string, inputs: string[]): boolean {
  if (!existsSync(output)) return true;
  return newestMtime(inputs) > statSync(output).mtimeMs;
}

export function isDemoPageStale(): boolean {
  return isStale(DEMO_DIST_INDEX, [
    DEMO_DIR,
    join(REPO_ROOT, 'test/fixtures/mcp-server/long-task.ts'),
    join(REPO_ROOT, 'test/fixtures/mcp-server/options.ts'),
    // The SDK v2 agent and its scenario table are bundled into the page too.
    join(REPO_ROOT, 'test/fixtures/v2/scenarios.ts'),
    join(REPO_ROOT, 'test/fixtures/v2/client/agent.ts'),
  ]);
}

/** Build demo/dist if it is stale (or always with force). Returns whether it built. */
export async function buildDemoPage(opts: { force?: boolean } = {}): Promise<boolean> {
  if (!opts.force && !isDemoPageStale()) return false;
  const { build } = await import('vite');
  await build({ configFile: join(DEMO_DIR, 'vite.config.ts'), logLevel: 'warn' });
  return true;
}

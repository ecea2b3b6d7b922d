// Is there a Chromium the end-to-end tests can launch? Checked once, before any e2e file runs
// (vitest globalSetup of the e2e project) and first thing in `npm test` (`tsx test/setup/chromium.ts`),
// so a machine without it learns so in seconds with one line, instead of each file waiting 30 s for
// DevToolsActivePort and failing with `spawn ... ENOENT`.
//
// The binary: $CHROMIUM_PATH, else /usr/bin/chromium (test/support/browser.ts launches the same).

import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.CHROMIUM_PATH || DEFAULT_CHROMIUM;
}

const HOW = 'install it (apt-get install chromium) or set CHROMIUM_PATH to a Chromium or Chrome for Testing binary; unit tests alone: npm run test:unit';

/** null when the binary is there and answers --version; otherwise the one line to print. */
export function chromiumProblem(path = chromiumPath()): string | null {
  const which = path === DEFAULT_CHROMIUM ? path : `CHROMIUM_PATH=${path}`;
  try {
    if (!statSync(path).isFile()) return `The end-to-end tests need Chromium, and ${which} is not a file: ${HOW}.`;
  } catch {
    return `The end-to-end tests need Chromium, and there is none at ${which}: ${HOW}.`;
  }
  try {
    accessSync(path, constants.X_OK);
  } catch {
    return `The end-to-end tests need Chromium, and ${which} is not executable: ${HOW}.`;
  }
  // A binary that cannot start (missing shared libraries, a wrong architecture) fails here in
  // well under a second instead of as a launch timeout in every file.
  const r = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 20_000 });
  if (r.error || r.status !== 0) {
    const why = (r.error?.message ?? r.stderr ?? '').split('\n').find((l) => l.trim()) ?? `exit ${r.status}`;
    return `The end-to-end tests need Chromium, and ${which} does not run (${why.trim().slice(0, 160)}): ${HOW}.`;
  }
  return null;
}

/** vitest globalSetup (e2e project): stop the run with the line, before any file starts. */
export default function setup(): void {
  const problem = chromiumProblem();
  if (problem) {
    process.stderr.write(`\n${problem}\n`);
    process.exit(1);
  }
}

// `tsx test/setup/chromium.ts`: the same check as a command (npm test runs it first).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const problem = chromiumProblem();
  if (problem) {
    process.stderr.write(`${problem}\n`);
    process.exit(1);
  }
}

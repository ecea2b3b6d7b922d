// Without Chromium the test run stops with one line saying how to get it (issue 20): the check
// itself, then its two places: first in `npm test`, and the e2e project's vitest globalSetup.

import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chromiumPath, chromiumProblem } from '../../setup/chromium';

const ROOT = resolve(import.meta.dirname, '../../..');
const dir = mkdtempSync(join(tmpdir(), 'msi-chromium-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const oneLineHowTo = (line: string | null) => {
  expect(line).not.toBeNull();
  expect(line).not.toContain('\n');
  expect(line).toContain('apt-get install chromium');
  expect(line).toContain('CHROMIUM_PATH');
};

describe('the Chromium check', () => {
  it('reads CHROMIUM_PATH, else /usr/bin/chromium', () => {
    expect(chromiumPath({ CHROMIUM_PATH: '/opt/c/chrome' })).toBe('/opt/c/chrome');
    expect(chromiumPath({})).toBe('/usr/bin/chromium');
    expect(chromiumPath({ CHROMIUM_PATH: '' })).toBe('/usr/bin/chromium');
  });

  it('names a missing binary, a folder, a file that cannot run and a binary that fails, each in one line', () => {
    const missing = chromiumProblem(join(dir, 'none'));
    oneLineHowTo(missing);
    expect(missing).toContain('there is none at');
    oneLineHowTo(chromiumProblem(dir));
    const plain = join(dir, 'plain');
    writeFileSync(plain, '');
    expect(chromiumProblem(plain)).toContain('is not executable');
    const failing = join(dir, 'failing');
    writeFileSync(failing, '#!/bin/sh\necho "libnss3.so: cannot open shared object file" >&2\nexit 127\n');
    chmodSync(failing, 0o755);
    const broken = chromiumProblem(failing);
    oneLineHowTo(broken);
    expect(broken).toContain('does not run (libnss3.so: cannot open shared object file)');
  });

  it('passes a binary that answers --version', () => {
    const fine = join(dir, 'fine');
    writeFileSync(fine, '#!/bin/sh\necho "Chromium 156.0.0.0"\n');
    chmodSync(fine, 0o755);
    expect(chromiumProblem(fine)).toBeNull();
  });

  it('npm test runs the check before lint, build and the unit tests; the e2e project stops before any file, with the line', () => {
    // npm test itself is not spawned here: were the check ever to pass, it would run the whole
    // suite from inside it. Its script must start with the check, and the check must fail.
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.test).toMatch(/^tsx test\/setup\/chromium\.ts && npm run lint && /);
    const env = { ...process.env, CHROMIUM_PATH: join(dir, 'none'), FORCE_COLOR: '0', NO_COLOR: '1' };
    const check = spawnSync('npx', ['tsx', 'test/setup/chromium.ts'], { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 });
    expect(check.status).toBe(1);
    expect(check.stdout).toBe('');
    oneLineHowTo(check.stderr.trimEnd());

    // One e2e file named, so that a broken globalSetup costs one launch timeout, not eleven.
    const e2e = spawnSync('npx', ['vitest', 'run', '--project', 'e2e', 'test/e2e/capture.test.ts'], { cwd: ROOT, env, encoding: 'utf8', timeout: 120_000 });
    expect(e2e.status).toBe(1);
    oneLineHowTo(e2e.stderr.split('\n').find((l) => l.includes('need Chromium')) ?? null);
    expect(e2e.stdout + e2e.stderr).not.toMatch(/Test Files|DevToolsActivePort|ENOENT/);
  }, 240_000);
});

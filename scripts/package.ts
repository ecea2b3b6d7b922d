// `npm run package`: the extension as the Chrome Web Store takes it. Builds dist-store/ (vite mode
// "store": no source maps, no test hooks, manifest version = package.json's), checks it, and zips
// it with manifest.json at the root into artifacts/mcp-stream-inspector-<version>.zip.
//
//   npm run package                  # the store zip
//   npm run package -- --sourcemap   # the same with source maps (for a private build)
//
// The zip is reproducible: entries sorted, every timestamp the same (SOURCE_DATE_EPOCH when set).
// test/e2e/package.test.ts unpacks it, loads it in Chromium and uses the panel.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { zipSync, type Zippable } from 'fflate';

const ROOT = resolve(import.meta.dirname, '..');
const OUT_DIR = join(ROOT, 'dist-store');
const ARTIFACTS = join(ROOT, 'artifacts');
/** Names the published code must not contain: the test hooks (src/extension/shared/test-hooks.ts). */
const TEST_HOOK_NAMES = ['__MSI_RELAY__', '__MSI_BACKGROUND__', '__MSI_PANEL__', '__MSI_UI__'];

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((d) => (d.isDirectory() ? files(join(dir, d.name)) : [join(dir, d.name)]))
    .sort();
}

export function packageExtension(opts: { sourcemap?: boolean; log?: (s: string) => void } = {}): { zip: string; version: string; files: string[]; bytes: number } {
  const log = opts.log ?? ((s: string) => process.stdout.write(`${s}\n`));
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  const build = spawnSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--mode', 'store'], {
    cwd: ROOT,
    env: { ...process.env, MSI_SOURCEMAP: opts.sourcemap ? '1' : '0' },
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`vite build --mode store failed:\n${build.stdout}\n${build.stderr}`);

  const all = files(OUT_DIR);
  const manifest = JSON.parse(readFileSync(join(OUT_DIR, 'manifest.json'), 'utf8')) as { version?: string; manifest_version?: number };
  if (manifest.manifest_version !== 3) throw new Error('dist-store/manifest.json is not a Manifest V3 manifest');
  if (manifest.version !== pkg.version) throw new Error(`manifest version ${manifest.version} is not package.json's ${pkg.version}`);
  const maps = all.filter((f) => f.endsWith('.map'));
  if (!opts.sourcemap && maps.length) throw new Error(`source maps in a store build: ${maps.map((f) => relative(OUT_DIR, f)).join(', ')}`);
  for (const f of all.filter((x) => /\.(js|html)$/.test(x))) {
    const text = readFileSync(f, 'utf8');
    const hook = TEST_HOOK_NAMES.find((n) => text.includes(n));
    if (hook) throw new Error(`${relative(OUT_DIR, f)} still contains the test hook ${hook}`);
  }

  const mtime = process.env.SOURCE_DATE_EPOCH ? new Date(Number(process.env.SOURCE_DATE_EPOCH) * 1000) : new Date('2000-01-01T00:00:00Z');
  const entries: Zippable = {};
  for (const f of all) entries[relative(OUT_DIR, f).split('\\').join('/')] = [new Uint8Array(readFileSync(f)), { mtime, level: 9 }];
  const zip = zipSync(entries);
  mkdirSync(ARTIFACTS, { recursive: true });
  const out = join(ARTIFACTS, `mcp-stream-inspector-${pkg.version}${opts.sourcemap ? '-sourcemaps' : ''}.zip`);
  writeFileSync(out, zip);
  const unpacked = all.reduce((n, f) => n + statSync(f).size, 0);
  log(`${relative(ROOT, out)}: ${all.length} files, ${(zip.length / 1024).toFixed(0)} KiB (${(unpacked / 1024).toFixed(0)} KiB unpacked), version ${pkg.version}${opts.sourcemap ? ', with source maps' : ''}`);
  return { zip: out, version: pkg.version, files: all.map((f) => relative(OUT_DIR, f)), bytes: zip.length };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { sourcemap: { type: 'boolean' } } });
  try {
    packageExtension({ sourcemap: values.sourcemap ?? false });
  } catch (e) {
    process.stderr.write(`npm run package: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  }
}

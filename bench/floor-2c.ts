// A diagnostic, not a figure: how much of row 2c's extension-process CPU per POST any extension
// with a DevTools panel pays, whatever it does with what it gets (issue 22's target is 0.5 ms).
// Row 2c's method (bench/page.ts tracedRun: Chrome trace, thread CPU of every thread of the
// extension's process, with − without), in one run, five browsers side by side:
//
// - none: no extension (the "without" of every other arm);
// - empty: a DevTools panel that does nothing;
// - listener: the panel listens to chrome.devtools.network.onRequestFinished (the witness does:
//   DevTools then sends the panel every finished request, HAR entry and all);
// - listener+port: and the page's POSTs reach the panel the way records do (a MAIN-world fetch
//   wrapper copies each answer, a content script posts it on a runtime Port, the service worker
//   forwards it to the panel's Port), batched every 16 ms as the hook batches its records; nothing
//   analysed or drawn;
// - listener+direct: the same, but the panel takes the content script's Port itself
//   (chrome.runtime.onConnect in the panel; the worker listens to no port): what skipping the
//   worker's relay hop would save;
// - product: the extension as built (its panel open), as in row 2c.
//
//   flock /tmp/chromium.lock npx tsx bench/floor-2c.ts [--dist=<dir>] [--posts=250] [--rounds=5] [--warm=1000]

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildExtension } from './lib/browser';
import { startBenchServer } from './lib/server';
import { median } from './lib/stats';
import { openArm, tracedRun, type Arm } from './page';

type Kind = 'empty' | 'listener' | 'listener+port' | 'listener+direct';

/** A minimal extension of the given kind, written to a temporary directory. */
function floorExtension(kind: Kind): string {
  const dir = mkdtempSync(join(tmpdir(), `msi-floor-${kind.replace('+', '-')}-`));
  const port = kind === 'listener+port' || kind === 'listener+direct';
  const direct = kind === 'listener+direct';
  const files: Record<string, string> = {
    'manifest.json': JSON.stringify({
      manifest_version: 3,
      name: `floor ${kind}`,
      version: '1',
      devtools_page: 'devtools.html',
      // The name the test harness finds the extension's worker by (test/support/browser.ts).
      background: { service_worker: 'service-worker-loader.js' },
      ...(port
        ? {
            content_scripts: [
              { matches: ['<all_urls>'], js: ['hook.js'], run_at: 'document_start', world: 'MAIN' },
              { matches: ['<all_urls>'], js: ['relay.js'], run_at: 'document_start' },
            ],
          }
        : {}),
    }),
    'devtools.html': '<!doctype html><script src="devtools.js"></script>',
    // The title and page the harness opens (test/support/devtools.ts openPanel).
    'devtools.js': "chrome.devtools.panels.create('MCP Streams', '', 'src/panel/panel.html');",
    'src/panel/panel.html': '<!doctype html><body>floor</body><script src="panel.js"></script>',
    'src/panel/panel.js': [
      'let batches = 0;',
      'globalThis.__MSI_PANEL__ = { batches: () => batches, records: () => [] };',
      kind !== 'empty' ? 'chrome.devtools.network.onRequestFinished.addListener((e) => { if (e.request.url) batches++; });' : '',
      port && !direct ? "chrome.runtime.connect({ name: 'panel' }).onMessage.addListener((m) => { if (m.url) batches++; });" : '',
      direct ? "chrome.runtime.onConnect.addListener((p) => p.onMessage.addListener((m) => { if (m.url) batches++; }));" : '',
    ].join('\n'),
    'service-worker-loader.js': direct ? '// No port: the panel takes the relay\'s Port itself.' : [
      'const panels = new Set();',
      'chrome.runtime.onConnect.addListener((p) => {',
      "  if (p.name === 'panel') { panels.add(p); p.onDisconnect.addListener(() => panels.delete(p)); return; }",
      '  p.onMessage.addListener((m) => { for (const q of panels) q.postMessage(m); });',
      '});',
    ].join('\n'),
    'hook.js': [
      'const orig = window.fetch;',
      'window.fetch = async function (input, init) {',
      '  const res = await orig.call(this, input, init);',
      "  res.clone().text().then((text) => window.postMessage({ __floor: true, url: res.url, status: res.status, method: init?.method ?? 'GET', body: init?.body ?? null, text }, '*'));",
      '  return res;',
      '};',
    ].join('\n'),
    'relay.js': [
      "const port = chrome.runtime.connect({ name: 'relay' });",
      // Batched on a 16 ms timer, as the product's hook batches its records.
      'let batch = [];',
      'addEventListener("message", (e) => {',
      '  if (e.source !== window || !e.data || !e.data.__floor) return;',
      '  if (batch.push(e.data) === 1) setTimeout(() => { port.postMessage({ url: batch[0].url, records: batch }); batch = []; }, 16);',
      '});',
    ].join('\n'),
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const args = process.argv.slice(2);
const opt = (k: string) => args.find((a) => a.startsWith(`--${k}=`))?.slice(k.length + 3);
const dist = opt('dist') ?? buildExtension();
const posts = Number(opt('posts') ?? 250);
const rounds = Number(opt('rounds') ?? 5);
const warm = Number(opt('warm') ?? 1000);

const server = await startBenchServer();
const url = server.url('/bench.html');
const arms: [string, Arm][] = [];
try {
  arms.push(['none', await openArm('none', null, true, url, false)]);
  for (const k of ['empty', 'listener', 'listener+port', 'listener+direct'] as Kind[]) arms.push([k, await openArm(k, floorExtension(k), true, url, true)]);
  arms.push(['product', await openArm('product', dist, true, url, true)]);
  // Warm-up: JIT, and a session as long as row 2c's (it runs after row 2b's thousands of POSTs).
  for (const [, a] of arms) await a.browser.cdp.evaluate(a.page, `rpcMany(${warm})`, { timeoutMs: 600_000 });
  const cpu = new Map<string, number[]>(arms.map(([k]) => [k, []]));
  for (let i = 0; i < rounds; i++) {
    // Each round in another order, so that no arm always runs first or last.
    const order = arms.map((_, j) => arms[(j + i) % arms.length]!);
    for (const [k, a] of order) {
      const r = await tracedRun(a, url, `rpcMany(${posts})`);
      cpu.get(k)!.push(r.byProcess['extension (worker, panel)'] ?? 0);
    }
  }
  // What each panel took in (DevTools' entries and port messages): an arm whose messages never
  // reached its panel would look cheap for that reason alone.
  for (const [k, a] of arms) if (a.panel) console.log(`  ${k}: panel took ${(await a.panel.eval<number>('globalThis.__MSI_PANEL__.batches?.() ?? 0')) ?? 0} messages`);
  const base = median(cpu.get('none')!);
  console.log(`extension process thread CPU per POST, ${posts} POSTs × ${rounds} rounds (median; with − none; per round):`);
  for (const [k, v] of cpu) {
    const per = v.map((x) => (x - base) / posts);
    console.log(`  ${k.padEnd(14)} ${(median(per)).toFixed(3)} ms  [${per.map((x) => x.toFixed(3)).join(', ')}]`);
  }
} finally {
  for (const [, a] of arms) await a.browser.close().catch(() => {});
  await server.close();
}

// A diagnostic, not a figure: two builds of the extension side by side on row 2c's workload (the
// page's JSON-RPC POSTs answered with JSON), with a browser without the extension as the base.
// Row 2c's method (bench/page.ts tracedRun: Chrome trace, thread CPU): per round, each browser runs
// the POSTs traced, in an order that turns each round; printed per build, the page's main thread
// (the hook and the relay run there) and the extension's process per POST over the base, and the
// pair ratios of the page's figure, build b over build a.
//
//   flock /tmp/chromium.lock npx tsx bench/ab-2c.ts --a=<dist> --b=<dist> [--posts=250] [--rounds=8]
//     [--warm=1000] [--closed]
//
// --closed: DevTools closed in all three browsers (no panel: the hook's and the relay's own cost,
// without DevTools' network instrumentation in the page's thread).
// --stream=<events>: row 1's workload instead (one event stream of <events> 500-byte events read as
// fast as the page can); figures per event, and each run's DevTools copy class (rows 1 · none…):
// the medians are printed over the runs DevTools did not copy, and over all.

import { startBenchServer } from './lib/server';
import { median } from './lib/stats';
import { devtoolsCopy, openArm, tracedRun, type Arm } from './page';
const args = process.argv.slice(2);
const opt = (k: string) => args.find((a) => a.startsWith(`--${k}=`))?.slice(k.length + 3);
const posts = Number(opt('posts') ?? 250);
const rounds = Number(opt('rounds') ?? 8);
const warm = Number(opt('warm') ?? 1000);
const stream = opt('stream') ? Number(opt('stream')) : undefined;
if (!opt('a') || !opt('b')) throw new Error('usage: --a=<dist> --b=<dist> (two built extensions)');
const dt = !args.includes('--closed');
const server = await startBenchServer();
const url = server.url('/bench.html');
const arms: [string, Arm][] = [];
try {
  arms.push(['none', await openArm('none', null, dt, url, false)]);
  arms.push(['a', await openArm('base', opt('a')!, dt, url, dt)]);
  arms.push(['b', await openArm('new', opt('b')!, dt, url, dt)]);
  if (stream) await streamRounds(stream);
  else await postRounds();
} finally {
  for (const [, a] of arms) await a.browser.close().catch(() => {});
  await server.close();
}

async function postRounds() {
  for (const [, a] of arms) await a.browser.cdp.evaluate(a.page, `rpcMany(${warm})`, { timeoutMs: 600_000 });
  const main = new Map<string, number[]>(arms.map(([k]) => [k, []]));
  const ext = new Map<string, number[]>(arms.map(([k]) => [k, []]));
  for (let i = 0; i < rounds; i++) {
    const order = arms.map((_, j) => arms[(j + i) % arms.length]!);
    for (const [k, a] of order) {
      const r = await tracedRun(a, url, `rpcMany(${posts})`);
      main.get(k)!.push(r.mainMs / posts);
      ext.get(k)!.push((r.byProcess['extension (worker, panel)'] ?? 0) / posts);
    }
  }
  const b0 = median(main.get('none')!);
  for (const [k, v] of main) console.log(`page main ${k.padEnd(5)} median ${(median(v) - b0).toFixed(3)} ms/POST over none  [${v.map((x) => (x - b0).toFixed(3)).join(', ')}]`);
  const pr = main.get('b')!.map((x, i) => (x - b0) / (main.get('a')![i]! - b0));
  const diff = main.get('b')!.map((x, i) => x - main.get('a')![i]!);
  console.log('b − a per round (ms/POST):', diff.map((x) => x.toFixed(3)).join(', '), 'median', median(diff).toFixed(3));
  console.log('pair ratios b/a (over none):', pr.map((x) => x.toFixed(2)).join(', '), 'median', median(pr).toFixed(3));
  for (const [k, v] of ext) console.log(`ext ${k.padEnd(5)} median ${median(v).toFixed(3)} ms/POST`);
}

async function streamRounds(events: number) {
  const path = `/sse?n=${events}&b=500`;
  const expr = `consume(${JSON.stringify(server.url(path))})`;
  const runs = new Map<string, { us: number; copy: string }[]>(arms.map(([k]) => [k, []]));
  for (let i = 0; i < rounds; i++) {
    const order = arms.map((_, j) => arms[(j + i) % arms.length]!);
    for (const [k, a] of order) {
      const r = await tracedRun(a, url, expr);
      const c = dt ? await devtoolsCopy(a, path, events) : undefined;
      runs.get(k)!.push({ us: (r.mainMs * 1000) / events, copy: c?.copy ?? 'closed' });
    }
  }
  const none = (k: string) => runs.get(k)!.filter((x) => x.copy === 'none' || x.copy === 'closed').map((x) => x.us);
  for (const [k, v] of runs)
    console.log(`page main ${k.padEnd(5)} µs/event: median ${median(v.map((x) => x.us)).toFixed(3)} all, ${none(k).length ? median(none(k)).toFixed(3) : '—'} not copied (${none(k).length} runs)  [${v.map((x) => `${x.us.toFixed(2)}${x.copy[0]}`).join(', ')}]`);
  const pairs = runs.get('a')!.map((x, i) => [x, runs.get('b')![i]!] as const).filter(([x, y]) => x.copy === y.copy && (x.copy === 'none' || x.copy === 'closed'));
  const diff = pairs.map(([x, y]) => y.us - x.us);
  if (diff.length) console.log(`b − a, rounds where neither was copied (${diff.length}): ${diff.map((d) => d.toFixed(3)).join(', ')}; median ${median(diff).toFixed(3)} µs/event`);
}

// A diagnostic, not a figure: what the panel's analysis and view model cost per published
// snapshot in a live session of JSON-RPC POSTs with JSON answers (row 2b's workload, replayed in
// Node: no browser, no React). The records are what the hook makes of each POST (request,
// response, one chunk, end); a snapshot and a view model are built every --every POSTs, as the
// panel publishes every 120-200 ms. Printed: per run of --posts POSTs, the medians over --reps runs
// of the records fed to the analyzer, the snapshots, the view models and their sum (each run
// timed whole, its garbage collection included).
//
//   npx tsx bench/publish-replay.ts [--posts=1000] [--every=25] [--reps=40]
//
// To compare two builds, run it in a worktree of each (`git worktree add /tmp/before <commit>`).

import { createAnalyzer } from '../src/core';
import type { CaptureRecord } from '../src/core/record';
import { createViewModelBuilder } from '../src/panel/ui/store/view-model';
import { median } from './lib/stats';

const args = process.argv.slice(2);
const opt = (k: string, d: number) => Number(args.find((a) => a.startsWith(`--${k}=`))?.slice(k.length + 3) ?? d);
const posts = opt('posts', 1000);
const every = opt('every', 25);
const reps = opt('reps', 40);

function records(n: number): CaptureRecord[] {
  const src = 'replay';
  const url = 'http://127.0.0.1:9/mcp';
  const session: [string, string] = ['mcp-session-id', 'replay-session'];
  let seq = 0;
  let t = 1_700_000_000_000;
  const out: CaptureRecord[] = [{ kind: 'navigation', seq: ++seq, src, t, url: 'http://127.0.0.1:9/', top: true }];
  for (let i = 0; i < n; i++) {
    const conn = `c${i + 1}`;
    const id = i + 10;
    out.push(
      { kind: 'request', seq: ++seq, src, t: (t += 2), conn, transport: 'fetch', method: 'POST', url, headers: [['content-type', 'application/json'], ['accept', 'application/json, text/event-stream'], session], body: `{"jsonrpc":"2.0","id":${id},"method":"tools/list","params":{}}` },
      { kind: 'response', seq: ++seq, src, t: (t += 3), conn, status: 200, statusText: 'OK', headers: [['content-type', 'application/json'], session], url, redirected: false, type: 'basic', capture: 'json' },
      { kind: 'chunk', seq: ++seq, src, t: (t += 1), conn, text: `{"jsonrpc":"2.0","id":${id},"result":{"tools":[{"name":"long","inputSchema":{"type":"object"}}]}}`, bytes: 94 },
      { kind: 'end', seq: ++seq, src, t: (t += 0.1), conn, how: 'complete' },
    );
  }
  return out;
}

const recs = records(posts);
const step = every * 4;
function run(): [number, number, number] {
  const a = createAnalyzer();
  const vm = createViewModelBuilder();
  let feed = 0;
  let snaps = 0;
  let views = 0;
  for (let i = 1; i < recs.length; i += step) {
    const t0 = performance.now();
    for (let k = i === 1 ? 0 : i; k < Math.min(i + step, recs.length); k++) a.push(recs[k]!);
    const t1 = performance.now();
    const snap = a.snapshot();
    const t2 = performance.now();
    vm.build(snap, recs.slice(0, i + step));
    const t3 = performance.now();
    feed += t1 - t0;
    snaps += t2 - t1;
    views += t3 - t2;
  }
  return [feed, snaps, views];
}

for (let i = 0; i < 10; i++) run(); // JIT
const out: number[][] = [[], [], [], []];
for (let i = 0; i < reps; i++) {
  const t0 = performance.now();
  const r = run();
  const whole = performance.now() - t0;
  r.forEach((x, k) => out[k]!.push(x));
  out[3]!.push(whole);
}
const f = (x: number[]) => median(x).toFixed(1);
console.log(`${posts} POSTs, a snapshot every ${every}: feed ${f(out[0]!)} ms, snapshots ${f(out[1]!)} ms, view models ${f(out[2]!)} ms, whole run ${f(out[3]!)} ms (medians of ${reps} runs)`);

// Micro benchmark of the analysis core (plain tsx script, not a test):
//
//   npx tsx bench/core-micro.ts            # default sizes (~30 s)
//   npx tsx bench/core-micro.ts --full     # adds the 1M-event sizes
//
// 1. live: one long-lived stream receiving events continuously, snapshot() after every batch
//    (what the panel does while capturing). Before the shared-events change a snapshot copied
//    each changed stream's whole event list (and each request's notification list), so the total
//    grew as n²; now a snapshot costs what changed since the previous one.
// 2. throughput: core (push + finish + snapshot) vs eventsource-parser alone on the same chunks.
// 3. scaling: time per event at the big size vs at 10k (no snapshots in between).
// 4. tiny events: a million (or 200k) `data: x\n\n` events in one body.
// 5. hostile live streams, snapshot() after every batch of 50: a server dropping 1 event in 10
//    while connected (a live-gap finding each), and one sending every id twice (a duplicate each).
//    Before the incremental derivation every snapshot re-decided every gap candidate and re-sorted
//    every finding (80k events: 71 s and 23 s); now the new ones only.
import { createParser } from 'eventsource-parser';
import { createAnalyzer } from '../src/core';
import type { CaptureRecord } from '../src/core/record';
import { buildCapture } from './lib/workload';

const full = process.argv.includes('--full');

function liveRecords(n: number, perBatch: number): CaptureRecord[][] {
  const src = 'm';
  let seq = 0;
  let t = 1;
  const url = 'http://127.0.0.1:9/mcp';
  const head: CaptureRecord[] = [
    { kind: 'request', seq: ++seq, src, t: t++, conn: 'c1', transport: 'fetch', method: 'POST', url, headers: [['mcp-session-id', 's'], ['accept', 'text/event-stream']], body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{"progressToken":"p"}}}' },
    { kind: 'response', seq: ++seq, src, t: t++, conn: 'c1', status: 200, statusText: 'OK', headers: [['content-type', 'text/event-stream']], url, redirected: false, type: 'basic', capture: 'sse' },
  ];
  const batches: CaptureRecord[][] = [head];
  for (let i = 1; i <= n; i += perBatch) {
    let text = '';
    for (let k = i; k < i + perBatch && k <= n; k++) {
      text +=
        k % 2
          ? `id: ${k}\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":${k}}}\n\n`
          : `id: ${k}\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"chunk ${k}"}}\n\n`;
    }
    batches.push([{ kind: 'chunk', seq: ++seq, src, t: t++, conn: 'c1', text, bytes: text.length }]);
  }
  return batches;
}

function timeLive(n: number, perBatch: number): { ms: number; snapshots: number } {
  const batches = liveRecords(n, perBatch);
  let best = Infinity;
  let snapshots = 0;
  for (let rep = 0; rep < 3; rep++) {
    const a = createAnalyzer();
    snapshots = 0;
    const t0 = performance.now();
    for (const b of batches) {
      a.pushAll(b);
      a.snapshot();
      snapshots++;
    }
    best = Math.min(best, performance.now() - t0);
    if (best > 20_000) break; // quadratic behaviour: one run is enough
  }
  return { ms: best, snapshots };
}

function timeParser(chunks: string[]): number {
  const t0 = performance.now();
  let n = 0;
  const p = createParser({ onEvent: () => void n++ });
  for (const c of chunks) p.feed(c);
  p.reset({ consume: true });
  return performance.now() - t0;
}

function timeCore(records: CaptureRecord[]): number {
  const t0 = performance.now();
  const a = createAnalyzer();
  a.pushAll(records);
  a.finish();
  a.snapshot();
  return performance.now() - t0;
}

const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const f1 = (x: number) => x.toFixed(1);

console.log(`node ${process.version}, ${full ? 'full' : 'default'} sizes`);
console.log('\n1. live stream, snapshot() after every batch of 50 events');
const liveSizes = full ? [10_000, 40_000, 160_000, 1_000_000] : [10_000, 40_000, 160_000];
let base: number | undefined;
for (const n of liveSizes) {
  timeLive(2000, 50); // warm
  const { ms, snapshots } = timeLive(n, 50);
  const us = (ms * 1000) / n;
  base ??= us;
  console.log(`   ${String(n).padStart(9)} events, ${String(snapshots).padStart(6)} snapshots: ${f1(ms).padStart(9)} ms, ${us.toFixed(2)} µs/event (x${(us / base).toFixed(2)} vs 10k)`);
}

console.log('\n2. throughput: core vs eventsource-parser alone (64 KiB chunks, ~200-byte events)');
const big = full ? 1_000_000 : 200_000;
const cap = buildCapture(big, 200);
const small = buildCapture(10_000, 200);
const ratios: number[] = [];
const coreMs: number[] = [];
for (let rep = 0; rep < 3; rep++) {
  const p = timeParser(cap.chunks);
  const c = timeCore(cap.records);
  ratios.push(c / p);
  coreMs.push(c);
}
console.log(`   ${big} events: core ${f1(med(coreMs))} ms, core/parser median ${med(ratios).toFixed(2)} (min ${Math.min(...ratios).toFixed(2)}, max ${Math.max(...ratios).toFixed(2)})`);

console.log('\n3. scaling: µs per event at the big size vs at 10k');
const smallTimes: number[] = [];
for (let rep = 0; rep < 5; rep++) smallTimes.push(timeCore(small.records));
const usSmall = (med(smallTimes) * 1000) / 10_000;
const usBig = (med(coreMs) * 1000) / big;
console.log(`   10k ${usSmall.toFixed(2)} µs/event, ${big} ${usBig.toFixed(2)} µs/event, ratio ${(usBig / usSmall).toFixed(2)}`);

console.log('\n4. tiny events (`data: x` without id) in one 64 KiB-chunked body');
const tiny = full ? 1_000_000 : 200_000;
{
  const body = 'data: x\n\n'.repeat(tiny);
  const records: CaptureRecord[] = [
    { kind: 'request', seq: 1, src: 't', t: 1, conn: 'c', transport: 'fetch', method: 'GET', url: 'http://h/mcp', headers: [['mcp-session-id', 's']], body: null },
    { kind: 'response', seq: 2, src: 't', t: 2, conn: 'c', status: 200, statusText: '', headers: [['content-type', 'text/event-stream']], url: 'http://h/mcp', redirected: false, type: 'basic', capture: 'sse' },
  ];
  for (let o = 0; o < body.length; o += 65536) records.push({ kind: 'chunk', seq: records.length + 1, src: 't', t: 3, conn: 'c', text: body.slice(o, o + 65536), bytes: 65536 });
  records.push({ kind: 'end', seq: records.length + 1, src: 't', t: 4, conn: 'c', how: 'complete' });
  const chunks = records.filter((r) => r.kind === 'chunk').map((r) => (r as { text: string }).text);
  const p = timeParser(chunks);
  const c = timeCore(records);
  console.log(`   ${tiny} events: core ${f1(c)} ms, parser ${f1(p)} ms, ratio ${(c / p).toFixed(2)}`);
}

console.log('\n5. hostile live streams, snapshot() after every batch of 50 events');
function hostile(n: number, mode: 'drop' | 'dup'): { ms: number; findings: number } {
  const a = createAnalyzer();
  const url = 'http://h/mcp';
  let seq = 0;
  a.push({ kind: 'request', seq: ++seq, src: 's', t: 1, conn: 'c', transport: 'fetch', method: 'GET', url, headers: [['mcp-session-id', 'S']], body: null });
  a.push({ kind: 'response', seq: ++seq, src: 's', t: 2, conn: 'c', status: 200, statusText: '', headers: [['content-type', 'text/event-stream']], url, redirected: false, type: 'basic', capture: 'sse' });
  const t0 = performance.now();
  let findings = 0;
  for (let i = 1; i <= n; i += 50) {
    let text = '';
    for (let k = i; k < i + 50; k++) {
      if (mode === 'drop' && k % 10 === 5) continue;
      text += `id: ${mode === 'drop' ? k : Math.ceil(k / 2)}\ndata: {"jsonrpc":"2.0","method":"notifications/message"}\n\n`;
    }
    a.push({ kind: 'chunk', seq: ++seq, src: 's', t: 3, conn: 'c', text, bytes: text.length });
    findings = a.snapshot().findings.length;
  }
  return { ms: performance.now() - t0, findings };
}
for (const mode of ['drop', 'dup'] as const) {
  const sizes = full ? [20_000, 80_000, 320_000] : [20_000, 80_000];
  let first: number | undefined;
  for (const n of sizes) {
    const r = hostile(n, mode);
    const us = (r.ms * 1000) / n;
    first ??= us;
    console.log(`   ${mode.padEnd(4)} ${String(n).padStart(7)} events, ${String(r.findings).padStart(6)} findings: ${f1(r.ms).padStart(8)} ms, ${us.toFixed(2)} µs/event (x${(us / first).toFixed(2)})`);
  }
}

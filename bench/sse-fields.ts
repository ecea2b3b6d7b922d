// Why the core reads SSE fields itself instead of through eventsource-parser (docs/dependencies.md,
// the dependency table): the core must keep each event's raw text, its last-event-id cursor, id-only blocks and a
// last block cut off without its blank line, none of which eventsource-parser reports, so it splits
// the stream into blocks itself. Reading the fields in that same pass (src/core/sse.ts) is measured
// here against the alternatives, on the row 4 workload (~200-byte events in 64 KiB chunks):
//
//   a. eventsource-parser alone over the chunks (fields only: no raw text, no cursor, no truncation)
//   b. the core's connection parser (createSseConnectionParser: blocks with raw text + fields, one pass)
//   c. b's blocks fed, one by one, to eventsource-parser as well (the design before: split, then the
//      library reads each block's fields; b's own field reading is a lower bound of a splitter
//      that reads none, so c − b understates nothing of what the second pass costs)
//
//   node --expose-gc --import tsx bench/sse-fields.ts [events=1000000] [reps=7]
//
// Alternating order, gc() before each timing, min / median / max over the repetitions.
import { createParser } from 'eventsource-parser';
import { createSseConnectionParser } from '../src/core/sse';
import { median } from './lib/stats';
import { buildCapture } from './lib/workload';

const events = Number(process.argv[2] ?? 1_000_000);
const reps = Number(process.argv[3] ?? 7);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const cap = buildCapture(events, 200);

function a(): { ms: number; n: number } {
  gc();
  const t0 = performance.now();
  let n = 0;
  const p = createParser({ onEvent: () => void n++ });
  for (const ch of cap.chunks) p.feed(ch);
  return { ms: performance.now() - t0, n };
}

function b(): { ms: number; n: number } {
  gc();
  const t0 = performance.now();
  const p = createSseConnectionParser();
  let n = 0;
  for (const ch of cap.chunks) n += p.feed(ch).length;
  n += p.end().length;
  return { ms: performance.now() - t0, n };
}

function c(): { ms: number; n: number } {
  gc();
  const t0 = performance.now();
  const p = createSseConnectionParser();
  let n = 0;
  const lib = createParser({ onEvent: () => void n++ });
  for (const ch of cap.chunks) for (const blk of p.feed(ch)) lib.feed(blk.raw);
  for (const blk of p.end()) lib.feed(blk.raw);
  return { ms: performance.now() - t0, n };
}

const runs: Record<'a' | 'b' | 'c', number[]> = { a: [], b: [], c: [] };
const counts = { a: 0, b: 0, c: 0 };
for (let i = 0; i < reps + 1; i++) {
  const order = (i % 2 ? ['c', 'b', 'a'] : ['a', 'b', 'c']) as ('a' | 'b' | 'c')[];
  for (const k of order) {
    const r = k === 'a' ? a() : k === 'b' ? b() : c();
    counts[k] = r.n;
    if (i > 0) runs[k].push(r.ms); // the first round warms up
  }
}
const fmt = (xs: number[]) => `${Math.min(...xs).toFixed(0)} / ${median(xs).toFixed(0)} / ${Math.max(...xs).toFixed(0)} ms`;
console.log(`${events} events, ${(cap.bytes / 1e6).toFixed(0)} MB, ${cap.chunks.length} chunks; ${reps} reps (min / median / max)`);
console.log(`a. eventsource-parser alone:               ${fmt(runs.a)}  (${counts.a} events)`);
console.log(`b. core parser (blocks + fields, 1 pass):   ${fmt(runs.b)}  (${counts.b} blocks)`);
console.log(`c. core blocks + eventsource-parser fields: ${fmt(runs.c)}  (${counts.c} events)`);
console.log(`b / a = ${(median(runs.b) / median(runs.a)).toFixed(2)}, c / b = ${(median(runs.c) / median(runs.b)).toFixed(2)}, (c − b) / a = ${((median(runs.c) - median(runs.b)) / median(runs.a)).toFixed(2)}`);

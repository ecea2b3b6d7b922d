// Micro measurements behind docs/dependencies.md (plain tsx script, not a test; Node):
//
//   node --expose-gc --import tsx bench/deps-micro.ts
//
// 1. JSON-RPC: the core's decodeJsonRpc (JSON.parse + a summary of the fields the analysis reads)
//    vs JSON.parse + the MCP SDK's own JSONRPCMessageSchema (zod) safeParse, 200k SSE data texts
//    of the row 4 workload (progress notifications, messages, a result).
// 2. UTF-8 byte length of 64 KiB chunk texts: the core's utf8Length (no allocation) vs
//    TextEncoder.encode(s).length and encodeInto() a reused buffer (what the hook would use without
//    it; Buffer is Node-only), on the ASCII workload and on text with 1/4 non-ASCII characters.
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { decodeJsonRpc } from '../src/core/jsonrpc';
import { utf8Length } from '../src/core/utf8';
import { median } from './lib/stats';
import { buildCapture } from './lib/workload';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
function time(label: string, reps: number, f: () => number): { label: string; ms: number[]; n: number } {
  const ms: number[] = [];
  let n = 0;
  for (let i = 0; i <= reps; i++) {
    gc();
    const t0 = performance.now();
    n = f();
    if (i > 0) ms.push(performance.now() - t0);
  }
  return { label, ms, n };
}
const show = (r: { label: string; ms: number[]; n: number }) =>
  console.log(`${r.label.padEnd(58)} ${Math.min(...r.ms).toFixed(0)} / ${median(r.ms).toFixed(0)} / ${Math.max(...r.ms).toFixed(0)} ms  (${r.n})`);

const cap = buildCapture(200_000, 200);
const datas: string[] = [];
for (const line of cap.chunks.join('').split('\n')) if (line.startsWith('data: ')) datas.push(line.slice(6));

console.log(`1. JSON-RPC decoding, ${datas.length} SSE data texts (min / median / max of 5)`);
const a = time('core decodeJsonRpc', 5, () => {
  let n = 0;
  for (const d of datas) n += decodeJsonRpc(d).messages.length;
  return n;
});
const b = time('JSON.parse + SDK JSONRPCMessageSchema.safeParse (zod)', 5, () => {
  let n = 0;
  for (const d of datas) if (JSONRPCMessageSchema.safeParse(JSON.parse(d)).success) n++;
  return n;
});
show(a);
show(b);
console.log(`   zod / core = ${(median(b.ms) / median(a.ms)).toFixed(2)}`);

const enc = new TextEncoder();
const nonAscii = cap.chunks.map((x) => x.replace(/[aeiou]/g, (v) => ({ a: 'ä', e: 'é', i: '中', o: 'ö', u: '😀' })[v]!));
for (const [name, chunks] of [['ASCII', cap.chunks], ['non-ASCII', nonAscii]] as const) {
  console.log(`\n2. UTF-8 byte length, ${name}, ${chunks.length} chunks of ~64 KiB (min / median / max of 9)`);
  let buf = new Uint8Array(0);
  const c = time('core utf8Length', 9, () => chunks.reduce((s, x) => s + utf8Length(x), 0));
  const d = time('TextEncoder.encode(s).length (allocates)', 9, () => chunks.reduce((s, x) => s + enc.encode(x).length, 0));
  const e = time('TextEncoder.encodeInto(s, reused buffer).written', 9, () =>
    chunks.reduce((s, x) => {
      if (buf.length < x.length * 3) buf = new Uint8Array(x.length * 3);
      return s + enc.encodeInto(x, buf).written;
    }, 0),
  );
  show(c);
  show(d);
  show(e);
  console.log(`   encode / core = ${(median(d.ms) / median(c.ms)).toFixed(2)}, encodeInto / core = ${(median(e.ms) / median(c.ms)).toFixed(2)}`);
}

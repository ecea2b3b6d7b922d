// Two full runs side by side: the "Run 2 beside run 1" tables of docs/benchmarks.md.
//
//   npx tsx bench/compare-runs.ts <run 1's latest.md> <run 2's latest.md>
//
// Rows are matched by number and description, in order (row 7b appears twice), else by number and
// description with their figures left out (row 3's holds the run's own count); a row run 2 lacks
// shows "—".

import { readFileSync } from 'node:fs';

interface Row {
  key: string;
  n: string;
  what: string;
  min: string;
  med: string;
  max: string;
  target: string;
  result: string;
}

function rowsOf(file: string): Row[] {
  const out: Row[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.startsWith('| ') || line.startsWith('| # ') || line.startsWith('|---')) continue;
    const c = line.slice(2, -2).split(' | ');
    if (c.length < 7) continue;
    const [n, what, min, med, max, target, result] = c as [string, string, string, string, string, string, string];
    out.push({ key: `${n}\u0000${what}`, n, what, min, med, max, target, result });
  }
  return out;
}

const [a, b] = process.argv.slice(2);
if (!a || !b) {
  console.error('usage: npx tsx bench/compare-runs.ts <run 1 latest.md> <run 2 latest.md>');
  process.exit(2);
}
const one = rowsOf(a);
const two = rowsOf(b);
const seen = new Map<string, number>();
const used = new Set<Row>();
/** A description with its figures left out: row 3's holds the run's own count of chunk records. */
const shape = (r: Row) => `${r.n}\u0000${r.what.replace(/\d[\d.,]*/g, '#')}`;
const cell = (r: Row | undefined) => (r ? `${r.med} (${r.min}–${r.max})` : '—');
console.log('| # | what | run 1: median (min–max) | run 2: median (min–max) | target | run 1 / run 2 |');
console.log('|---|---|---|---|---|---|');
for (const r of one) {
  const i = seen.get(r.key) ?? 0;
  seen.set(r.key, i + 1);
  let o = two.filter((x) => x.key === r.key)[i];
  if (o && used.has(o)) o = undefined;
  // Else the first row of run 2 not yet shown whose description differs only in its figures.
  o ??= two.find((x) => !used.has(x) && !one.some((y) => y.key === x.key) && shape(x) === shape(r));
  if (o) used.add(o);
  console.log(`| ${r.n} | ${r.what} | ${cell(r)} | ${cell(o)} | ${r.target} | ${r.result} / ${o ? o.result : '—'} |`);
}

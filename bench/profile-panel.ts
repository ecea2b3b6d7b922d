// A diagnostic, not a figure: CPU profiles of the extension's panel and service worker while the
// page sends row 2b's JSON-RPC POSTs (or reads row 1's stream), with the top self-time functions
// of each. Where row 2c's per-POST CPU goes (issue 22).
//
//   flock /tmp/chromium.lock npx tsx bench/profile-panel.ts [--dist=<dir>] [--posts=1000] [--stream=100000]
//     [--warm=200] [--trace] [--no-profile] [--page-trace] [--page-profile]
//
// PP_CATS=v8,disabled-by-default-v8.compile (environment): more trace categories, to see what the
// extension process's background threads do (JIT compiles, GC); PP_DUMP=<file>: the trace's events.
//
// --page-profile: the page's thread is profiled too (the hook, the relay and the page's own work).
// --page-trace (with --stream): a trace of the page's and the extension's main threads around the
// page's last read (row 1c: what happens between the page's end and the panel holding the
// records), listed as the tasks of each thread from 100 ms before the page's end, with the script
// that ran longest in each.

import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildExtension } from './lib/browser';
import { threadCpu } from './lib/trace-cpu';
import { startBenchServer } from './lib/server';
import { openArm } from './page';

interface Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

function top(p: Profile, n = 25) {
  const byId = new Map(p.nodes.map((x) => [x.id, x]));
  const self = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const dt = (p.timeDeltas[i + 1] ?? 0) / 1000;
    const node = byId.get(p.samples[i]!)!;
    const f = node.callFrame;
    if (f.functionName === '(idle)') {
      idle += dt;
      continue;
    }
    total += dt;
    const k = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop() ?? ''}:${f.lineNumber + 1}`;
    self.set(k, (self.get(k) ?? 0) + dt);
  }
  return { total, idle, top: [...self].sort((a, b) => b[1] - a[1]).slice(0, n) };
}

type TraceEvent = { ph: string; name: string; pid: number; tid: number; ts: number; dur?: number; tdur?: number; args?: { name?: string; labels?: string; data?: { url?: string; functionName?: string } } };

/**
 * The tasks of the page's main thread (the one that marked 'msi-read-end') and of every other
 * renderer main thread (the panel's, in the extension's process), from 100 ms before the mark: start
 * (ms after the mark), wall and thread time, and the script that ran longest in each.
 */
function pageTasks(events: TraceEvent[], threads: Map<string, string>) {
  const mark = events.find((e) => e.name === 'msi-read-end');
  if (!mark) return console.log('page trace: no msi-read-end mark in the trace');
  const key = (e: TraceEvent) => `${e.pid}/${e.tid}`;
  const mains = new Set([...threads].filter(([, n]) => n === 'CrRendererMain').map(([k]) => k));
  const from = mark.ts - 100_000;
  for (const th of [key(mark), ...[...mains].filter((k) => k !== key(mark))]) {
    const own = events.filter((e) => key(e) === th && e.ph === 'X' && e.ts >= from && e.dur !== undefined);
    const tasks = own.filter((e) => e.name === 'ThreadControllerImpl::RunTask' && (e.dur ?? 0) >= 1000);
    if (tasks.length === 0) continue;
    console.log(`\ntasks ≥ 1 ms on ${th === key(mark) ? 'the page' : 'renderer'} main thread ${th} (ms after the page's end: start, wall, thread; longest script):`);
    for (const t of tasks.slice(0, 60)) {
      const inner = own.filter((e) => e.name === 'FunctionCall' && e.ts >= t.ts && e.ts < t.ts + t.dur!);
      const long = inner.sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))[0];
      const what = long ? `${long.args?.data?.functionName || '(anonymous)'} ${String(long.args?.data?.url ?? '').split('/').pop()}` : own.filter((e) => e.ts >= t.ts && e.ts < t.ts + t.dur! && e !== t).sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))[0]?.name ?? '';
      console.log(`  ${((t.ts - mark.ts) / 1000).toFixed(1).padStart(8)}  ${(t.dur! / 1000).toFixed(1).padStart(7)}  ${((t.tdur ?? 0) / 1000).toFixed(1).padStart(7)}  ${what}`);
    }
  }
}

const args = process.argv.slice(2);
const opt = (k: string) => args.find((a) => a.startsWith(`--${k}=`))?.slice(k.length + 3);
const dist = opt('dist') ?? buildExtension();
const posts = Number(opt('posts') ?? 1000);
const stream = opt('stream') ? Number(opt('stream')) : undefined;

const server = await startBenchServer();
const url = server.url('/bench.html');
const arm = await openArm('with (panel open)', dist, true, url, true);
try {
  const { cdp } = arm.browser;
  const sw = (await cdp.targets()).find((t) => t.type === 'service_worker' && t.url.startsWith('chrome-extension://'));
  const swSession = sw ? await cdp.attach(sw.targetId) : undefined;
  const sessions: [string, string][] = [['panel', arm.panel!.sessionId], ...(swSession ? [['worker', swSession] as [string, string]] : []), ...(args.includes('--page-profile') ? [['page', arm.page] as [string, string]] : [])];
  const expr = stream ? `consume(${JSON.stringify(server.url(`/sse?n=${stream}&b=500`))})` : `rpcMany(${posts})`;
  if (stream) server.bodyFor(stream, 500);
  // Warm-up (JIT): --warm=N POSTs (200 by default; the bench's row 2c runs after row 2b's thousands).
  await cdp.evaluate(arm.page, stream ? expr : `rpcMany(${Number(opt('warm') ?? 200)})`, { timeoutMs: 300_000 });
  await new Promise((r) => setTimeout(r, 1500));
  await cdp.evaluate(arm.page, 'location.reload(), true');
  await new Promise((r) => setTimeout(r, 1500));
  const profile = !args.includes('--no-profile');
  for (const [, s] of profile ? sessions : []) {
    await cdp.send('Profiler.enable', {}, s);
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 }, s);
    await cdp.send('Profiler.start', {}, s);
  }
  const pageTrace = args.includes('--page-trace') && stream !== undefined;
  const trace = args.includes('--trace') || pageTrace;
  const events: TraceEvent[] = [];
  let done!: () => void;
  const complete = new Promise<void>((res) => (done = res));
  if (trace) {
    cdp.on('Tracing.dataCollected', (p: { value: typeof events }) => void events.push(...p.value));
    cdp.on('Tracing.tracingComplete', () => done());
    await cdp.send('Tracing.start', { traceConfig: { includedCategories: ['toplevel', 'devtools.timeline', 'blink', '__metadata', ...(process.env.PP_CATS ? process.env.PP_CATS.split(',') : []), ...(pageTrace ? ['blink.user_timing'] : [])], recordMode: 'recordAsMuchAsPossible' }, transferMode: 'ReportEvents' });
  }
  // What the panel's DOM does during the run: mutations by element and attribute, and frames.
  await arm.panel!.eval(`(() => {
    const m = globalThis.__muts = new Map();
    const key = (n) => n.nodeType === 1 ? n.tagName.toLowerCase() + (n.getAttribute('data-testid') ? '[' + n.getAttribute('data-testid') + ']' : n.getAttribute('class') ? '.' + String(n.getAttribute('class')).split(' ')[0] : '') : '#' + (n.parentNode?.tagName?.toLowerCase() ?? '?');
    globalThis.__mo = new MutationObserver((ms) => { m.set('(callbacks)', (m.get('(callbacks)') ?? 0) + 1); for (const x of ms) { const k = x.type + ' ' + key(x.target) + (x.attributeName ? ' @' + x.attributeName : ''); m.set(k, (m.get(k) ?? 0) + 1); } });
    globalThis.__mo.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    return true; })()`);
  // With --stream: when the panel held, analysed and showed records (a poller in the panel: it
  // costs the panel's thread, so not with the POSTs).
  if (stream) await arm.panel!.eval(`(() => {
    const log = globalThis.__tl = [];
    let prev = '';
    const tick = () => {
      const ui = globalThis.__MSI_UI__;
      const p = ui.progress?.();
      const k = [ui.records().length, p ? p.fed : -1, ui.lastChange?.() ?? 0].join(' ');
      if (k !== prev) { prev = k; log.push([performance.timeOrigin + performance.now(), k]); }
      if (!globalThis.__tlStop) setTimeout(tick, 2);
    };
    tick();
    return true; })()`);
  const t0 = Date.now();
  const r = await cdp.evaluate<{ ms: number }>(arm.page, pageTrace ? `${expr}.then((x) => (performance.mark('msi-read-end'), x))` : expr, { timeoutMs: 300_000 });
  const pageMs = Date.now() - t0;
  // Let the panel catch up inside the profile.
  let last = -1;
  let since = Date.now();
  for (;;) {
    const b = await arm.panel!.eval<number>('globalThis.__MSI_PANEL__.batches()');
    const busy = await arm.panel!.eval<boolean>('!!globalThis.__MSI_UI__?.progress?.()');
    if (b !== last || busy) {
      last = b;
      since = Date.now();
    } else if (Date.now() - since > 500) break;
    await new Promise((res) => setTimeout(res, 50));
  }
  if (trace) {
    await cdp.send('Tracing.end');
    await complete;
    if (process.env.PP_DUMP) writeFileSync(process.env.PP_DUMP, JSON.stringify(events));
    const procs = new Map<number, string>();
    const threads = new Map<string, string>();
    for (const e of events) {
      if (e.ph !== 'M') continue;
      if (e.name === 'process_labels' || e.name === 'process_name') procs.set(e.pid, `${procs.get(e.pid) ?? ''} ${e.args?.name ?? e.args?.labels ?? ''}`.trim());
      if (e.name === 'thread_name') threads.set(`${e.pid}/${e.tid}`, e.args?.name ?? '');
    }
    const by = new Map<string, { n: number; ms: number }>();
    for (const e of events) {
      if (e.ph !== 'X' || e.tdur === undefined) continue;
      if (!/extension/i.test(procs.get(e.pid) ?? '')) continue;
      const k = `${threads.get(`${e.pid}/${e.tid}`)} ${e.name}`;
      const v = by.get(k) ?? { n: 0, ms: 0 };
      v.n++;
      v.ms += e.tdur / 1000;
      by.set(k, v);
    }
    if (pageTrace) pageTasks(events, threads);
    let total = 0;
    for (const [k, ms] of threadCpu(events)) if (/extension/i.test(procs.get(Number(k.split('/')[0])) ?? '')) total += ms;
    console.log(`extension process thread CPU (top-level events, every thread): ${total.toFixed(0)} ms = ${(total / (stream ? 1 : posts)).toFixed(3)} ms per ${stream ? 'run' : 'POST'}`);
    console.log('extension process trace events (thread CPU, inclusive):');
    for (const [k, v] of [...by].sort((a, b) => b[1].ms - a[1].ms).slice(0, 30)) console.log(`  ${v.ms.toFixed(1).padStart(8)} ms  ${String(v.n).padStart(6)}x  ${k}`);
  }
  const tl = stream ? await arm.panel!.eval<[number, string][]>('(globalThis.__tlStop = true, globalThis.__tl)') : [];
  const pageEnd = t0 + r.ms;
  if (stream) console.log('panel timeline (ms after the page finished: records held, analysed (-1 = caught up), last change (ms after page end)):');
  for (const [t, k] of tl.slice(-40)) {
    const [n, fed, lc] = k.split(' ').map(Number);
    console.log(`  ${(t - pageEnd).toFixed(0).padStart(6)}  ${n} ${fed} ${lc ? (lc! - pageEnd).toFixed(0) : '-'}`);
  }
  const muts = await arm.panel!.eval<[string, number][]>(`(() => { globalThis.__mo.disconnect(); return [...globalThis.__muts].sort((a, b) => b[1] - a[1]).slice(0, 25); })()`);
  console.log('panel DOM mutations (type, element, attribute: count):');
  for (const [k, v] of muts) console.log(`  ${String(v).padStart(7)}  ${k}`);
  // What the panel's layouts walk: its elements by tag and first class, most first.
  const census = await arm.panel!.eval<[string, number][]>(`(() => {
    const m = new Map();
    for (const n of document.querySelectorAll('*')) { const k = n.tagName.toLowerCase() + (n.getAttribute('class') ? '.' + String(n.getAttribute('class')).split(' ')[0] : ''); m.set(k, (m.get(k) ?? 0) + 1); }
    return [...m].sort((a, b) => b[1] - a[1]).slice(0, 15); })()`);
  console.log(`panel elements: ${census.map(([k, v]) => `${v} ${k}`).join(', ')}`);
  console.log(`page: ${r.ms.toFixed(0)} ms (${pageMs} ms wall), caught up ${since - t0 - pageMs} ms after`);
  for (const [name, s] of profile ? sessions : []) {
    const { profile } = await cdp.send<{ profile: Profile }>('Profiler.stop', {}, s);
    const file = join(tmpdir(), `msi-profile-${name}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    const t = top(profile);
    const per = stream ? '' : ` = ${(t.total / posts).toFixed(3)} ms per POST`;
    console.log(`\n${name}: busy ${t.total.toFixed(0)} ms${per} (idle ${t.idle.toFixed(0)} ms), ${file}`);
    for (const [k, v] of t.top) console.log(`  ${v.toFixed(1).padStart(8)} ms  ${k}`);
  }
} finally {
  await arm.browser.close().catch(() => {});
  await server.close();
}

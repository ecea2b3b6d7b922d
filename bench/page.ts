// Page-side benchmarks in real Chromium: the cost of the extension to the page (rows 1-3), the
// relay's buffer against its cap (row 7b) and page read -> panel latency (row 8).
//
// Arms: separate browser instances, all alive at once and idle while another one measures, the
// same bench page reloaded before every run. An extension cannot be switched off for one page
// without restarting or reloading it (which is itself a cold start), so "with" and "without" are
// two browsers, and runs alternate between them (ABBA order) so drift on these shared, noisy
// 2-core machines hits both arms alike. Each figure is the ratio of one adjacent pair.

import type { Browser } from '../test/support/browser';
import { devtoolsFrontend, openPanel, type PanelHandle } from '../test/support/devtools';
import { setExtensionStorage } from '../test/support/extension';
import { relayContext, relayStats } from '../test/support/relay';
import { waitFor } from '../test/support/wait';
import { launch, sleep } from './lib/browser';
import { byMode, modesSettle, type CpuMode, type DevtoolsCopy } from './lib/devtools-modes';
import { threadCpu } from './lib/trace-cpu';
import { startBenchServer, type BenchServer } from './lib/server';
import { ciWithin, median, medianCI, percentile, spread, type Spread } from './lib/stats';

export type { CpuMode, DevtoolsCopy };

export interface Arm {
  name: string;
  browser: Browser;
  page: string;
  panel: PanelHandle | null;
  /** A session on the arm's DevTools front end (null with DevTools closed): what DevTools kept of a run. */
  frontend: string | null;
  /** A fresh browser of the same kind (openArm's arguments). */
  reopen?: () => Promise<Arm>;
  /** Times this arm's browser was replaced (frontEndRelief). */
  relaunched?: number;
}

export interface PageConfig {
  reps: number;
  /** Main stream (row 1): events and bytes per event. */
  streamEvents: number;
  eventBytes: number;
  /** Row 3: two stream sizes (events). */
  profileSizes: [number, number];
  fetches: number;
  latencyEvents: number;
  latencyIntervalMs: number;
  /** Also compare with DevTools closed (extension loaded but no panel) — two more browsers. */
  devtoolsClosedPair: boolean;
  /**
   * The traced page-cost rows (1c…, 1r, 1b c, 3c): pairs are added until the 95 % interval of the
   * median ratio is within ±`tolerance` of the median, from `min` pairs up to `max` (the cap).
   */
  cpuPairs: { min: number; max: number; tolerance: number };
  /**
   * Row 1b's pairs: its target (≤ 1.05) needs the interval's top at or under 1.05, which an
   * interval within ±10 % of a median near 1 does not show; its pairs go on until the interval
   * is within ±`tolerance` (5 %), at most `max`. Absent: `cpuPairs`.
   */
  closedPairs?: { min: number; max: number; tolerance: number };
  /**
   * Row 1b's browsers: `max` fresh pairs of browsers at most (`min` at least), `pairs` traced
   * pairs in each, until the interval over the pairs of browsers is within ±`tolerance` of its
   * median; `control` traced pairs in each of two browsers without the extension (row 1b · A/A).
   * Absent: one pair of browsers for the whole row, paired until `closedPairs` holds.
   */
  closedBlocks?: { min: number; max: number; pairs: number; control: number; tolerance: number };
  /**
   * What DevTools does with the traced rows' streams (arms with DevTools open; DevtoolsCopy):
   * 'free' (default), left to it: the rows report their pairs by class; 'copied', each body held
   * until the front end has the response (releaseWhenSeen), so it copies every run's stream.
   */
  devtoolsMode?: 'free' | 'copied';
  /** Page rows to run ('1', '1b', '1r', '2', '3', '3c', '7b', '8'); all when absent (bench/run.ts --rows). */
  rows?: Set<string>;
  log(msg: string): void;
}

/** One pair of traced runs in one browser: the stream captured (/sse) and the same bytes uncaptured (/plain). */
export interface CpuPair {
  events: number;
  /** Page main-thread CPU (ms, trace tdur): with (captured), without (uncaptured, or the browser without the extension). */
  withMs: number;
  withoutMs: number;
  /** Wall clock of the same runs (ms, the page's own measure). */
  wallWithMs: number;
  wallWithoutMs: number;
  usPerEvent: number;
  extCallsMs: number;
  byProcess: Record<string, number>;
  /** What DevTools' front end parsed of each run's stream (arms with DevTools open). */
  devtools?: { with: DevtoolsCopy; without: DevtoolsCopy; withMessages: number };
}

/** A traced page-cost row: its pairs, repeated until the interval holds (or the cap). */
export interface CpuRow {
  arm: string;
  events: number;
  pairs: CpuPair[];
  /** with / without page main-thread CPU, per pair (captured / uncaptured, or extension / none). */
  ratio: Spread;
  /** 95 % interval of the median ratio (order statistics); undefined below 6 pairs. */
  ci: { lo: number; hi: number } | undefined;
  /** The cap was hit before the interval was within ±tolerance of the median. */
  capHit: boolean;
  /**
   * Browsers launched afresh for each block of pairs (row 1b): `ratio` and `ci` are then over the
   * blocks' median ratios, one per pair of browsers, and `pairs` holds every block's pairs.
   */
  blocks?: { count: number; pairsEach: number };
  tolerance: number;
  wallRatio: Spread;
  usPerEvent: Spread;
  /**
   * The pairs grouped by what DevTools made of the captured run (arms with DevTools open). The
   * row is repeated until each group is within ±tolerance or holds under a quarter of the pairs
   * (`partial` excepted: each of its runs is a different share of DevTools' copy).
   */
  modes?: CpuMode[];
}

export interface PageResults {
  /**
   * Traced page-cost rows (issue 22): 1 = panel open (captured / uncaptured, the 3c′ pairs at the
   * stream's size), 1r = the same with DevTools open and no extension (the reference), 1b =
   * DevTools closed, the stream in the browser with the extension / without.
   */
  cpuRows?: { panelOpen?: CpuRow; devtoolsOnly?: CpuRow; devtoolsClosed?: CpuRow; closedControl?: CpuRow };
  /** Row 3c / 3c′ with their intervals (same pairs as threadCpu). */
  threadCpuRows?: CpuRow[];
  stream?: { ratios: Spread; withMs: Spread; withoutMs: Spread; mb: number; events: number; reads: number[]; settleMs: Spread; settleRuns?: { ms: number; copy: DevtoolsCopy | undefined }[] };
  rpcSettleMs?: Spread;
  streamNoDevtools?: { ratios: Spread; withMs: Spread; withoutMs: Spread };
  /** Same, with captureWhileClosed on (the relay buffers the stream for a DevTools opened later). */
  streamNoDevtoolsCapture?: { ratios: Spread; withMs: Spread; withoutMs: Spread };
  fetchGetNoDevtools?: { ratios: Spread; withMs: Spread; withoutMs: Spread };
  fetchGet?: { ratios: Spread; withMs: Spread; withoutMs: Spread };
  fetchRpc?: { ratios: Spread; withMs: Spread; withoutMs: Spread };
  profile: { events: number; extMs: number; busyMs: number; usPerEvent: number; chunks: number; reads: number; top: [string, number][] }[][];
  /**
   * Row 3c: thread CPU of the page's main thread (Chrome trace, top-level events' tdur) during one
   * stream, in the browser with the extension (panel open): captured vs the same bytes uncaptured,
   * alternating; per size, the pairs.
   */
  threadCpu?: { events: number; withMs: number; withoutMs: number; usPerEvent: number; extCallsMs: number; byProcess: Record<string, number> }[][];
  /**
   * Row 2c: where row 2b's CPU goes. Chrome traces of the JSON-RPC POSTs in both browsers
   * (DevTools open in both, the panel in one), alternating: per pair, ms of thread CPU per POST
   * with − without, by process kind, and the page's main thread and the relay's tasks.
   */
  rpcCpu?: { posts: number; mainMs: number; extCallsMs: number; byProcess: Record<string, number> }[];
  relay: { cap: number; deltaWith: number; deltaWithout: number; label: string }[];
  latency: { storeP50: number; storeP95: number; rowP50: number; rowP95: number; n: number; rows: number }[];
}

async function navigateFresh(arm: Arm, url: string) {
  const { cdp } = arm.browser;
  await cdp.send('Page.navigate', { url }, arm.page);
  await waitFor(() => cdp.evaluate(arm.page, `location.href === ${JSON.stringify(url)} && document.readyState === 'complete' && typeof window.consume === 'function'`).catch(() => false), {
    message: `navigation to ${url}`,
  });
}

/** Wait until the panel stops receiving batches (its renderer is then idle enough). */
async function panelQuiet(arm: Arm, quietMs = 400) {
  if (!arm.panel) return;
  let last = -1;
  let since = Date.now();
  await waitFor(
    async () => {
      const b = (await arm.panel!.eval<number>('globalThis.__MSI_PANEL__.batches()')) ?? 0;
      if (b !== last) {
        last = b;
        since = Date.now();
        return false;
      }
      return Date.now() - since >= quietMs;
    },
    // The live panel can take minutes to catch up after a 50 MB stream (see docs/benchmarks.md).
    { timeoutMs: 900_000, intervalMs: 100, message: 'panel did not settle' },
  );
}

/** Records the top frame's relay holds now (its isolated world, read over CDP). */
async function relayHeld(arm: Arm): Promise<number> {
  const ctx = await relayContext(arm.browser.cdp, arm.page);
  return (await relayStats(arm.browser.cdp, arm.page, ctx)).records;
}

async function gcHeap(arm: Arm): Promise<number> {
  const { cdp } = arm.browser;
  await cdp.send('HeapProfiler.collectGarbage', {}, arm.page);
  await sleep(50);
  await cdp.send('HeapProfiler.collectGarbage', {}, arm.page);
  // backingStorageSize counts ArrayBuffer stores, which the relay's buffer holds (it keeps the
  // bytes the hook transfers and decodes them only for a panel); usedSize alone misses them.
  const h = await cdp.send<{ usedSize: number; backingStorageSize?: number }>('Runtime.getHeapUsage', {}, arm.page);
  return h.usedSize + (h.backingStorageSize ?? 0);
}

export async function openArm(name: string, dist: string | null, devtools: boolean, url: string, withPanel: boolean): Promise<Arm> {
  const browser = await launch({ dist, devtools, url });
  try {
    const page = await browser.attachPage(new URL(url).host);
    await browser.cdp.send('HeapProfiler.enable', {}, page);
    const panel = withPanel ? await openPanel(browser) : null;
    const frontend = devtools ? await browser.cdp.attach((await devtoolsFrontend(browser)).targetId) : null;
    return { name, browser, page, panel, frontend, reopen: () => openArm(name, dist, devtools, url, withPanel) };
  } catch (e) {
    await browser.close();
    throw e;
  }
}

type Run = { ms: number; bytes: number; events: number; reads?: number };

/** ABBA pairs of `run` on base and treatment; ratio = treatment / base per pair. */
async function alternate(base: Arm, treat: Arm, reps: number, url: string, expr: string, check: (r: Run) => void, stream?: { path: string; events: number }) {
  const ratios: number[] = [];
  const a: number[] = [];
  const b: number[] = [];
  const reads: number[] = [];
  const settle: number[] = [];
  /** What DevTools made of each catch-up run's stream (settle[i]'s), when `stream` is given. */
  const settleCopy: DevtoolsCopy[] = [];
  // The page's clock when its run ended (epoch ms), to compare with the panel's last change.
  const timed = `(async () => { const r = await (${expr}); return { ...r, endedAt: performance.timeOrigin + performance.now() }; })()`;
  const one = async (arm: Arm) => {
    await navigateFresh(arm, url);
    await panelQuiet(arm);
    await sleep(150);
    const r = await arm.browser.cdp.evaluate<Run & { endedAt: number }>(arm.page, arm.panel ? timed : expr, { timeoutMs: 300_000 });
    check(r);
    await panelQuiet(arm);
    // Catch-up (row 1c): the page's last read → the panel's last change of what it shows (its
    // store publishing the snapshot that holds every record). The quiet window only tells that
    // that change was the last one; it is not counted.
    if (arm.panel) {
      const last = (await arm.panel.eval<number>('globalThis.__MSI_UI__?.lastChange?.() ?? 0')) ?? 0;
      if (!last) throw new Error('the panel did not say when it last changed (__MSI_UI__.lastChange)');
      settle.push(Math.max(0, last - r.endedAt));
      // Read once, not waited for (the other arm's runs are not): a `partial` here may be a copy
      // still arriving. Waiting for DevTools' front end only in this arm made it copy more of
      // this arm's streams than of the other's (row 1w 3.26 in a run that did).
      if (stream) settleCopy.push((await devtoolsCopy(arm, stream.path, stream.events, false))?.copy ?? 'unknown');
    }
    return r;
  };
  for (let i = 0; i < reps; i++) {
    let rb: Run, rt: Run;
    if (i % 2 === 0) {
      rb = await one(base);
      rt = await one(treat);
    } else {
      rt = await one(treat);
      rb = await one(base);
    }
    a.push(rb.ms);
    b.push(rt.ms);
    if (rt.reads !== undefined) reads.push(rt.reads);
    ratios.push(rt.ms / rb.ms);
  }
  return { ratios: spread(ratios), withMs: spread(b), withoutMs: spread(a), reads, settle: spread(settle), settleRuns: settle.map((ms, i) => ({ ms, copy: settleCopy[i] })) };
}

/** Main-thread time in frames of the extension's scripts (inclusive), from a CDP CPU profile. */
async function profileRun(arm: Arm, url: string, n: number, b: number, origin: string) {
  const { cdp } = arm.browser;
  await navigateFresh(arm, url);
  await panelQuiet(arm);
  await cdp.send('Profiler.enable', {}, arm.page);
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 }, arm.page);
  await cdp.send('Profiler.start', {}, arm.page);
  const r = await cdp.evaluate<Run>(arm.page, `consume(${JSON.stringify(`${origin}/sse?n=${n}&b=${b}`)})`, { timeoutMs: 300_000 });
  // The hook flushes its batch after 16 ms: let the last flush happen inside the profile.
  await sleep(100);
  const { profile } = await cdp.send<{ profile: Profile }>('Profiler.stop', {}, arm.page);
  await cdp.send('Profiler.disable', {}, arm.page);
  const chunks = arm.panel
    ? await (async () => {
        await panelQuiet(arm);
        return arm.panel!.eval<number>(`globalThis.__MSI_PANEL__.records().filter((r) => r.kind === 'chunk').length`);
      })()
    : 0;
  const a = attribute(profile);
  if (r.events !== n) throw new Error(`profile run: page counted ${r.events} events, expected ${n}`);
  return { events: n, extMs: a.extMs, busyMs: a.busyMs, usPerEvent: (a.extMs * 1000) / n, chunks, reads: r.reads ?? 0, top: a.top };
}

interface Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

export function attribute(p: Profile): { extMs: number; busyMs: number; top: [string, number][] } {
  const parent = new Map<number, number>();
  const byId = new Map<number, Profile['nodes'][number]>();
  for (const n of p.nodes) {
    byId.set(n.id, n);
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  const isExt = new Map<number, boolean>();
  const extOf = (id: number): boolean => {
    const k = isExt.get(id);
    if (k !== undefined) return k;
    const n = byId.get(id)!;
    const pid = parent.get(id);
    const v = n.callFrame.url.startsWith('chrome-extension://') || (pid !== undefined && extOf(pid));
    isExt.set(id, v);
    return v;
  };
  const idle = new Set(['(idle)', '(program)', '(garbage collector)']);
  let ext = 0;
  let busy = 0;
  const self = new Map<string, number>();
  for (let i = 0; i < p.samples.length; i++) {
    // timeDeltas[i] is the time before sample i; attribute the interval after it (next delta).
    const dt = (p.timeDeltas[i + 1] ?? 0) / 1000;
    const node = byId.get(p.samples[i]!)!;
    const name = node.callFrame.functionName;
    if (name === '(idle)') continue;
    if (!idle.has(name) || name === '(garbage collector)') busy += dt;
    if (name !== '(garbage collector)' && extOf(node.id)) {
      ext += dt;
      const file = node.callFrame.url.split('/').pop() ?? '';
      const k = `${name || '(anonymous)'} ${file}`;
      self.set(k, (self.get(k) ?? 0) + dt);
    }
  }
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 8);
  return { extMs: ext, busyMs: busy, top };
}

type TraceEvent = { ph: string; name: string; pid: number; tid: number; ts: number; dur?: number; tdur?: number; args?: { name?: string; data?: { url?: string; functionName?: string; frames?: { url?: string; processId?: number }[] } } };

/**
 * A Chrome trace of the whole browser (every process) around one stream: the thread CPU time
 * (`tdur`) of the top-level events of the page's renderer main thread (its tasks and the microtask
 * checkpoints run outside them: lib/trace-cpu.ts), and, per process kind, of all their threads (where the CPU of a "panel open" run goes: docs/benchmarks.md row 1).
 */
export async function tracedRun(arm: Arm, url: string, expr: string) {
  const { cdp } = arm.browser;
  await navigateFresh(arm, url);
  await panelQuiet(arm);
  const events: TraceEvent[] = [];
  const off = cdp.on('Tracing.dataCollected', (p: { value: TraceEvent[] }) => void events.push(...p.value));
  let done!: () => void;
  const complete = new Promise<void>((r) => (done = r));
  const off2 = cdp.on('Tracing.tracingComplete', () => done());
  await cdp.send('Tracing.start', { traceConfig: { includedCategories: ['toplevel', 'devtools.timeline', '__metadata'], recordMode: 'recordAsMuchAsPossible' }, transferMode: 'ReportEvents' });
  const r = await cdp.evaluate<Run>(arm.page, expr, { timeoutMs: 300_000 });
  // The relay's work on the page's thread happens after a fast read (it starves the hook's timer
  // and the relay's port): ended 100 ms after the read, the trace missed it in most runs (the
  // relay's tasks 1 ms instead of 150-180 ms for 50 MB; docs/benchmarks.md, "The relay's work
  // after a fast read"). `drain()` returns once the page's tasks queued behind the hook's last
  // batch have run; every arm waits for it, with or without the extension.
  await cdp.evaluate(arm.page, 'drain()', { timeoutMs: 60_000 });
  await sleep(100);
  await cdp.send('Tracing.end');
  // (A trace whose end never came would hold the run forever: it fails instead, saying so.)
  let late: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([complete, new Promise<never>((_, no) => (late = setTimeout(() => no(new Error(`${arm.name}: Tracing.tracingComplete did not come within 120 s`)), 120_000)))]).finally(() => clearTimeout(late));
  off();
  off2();
  await panelQuiet(arm);
  const page = new URL(url);
  let pagePid: number | undefined;
  // The renderer that sent the page's stream request (devtools.timeline ResourceSendRequest).
  for (const e of events) if (e.name === 'ResourceSendRequest' && e.args?.data?.url?.startsWith(page.origin + '/')) pagePid = e.pid;
  const names = new Map<string, string>();
  const procs = new Map<number, string>();
  for (const e of events) {
    if (e.ph !== 'M') continue;
    if (e.name === 'thread_name') names.set(`${e.pid}/${e.tid}`, e.args?.name ?? '');
    if (e.name === 'process_labels' || e.name === 'process_name') procs.set(e.pid, `${procs.get(e.pid) ?? ''} ${e.args?.name ?? (e.args as { labels?: string })?.labels ?? ''}`.trim());
  }
  let main = 0;
  /** Thread CPU of JS calls into the extension's scripts that start a task of their own (the relay's message handlers: where it numbers, batches and sends). */
  let extCalls = 0;
  const byProcess: Record<string, number> = {};
  for (const e of events) {
    if (e.ph === 'X' && e.name === 'FunctionCall' && e.pid === pagePid && e.tdur && e.args?.data?.url?.startsWith('chrome-extension://')) extCalls += e.tdur / 1000;
  }
  // Every thread's top-level events: its tasks and what runs outside them (trace-cpu.ts).
  for (const [k, ms] of threadCpu(events)) {
    const pid = Number(k.split('/')[0]);
    const thread = names.get(k) ?? '?';
    if (pid === pagePid && thread === 'CrRendererMain') main += ms;
    const kind = pid === pagePid ? `page renderer: ${thread === 'CrRendererMain' ? 'main' : 'other threads'}` : /extension|chrome-extension/i.test(procs.get(pid) ?? '') ? 'extension (worker, panel)' : (procs.get(pid) ?? '').match(/^\w+/)?.[0] ?? `pid ${pid}`;
    byProcess[kind] = (byProcess[kind] ?? 0) + ms;
  }
  if (process.env.MSI_TRACE_DEBUG) {
    const c = new Map<string, number>();
    for (const e of events) if (e.pid === pagePid) c.set(`${e.ph} ${e.name} ${e.tdur !== undefined}`, (c.get(`${e.ph} ${e.name} ${e.tdur !== undefined}`) ?? 0) + 1);
    console.error(pagePid, [...c].sort((a, b) => b[1] - a[1]).slice(0, 15));
  }
  if (pagePid === undefined) throw new Error('traced run: the page renderer was not found in the trace');
  return { run: r, mainMs: main, extCallsMs: extCalls, byProcess };
}

/** Latency: page read (record.t) -> (a) record in the panel's store, (b) row rendered in the panel. */
async function latencyRun(arm: Arm, origin: string, n: number, ms: number) {
  const panel = arm.panel!;
  await navigateFresh(arm, `${origin}/bench.html`);
  await panelQuiet(arm);
  await panel.eval(`(() => {
    const st = globalThis.__benchLat = { store: [], rows: new Map(), stop: false, seen: new Set() };
    const now = () => performance.timeOrigin + performance.now();
    const tick = () => {
      const recs = globalThis.__MSI_PANEL__.records();
      const t = now();
      for (const r of recs) {
        if (r.kind !== 'chunk') continue;
        const k = r.src + '#' + r.seq;
        if (st.seen.has(k)) continue;
        st.seen.add(k);
        st.store.push([r.t, t, r.text]);
      }
      if (!st.stop) setTimeout(tick, 0);
    };
    tick();
    const rowId = (el) => {
      if (el.matches?.('[data-testid=event-row]')) return el.getAttribute('data-event-id');
      if (el.matches?.('tr.msi-event')) return el.children[1]?.textContent ?? null;
      return null;
    };
    let shown = 0;
    st.mo = new MutationObserver((muts) => {
      const t = now();
      // Full UI: open the Events tab once the session exists; its count is the events rendered so
      // far (the paced stream's ids are 1..n in order, so count k means events 1..k are shown).
      const tab = document.querySelector('[data-testid=tab-events]');
      if (tab && tab.getAttribute('aria-selected') !== 'true' && !st.clicked) { st.clicked = true; tab.click(); }
      const k = Number(tab?.querySelector('.count')?.textContent ?? 0);
      for (; shown < k; ) { shown++; if (!st.rows.has(String(shown))) st.rows.set(String(shown), t); }
      for (const m of muts) for (const node of m.addedNodes) {
        if (node.nodeType !== 1) continue;
        const els = [node, ...node.querySelectorAll('[data-testid=event-row], tr.msi-event')];
        for (const el of els) { const id = rowId(el); if (id && !st.rows.has(id)) st.rows.set(id, t); }
      }
    });
    st.mo.observe(document.body, { childList: true, subtree: true, characterData: true });
    return true; })()`);
  await arm.browser.cdp.evaluate(
    arm.page,
    `(async () => { const r = await fetch('/paced?n=${n}&ms=${ms}', { headers: { accept: 'text/event-stream' } });
       const rd = r.body.getReader(); for (;;) { const { done } = await rd.read(); if (done) break; } return true; })()`,
    { timeoutMs: 120_000 },
  );
  await sleep(500);
  await panelQuiet(arm);
  const out = await panel.eval<{ store: [number, number, string][]; rows: [string, number][] }>(`(() => {
    const st = globalThis.__benchLat; st.stop = true; st.mo.disconnect();
    return { store: st.store, rows: [...st.rows] }; })()`);
  const storeLat = out.store.map(([t, recv]) => recv - t);
  // event id -> page read time of the chunk that completed it
  const readT = new Map<string, number>();
  for (const [t, , text] of out.store) for (const m of text.matchAll(/^id: (\d+)$/gm)) readT.set(m[1]!, t);
  const rowLat: number[] = [];
  for (const [id, t] of out.rows) {
    const r = readT.get(id);
    if (r !== undefined) rowLat.push(t - r);
  }
  return {
    storeP50: percentile(storeLat, 50),
    storeP95: percentile(storeLat, 95),
    rowP50: percentile(rowLat, 50),
    rowP95: percentile(rowLat, 95),
    n: storeLat.length,
    rows: rowLat.length,
  };
}

/**
 * An expression evaluated on the arm's DevTools front end. Its session went away in full runs
 * (2026-12-07, row 1r's browser: "Session with given id not found" until the 120 s wait ended the
 * run): the front end's target is looked up and attached again, once per call. In the runs that
 * followed the target was gone too (frontEndRelief keeps the front end from getting there); a
 * front end that came back without its log shows in the run's class ('unknown').
 */
async function frontendEval<T>(arm: Arm, expr: string): Promise<T> {
  try {
    return await arm.browser.cdp.evaluate<T>(arm.frontend!, expr);
  } catch (e) {
    if (!/Session with given id not found|No target with given id|Target closed/i.test(String(e))) throw e;
    arm.frontend = await arm.browser.cdp.attach((await devtoolsFrontend(arm.browser)).targetId);
    console.log(`[bench] ${arm.name}: DevTools' front-end session was lost (${String(e).slice(0, 120)}); attached again`);
    return arm.browser.cdp.evaluate<T>(arm.frontend, expr);
  }
}

/** DevTools' front-end heap above which an arm's browser is replaced before its next traced run. */
const FRONTEND_HEAP_LIMIT = 1.5 * 2 ** 30;

/**
 * DevTools' front end keeps what it parsed of every copied stream even after its network log is
 * cleared (its heap grows ~40 MB per 20,000-event stream; row 3c's browser is fresh per size for
 * this), and row 1r's 30 pairs of 100,000-event streams in the browser without the extension ended
 * in the loss of its front end in three of four full runs on 2026-12-07. Before a traced run, an
 * arm whose front end holds more than FRONTEND_HEAP_LIMIT is replaced by a fresh browser, warmed
 * by one untraced run of `warm`; a pair is always measured within one browser.
 */
async function frontEndRelief(arm: Arm, url: string, warm: string): Promise<void> {
  if (!arm.frontend || !arm.reopen) return;
  const h = await arm.browser.cdp.send<{ usedSize: number }>('Runtime.getHeapUsage', {}, arm.frontend).catch(() => ({ usedSize: Infinity }));
  if (h.usedSize <= FRONTEND_HEAP_LIMIT) return;
  const relaunched = (arm.relaunched ?? 0) + 1;
  await arm.browser.close();
  Object.assign(arm, await arm.reopen(), { relaunched });
  await navigateFresh(arm, url);
  await panelQuiet(arm);
  await arm.browser.cdp.evaluate(arm.page, warm, { timeoutMs: 300_000 });
  await panelQuiet(arm);
  console.log(`[bench] ${arm.name}: DevTools' front end held ${(h.usedSize / 2 ** 30).toFixed(2)} GiB: a fresh browser (${relaunched} in this run)`);
}

/**
 * Empties the arm's DevTools network log, as its Clear button does, before each traced run, so
 * each run starts from the same empty log in every arm (the page's thread does not read it). Done
 * first against the loss of row 1r's front end (2026-12-07); it did not prevent it, as the front
 * end's heap kept growing (frontEndRelief does).
 */
async function clearDevtoolsLog(arm: Arm): Promise<void> {
  if (!arm.frontend) return;
  const ok = await frontendEval<boolean>(
    arm,
    `(async () => { const L = await import('./models/logs/logs.js'); const log = L.NetworkLog.NetworkLog.instance();
       if (typeof log.reset !== 'function') return false; log.reset(true); return log.requests().length === 0; })()`,
  );
  if (!ok) throw new Error(`${arm.name}: DevTools' network log could not be cleared (NetworkLog.reset)`);
}

/**
 * What the arm's DevTools front end parsed of the last request whose URL holds `path` (its
 * `eventSourceMessages()`, the EventStream tab's list), once the count holds for 500 ms: the
 * front end goes on parsing a copied stream for seconds after the page's last read, and the next
 * run then starts with that work done. `settle` false: one read, at once.
 */
export async function devtoolsCopy(arm: Arm, path: string, events: number, settle = true): Promise<{ copy: DevtoolsCopy; messages: number } | undefined> {
  if (!arm.frontend) return undefined;
  const expr = `(async () => { const L = await import('./models/logs/logs.js');
    const rs = L.NetworkLog.NetworkLog.instance().requests().filter((r) => r.url().includes(${JSON.stringify(path)}));
    const r = rs[rs.length - 1]; return r ? r.eventSourceMessages().length : -1; })()`;
  if (!settle) {
    const n = await frontendEval<number>(arm, expr);
    return { messages: n, copy: classify(n, events) };
  }
  let last = -2;
  let since = Date.now();
  await waitFor(
    async () => {
      const n = await frontendEval<number>(arm, expr);
      if (n !== last) {
        last = n;
        since = Date.now();
        return false;
      }
      return Date.now() - since >= 500;
    },
    { timeoutMs: 120_000, intervalMs: 100, message: `${arm.name}: DevTools' front end still parsing ${path}` },
  );
  return { messages: last, copy: classify(last, events) };
}

const classify = (n: number, events: number): DevtoolsCopy => (n < 0 ? 'unknown' : n === 0 ? 'none' : n >= events ? 'copied' : 'partial');

let gates = 0;

/**
 * Let the gated stream's body go (server.ts `gate`) once the arm's DevTools front end has the
 * response, as for an MCP stream that lasts: DevTools then copied every captured run's stream (16
 * of 16, docs/benchmarks.md). Released anyway after 60 s (the run's class then says what happened).
 */
async function releaseWhenSeen(arm: Arm, gate: string, server: BenchServer): Promise<void> {
  const expr = `(async () => { const L = await import('./models/logs/logs.js');
    return L.NetworkLog.NetworkLog.instance().requests().some((r) => r.url().endsWith(${JSON.stringify(`&gate=${gate}`)}) && !!r.mimeType); })()`;
  try {
    await waitFor(() => frontendEval<boolean>(arm, expr), { timeoutMs: 60_000, intervalMs: 20, message: `${arm.name}: DevTools' front end did not list the response of gate ${gate}` });
  } finally {
    server.release(gate);
  }
}

/**
 * Thread CPU of the page's main thread (Chrome trace) for one stream: by default in one browser,
 * captured (/sse) against the same bytes uncaptured (/plain: the hook leaves a text/plain body
 * alone), row 3c's method; with `against`, the same stream in another browser (DevTools closed in
 * both: no DevTools network work differs between them). Alternating which goes first; pairs are
 * added until the 95 % interval of the median ratio is within ±tolerance of it, or `max` pairs
 * (capHit). With DevTools open, each captured run is classed by what DevTools made of it
 * (DevtoolsCopy), and the row also ends when every class is within ±tolerance or holds under a
 * quarter of the pairs (`partial` aside): the classes differ by DevTools' own work, not by the
 * capture's.
 */
export async function cpuRow(arm: Arm, url: string, server: BenchServer, events: number, b: number, cfg: PageConfig, against?: Arm, pairing = cfg.cpuPairs): Promise<CpuRow> {
  const sse = `/sse?n=${events}&b=${b}`;
  const plainPath = `/plain?n=${events}&b=${b}`;
  const other = against ?? arm;
  const traced = async (a: Arm, path: string, pairStart: boolean) => {
    if (pairStart) await frontEndRelief(a, url, `consume(${JSON.stringify(server.origin + plainPath)})`);
    // --devtools=copied: the body waits for DevTools' front end (releaseWhenSeen), and DevTools
    // then copies every run's stream, as it does a stream that lasts.
    const gate = a.frontend && cfg.devtoolsMode === 'copied' ? `g${++gates}` : null;
    const full = gate ? `${path}&gate=${gate}` : path;
    await clearDevtoolsLog(a);
    const seen = gate ? releaseWhenSeen(a, gate, server).catch((e: unknown) => e) : undefined;
    const t = await tracedRun(a, url, `consume(${JSON.stringify(server.origin + full)})`);
    const err = await seen;
    if (err) throw err;
    return { ...t, devtools: await devtoolsCopy(a, full, events) };
  };
  // (A fresh browser only before a pair's first run, and only when both runs are in it.)
  const withRun = (first: boolean) => traced(arm, sse, first && !against);
  const withoutRun = (first: boolean) => traced(other, against ? sse : plainPath, first && !against);
  const { min, max, tolerance } = pairing;
  const pairs: CpuPair[] = [];
  const ratios = () => pairs.map((x) => x.withMs / x.withoutMs);
  const modesSettled = () => modesSettle(byMode(pairs, tolerance), pairs.length, min);
  for (let i = 0; i < max; i++) {
    const x = await (i % 2 ? withoutRun(true) : withRun(true));
    const y = await (i % 2 ? withRun(false) : withoutRun(false));
    const w = i % 2 ? y : x;
    const wo = i % 2 ? x : y;
    if (w.run.events !== events || wo.run.events !== events) throw new Error(`${arm.name}: page counted ${w.run.events}/${wo.run.events} events, expected ${events}`);
    pairs.push({
      events,
      withMs: w.mainMs,
      withoutMs: wo.mainMs,
      wallWithMs: w.run.ms,
      wallWithoutMs: wo.run.ms,
      usPerEvent: ((w.mainMs - wo.mainMs) * 1000) / events,
      extCallsMs: w.extCallsMs,
      byProcess: Object.fromEntries(Object.keys({ ...w.byProcess, ...wo.byProcess }).map((k) => [k, +((w.byProcess[k] ?? 0) - (wo.byProcess[k] ?? 0)).toFixed(1)])),
      ...(w.devtools ? { devtools: { with: w.devtools.copy, without: wo.devtools?.copy ?? 'none', withMessages: w.devtools.messages } } : {}),
    });
    if (pairs.length >= min && (ciWithin(ratios(), tolerance) || modesSettled())) break;
  }
  const r = ratios();
  const ci = medianCI(r);
  const modes = byMode(pairs, tolerance);
  const capHit = !ciWithin(r, tolerance) && !modesSettle(modes, pairs.length, min);
  const modeNote = modes ? `; by DevTools' copy: ${modes.map((g) => `${g.copy} ${g.pairs} pairs, median ${g.ratio.median.toFixed(3)}${g.ci ? ` (${g.ci.lo.toFixed(3)}–${g.ci.hi.toFixed(3)})` : ''}`).join('; ')}` : '';
  cfg.log(`  ${arm.name}${against ? ` vs ${against.name}` : ''}, ${events} events: CPU ratio median ${median(r).toFixed(3)}, 95 % interval ${ci ? `${ci.lo.toFixed(3)}–${ci.hi.toFixed(3)}` : 'n/a'}, ${pairs.length} pairs${capHit ? ' (cap hit)' : ''}${modeNote}`);
  return {
    arm: against ? `${arm.name} vs ${against.name}` : arm.name,
    events,
    pairs,
    ratio: spread(r),
    ci: ci && { lo: ci.lo, hi: ci.hi },
    capHit,
    tolerance,
    wallRatio: spread(pairs.map((x) => x.wallWithMs / x.wallWithoutMs)),
    usPerEvent: spread(pairs.map((x) => x.usPerEvent)),
    ...(modes ? { modes } : {}),
  };
}

/**
 * Row 1b across fresh browsers. Two browsers are two renderers, and one pair of them carries an
 * offset of its own that pairing within it cannot average away: two browsers without the extension,
 * measured this way, gave 0.966, 1.013 and 1.056 (16 pairs each, three fresh pairs of browsers;
 * the last one's interval 1.008–1.109 left out 1), and two full runs of row 1b on one build gave
 * 1.04 (1.00–1.07) and 1.09 (1.07–1.12). So each block of pairs gets new browsers (with and
 * without the extension, and a second one without: the A/A control), warmed up by one run each;
 * the row's figure and interval are over the blocks' medians, one per pair of browsers.
 */
async function closedRowAcrossBrowsers(dist: string, url: string, server: BenchServer, events: number, b: number, cfg: PageConfig, blocks: NonNullable<PageConfig['closedBlocks']>): Promise<{ row: CpuRow; control: CpuRow }> {
  const expr = `consume(${JSON.stringify(server.url(`/sse?n=${events}&b=${b}`))})`;
  const rows: CpuRow[] = [];
  const controls: CpuRow[] = [];
  const medians = () => rows.map((r) => r.ratio.median);
  for (let k = 0; k < blocks.max; k++) {
    const opened: Arm[] = [];
    try {
      const without = await openArm('without (no DevTools)', null, false, url, false);
      opened.push(without);
      const withExt = await openArm('with (no DevTools)', dist, false, url, false);
      opened.push(withExt);
      const second = await openArm('without, second (no DevTools)', null, false, url, false);
      opened.push(second);
      for (const arm of opened) {
        await navigateFresh(arm, url);
        await arm.browser.cdp.evaluate(arm.page, expr, { timeoutMs: 300_000 });
      }
      const quiet = { ...cfg, log: () => {} };
      rows.push(await cpuRow(withExt, url, server, events, b, quiet, without, { min: blocks.pairs, max: blocks.pairs, tolerance: 1 }));
      controls.push(await cpuRow(second, url, server, events, b, quiet, without, { min: blocks.control, max: blocks.control, tolerance: 1 }));
    } finally {
      for (const arm of opened) await arm.browser.close().catch(() => {});
    }
    cfg.log(`  browsers ${k + 1}: with / without ${rows[k]!.ratio.median.toFixed(3)}, without / without (A/A) ${controls[k]!.ratio.median.toFixed(3)}`);
    if (k + 1 >= blocks.min && ciWithin(medians(), blocks.tolerance)) break;
  }
  const merge = (list: CpuRow[], arm: string, pairsEach: number, stops: boolean): CpuRow => {
    const m = list.map((r) => r.ratio.median);
    const pairs = list.flatMap((r) => r.pairs);
    const ci = medianCI(m);
    return {
      arm,
      events,
      pairs,
      ratio: spread(m),
      ci: ci && { lo: ci.lo, hi: ci.hi },
      // The control has no stop rule of its own: it runs in the row's blocks.
      capHit: stops && !ciWithin(m, blocks.tolerance),
      tolerance: blocks.tolerance,
      wallRatio: spread(pairs.map((x) => x.wallWithMs / x.wallWithoutMs)),
      usPerEvent: spread(pairs.map((x) => x.usPerEvent)),
      blocks: { count: list.length, pairsEach },
    };
  };
  const row = merge(rows, 'with (no DevTools) vs without (no DevTools), fresh browsers per block', blocks.pairs, true);
  const control = merge(controls, 'without vs without (no DevTools), fresh browsers per block', blocks.control, false);
  cfg.log(`  row 1b over ${rows.length} pairs of browsers: median ${row.ratio.median.toFixed(3)}, 95 % interval ${row.ci ? `${row.ci.lo.toFixed(3)}–${row.ci.hi.toFixed(3)}` : 'n/a'}; A/A ${control.ratio.median.toFixed(3)} (${control.ci ? `${control.ci.lo.toFixed(3)}–${control.ci.hi.toFixed(3)}` : 'n/a'})`);
  return { row, control };
}

export async function runPageBenches(dist: string, cfg: PageConfig): Promise<PageResults> {
  const server = await startBenchServer();
  const arms: Arm[] = [];
  const want = (row: string) => !cfg.rows || cfg.rows.has(row);
  try {
    const url = server.url('/bench.html');
    cfg.log('launching browsers (without / with the extension)');
    const A = await openArm('without (DevTools open)', null, true, url, false);
    arms.push(A);
    let B = await openArm('with (panel open)', dist, true, url, true);
    arms.push(B);
    let C: Arm | undefined, D: Arm | undefined;
    if (cfg.devtoolsClosedPair && want('1b')) {
      C = await openArm('without (no DevTools)', null, false, url, false);
      arms.push(C);
      D = await openArm('with (no DevTools)', dist, false, url, false);
      arms.push(D);
    }
    const n = cfg.streamEvents;
    const b = cfg.eventBytes;
    server.bodyFor(n, b);
    const streamExpr = `consume(${JSON.stringify(server.url(`/sse?n=${n}&b=${b}`))})`;
    const checkStream = (r: Run) => {
      if (r.events !== n) throw new Error(`page counted ${r.events} events, expected ${n}`);
    };
    // Warm-up: one run in each arm (JIT, sockets, disk cache of the profile).
    for (const arm of arms) {
      await navigateFresh(arm, url);
      await arm.browser.cdp.evaluate(arm.page, streamExpr, { timeoutMs: 300_000 });
      await panelQuiet(arm);
    }
    const res: Partial<PageResults> = { profile: [], relay: [], latency: [] };
    if (want('1')) {
      cfg.log(`row 1: ${n} events, ${(server.bodyFor(n, b).length / 1e6).toFixed(1)} MB, ${cfg.reps} pairs`);
      const s1 = await alternate(A, B, cfg.reps, url, streamExpr, checkStream, { path: `/sse?n=${n}&b=${b}`, events: n });
      res.stream = { ratios: s1.ratios, withMs: s1.withMs, withoutMs: s1.withoutMs, mb: server.bodyFor(n, b).length / 1e6, events: n, reads: s1.reads, settleMs: s1.settle, settleRuns: s1.settleRuns };
    }
    if (C && D && want('1b')) {
      // Default settings: with DevTools closed the relay records nothing of the body (it keeps the
      // request and response of the open stream and counts what it drops).
      cfg.log('row 1b: DevTools closed');
      const s = await alternate(C, D, cfg.reps, url, streamExpr, checkStream);
      res.streamNoDevtools = { ratios: s.ratios, withMs: s.withMs, withoutMs: s.withoutMs };
      cfg.log(`row 1b: the relay holds ${await relayHeld(D)} record(s) after the stream (DevTools closed, default settings)`);
      // "Capture while DevTools is closed" on: the relay buffers the stream (undecoded bytes, up to
      // its cap) for a DevTools opened later.
      cfg.log('row 1b′: DevTools closed, capture while closed on');
      await setExtensionStorage(D.browser, { captureWhileClosed: true });
      const s2 = await alternate(C, D, cfg.reps, url, streamExpr, checkStream);
      // navigation, request, response, >= 1 chunk, end: all kept only if the setting took effect
      // (polled: the hook posts its last batch up to 16 ms after the page's last read).
      let held = 0;
      await waitFor(async () => (held = await relayHeld(D)) >= 5, { timeoutMs: 5000, message: () => `row 1b′: the relay holds ${held} records after the stream; capture while closed was not in effect` });
      cfg.log(`row 1b′: the relay holds ${held} records after the stream`);
      await setExtensionStorage(D.browser, { captureWhileClosed: false });
      res.streamNoDevtoolsCapture = { ratios: s2.ratios, withMs: s2.withMs, withoutMs: s2.withoutMs };
    }
    const checkNone = () => {};
    if (want('2')) {
      cfg.log(`row 2: ${cfg.fetches} JSON GETs / JSON-RPC POSTs`);
      const g = await alternate(A, B, cfg.reps, url, `fetchMany(${cfg.fetches})`, checkNone);
      res.fetchGet = { ratios: g.ratios, withMs: g.withMs, withoutMs: g.withoutMs };
      const p = await alternate(A, B, cfg.reps, url, `rpcMany(${cfg.fetches})`, checkNone);
      res.fetchRpc = { ratios: p.ratios, withMs: p.withMs, withoutMs: p.withoutMs };
      res.rpcSettleMs = p.settle;
      // Row 2c: the same POSTs traced (fewer: a trace of 1,000 is large), to say where 2b's time goes.
      const posts = Math.max(20, Math.round(cfg.fetches / 4));
      res.rpcCpu = [];
      for (let i = 0; i < Math.max(3, Math.min(5, cfg.reps)); i++) {
        const [first, second] = i % 2 ? [A, B] : [B, A];
        const x = await tracedRun(first, url, `rpcMany(${posts})`);
        const y = await tracedRun(second, url, `rpcMany(${posts})`);
        const [w, wo] = first === B ? [x, y] : [y, x];
        const per = (v: number) => +(v / posts).toFixed(3);
        const kinds = Object.keys({ ...w.byProcess, ...wo.byProcess });
        res.rpcCpu.push({ posts, mainMs: per(w.mainMs - wo.mainMs), extCallsMs: per(w.extCallsMs), byProcess: Object.fromEntries(kinds.map((k) => [k, per((w.byProcess[k] ?? 0) - (wo.byProcess[k] ?? 0))])) });
      }
      if (C && D) {
        const g2 = await alternate(C, D, cfg.reps, url, `fetchMany(${cfg.fetches})`, checkNone);
        res.fetchGetNoDevtools = { ratios: g2.ratios, withMs: g2.withMs, withoutMs: g2.withoutMs };
      }
    }

    const profReps = Math.max(1, Math.min(2, cfg.reps));
    if (want('3')) cfg.log(`row 3: CPU profiles at ${cfg.profileSizes.join(' and ')} events`);
    for (const size of want('3') ? cfg.profileSizes : []) {
      const runs = [];
      for (let i = 0; i < profReps; i++) runs.push(await profileRun(B, url, size, b, server.origin));
      res.profile!.push(runs);
    }

    if (want('3c')) {
      // Thread CPU of the page's main thread (Chrome trace), in the browser with the extension and
      // the panel open: the stream captured (/sse) against the same bytes uncaptured (/plain,
      // text/plain: the hook leaves the body alone), alternating. One browser, one DevTools, one
      // page: what differs is the capture only (browser-to-browser differences of DevTools' own
      // network work swing the page's CPU by 2-4x, docs/benchmarks.md). Plus the CPU by process of
      // each captured run minus its uncaptured pair (where a "panel open" run's CPU goes).
      cfg.log(`row 3c: page main-thread CPU (Chrome trace) at ${cfg.profileSizes.join(' and ')} events, captured vs not, alternating`);
      res.threadCpu = [];
      res.threadCpuRows = [];
      for (const [k, size] of cfg.profileSizes.entries()) {
        // DevTools' front end keeps what it copied of every stream of the pairs before (its heap
        // grew by ~40 MB per 20,000-event run it copied, none of it the panel's, checked side by
        // side with the build before), and a run of 30 copied pairs then 100,000-event streams
        // ended in its V8 out-of-memory crash (2026-12-07): each size gets a fresh browser.
        if (k > 0) {
          const at = arms.indexOf(B);
          await B.browser.close();
          B = await openArm('with (panel open)', dist, true, url, true);
          arms[at] = B;
          await navigateFresh(B, url);
          await B.browser.cdp.evaluate(B.page, streamExpr, { timeoutMs: 300_000 });
          await panelQuiet(B);
        }
        server.bodyFor(size, b);
        const row = await cpuRow(B, url, server, size, b, cfg);
        res.threadCpu.push(row.pairs);
        res.threadCpuRows.push(row);
      }
    }

    // The traced page-cost rows at the main stream's size (issue 22): the capture's CPU in the
    // page with the panel open (row 3c's pairs at this size, when 3c ran), the same measure in
    // the browser with DevTools open and no extension (the reference: what DevTools' own network
    // instrumentation costs an event stream against the same bytes as text/plain), and with
    // DevTools closed, with and without the extension.
    res.cpuRows = {};
    if (want('1') || want('3c')) {
      const at = res.threadCpuRows?.find((x) => x.events === n);
      if (want('1')) cfg.log(`row 1 (CPU): panel open, ${n} events`);
      res.cpuRows.panelOpen = at ?? (want('1') ? await cpuRow(B, url, server, n, b, cfg) : undefined);
    }
    if (want('1r')) {
      cfg.log(`row 1r (CPU, reference): DevTools open, no extension, ${n} events`);
      res.cpuRows.devtoolsOnly = await cpuRow(A, url, server, n, b, cfg);
    }
    if (C && D && want('1b')) {
      cfg.log(`row 1b (CPU): DevTools closed, the stream in the browser with the extension / without, ${n} events`);
      if (cfg.closedBlocks) {
        const { row, control } = await closedRowAcrossBrowsers(dist, url, server, n, b, cfg, cfg.closedBlocks);
        res.cpuRows.devtoolsClosed = row;
        res.cpuRows.closedControl = control;
      } else res.cpuRows.devtoolsClosed = await cpuRow(D, url, server, n, b, cfg, C, cfg.closedPairs);
    }

    if (want('7b')) {
      cfg.log('row 7b: relay buffer (heap retained by the page after GC) vs its cap');
      const relayOnce = async (label: string, cap: number) => {
        const deltas: Record<string, number> = {};
        for (const arm of [A, B]) {
          await navigateFresh(arm, url);
          await panelQuiet(arm);
          const before = await gcHeap(arm);
          const r = await arm.browser.cdp.evaluate<Run>(arm.page, streamExpr, { timeoutMs: 300_000 });
          checkStream(r);
          await panelQuiet(arm);
          await sleep(100);
          deltas[arm === A ? 'without' : 'with'] = (await gcHeap(arm)) - before;
        }
        res.relay!.push({ label, cap, deltaWith: deltas.with!, deltaWithout: deltas.without! });
      };
      await relayOnce('default cap', 64 * 1024 * 1024);
      const small = 8 * 1024 * 1024;
      await setExtensionStorage(B.browser, { bufferMaxBytes: small });
      await relayOnce('8 MiB cap', small);
      await setExtensionStorage(B.browser, { bufferMaxBytes: 0 });
    }

    if (want('8')) cfg.log(`row 8: latency, ${cfg.latencyEvents} events every ${cfg.latencyIntervalMs} ms`);
    for (let i = 0; want('8') && i < Math.max(1, Math.min(2, cfg.reps)); i++) res.latency!.push(await latencyRun(B, server.origin, cfg.latencyEvents, cfg.latencyIntervalMs));
    return res as PageResults;
  } finally {
    for (const arm of arms) await arm.browser.close().catch(() => {});
    await server.close();
  }
}

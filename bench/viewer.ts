// Panel benchmarks in real Chromium (rows 6 and 7a): the full inspector UI (src/panel/ui) in the
// standalone viewer page of the built extension (chrome-extension://<id>/src/panel/viewer.html),
// opening a capture from the loopback server with ?src=<url> — the same import, analysis and
// rendering path as the DevTools panel's import. A browser of its own, without DevTools, so that
// the extension renderer holds nothing but the viewer and its heap figures are the viewer's.
//
// Row 6: time from navigation start to the first frame showing the imported session, at 100k vs 1k
//        events (alternating), then the time to switch to the Events tab and show its first rows,
//        then long frames (> 50 ms) while scrolling the 100k events table.
// Row 7a: heap after GC with 100k events minus heap with 1k events, per event, vs the event's raw
//        SSE bytes.
// Row 6h: the first frame for a HAR file (the panel reads a HAR entry by entry): 100k vs 1k events
//        in an agent's session of tool calls of 1,000 events each (one HAR entry per call, what
//        "Save all as HAR" gives), and (6h′) in one stream of n events (one entry: its records can
//        only be placed once the whole entry is read).

import type { Browser } from '../test/support/browser';
import { waitFor } from '../test/support/wait';
import { launch, sleep } from './lib/browser';
import { startBenchServer } from './lib/server';
import { spread, type Spread } from './lib/stats';
import { exportHar } from '../src/export/har';
import { buildCallsCapture, buildCapture, captureFile } from './lib/workload';

export interface ViewerConfig {
  reps: number;
  small: number;
  big: number;
  eventBytes: number;
  scrollFrames: number;
  log(msg: string): void;
}

export interface ViewerResults {
  firstFrame: { ratios: Spread; bigMs: Spread; smallMs: Spread };
  eventsTab: { ratios: Spread; bigMs: Spread; smallMs: Spread };
  scroll: {
    frames: number;
    longFrames: number;
    maxFrameMs: number;
    loafs: number;
    maxLoafMs: number;
    mode: string;
    /** From a Chrome trace of the pass: main-thread tasks whose *thread CPU time* exceeds 50 ms. */
    cpuLongTasks: number;
    maxTaskCpuMs: number;
    /** Main-thread CPU time / wall time of its tasks: < 1 when the thread waited for a core. */
    cpuShare: number;
  }[];
  heap: { ratios: Spread; bytesPerEvent: Spread; rawBytesPerEvent: number };
  /** First frame of HAR files: `calls` one entry per tool call, `stream` one entry for all events. */
  har?: { calls: { ratios: Spread; bigMs: Spread; smallMs: Spread }; stream: { ratios: Spread; bigMs: Spread; smallMs: Spread } };
}

const INSTRUMENT = `(() => {
  // Every load is a first visit: the viewer keeps the view of a file in sessionStorage (a reload
  // would reopen the Events tab the previous load clicked).
  try { sessionStorage.clear(); } catch (e) {}
  const b = (window.__bench = { marks: {} });
  const mark = (k) => { if (!(k in b.marks)) b.marks[k] = performance.now(); };
  const afterPaint = (k) => requestAnimationFrame(() => { const ch = new MessageChannel(); ch.port1.onmessage = () => mark(k); ch.port2.postMessage(0); });
  b.afterPaint = afterPaint;
  const mo = new MutationObserver(() => {
    if (!b.session && document.querySelector('[data-testid=tab-events]')) { b.session = true; mark('sessionDom'); afterPaint('firstFrame'); }
    if (!b.rows && document.querySelector('[data-testid=event-row]')) { b.rows = true; mark('rowsDom'); afterPaint('rowsFrame'); }
  });
  mo.observe(document, { childList: true, subtree: true });
})();`;

/**
 * A Chrome trace (devtools.timeline) of the renderer main threads; per task it has the wall
 * duration (`dur`) and the thread's CPU time (`tdur`). On a loaded machine a frame can be long only
 * because the thread waited for a core; tasks over 50 ms of *CPU* are the product's own.
 */
async function startTrace(browser: Browser) {
  const { cdp } = browser;
  const events: { ph: string; name: string; pid: number; tid: number; dur?: number; tdur?: number; args?: { name?: string } }[] = [];
  const off = cdp.on('Tracing.dataCollected', (p: { value: typeof events }) => void events.push(...p.value));
  let done!: () => void;
  const complete = new Promise<void>((r) => (done = r));
  const off2 = cdp.on('Tracing.tracingComplete', () => done());
  await cdp.send('Tracing.start', {
    traceConfig: { includedCategories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel'], recordMode: 'recordAsMuchAsPossible' },
    transferMode: 'ReportEvents',
  });
  return {
    async stop() {
      await cdp.send('Tracing.end');
      await complete;
      off();
      off2();
      const mains = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}/${e.tid}`));
      const byThread = new Map<string, { dur: number; tdur: number }[]>();
      for (const e of events) {
        const k = `${e.pid}/${e.tid}`;
        if (e.ph !== 'X' || e.name !== 'RunTask' || !mains.has(k)) continue;
        let l = byThread.get(k);
        if (!l) byThread.set(k, (l = []));
        l.push({ dur: (e.dur ?? 0) / 1000, tdur: (e.tdur ?? 0) / 1000 });
      }
      // The viewer's renderer is the busiest main thread during the pass.
      let tasks: { dur: number; tdur: number }[] = [];
      for (const l of byThread.values()) if (l.reduce((a, t) => a + t.tdur, 0) > tasks.reduce((a, t) => a + t.tdur, 0)) tasks = l;
      const cpu = tasks.reduce((a, t) => a + t.tdur, 0);
      const wall = tasks.reduce((a, t) => a + t.dur, 0);
      return { cpuLongTasks: tasks.filter((t) => t.tdur > 50).length, maxTaskCpuMs: Math.max(0, ...tasks.map((t) => t.tdur)), cpuShare: wall ? cpu / wall : 1 };
    },
  };
}

interface Loaded {
  firstFrame: number;
  eventsTab: number;
  heap: number;
}

async function load(browser: Browser, session: string, url: string, events: number, scroll: ViewerResults['scroll'] | null, frames: number): Promise<Loaded> {
  const { cdp } = browser;
  await cdp.send('Page.navigate', { url }, session);
  const marks = await waitFor(
    () => cdp.evaluate<Record<string, number> | null>(session, `location.href === ${JSON.stringify(url)} && window.__bench?.marks.firstFrame !== undefined ? window.__bench.marks : null`).catch(() => null),
    { timeoutMs: 180_000, intervalMs: 100, message: `viewer did not show ${url}` },
  );
  // Let the time-sliced import and analysis finish on their own before reading the snapshot
  // (snapshot() would force the rest at once) and before the scroll passes, so that work is not
  // counted as scrolling frames.
  await waitFor(() => cdp.evaluate<boolean>(session, `window.__MSI_UI__.progress() === undefined`).catch(() => false), {
    timeoutMs: 180_000,
    intervalMs: 100,
    message: 'viewer analysis finished',
  });
  const total = await cdp.evaluate<number>(session, `window.__MSI_UI__.snapshot().sessions.length && Object.values(window.__MSI_UI__.snapshot().streams).reduce((n, s) => n + s.events.length, 0)`);
  if (total !== events) throw new Error(`viewer shows ${total} events, expected ${events}`);
  const t0 = await cdp.evaluate<number>(session, `(() => { const t = performance.now(); document.querySelector('[data-testid=tab-events]').click(); return t; })()`);
  const rows = await waitFor(() => cdp.evaluate<number | null>(session, `window.__bench.marks.rowsFrame ?? null`), { timeoutMs: 60_000, message: 'events table rows' });
  if (scroll) {
    for (const mode of ['jump', 'smooth'] as const) {
      const trace = await startTrace(browser);
      const r = await cdp.evaluate<ViewerResults['scroll'][number]>(
        session,
        `(async () => {
          const el = document.querySelector('[data-testid=events-grid] .grid-body');
          const loafs = [];
          const po = new PerformanceObserver((l) => { for (const e of l.getEntries()) loafs.push(e.duration); });
          try { po.observe({ type: 'long-animation-frame' }); } catch (e) {}
          const frame = () => new Promise((r) => requestAnimationFrame(r));
          await frame();
          const range = el.scrollHeight - el.clientHeight;
          const n = ${frames};
          const deltas = [];
          let last = performance.now();
          for (let i = 1; i <= n; i++) {
            el.scrollTop = ${mode === 'jump' ? 'Math.round((range * i) / n)' : 'Math.min(range, i * 400)'};
            await frame();
            const t = performance.now(); deltas.push(t - last); last = t;
          }
          await frame();
          po.disconnect();
          el.scrollTop = 0;
          return { mode: '${mode}', frames: deltas.length, longFrames: deltas.filter((d) => d > 50).length, maxFrameMs: Math.max(...deltas),
            loafs: loafs.filter((d) => d > 50).length, maxLoafMs: loafs.length ? Math.max(...loafs) : 0 };
        })()`,
        { timeoutMs: 120_000 },
      );
      Object.assign(r, await trace.stop());
      scroll.push(r);
    }
  }
  await cdp.send('HeapProfiler.collectGarbage', {}, session);
  await sleep(50);
  await cdp.send('HeapProfiler.collectGarbage', {}, session);
  // The analysis keeps its columns in typed arrays, whose bytes live outside the JS heap
  // (backingStorageSize): usedSize alone would not count them.
  const h = await cdp.send<{ usedSize: number; backingStorageSize?: number }>('Runtime.getHeapUsage', {}, session);
  const heap = h.usedSize + (h.backingStorageSize ?? 0);
  return { firstFrame: marks.firstFrame!, eventsTab: rows - t0, heap };
}

export async function runViewerBenches(dist: string, cfg: ViewerConfig): Promise<ViewerResults> {
  const server = await startBenchServer();
  let browser: Browser | undefined;
  try {
    cfg.log(`building captures of ${cfg.small} and ${cfg.big} events`);
    // Encoded once: a 22 MB string given to res.end() is UTF-8-encoded by Node on every request,
    // which delayed the first byte of the 100k file by ~70 ms on this machine — the bench server's
    // work, not the panel's (a file or a web server hands out bytes).
    const files = new Map<number, Buffer>();
    const raw = new Map<number, number>();
    for (const n of [cfg.small, cfg.big]) {
      const c = buildCapture(n, cfg.eventBytes, 64 * 1024, server.origin);
      files.set(n, Buffer.from(JSON.stringify(captureFile(c))));
      raw.set(n, c.bytes);
      server.route(`/cap-${n}.json`, (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*', 'cache-control': 'no-store' }).end(files.get(n));
      });
    }
    // HAR files of the same events: per tool call (one entry each) and in one stream.
    const harFiles = new Map<string, Buffer>();
    for (const n of [cfg.small, cfg.big]) {
      harFiles.set(`calls-${n}`, Buffer.from(exportHar(buildCallsCapture(n, 1000, cfg.eventBytes, server.origin))));
      harFiles.set(`stream-${n}`, Buffer.from(exportHar(buildCapture(n, cfg.eventBytes, 64 * 1024, server.origin).records)));
    }
    for (const [name, body] of harFiles) {
      server.route(`/${name}.har`, (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*', 'cache-control': 'no-store' }).end(body);
      });
    }
    browser = await launch({ dist, devtools: false, url: server.url('/bench.html') });
    const session = await browser.attachPage('/bench.html');
    await browser.cdp.send('Page.enable', {}, session);
    await browser.cdp.send('HeapProfiler.enable', {}, session);
    await browser.cdp.send('Page.addScriptToEvaluateOnNewDocument', { source: INSTRUMENT }, session);
    const viewer = (n: number) => `chrome-extension://${browser!.extensionId}/src/panel/viewer.html?src=${encodeURIComponent(server.url(`/cap-${n}.json`))}`;
    const viewerHar = (name: string) => `chrome-extension://${browser!.extensionId}/src/panel/viewer.html?src=${encodeURIComponent(server.url(`/${name}.har`))}`;
    // Warm-up (compile caches, the extension process).
    await load(browser, session, viewer(cfg.small), cfg.small, null, 0);
    await load(browser, session, viewer(cfg.big), cfg.big, null, 0);
    const ff: number[] = [], ffB: number[] = [], ffS: number[] = [];
    const et: number[] = [], etB: number[] = [], etS: number[] = [];
    const hp: number[] = [], hpr: number[] = [];
    const scroll: ViewerResults['scroll'] = [];
    const rawPerEvent = (raw.get(cfg.big)! - raw.get(cfg.small)!) / (cfg.big - cfg.small);
    for (let i = 0; i < cfg.reps; i++) {
      cfg.log(`rep ${i + 1}/${cfg.reps}`);
      let s: Loaded, b: Loaded;
      const doScroll = i === 0 || i === cfg.reps - 1 ? scroll : null;
      if (i % 2 === 0) {
        s = await load(browser, session, viewer(cfg.small), cfg.small, null, 0);
        b = await load(browser, session, viewer(cfg.big), cfg.big, doScroll, cfg.scrollFrames);
      } else {
        b = await load(browser, session, viewer(cfg.big), cfg.big, doScroll, cfg.scrollFrames);
        s = await load(browser, session, viewer(cfg.small), cfg.small, null, 0);
      }
      ff.push(b.firstFrame / s.firstFrame);
      ffB.push(b.firstFrame);
      ffS.push(s.firstFrame);
      et.push(b.eventsTab / s.eventsTab);
      etB.push(b.eventsTab);
      etS.push(s.eventsTab);
      const per = (b.heap - s.heap) / (cfg.big - cfg.small);
      hp.push(per);
      hpr.push(per / rawPerEvent);
    }
    // Row 6h: HAR files, the same alternation.
    const har = { calls: { r: [] as number[], b: [] as number[], s: [] as number[] }, stream: { r: [] as number[], b: [] as number[], s: [] as number[] } };
    for (const kind of ['calls', 'stream'] as const) {
      await load(browser, session, viewerHar(`${kind}-${cfg.big}`), cfg.big, null, 0); // warm-up
      for (let i = 0; i < cfg.reps; i++) {
        cfg.log(`HAR (${kind}) rep ${i + 1}/${cfg.reps}`);
        const small = () => load(browser!, session, viewerHar(`${kind}-${cfg.small}`), cfg.small, null, 0);
        const big = () => load(browser!, session, viewerHar(`${kind}-${cfg.big}`), cfg.big, null, 0);
        let s1: Loaded, b1: Loaded;
        if (i % 2 === 0) {
          s1 = await small();
          b1 = await big();
        } else {
          b1 = await big();
          s1 = await small();
        }
        har[kind].r.push(b1.firstFrame / s1.firstFrame);
        har[kind].b.push(b1.firstFrame);
        har[kind].s.push(s1.firstFrame);
      }
    }
    return {
      har: {
        calls: { ratios: spread(har.calls.r), bigMs: spread(har.calls.b), smallMs: spread(har.calls.s) },
        stream: { ratios: spread(har.stream.r), bigMs: spread(har.stream.b), smallMs: spread(har.stream.s) },
      },
      firstFrame: { ratios: spread(ff), bigMs: spread(ffB), smallMs: spread(ffS) },
      eventsTab: { ratios: spread(et), bigMs: spread(etB), smallMs: spread(etS) },
      scroll,
      heap: { ratios: spread(hpr), bytesPerEvent: spread(hp), rawBytesPerEvent: rawPerEvent },
    };
  } finally {
    await browser?.close().catch(() => {});
    await server.close();
  }
}

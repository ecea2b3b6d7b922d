// The Trace Event Format export opened in a real consumer: the Performance panel of the DevTools
// bundled in Chromium (the same trace engine as Chrome DevTools). A real capture (fixture
// 'lossy', recorded from the official SDK client against the fault-injecting server) goes through
// the core and src/export's exportCapture('trace'); the file is loaded through the panel's own
// "Load trace…" button (the file chooser intercepted over CDP, DOM.setFileInputFiles); the test
// then reads the panel's trace model and its flame chart and compares them with what the exporter
// wrote. Screenshots: test-artifacts/screenshots/trace-devtools-performance.png (the whole trace)
// and trace-devtools-performance-instants.png (zoomed on the resumed stream, an SSE event selected).
//
// Not here: chrome://tracing. Debian's Chromium lists the host (after chrome://chrome-urls'
// "Enable internal debugging pages") but is built without the catapult viewer, so the page fails
// with ERR_FAILED. Perfetto's importer rules are checked in test/unit/export/trace-format.test.ts.
// DevTools shows a generic trace's complete ("X") slices and instants ("I": SSE events on the
// stream threads, findings on the session's findings thread) per thread and the flows between the
// slices; it does not draw async request slices. It reads only the legacy phase "I" as an instant
// (an "i" event is dropped from its model), which is why the exporter writes "I".

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeRecords } from '../../src/core';
import type { CaptureRecord } from '../../src/core/record';
import { exportCapture } from '../../src/export';
import type { TraceEvent, TraceFile } from '../../src/export/trace';
import { launchBrowser, type Browser } from '../support/browser';
import { devtoolsFrontend } from '../support/devtools';
import { screenshot } from '../support/panel-ui';
import { waitFor } from '../support/wait';

const ROOT = resolve(import.meta.dirname, '../..');
const CAPTURE = 'lossy';
const OUT_DIR = join(ROOT, 'test-artifacts/trace-viewer');

/** document.querySelector through every open shadow root, as a JS expression. */
const deepQuery = (selector: string) =>
  `(() => { const walk = (r) => { const hit = r.querySelector(${JSON.stringify(selector)}); if (hit) return hit;
     for (const e of r.querySelectorAll('*')) if (e.shadowRoot) { const x = walk(e.shadowRoot); if (x) return x; } return null; };
     return walk(document); })()`;
/** The same, from the root held in the JS variable `root`. */
const deepQueryIn = (root: string, selector: string) =>
  `((root) => { const walk = (r) => { const hit = r.querySelector(${JSON.stringify(selector)}); if (hit) return hit;
     for (const e of r.querySelectorAll('*')) if (e.shadowRoot) { const x = walk(e.shadowRoot); if (x) return x; } return null; };
     return walk(root); })(${root})`;
const PANEL = `(await import('./panels/timeline/timeline.js')).TimelinePanel.TimelinePanel.instance()`;

interface ViewerEntry {
  ph: string;
  name: string;
  ts: number;
  dur: number | null;
  cat: string;
  pid: number;
  tid: number;
  s: string | null;
  streamId: string | null;
  index: number | null;
  code: string | null;
}
interface ViewerThread {
  pid: number;
  tid: number;
  name: string | null;
  entries: ViewerEntry[];
}
interface ViewerModel {
  generic: boolean;
  processNames: [number, string][];
  threads: ViewerThread[];
  flows: ViewerEntry[][];
  warnings: number;
  groups: { name: string; entries: string[] }[];
}

const records = (JSON.parse(readFileSync(join(ROOT, `test/fixtures/captures/${CAPTURE}.capture.json`), 'utf8')) as { records: CaptureRecord[] }).records;
const snap = analyzeRecords(records);
const exported = exportCapture('trace', { records, snapshot: snap, createdAt: '2026-11-30T10:00:00.000Z' });
const trace = JSON.parse(exported.text) as TraceFile;
const tracePath = join(OUT_DIR, exported.filename);

// What the exporter wrote, by thread.
const meta = (name: string) => trace.traceEvents.filter((e) => e.ph === 'M' && e.name === name);
const slices = trace.traceEvents.filter((e) => e.ph === 'X');
const threadName = (pid: number, tid: number) => (meta('thread_name').find((e) => e.pid === pid && e.tid === tid)?.args as { name: string } | undefined)?.name;
const streamOf = (e: TraceEvent) => (e.args as { streamId?: string } | undefined)?.streamId ?? null;
const instantsOn = (pid: number, tid: number) => trace.traceEvents.filter((e) => e.ph === 'I' && e.pid === pid && e.tid === tid);
/** An instant as the exporter wrote it, in the shape the panel's model is read into. */
const asEntry = (e: TraceEvent): ViewerEntry => {
  const a = (e.args ?? {}) as { streamId?: string; index?: number; code?: string };
  return { ph: e.ph, name: e.name, ts: e.ts, dur: e.dur ?? null, cat: e.cat ?? '', pid: e.pid, tid: e.tid, s: e.s ?? null, streamId: a.streamId ?? null, index: a.index ?? null, code: a.code ?? null };
};
const byTsName = (a: { ts: number; name: string; index?: number | null }, b: { ts: number; name: string; index?: number | null }) => a.ts - b.ts || (a.index ?? 0) - (b.index ?? 0) || a.name.localeCompare(b.name);

let browser: Browser;
let fe: string;
const exceptions: string[] = [];
let model: ViewerModel;

beforeAll(async () => {
  mkdirSync(OUT_DIR, { recursive: true });
  writeFileSync(tracePath, exported.text);
  browser = await launchBrowser({ extension: false, devtools: true });
  const { cdp } = browser;
  fe = await cdp.attach((await devtoolsFrontend(browser)).targetId);
  cdp.on('Runtime.exceptionThrown', (p, sid) => {
    if (sid === fe) exceptions.push(String(p.exceptionDetails?.exception?.description ?? p.exceptionDetails?.text));
  });
  await cdp.send('Runtime.enable', {}, fe);
  await cdp.send('Page.enable', {}, fe);
  await cdp.send('DOM.enable', {}, fe);
  await waitFor(
    () =>
      cdp.evaluate(fe, `(async () => { const L = await import('./ui/legacy/legacy.js');
        return !!L.InspectorView.InspectorView.maybeGetInspectorViewInstance()?.hasPanel('timeline'); })()`),
    { timeoutMs: 20_000, message: 'DevTools Performance panel registered' },
  );
  await cdp.evaluate(fe, `(async () => { const L = await import('./ui/legacy/legacy.js'); await L.InspectorView.InspectorView.instance().showPanel('timeline'); return true; })()`);
  await waitFor(() => cdp.evaluate(fe, `!!${deepQuery('button[jslog*="timeline.load-from-file"]')}`), { message: '"Load trace…" button' });

  // Click "Load trace…" as a user would (a file chooser needs a user gesture) and answer the chooser.
  await cdp.send('Page.setInterceptFileChooserDialog', { enabled: true }, fe);
  const chooser = new Promise<{ backendNodeId: number }>((res) => {
    const off = cdp.on('Page.fileChooserOpened', (p, sid) => {
      if (sid !== fe) return;
      off();
      res(p);
    });
  });
  await cdp.send('Runtime.evaluate', { expression: `${deepQuery('button[jslog*="timeline.load-from-file"]')}.click()`, userGesture: true }, fe);
  const { backendNodeId } = await waitFor(() => Promise.race([chooser, null]), { message: 'file chooser opened by "Load trace…"' });
  await cdp.send('DOM.setFileInputFiles', { files: [tracePath], backendNodeId }, fe);
  await waitFor(() => cdp.evaluate(fe, `(async () => !!${PANEL}.getParsedTraceForLayoutTests())().catch(() => false)`), {
    timeoutMs: 30_000,
    message: () => `the Performance panel did not finish loading ${exported.filename}${exceptions.length ? `: ${exceptions.join(' | ')}` : ''}`,
  });

  model = await cdp.evaluate<ViewerModel>(
    fe,
    `(async () => {
      const panel = ${PANEL};
      const pt = panel.getParsedTraceForLayoutTests();
      const d = pt.data ?? pt;
      const ev = (e) => ({ ph: e.ph, name: e.name, ts: e.ts, dur: e.dur ?? null, cat: e.cat, pid: e.pid, tid: e.tid, s: e.s ?? null,
        streamId: e.args?.streamId ?? null, index: e.args?.index ?? null, code: e.args?.code ?? null });
      const threads = [];
      for (const [pid, p] of d.Renderer.processes) for (const [tid, t] of p.threads) threads.push({ pid, tid, name: t.name ?? null, entries: t.entries.map(ev) });
      const dp = panel.getFlameChart().getMainDataProvider();
      const td = dp.timelineData();
      const groups = td.groups.map((g) => ({ name: g.name, startLevel: g.startLevel, entries: [] }));
      Array.from(td.entryLevels).forEach((level, i) => {
        let g = -1;
        td.groups.forEach((x, gi) => { if (x.startLevel <= level) g = gi; });
        if (g >= 0) groups[g].entries.push(dp.entryTitle(i));
      });
      return {
        generic: d.Meta.traceIsGeneric,
        processNames: [...d.Meta.processNames].map(([pid, e]) => [pid, e.args.name]),
        threads,
        flows: d.Flows.flows.map((f) => f.map(ev)),
        warnings: d.Warnings.perEvent.size + d.Warnings.perWarning.size,
        groups: groups.map(({ name, entries }) => ({ name, entries })),
      };
    })()`,
  );
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe(`DevTools Performance panel opens the trace export of the '${CAPTURE}' capture`, () => {
  it('loads it without exceptions or trace warnings, as a generic (non-Chrome) trace', () => {
    expect(exceptions).toEqual([]);
    expect(model.warnings).toBe(0);
    expect(model.generic).toBe(true);
  });

  it('names each session process as the exporter did', () => {
    const sessionPids = [...new Set(slices.map((e) => e.pid))];
    expect(sessionPids).toHaveLength(snap.sessions.length);
    for (const pid of sessionPids) {
      const written = (meta('process_name').find((e) => e.pid === pid)!.args as { name: string }).name;
      expect(model.processNames).toContainEqual([pid, written]);
      expect(written).toContain(snap.sessions[0]!.sessionId!);
    }
  });

  it('one named thread per stream, holding that stream’s connection slice with the exported ts and dur', () => {
    const streamThreads = model.threads.filter((t) => t.entries.some((e) => e.ph === 'X'));
    expect(streamThreads).toHaveLength(slices.length);
    expect(slices).toHaveLength(snap.sessions[0]!.streamIds.length);
    for (const x of slices) {
      const t = model.threads.find((v) => v.pid === x.pid && v.tid === x.tid);
      expect(t, `thread ${x.pid}/${x.tid}`).toBeDefined();
      expect(t!.name).toBe(threadName(x.pid, x.tid));
      const xs = t!.entries.filter((e) => e.ph === 'X');
      expect(xs).toEqual([{ ph: 'X', name: x.name, ts: x.ts, dur: x.dur!, cat: 'stream', pid: x.pid, tid: x.tid, s: null, streamId: streamOf(x), index: null, code: null }]);
    }
    // The resumed stream's lane carries the Last-Event-ID the client sent.
    const resumed = Object.values(snap.streams).filter((s) => s.resumes !== undefined);
    expect(resumed.length).toBeGreaterThan(0);
    for (const s of resumed) {
      const t = model.threads.find((v) => v.entries.some((e) => e.streamId === s.id))!;
      expect(t.name).toContain(`Last-Event-ID: ${s.lastEventIdSent}`);
    }
  });

  it('holds each stream’s SSE events as instants on that stream’s thread, with the exported names and ts', () => {
    let total = 0;
    for (const x of slices) {
      const s = snap.streams[streamOf(x)!]!;
      const written = instantsOn(x.pid, x.tid);
      expect(written, `exported instants of ${s.id}`).toHaveLength(s.eventCount ?? s.events.length);
      const t = model.threads.find((v) => v.pid === x.pid && v.tid === x.tid)!;
      const shown = t.entries.filter((e) => e.ph !== 'X');
      expect(shown.sort(byTsName), `instants on ${t.name}`).toEqual(written.map(asEntry).sort(byTsName));
      expect(shown.every((e) => e.ph === 'I' && e.s === 't' && e.cat.startsWith('sse'))).toBe(true);
      total += shown.length;
    }
    expect(total).toBeGreaterThan(10);
  });

  it('holds each session’s findings as instants on its "findings" thread, with the exported codes and ts', () => {
    for (const [si, session] of snap.sessions.entries()) {
      const pid = si + 2;
      const t = model.threads.find((v) => v.pid === pid && v.name === 'findings');
      expect(t, `findings thread of pid ${pid} in ${JSON.stringify(model.threads.map((v) => [v.pid, v.tid, v.name]))}`).toBeDefined();
      const codes = snap.findings.filter((f) => f.sessionKey === session.key).map((f) => f.code);
      expect(codes.length).toBeGreaterThan(0);
      expect(t!.entries.map((e) => e.code).sort()).toEqual([...codes].sort());
      expect([...t!.entries].sort(byTsName)).toEqual(instantsOn(t!.pid, t!.tid).map(asEntry).sort(byTsName));
    }
  });

  it('draws a track per stream in the flame chart with its slice and its SSE events, and a findings track', () => {
    const names = () => JSON.stringify(model.groups.map((v) => `${v.name}: ${v.entries.length}`));
    for (const x of slices) {
      const name = threadName(x.pid, x.tid)!;
      const g = model.groups.find((v) => v.name.startsWith(name) && v.name.endsWith(`(${x.tid})`));
      expect(g, `track for ${name} in ${names()}`).toBeDefined();
      expect(g!.entries.filter((e) => e === x.name), `${name}: ${JSON.stringify(g!.entries)}`).toHaveLength(1);
      expect([...g!.entries].sort(), name).toEqual([x.name, ...instantsOn(x.pid, x.tid).map((e) => e.name)].sort());
    }
    for (const t of model.threads.filter((v) => v.name === 'findings')) {
      const g = model.groups.find((v) => v.name.startsWith('findings') && v.name.endsWith(`(${t.tid})`));
      expect(g, `findings track (${t.tid}) in ${names()}`).toBeDefined();
      expect([...g!.entries].sort()).toEqual(instantsOn(t.pid, t.tid).map((e) => e.name).sort());
    }
  });

  it('links each reconnect: a flow from the cut stream’s slice to the slice of the stream that resumed it', () => {
    const resumed = Object.values(snap.streams).filter((s) => s.resumes !== undefined && snap.streams[s.resumes]);
    expect(trace.traceEvents.filter((e) => e.ph === 's')).toHaveLength(resumed.length);
    expect(model.flows.map((f) => f.map((e) => `${e.ph}:${e.streamId}`))).toEqual(resumed.map((s) => [`X:${s.resumes}`, `X:${s.id}`]));
  });

  it('screenshots of the loaded trace (test-artifacts/screenshots/trace-devtools-performance{,-instants}.png)', async () => {
    const { cdp } = browser;
    // Undock so the DevTools window can be sized, hide the sidebar, open every track, select the
    // resumed stream's slice (its flow arrow and summary show).
    await cdp.evaluate(fe, `(async () => { const L = await import('./ui/legacy/legacy.js'); L.DockController.DockController.instance().setDockSide('undocked'); return true; })()`);
    const feTarget = await devtoolsFrontend(browser);
    const { windowId } = await waitFor(() => cdp.send<{ windowId: number }>('Browser.getWindowForTarget', { targetId: feTarget.targetId }), { message: 'DevTools window' });
    await cdp.send('Browser.setWindowBounds', { windowId, bounds: { width: 1400, height: 820 } });
    await waitFor(() => cdp.evaluate(fe, 'innerWidth === 1400'), { message: 'DevTools window resized' });
    await cdp.evaluate(fe, `(() => { const b = ${deepQuery('devtools-button[jslog*="timeline.sidebar"]')}; if (b && /hide/i.test(b.getAttribute('aria-label') ?? '')) b.click(); return true; })()`);
    const resumedStream = Object.values(snap.streams).find((s) => s.resumes !== undefined)!;
    const expanded = await waitFor(
      () =>
        cdp.evaluate<boolean>(
          fe,
          `(async () => {
            const panel = ${PANEL};
            const fc = panel.getFlameChart();
            const chart = fc.getMainFlameChart();
            const td = fc.getMainDataProvider().timelineData();
            td.groups.forEach((g, i) => { if (!g.expanded) chart.toggleGroupExpand(i); });
            const pt = panel.getParsedTraceForLayoutTests();
            const d = pt.data ?? pt;
            for (const p of d.Renderer.processes.values()) for (const t of p.threads.values()) for (const e of t.entries)
              if (e.ph === 'X' && e.args?.streamId === ${JSON.stringify(resumedStream.id)}) panel.select({ event: e });
            // The first loaded trace pops up the flame chart's keyboard shortcuts: close it.
            const shortcuts = ${deepQuery('devtools-shortcut-dialog')}?.shadowRoot;
            const dialog = shortcuts ? ${deepQueryIn('shortcuts', 'dialog')} : null;
            if (dialog?.open) ${deepQueryIn('shortcuts', 'button[aria-label="Close"]')}?.click();
            await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
            return td.groups.every((g) => g.expanded) && !dialog?.open;
          })()`,
        ),
      { message: 'flame chart tracks expanded, shortcuts dialog closed' },
    );
    expect(expanded).toBe(true);
    const p = await screenshot(cdp, fe, 'trace-devtools-performance');
    expect(readFileSync(p).length).toBeGreaterThan(10_000);

    // Instants have no duration: at the whole trace's scale they are 1 px ticks. Zoom on the
    // resumed stream's slice and select its first SSE event that carries a finding (the summary
    // shows its args).
    const x = slices.find((e) => streamOf(e) === resumedStream.id)!;
    const marked = instantsOn(x.pid, x.tid).find((e) => e.cat === 'sse,finding')!;
    expect(marked, 'an SSE event with a finding on the resumed stream').toBeDefined();
    const pad = Math.round(x.dur! / 10);
    const win = { min: x.ts - pad, max: x.ts + x.dur! + pad };
    const zoomed = await waitFor(
      () =>
        cdp.evaluate<boolean>(
          fe,
          `(async () => {
            const panel = ${PANEL};
            const TB = await import('./services/trace_bounds/trace_bounds.js');
            const bm = TB.TraceBounds.BoundsManager.instance();
            const want = { min: ${win.min}, max: ${win.max}, range: ${win.max - win.min} };
            const cur = bm.state()?.micro.timelineTraceWindow;
            if (!cur || cur.min !== want.min || cur.max !== want.max) bm.setTimelineVisibleWindow(want);
            const pt = panel.getParsedTraceForLayoutTests();
            const d = pt.data ?? pt;
            const e = d.Renderer.processes.get(${x.pid}).threads.get(${x.tid}).entries.find((v) => v.ph === 'I' && v.args?.index === ${(marked.args as { index: number }).index});
            panel.select({ event: e });
            await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
            const now = bm.state().micro.timelineTraceWindow;
            return now.min === want.min && now.max === want.max;
          })()`,
        ),
      { message: `timeline zoomed on ${resumedStream.id} (${win.min}–${win.max} µs)` },
    );
    expect(zoomed).toBe(true);
    const p2 = await screenshot(cdp, fe, 'trace-devtools-performance-instants');
    expect(readFileSync(p2).length).toBeGreaterThan(10_000);
  });
});

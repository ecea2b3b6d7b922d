// Limits (issue 5): the per-record size cap and the relay's buffer cap are enforced with explicit
// markers, and memory stays bounded under a steady 1,000 events/s (a short soak; the 30-minute one
// is `npm run soak`, scripts/soak.ts). Figures go to docs/reliability.md.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaptureRecord } from '../../src/core/record';
import { navigate, openInspected, setExtensionStorage, waitForRecords, type Harness } from '../support/extension';
import { heapUsed, relayContext, relayStats, type RelayStats } from '../support/relay';
import { startTestServer, type TestServer } from '../support/server';
import { addSoakRoutes } from '../support/soak';

let server: TestServer;
let h: Harness;
const BIG = 50_000;

beforeAll(async () => {
  server = await startTestServer();
  addSoakRoutes(server);
  server.route('/big', (req, res) => {
    if (req.headers['last-event-id']) return void res.writeHead(204).end();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    // One event of BIG characters (a 2-byte character every 10 to count bytes, not chars).
    const data = ('é' + 'x'.repeat(9)).repeat(BIG / 10);
    res.end(`id: big-1\ndata: ${data}\n\nid: big-2\ndata: small\n\n`);
  });
  server.page('/big.html', `<!doctype html><html><head></head><body><script>
    window.run = async () => {
      const r = await fetch('/big?tag=fetch', { headers: { accept: 'text/event-stream' } });
      const rd = r.body.getReader(); let bytes = 0;
      for (;;) { const { done, value } = await rd.read(); if (done) break; bytes += value.byteLength; }
      const es = await new Promise((resolve) => {
        const got = []; const s = new EventSource('/big?tag=es');
        s.onmessage = (e) => { got.push(e.data.length); if (got.length === 2) { s.close(); resolve(got); } };
      });
      return { bytes, es };
    };
  </script></body></html>`);
  h = await openInspected(server.url('/soak.html'));
});

afterAll(async () => {
  await h?.close();
  await server?.close();
});

describe('limits', () => {
  it('a record over the size cap is cut with an explicit marker: droppedBytes on chunks, an event-size-cap gap before an es-event', async () => {
    await setExtensionStorage(h.browser, { recordMaxChars: 1000 });
    try {
      await navigate(h, server.url('/big.html'));
      const page = await h.evalPage<{ bytes: number; es: number[] }>('window.run()');
      expect(page.es).toEqual([BIG, 5]);
      const records = await waitForRecords(h.panel, (rs) => rs.filter((r) => r.kind === 'end').length >= 2 && rs.some((r) => r.kind === 'es-event' && r.data === 'small'), 'big streams');
      const chunks = records.filter((r): r is Extract<CaptureRecord, { kind: 'chunk' }> => r.kind === 'chunk');
      expect(chunks.every((c) => c.text.length <= 1000)).toBe(true);
      expect(chunks.some((c) => (c.droppedBytes ?? 0) > 0)).toBe(true);
      // Nothing lost without a marker: what was kept plus what is marked dropped is what the page read.
      const kept = chunks.reduce((n, c) => n + Buffer.byteLength(c.text) + (c.droppedBytes ?? 0), 0);
      expect(kept).toBe(page.bytes);
      const i = records.findIndex((r) => r.kind === 'es-event' && r.lastEventId === 'big-1');
      const ev = records[i] as Extract<CaptureRecord, { kind: 'es-event' }>;
      expect(ev.data.length).toBe(1000);
      expect(records[i - 1]).toMatchObject({ kind: 'capture-gap', reason: 'event-size-cap', conns: [ev.conn] });
    } finally {
      await setExtensionStorage(h.browser, { recordMaxChars: 4 * 1024 * 1024 });
    }
  });

  it('soak: 1,000 events/s by fetch and 1,000/s by EventSource for 20 s; the relay buffer stays at its cap, the page heap levels off, the panel gets every record', async () => {
    // SOAK_UNCAPPED=1 runs the same soak with the default caps (to see the test fail without them).
    const caps = process.env.SOAK_UNCAPPED ? { bufferMaxRecords: 50_000, bufferMaxBytes: 64 * 1024 * 1024 } : { bufferMaxRecords: 2000, bufferMaxBytes: 1_000_000 };
    await setExtensionStorage(h.browser, caps);
    const SECONDS = 20;
    try {
      await navigate(h, server.url('/soak.html'));
      const dbg = (m: string) => process.env.SOAK_DEBUG && console.log(new Date().toISOString(), m);
      dbg('navigated');
      const ctx = await relayContext(h.browser.cdp, h.page);
      dbg('ctx ' + ctx);
      const heap0 = await heapUsed(h.browser.cdp, h.page);
      await h.evalPage(`window.startSoak(1000, ${SECONDS}), window.startEsSoak(1000, ${SECONDS}), true`);
      const t0 = Date.now();
      const samples: { t: number; heap: number; events: number; relay: RelayStats }[] = [];
      let maxRecords = 0;
      let maxBytes = 0;
      while (!(await h.evalPage<boolean>('window.soak.done && window.soak.esDone'))) {
        const relay = await relayStats(h.browser.cdp, h.page, ctx);
        if (process.env.SOAK_DEBUG) {
          const t1 = Date.now();
          const n = await h.panel.eval('__MSI_PANEL__.records().length');
          dbg(`panel ${n} in ${Date.now() - t1} ms; relay ${relay.lastSeq}`);
        }
        maxRecords = Math.max(maxRecords, relay.records);
        maxBytes = Math.max(maxBytes, relay.bytes);
        const t = (Date.now() - t0) / 1000;
        if (samples.length === 0 || t - samples.at(-1)!.t >= 4) {
          const heap = await heapUsed(h.browser.cdp, h.page);
          const events = await h.evalPage<number>('window.soak.events + window.soak.esEvents');
          samples.push({ t, heap, events, relay });
        }
        if (Date.now() - t0 > (SECONDS + 40) * 1000) throw new Error('soak did not finish');
        await new Promise((r) => setTimeout(r, 250));
      }
      dbg('loop done');
      const heapEnd = await heapUsed(h.browser.cdp, h.page);
      dbg('heap end');
      const relay = await relayStats(h.browser.cdp, h.page, ctx);
      const soak = await h.evalPage<{ events: number; esEvents: number; bytes: number; error: string | null }>('window.soak');
      expect(soak.error).toBeNull();
      expect(soak.events).toBe(1000 * SECONDS);
      expect(soak.esEvents).toBe(1000 * SECONDS);

      // The page heap levels off: once the buffer is full, the second half adds little.
      const mid = samples.find((s) => s.t >= SECONDS / 2) ?? samples.at(-1)!;
      const MB = 1024 * 1024;
      const fig = {
        seconds: (Date.now() - t0) / 1000,
        events: soak.events + soak.esEvents,
        relayRecordsNumbered: relay.lastSeq,
        relayMaxRecords: maxRecords,
        relayMaxBytes: maxBytes,
        heapStartMB: +(heap0 / MB).toFixed(1),
        heapMidMB: +(mid.heap / MB).toFixed(1),
        heapEndMB: +(heapEnd / MB).toFixed(1),
        samples: samples.map((s) => [+s.t.toFixed(1), +(s.heap / MB).toFixed(1), s.relay.records]),
      };
      dbg('before panel');
      // The panel received every record live: per src seq dense, nothing lost, no gap.
      const panel = await h.panel.eval<{ srcs: Record<string, { n: number; dense: boolean }>; gaps: number; chunkBytes: number; esEvents: number; heap: number }>(`(() => {
        const rs = __MSI_PANEL__.records(); const srcs = {}; let gaps = 0, chunkBytes = 0, esEvents = 0;
        const enc = new TextEncoder();
        for (const r of rs) {
          const s = srcs[r.src] ??= { n: 0, dense: true, last: 0 };
          s.n++; if (r.seq !== s.last + 1) s.dense = false; s.last = r.seq;
          if (r.kind === 'capture-gap') gaps++;
          if (r.kind === 'chunk') chunkBytes += enc.encode(r.text).length;
          if (r.kind === 'es-event') esEvents++;
        }
        return { srcs, gaps, chunkBytes, esEvents, heap: performance.memory ? performance.memory.usedJSHeapSize : 0 };
      })()`);
      console.log('soak figures:', JSON.stringify({ ...fig, panel: { ...panel, heapMB: +(panel.heap / MB).toFixed(1) } }));
      // The relay: far more records than the cap went through; it never held more than the cap.
      expect(relay.lastSeq).toBeGreaterThan(5 * caps.bufferMaxRecords); // ≥ 20 000 es-events alone
      expect(maxRecords).toBeLessThanOrEqual(caps.bufferMaxRecords);
      expect(maxBytes).toBeLessThanOrEqual(caps.bufferMaxBytes);
      expect(relay.evicted).toBeGreaterThan(0);
      expect(relay.rejected).toBe(0);

      expect(panel.gaps).toBe(0);
      expect(Object.values(panel.srcs).every((s) => s.dense)).toBe(true);
      expect(panel.esEvents).toBe(soak.esEvents);
      expect(panel.chunkBytes).toBe(soak.bytes);
      // Bounded: the buffer's cap is ~1 MB estimated. From the middle of the run to its end (both
      // after a full GC) the heap may move by V8's own variance, not by the ~20k events that went
      // through; from the start, by the buffer and little else. Uncapped (SOAK_UNCAPPED=1) the heap
      // grows steadily: 1.3 -> 6.1 -> 8.2 MB, and both checks fail (docs/reliability.md).
      expect(heapEnd - mid.heap).toBeLessThan(1.5 * MB);
      expect(heapEnd - heap0).toBeLessThan(4 * MB);
    } finally {
      await setExtensionStorage(h.browser, { bufferMaxRecords: 50_000, bufferMaxBytes: 64 * 1024 * 1024 });
    }
  });
});

// Memory soak of the capture pipeline (issue 5): a page reads 1,000 SSE events/s by fetch and
// 1,000/s by EventSource for 30 minutes with the built extension and real DevTools (panel open) in
// Chromium; every `--interval` seconds it prints the relay's buffer against its cap, the page's JS
// heap (after a full GC; the relay's isolated world lives in the same heap) and the panel's.
//
//   npx vite build && npm run soak                     # 30 min, default caps
//   npm run soak -- --minutes 5 --buffer-records 5000  # shorter, smaller relay buffer
//
// Options: --minutes (30) --rate (1000 events/s per transport) --interval (30 s)
//          --buffer-records / --buffer-bytes / --record-max-chars (relay caps, chrome.storage.local;
//          defaults: the extension's own, 50 000 records / 64 MiB / 4 Mi chars)
// Exits non-zero if the relay ever held more than its cap, a record was rejected, or the page
// lost events. The short version of this runs in the e2e suite (test/e2e/hostile-limits.test.ts).

import { parseArgs } from 'node:util';
import { openInspected, setExtensionStorage } from '../test/support/extension';
import { heapUsed, relayContext, relayStats } from '../test/support/relay';
import { startTestServer } from '../test/support/server';
import { addSoakRoutes } from '../test/support/soak';

const { values: o } = parseArgs({
  options: {
    minutes: { type: 'string', default: '30' },
    rate: { type: 'string', default: '1000' },
    interval: { type: 'string', default: '30' },
    'buffer-records': { type: 'string' },
    'buffer-bytes': { type: 'string' },
    'record-max-chars': { type: 'string' },
  },
});
const seconds = Math.round(Number(o.minutes) * 60);
const rate = Number(o.rate);
const interval = Number(o.interval) * 1000;
const MB = 1024 * 1024;
const mb = (n: number) => (n / MB).toFixed(1);

async function main() {
  const server = await startTestServer();
  addSoakRoutes(server);
  const h = await openInspected(server.url('/soak.html'));
  let failed = false;
  try {
    const caps: Record<string, number> = {};
    if (o['buffer-records']) caps.bufferMaxRecords = Number(o['buffer-records']);
    if (o['buffer-bytes']) caps.bufferMaxBytes = Number(o['buffer-bytes']);
    if (o['record-max-chars']) caps.recordMaxChars = Number(o['record-max-chars']);
    if (Object.keys(caps).length) await setExtensionStorage(h.browser, caps);
    await h.browser.cdp.send('Page.reload', {}, h.page);
    await new Promise((r) => setTimeout(r, 1000));
    const page = await h.browser.attachPage('/soak.html');
    const ctx = await relayContext(h.browser.cdp, page);
    const heap0 = await heapUsed(h.browser.cdp, page);
    const panelHeap = async () => heapUsed(h.browser.cdp, h.panel.sessionId);
    console.log(`soak: ${rate} events/s by fetch + ${rate}/s by EventSource for ${seconds} s; page heap at start ${mb(heap0)} MB`);
    console.log('   t(s)     events  relay rec/cap        relay MB/cap   evicted  page heap MB  panel rec  panel heap MB');
    await h.browser.cdp.evaluate(page, `window.startSoak(${rate}, ${seconds}), window.startEsSoak(${rate}, ${seconds}), true`);
    const t0 = Date.now();
    let maxRecords = 0;
    let maxBytes = 0;
    let next = 0;
    for (;;) {
      const s = await relayStats(h.browser.cdp, page, ctx);
      maxRecords = Math.max(maxRecords, s.records);
      maxBytes = Math.max(maxBytes, s.bytes);
      const done = await h.browser.cdp.evaluate<boolean>(page, 'window.soak.done && window.soak.esDone');
      const t = Date.now() - t0;
      if (t >= next || done) {
        next += interval;
        const events = await h.browser.cdp.evaluate<number>(page, 'window.soak.events + window.soak.esEvents');
        const ph = await heapUsed(h.browser.cdp, page);
        const pn = await h.panel.eval<number>('__MSI_PANEL__.records().length');
        const pnh = await panelHeap();
        console.log(
          `${(t / 1000).toFixed(0).padStart(7)} ${String(events).padStart(10)}  ${`${s.records}/${s.maxRecords}`.padStart(13)}  ${`${mb(s.bytes)}/${mb(s.maxBytes)}`.padStart(17)}  ${String(s.evicted).padStart(8)}  ${mb(ph).padStart(12)}  ${String(pn).padStart(9)}  ${mb(pnh).padStart(13)}`,
        );
      }
      if (done) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const s = await relayStats(h.browser.cdp, page, ctx);
    const soak = await h.browser.cdp.evaluate<{ events: number; esEvents: number; error: string | null }>(page, 'window.soak');
    const heapEnd = await heapUsed(h.browser.cdp, page);
    const summary = {
      seconds: (Date.now() - t0) / 1000,
      events: soak.events + soak.esEvents,
      expected: 2 * rate * seconds,
      relayRecordsNumbered: s.lastSeq,
      relayMaxRecordsHeld: maxRecords,
      relayCapRecords: s.maxRecords,
      relayMaxBytesHeld: maxBytes,
      relayCapBytes: s.maxBytes,
      rejected: s.rejected,
      pageHeapStartMB: +mb(heap0),
      pageHeapEndMB: +mb(heapEnd),
      panelHeapEndMB: +mb(await panelHeap()),
    };
    console.log('summary', JSON.stringify(summary));
    if (maxRecords > s.maxRecords || maxBytes > s.maxBytes) (failed = true), console.error('FAIL: the relay held more than its cap');
    if (s.rejected > 0) (failed = true), console.error('FAIL: records rejected');
    if (soak.error || summary.events !== summary.expected) (failed = true), console.error(`FAIL: page read ${summary.events} of ${summary.expected} events (${soak.error ?? ''})`);
  } finally {
    await h.close();
    await server.close();
  }
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

// "Capture while DevTools is closed" (panel settings; chrome.storage.local `captureWhileClosed`).
// A page streams in a tab with no DevTools open on it; then DevTools is opened on that tab (CDP
// Target.openDevTools, as F12 does) and the panel is selected.
//  - setting off (the default): nothing of the earlier bodies is kept; the still-open stream
//    shows its request and response, one `not-recording` capture gap, then the events read after
//    DevTools opened; a connection that ended before is not shown, only counted in a notice.
//  - setting on: everything from before DevTools opened is backfilled, with no gap.

import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import type { CaptureRecord } from '../../src/core/record';
import { bodyText, evalServiceWorker, inspectedTabs, openUninspected, summarize, waitForRecords } from '../support/extension';
import { openPanel } from '../support/devtools';
import { relayContext, relayStats, type RelayStats } from '../support/relay';
import { startTestServer, type TestServer } from '../support/server';
import { waitFor } from '../support/wait';

type Gap = Extract<CaptureRecord, { kind: 'capture-gap' }>;
type Notice = Extract<CaptureRecord, { kind: 'notice' }>;

let server: TestServer;
let h: Awaited<ReturnType<typeof openUninspected>> | undefined;
/** Open streams by tag; `/stop?tag=` ends one (the test decides when, not a timer). */
const open = new Map<string, () => void>();

beforeAll(async () => {
  server = await startTestServer();
  server.route('/stream', (req, res) => {
    const q = new URL(req.url!, 'http://x').searchParams;
    const tag = q.get('tag')!;
    const n = Number(q.get('n') ?? 100_000);
    const ms = Number(q.get('ms') ?? 20);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    let i = 0;
    let timer: NodeJS.Timeout | undefined;
    const finish = () => {
      clearTimeout(timer);
      open.delete(tag);
      if (!res.destroyed) res.end(`id: ${tag}-end\nevent: done\ndata: {}\n\n`);
    };
    open.set(tag, finish);
    const tick = () => {
      if (res.destroyed) return;
      i++;
      res.write(`id: ${tag}-${i}\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"i":${i}}}\n\n`);
      if (i >= n) finish();
      else timer = setTimeout(tick, ms);
    };
    tick();
  });
  server.route('/stop', (req, res) => {
    open.get(new URL(req.url!, 'http://x').searchParams.get('tag')!)?.();
    res.writeHead(204).end();
  });
  // The page streams only when the test says so (window.read), so the relay has decided whether it
  // records before the first byte; window.text[tag] is what the page read, window.done[tag] its end.
  server.page(
    '/closed.html',
    `<!doctype html><html><head><script>
      window.text = {}; window.done = {};
      window.read = async (tag, q) => {
        window.text[tag] = '';
        const r = await fetch('/stream?tag=' + tag + '&' + (q || ''), { headers: { accept: 'text/event-stream' } });
        const rd = r.body.getReader(); const dec = new TextDecoder();
        for (;;) { const { done, value } = await rd.read(); if (done) break; window.text[tag] += dec.decode(value, { stream: true }); }
        window.done[tag] = true;
      };
    </script></head><body>closed</body></html>`,
  );
});

afterEach(async () => {
  for (const stop of open.values()) stop();
  await h?.close();
  h = undefined;
});

afterAll(async () => {
  await server?.close();
});

const events = (text: string) => (text.match(/\n\n/g) ?? []).length;

async function stats(): Promise<RelayStats> {
  const ctx = await relayContext(h!.browser.cdp, h!.page);
  return relayStats(h!.browser.cdp, h!.page, ctx);
}

/** Read a short stream to its end and a long one until it has `atLeast` events, DevTools closed. */
async function streamWhileClosed(atLeast: number) {
  void h!.evalPage(`window.read('short', 'n=5&ms=1'), true`);
  await waitFor(() => h!.evalPage(`window.done.short === true`), { message: 'short stream read to its end' });
  void h!.evalPage(`window.read('long', 'ms=20'), true`);
  await waitFor(() => h!.evalPage(`(window.text.long.match(/\\n\\n/g) || []).length >= ${atLeast}`), { message: `long stream: ${atLeast} events read` });
}

describe('capture while DevTools is closed', () => {
  it('off (default): only what is read after DevTools opens, a not-recording gap for the open stream, a notice for the ended one', async () => {
    h = await openUninspected(server.url('/closed.html'));
    // The background answered: no DevTools on this tab, and the setting is off.
    await waitFor(async () => (await stats()).recording === false, { message: 'relay not recording' });
    await streamWhileClosed(15);
    const closed = await stats();
    // Nothing kept but the document's navigation record; every body record counted as dropped.
    expect(closed).toMatchObject({ recording: false, records: 1, lastSeq: 1, held: 1 });
    expect(closed.notRecorded).toBeGreaterThanOrEqual(1);
    const readBefore = await h.evalPage<string>('window.text.long');

    const panel = await h.openDevTools();
    expect((await stats()).recording).toBe(true);
    await waitForRecords(panel, (rs) => rs.some((r) => r.kind === 'capture-gap'), 'not-recording gap in the panel');
    await waitFor(async () => events(await h!.evalPage<string>('window.text.long')) >= events(readBefore) + 5, { message: 'events read with DevTools open' });
    await h.evalPage(`fetch('/stop?tag=long').then(() => true)`);
    await waitFor(() => h!.evalPage('window.done.long === true'), { message: 'long stream ended' });
    const pageText = await h.evalPage<string>('window.text.long');
    const records = await waitForRecords(panel, (rs) => rs.some((r) => r.kind === 'end'), 'end of the long stream');

    const src = records.find((r) => r.kind === 'navigation')!.src;
    const mine = records.filter((r) => r.src === src);
    expect(mine.map((r) => r.seq)).toEqual(mine.map((_, i) => i + 1));
    const reqs = records.filter((r) => r.kind === 'request') as Extract<CaptureRecord, { kind: 'request' }>[];
    expect(reqs.map((r) => new URL(r.url).searchParams.get('tag'))).toEqual(['long']); // the ended one is not kept
    const conn = reqs[0]!.conn;
    const ofConn = records.filter((r) => 'conn' in r && r.conn === conn);
    // request, response, the gap standing for every body record read before, then live chunks, end
    expect(ofConn.slice(0, 2).map((r) => r.kind)).toEqual(['request', 'response']);
    const gaps = records.filter((r): r is Gap => r.kind === 'capture-gap');
    expect(gaps.length, JSON.stringify(summarize(records))).toBe(1);
    const gap = gaps[0]!;
    expect(gap).toMatchObject({ reason: 'not-recording', conns: [conn], src });
    expect(gap.lost).toBeGreaterThanOrEqual(1);
    expect(records.indexOf(gap)).toBeGreaterThan(records.indexOf(ofConn[1]!));
    expect(ofConn.filter((r) => r.kind === 'chunk').every((r) => records.indexOf(r) > records.indexOf(gap))).toBe(true);
    expect(ofConn.at(-1)!.kind).toBe('end');
    // None of the earlier body: the kept text is a strict suffix of what the page read, without
    // the first events, and it reaches the end of the stream.
    const kept = bodyText(records, 'tag=long');
    expect(kept.length).toBeGreaterThan(0);
    expect(pageText.endsWith(kept)).toBe(true);
    expect(kept.length).toBeLessThan(pageText.length - readBefore.length + 1);
    expect(kept).not.toContain('id: long-1\n');
    expect(kept).toContain('id: long-end\n');
    expect(records.some((r) => r.kind === 'chunk' && r.text.includes('id: short-'))).toBe(false);
    // The notice: how many ended connections were not kept, and the setting that keeps them.
    const notices = records.filter((r): r is Notice => r.kind === 'notice' && r.code === 'not-recording');
    expect(notices.length).toBe(1);
    expect(notices[0]!.level).toBe('info');
    expect(notices[0]!.message).toMatch(/\b1 connection\(s\) that ended before recording began were not kept/);
    expect(notices[0]!.message).toMatch(/\b1 connection\(s\) still open lost/);
    expect(notices[0]!.message).toContain('Capture while DevTools is closed');
    // ... and the panel shows both in its capture strip.
    await waitFor(
      () => panel.eval<boolean>(`(() => { const el = document.querySelector('[data-testid=capture-notices]'); return !!el && el.dataset.gaps === '1' && Number(el.dataset.notices) >= 1; })()`),
      { message: 'capture strip with one gap and the notice' },
    );
    // The user's setting, not a loss: a warning that says "not kept", never "lost".
    const strip = await panel.eval<{ worst: string; text: string }>(`(() => { const el = document.querySelector('[data-testid=capture-notices]'); return { worst: el.dataset.worst, text: el.textContent }; })()`);
    expect(strip.worst).toBe('warning');
    // The core's words for it (src/core/presentation.ts), as the Markdown report and audit print them.
    expect(strip.text).toContain(`${gap.lost} record(s) were not kept (recording began only when DevTools opened)`);
    expect(strip.text).not.toMatch(/\blost \d/);
    await panel.eval(`document.querySelector('[data-testid=capture-notices-toggle]').click(), true`);
    await waitFor(
      () => panel.eval<boolean>(`[...document.querySelectorAll('[data-testid=capture-notice]')].some((li) => li.dataset.kind === 'notice' && li.dataset.code === 'not-recording' && li.textContent.includes('Capture while DevTools is closed'))`),
      { message: 'the not-recording notice listed in the capture strip' },
    );
    console.log(`off: ${events(readBefore)} events read before DevTools opened (${closed.notRecorded} body records dropped, gap lost ${gap.lost}); kept ${events(kept)} of ${events(pageText)}`);
  });

  it('on: everything read before DevTools opened is backfilled, with no gap and no notice', async () => {
    h = await openUninspected(server.url('/closed.html'), { storage: { captureWhileClosed: true } });
    await streamWhileClosed(15);
    // By now the background has answered "not inspected": the relay records because of the setting.
    const closed = await stats();
    expect(closed).toMatchObject({ recording: true, notRecorded: 0, held: 0 });
    expect(closed.records).toBeGreaterThan(5);

    const panel = await h.openDevTools();
    await h.evalPage(`fetch('/stop?tag=long').then(() => true)`);
    await waitFor(() => h!.evalPage('window.done.long === true'), { message: 'long stream ended' });
    const text = await h.evalPage<Record<string, string>>('window.text');
    const records = await waitForRecords(panel, (rs) => rs.filter((r) => r.kind === 'end').length === 2, 'both streams ended in the panel');
    expect(records.some((r) => r.kind === 'capture-gap')).toBe(false);
    expect(records.some((r) => r.kind === 'notice')).toBe(false);
    expect(bodyText(records, 'tag=short')).toBe(text.short);
    expect(bodyText(records, 'tag=long')).toBe(text.long);
    expect(bodyText(records, 'tag=long')).toContain('id: long-1\n');
    const src = records.find((r) => r.kind === 'navigation')!.src;
    const mine = records.filter((r) => r.src === src);
    expect(mine.map((r) => r.seq)).toEqual(mine.map((_, i) => i + 1));
  });

  it('saved in the panel, the setting keeps recording after DevTools closes; turned off, the buffer stays as it was and a reopened DevTools backfills it, then the gap', async () => {
    h = await openUninspected(server.url('/closed.html'));
    await waitFor(async () => (await stats()).recording === false, { message: 'relay not recording' });
    const panel = await h.openDevTools();
    void h.evalPage(`window.read('long', 'ms=20'), true`);
    await waitForRecords(panel, (rs) => rs.filter((r) => r.kind === 'chunk').length >= 3, 'live chunks');
    // The panel's settings dialog: tick "Capture while DevTools is closed", Save.
    await panel.eval(`document.querySelector('[data-testid=tb-settings]').click(), true`);
    await waitFor(() => panel.eval<boolean>(`!!document.querySelector('[data-testid=settings-dialog] input[type=checkbox]')`), { message: 'settings dialog' });
    await panel.eval(`document.querySelector('[data-testid=settings-dialog] input[type=checkbox]').click(), true`);
    await panel.eval(`document.querySelector('[data-testid=settings-save]').click(), true`);
    await waitFor(() => evalServiceWorker<boolean>(h!.browser, `chrome.storage.local.get('captureWhileClosed').then((v) => v.captureWhileClosed === true)`), {
      message: 'panel saved captureWhileClosed to chrome.storage.local',
    });
    // Close DevTools: the tab is no longer inspected, but the setting keeps the relay recording.
    const fe = (await h.browser.cdp.targets()).find((t) => t.type === 'page' && t.url.startsWith('devtools://'))!;
    await h.browser.cdp.send('Target.closeTarget', { targetId: fe.targetId });
    await waitFor(async () => (await inspectedTabs(h!.browser)).length === 0, { message: 'tab no longer inspected' });
    const r0 = (await stats()).records;
    await waitFor(async () => (await stats()).records >= r0 + 3, { message: 'still recording with DevTools closed (setting on)' });
    expect((await stats()).recording).toBe(true);
    // Setting off with DevTools closed: recording stops, the buffer stays exactly as it was.
    await evalServiceWorker(h.browser, `chrome.storage.local.set({ captureWhileClosed: false }).then(() => true)`);
    await waitFor(async () => (await stats()).recording === false, { message: 'recording stopped' });
    const frozen = await stats();
    const readAtStop = await h.evalPage<string>('window.text.long');
    await waitFor(async () => events(await h!.evalPage<string>('window.text.long')) >= events(readAtStop) + 5, { message: 'page reads on' });
    const later = await stats();
    expect(later).toMatchObject({ recording: false, records: frozen.records, lastSeq: frozen.lastSeq });
    expect(later.notRecorded).toBeGreaterThan(frozen.notRecorded);
    // DevTools again: the buffer is backfilled, then the gap for what was read while nothing was kept.
    await h.browser.cdp.send('Target.openDevTools', { targetId: h.targetId });
    await waitFor(async () => (await inspectedTabs(h!.browser)).length === 1, { message: 'tab inspected again' });
    const panel2 = await openPanel(h.browser);
    await h.evalPage(`fetch('/stop?tag=long').then(() => true)`);
    await waitFor(() => h!.evalPage('window.done.long === true'), { message: 'long stream ended' });
    const pageText = await h.evalPage<string>('window.text.long');
    const records = await waitForRecords(panel2, (rs) => rs.some((r) => r.kind === 'end'), 'end of the long stream after reopening');
    const gaps = records.filter((r): r is Gap => r.kind === 'capture-gap');
    expect(gaps.length, JSON.stringify(summarize(records))).toBe(1);
    expect(gaps[0]!.reason).toBe('not-recording');
    expect(gaps[0]!.lost).toBeGreaterThanOrEqual(later.notRecorded);
    const chunks = records.filter((r) => r.kind === 'chunk') as Extract<CaptureRecord, { kind: 'chunk' }>[];
    const gapAt = records.indexOf(gaps[0]!);
    const before = chunks.filter((c) => records.indexOf(c) < gapAt).map((c) => c.text).join('');
    const after = chunks.filter((c) => records.indexOf(c) > gapAt).map((c) => c.text).join('');
    // Kept from the very first event up to the stop, and from the reopening to the end; the middle is the gap.
    expect(before.startsWith('id: long-1\n')).toBe(true);
    expect(pageText.startsWith(before)).toBe(true);
    expect(after).toContain('id: long-end\n');
    expect(pageText.endsWith(after)).toBe(true);
    expect(before.length + after.length).toBeLessThan(pageText.length);
    const src = records.find((r) => r.kind === 'navigation')!.src;
    const mine = records.filter((r) => r.src === src);
    expect(mine.map((r) => r.seq)).toEqual(mine.map((_, i) => i + 1));
  });
});

// Faults from the panel (issue 14 item 1), in real DevTools: the official SDK client (v1) in a
// page talks to the SDK fixture server in its `baseline` mode (no fault of its own: ids 1, 2, 3…,
// a correct replay on resume). Faults are armed by clicking the real panel's presets; the server
// never cuts or drops anything, so every cut, every missing event and its finding comes from the
// panel, and must say so.
//
// - cut: the client's body read rejects (TypeError "network error"), it resumes with GET +
//   Last-Event-ID (the last id it read), the call completes; the capture holds the fault record,
//   the chain, and the preset's verdict says the client resumed;
// - withhold (lossy replay): the resume's first two events are withheld from the page although the
//   server sent them; the client accepts the result: lossy-result-accepted, attributed to the
//   fault ("Injected from the panel"), never to the server; the withheld events are in the capture
//   (in the fault record), and neither the page's own reads, nor a clone of the body, nor a page
//   spying on prototypes sees them;
// - the command channel: a page imitating the extension's messages arms nothing and forges no fault.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeRecords } from '../../src/core';
import type { CaptureRecord, FaultRecord } from '../../src/core/record';
import { startFixtureServer, type FixtureServer } from '../fixtures/mcp-server/index';
import { devtoolsFrontend, setDockSide } from '../support/devtools';
import { openInspected, waitForRecords, type Harness } from '../support/extension';
import { relayContext } from '../support/relay';
import { clickTestId, screenshot } from '../support/panel-ui';
import { buildSdkClientBundle } from '../support/sdk-bundle';
import { startTestServer, type TestServer } from '../support/server';
import { waitFor } from '../support/wait';

let pages: TestServer;
let mcp: FixtureServer;
let h: Harness;
let relayCtx: number;

// A page that spies on what it can: prototypes the hook might use (if it used them while handling
// withheld bytes, the spy would see them), and messages on window. Installed before the SDK runs.
const SPY = `
  window.spied = [];
  const push = Array.prototype.push, stringify = JSON.stringify, Dec = TextDecoder, decode = TextDecoder.prototype.decode, has = String.prototype.includes;
  // Only what could be event text is kept (the page's own strings would be too many).
  const worth = (t) => has.call(t, 'id:') || has.call(t, 'jsonrpc');
  let inside = false;
  const keep = (v) => { if (inside) return; inside = true; try {
    const t = typeof v === 'string' ? v : v instanceof Uint8Array ? decode.call(new Dec(), v) : null;
    if (t !== null && t.length < 100000 && worth(t)) push.call(window.spied, t);
  } catch {} finally { inside = false; } };
  const wrap = (proto, name) => { const f = proto[name]; if (typeof f !== 'function') return;
    proto[name] = function (...a) { keep(this); for (const x of a) keep(x); const r = f.apply(this, a); keep(r); return r; }; };
  for (const n of ['indexOf', 'includes', 'slice', 'split', 'startsWith', 'trim']) wrap(String.prototype, n);
  wrap(TextDecoder.prototype, 'decode'); wrap(Array.prototype, 'push'); wrap(Array.prototype, 'some'); wrap(Array.prototype, 'map');
  const jp = JSON.parse; JSON.parse = function (t, r) { keep(t); return jp.call(this, t, r); };
  // Names the hook's fault path could read on its own objects: a getter here sees any such read.
  for (const k of ['raw', 'parts', 'withheld', 'plan', 'spec', 'faults']) Object.defineProperty(Object.prototype, k, { configurable: true,
    get() { try { keep(stringify(this)); } catch {} return undefined; },
    set(v) { Object.defineProperty(this, k, { value: v, writable: true, enumerable: true, configurable: true }); } });
  const pm = MessagePort.prototype.postMessage; MessagePort.prototype.postMessage = function (m, ...r) { try { keep(stringify(m)); } catch {} return pm.call(this, m, ...r); };
  addEventListener('message', (e) => { try { keep(stringify(e.data)); } catch {} }, true);
`;

beforeAll(async () => {
  const sdk = await buildSdkClientBundle();
  mcp = await startFixtureServer({ mode: 'baseline', keepAliveMs: 0 });
  pages = await startTestServer();
  pages.route('/sdk.js', (_q, res) => res.writeHead(200, { 'content-type': 'text/javascript' }).end(sdk));
  pages.page(
    '/agent.html',
    `<!doctype html><html><head><script>${SPY}</script><script type="module">
      import { Client, StreamableHTTPClientTransport } from '/sdk.js';
      // What the client read per connection, and what a clone of each body gives the page.
      const readingFetch = async (input, init) => {
        const res = await fetch(input, init);
        const entry = { method: (init && init.method) || 'GET', lastEventId: new Headers(init && init.headers).get('last-event-id'), text: '', clone: '', error: null };
        window.reads.push(entry);
        if (!res.body || !(res.headers.get('content-type') || '').includes('event-stream')) return res;
        if (window.cloneBodies !== false) {
          const copy = res.clone();
          copy.text().then((t) => { entry.clone = t; }, (e) => { entry.cloneError = String(e); });
        }
        const dec = new TextDecoder();
        const body = res.body.pipeThrough(new TransformStream({
          transform(c, ctl) { entry.text += dec.decode(c, { stream: true }); ctl.enqueue(c); },
          flush() { entry.text += dec.decode(); },
        }));
        return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
      };
      window.start = (url, chunks = 6, delayMs = 120) => { window.reads = []; window.progress = []; window.tokens = []; window.errors = []; window.run = (async () => {
        const client = new Client({ name: 'fault-agent', version: '1.0.0' });
        const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: readingFetch,
          reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 500, reconnectionDelayGrowFactor: 1.5, maxRetries: 5 } });
        transport.onerror = (e) => window.errors.push(String(e && e.message || e));
        await client.connect(transport);
        const result = await client.callTool({ name: 'long_task', arguments: { chunks, delayMs, tag: 'fault' } }, undefined, {
          onprogress: (p) => window.progress.push(p.progress), resetTimeoutOnProgress: true, timeout: 30000,
          onresumptiontoken: (t) => window.tokens.push(t) });
        await client.close();
        return { text: result.content[0].text, progress: window.progress };
      })().catch((e) => ({ error: String(e && e.stack || e) })); return true; };
    </script></head><body>fault agent</body></html>`,
  );
  h = await openInspected(pages.url('/agent.html'));
  relayCtx = await relayContext(h.browser.cdp, h.page);
  await waitFor(() => h.panel.eval(`typeof globalThis.__MSI_UI__ === 'object'`), { message: 'inspector UI mounted in the panel' });
}, 180_000);

afterAll(async () => {
  await h?.close();
  await pages?.close();
  await mcp?.close();
});

async function relayFaults(): Promise<string[]> {
  const r = await h.browser.cdp.send<any>('Runtime.evaluate', { expression: 'globalThis.__MSI_RELAY__.faults()', contextId: relayCtx, returnByValue: true }, h.page);
  return r.result.value as string[];
}

async function armPreset(id: string, count: number) {
  if (!(await h.panel.eval<boolean>(`!!document.querySelector('[data-testid=faults-panel]')`))) await clickTestId(h.panel, 'tb-faults');
  await clickTestId(h.panel, `fault-arm-${id}`);
  await waitFor(async () => (await relayFaults()).length === count, { timeoutMs: 10_000, message: `the page's relay has ${count} armed fault(s)` });
}

/** The faults panel lies inside the DevTools panel's viewport. */
async function panelInView(): Promise<void> {
  const box = await h.panel.eval<{ left: number; right: number; w: number }>(`(() => { const r = document.querySelector('[data-testid=faults-panel]').getBoundingClientRect(); return { left: r.left, right: r.right, w: innerWidth }; })()`);
  expect(box.left).toBeGreaterThanOrEqual(0);
  expect(box.right).toBeLessThanOrEqual(box.w);
}

async function runSession(chunks = 6, delayMs = 120, beforeEnd?: () => Promise<void>): Promise<{ text?: string; error?: string; progress?: number[] }> {
  await waitFor(() => h.evalPage('typeof window.start === "function"'), { message: 'agent page ready' });
  await h.evalPage(`window.start(${JSON.stringify(mcp.url)}, ${chunks}, ${delayMs})`);
  if (beforeEnd) await beforeEnd();
  return h.evalPage('window.run');
}

/** Types a fault into the panel's box (as a user would) and arms it. */
async function typeFault(text: string): Promise<void> {
  if (!(await h.panel.eval<boolean>(`!!document.querySelector('[data-testid=faults-panel]')`))) await clickTestId(h.panel, 'tb-faults');
  await h.panel.eval(`(() => { const el = document.querySelector('[data-testid=fault-text]');
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(el, ${JSON.stringify(text)});
    el.dispatchEvent(new Event('input', { bubbles: true })); return true; })()`);
  await clickTestId(h.panel, 'fault-arm-text');
}

const faultsOf = (rs: CaptureRecord[]) => rs.filter((r): r is FaultRecord => r.kind === 'fault');

describe('faults from the panel, in real DevTools, against the official SDK client', () => {
  it('a cut: the client resumes with Last-Event-ID, the chain shows the fault as injected, the preset says what the client did', async () => {
    await armPreset('resume-after-cut', 1);
    const armedText = await h.panel.eval<string>(`document.querySelector('[data-testid=tb-faults]').textContent`);
    expect(armedText).toContain('1 fault armed: resume-after-cut · cut the stream after 3 events · tools/call');
    await panelInView();
    const fe = await h.browser.cdp.attach((await devtoolsFrontend(h.browser)).targetId);
    await screenshot(h.browser.cdp, fe, 'faults-armed-panel');

    const logBefore = mcp.log.length;
    const run = await runSession();
    expect(run.error).toBeUndefined();
    expect(run.text).toMatch(/^long_task finished: 6 chunks/);
    expect(run.progress).toEqual([1, 2, 3, 4, 5, 6]);
    const log = mcp.log.slice(logBefore);
    expect(log.some((e) => e.type === 'cut')).toBe(false); // the server cut nothing
    const resume = log.find((e) => e.type === 'http' && e.httpMethod === 'GET' && e.lastEventId) as { lastEventId: string } | undefined;
    expect(resume).toBeTruthy();

    const records = await waitForRecords(h.panel, (rs) => faultsOf(rs).some((f) => f.fault === 'cut') && rs.some((r) => r.kind === 'request' && r.headers.some(([k]) => k.toLowerCase() === 'last-event-id')), 'cut fault record and the resume');
    const cut = faultsOf(records).find((f) => f.fault === 'cut')!;
    expect(cut).toMatchObject({ origin: 'panel', afterEvents: 3, how: 'reset', cursor: resume!.lastEventId });
    // The page's read rejected as Chrome rejects a reset connection.
    const end = records.find((r) => r.kind === 'end' && r.src === cut.src && r.conn === cut.conn);
    expect(end).toMatchObject({ how: 'network-error', reason: 'TypeError: network error' });
    const reads = await h.evalPage<{ method: string; lastEventId: string | null; text: string }[]>('window.reads');
    expect(reads.find((r) => r.lastEventId === resume!.lastEventId)).toBeTruthy();

    // The chain in the panel: the POST stream cut by the fault, resumed by the GET.
    const snap = await h.panel.eval<any>(`(() => { const s = globalThis.__MSI_UI__.snapshot(); return { faults: s.faults, streams: Object.values(s.streams).map((x) => ({ id: x.id, resumedBy: x.resumedBy, lastEventIdSent: x.lastEventIdSent })) }; })()`);
    const post = snap.streams.find((s: any) => s.id === `${cut.src}:${cut.conn}`);
    expect(post.resumedBy.length).toBe(1);
    expect(snap.streams.find((s: any) => s.id === post.resumedBy[0]).lastEventIdSent).toBe(resume!.lastEventId);
    expect(snap.faults.some((f: any) => f.fault === 'cut' && f.origin === 'panel')).toBe(true);

    // Used once: disarmed; the preset's verdict from the capture.
    await waitFor(() => h.panel.eval(`document.querySelector('[data-testid=tb-faults]').dataset.armed === '0'`), { message: 'the spent fault is disarmed' });
    if (!(await h.panel.eval<boolean>(`!!document.querySelector('[data-testid=faults-panel]')`))) await clickTestId(h.panel, 'tb-faults');
    await waitFor(() => h.panel.eval(`document.querySelector('[data-testid=fault-verdict-resume-after-cut]')?.dataset.outcome === 'pass'`), { message: 'resume-after-cut verdict: pass' });
    const verdict = await h.panel.eval<string>(`document.querySelector('[data-testid=fault-verdict-resume-after-cut]').textContent`);
    expect(verdict).toContain(`It resumed with GET + Last-Event-ID ${resume!.lastEventId}`);
    expect((await relayFaults()).length).toBe(0);
  });

  it('withheld events: lossy-result-accepted appears, attributed to the fault, and what was withheld is in the capture only', async () => {
    await armPreset('lossy-replay', 2);
    await panelInView();
    const fe = await h.browser.cdp.attach((await devtoolsFrontend(h.browser)).targetId);
    await screenshot(h.browser.cdp, fe, 'faults-armed-lossy-replay');
    const logBefore = mcp.log.length;
    await h.evalPage('window.spied.length = 0');
    const run = await runSession();
    expect(run.error).toBeUndefined();
    expect(run.text).toMatch(/^long_task finished/); // the client accepted the result
    const log = mcp.log.slice(logBefore);
    expect(log.some((e) => e.type === 'cut' || e.type === 'replay' && (e as any).omitted?.length)).toBe(false);

    const records = await waitForRecords(h.panel, (rs) => faultsOf(rs).some((f) => f.fault === 'withhold'), 'withhold fault record');
    const withhold = faultsOf(records).filter((f) => f.fault === 'withhold');
    const withheldIds = withhold.flatMap((f) => f.eventIds);
    expect(withheldIds.length).toBe(2);
    // The server did send them (on the resume), and the capture keeps them, marked as withheld.
    const sentIds = log.filter((e) => e.type === 'sse' && e.id !== undefined).map((e) => (e as { id: string }).id);
    for (const id of withheldIds) expect(sentIds).toContain(id);
    const withheldText = withhold.flatMap((f) => f.withheld ?? []);
    expect(withheldText.map((w) => w.id)).toEqual(withheldIds);
    for (const w of withheldText) expect(w.text).toMatch(new RegExp(`^id: ?${w.id}\\n`, 'm'));

    // The page never saw them: not in what the client read, not in a clone, not through any spy.
    const reads = await h.evalPage<{ lastEventId: string | null; text: string; clone: string }[]>('window.reads');
    const resumeRead = reads.find((r) => r.lastEventId !== null)!;
    expect(resumeRead).toBeTruthy();
    const spied = await h.evalPage<string[]>('window.spied');
    for (const w of withheldText) {
      for (const r of reads) {
        expect(r.text).not.toContain(w.text);
        expect(r.clone).not.toContain(w.text);
      }
      expect(spied.some((s) => s.includes(w.text.trim()))).toBe(false);
    }

    // The analysis: lossy-result-accepted and the replay gap, injected from the panel, not the server's.
    await waitFor(
      () => h.panel.eval(`globalThis.__MSI_UI__.snapshot().findings.some((f) => f.code === 'lossy-result-accepted' && f.injected && f.injected.origin === 'panel')`),
      { timeoutMs: 20_000, message: 'lossy-result-accepted attributed to the fault' },
    );
    const findings = await h.panel.eval<any[]>(`globalThis.__MSI_UI__.snapshot().findings.filter((f) => f.code === 'lossy-result-accepted' || f.code === 'replay-gap')`);
    const lossy = findings.filter((f) => f.code === 'lossy-result-accepted');
    expect(lossy.length).toBeGreaterThan(0);
    for (const f of findings) {
      expect(f.injected?.origin).toBe('panel');
      expect(f.message).toMatch(/^Injected from the panel \(/);
    }
    // The finding's text in the panel's findings view says so.
    const shown = await h.panel.eval<string>(`document.body.innerText`);
    expect(shown).toContain('Injected from the panel');

    // Exports carry it: the panel's records, analysed again by the core (what the JSON export holds).
    const snap = analyzeRecords(records);
    expect(snap.findings.filter((f) => f.code === 'lossy-result-accepted').every((f) => f.injected?.fault !== undefined)).toBe(true);
    expect((snap.faults ?? []).filter((f) => f.fault === 'withhold').flatMap((f) => f.withheld.map((w) => w.id))).toEqual(withheldIds);
    // The session says why it is not lossless: the fault, with the ids the server did send.
    const session = snap.sessions.find((s) => s.key === lossy[0].sessionKey)!;
    expect(session.losslessReasons[0]).toMatch(/^Injected from the panel \(.*\): ids .* were withheld from the page on purpose, the server sent them/);
    // The worst-finding callout carries the tag.
    expect(await h.panel.eval<boolean>(`!!document.querySelector('[data-testid=worst-finding] [data-testid=finding-injected]')`)).toBe(true);

    if (!(await h.panel.eval<boolean>(`!!document.querySelector('[data-testid=faults-panel]')`))) await clickTestId(h.panel, 'tb-faults');
    await waitFor(() => h.panel.eval(`document.querySelector('[data-testid=fault-verdict-lossy-replay]')?.dataset.outcome === 'fail'`), { message: 'lossy-replay verdict: fail (the client accepted)' });
    await screenshot(h.browser.cdp, fe, 'faults-lossy-replay-verdict');
    // The same panel docked at the bottom (wide and short): the faults panel stays in view.
    await setDockSide(h.browser, 'bottom');
    await waitFor(() => h.panel.eval(`innerWidth > innerHeight`), { message: 'docked bottom' });
    await clickTestId(h.panel, 'tb-faults');
    await clickTestId(h.panel, 'tb-faults');
    await panelInView();
    await screenshot(h.browser.cdp, fe, 'faults-lossy-replay-bottom');
    await clickTestId(h.panel, 'tb-faults');
  });

  it('a session that expires (404 from the panel): the page gets the SDK server\'s 404, the server\'s own answer is in the capture as replaced', async () => {
    await armPreset('session-404', 1);
    const logBefore = mcp.log.length;
    const run = await runSession();
    expect(run.error).toMatch(/Session not found/); // the SDK server's 404 body, as the SDK client reports it
    const log = mcp.log.slice(logBefore);
    // The server did answer the call: the fault replaced its answer for the page.
    expect(log.some((e) => e.type === 'http' && e.httpMethod === 'POST' && e.rpc.some((m: any) => m.method === 'tools/call'))).toBe(true);
    const records = await waitForRecords(
      h.panel,
      (rs) => faultsOf(rs).some((f) => f.fault === 'expire-session' && rs.some((r) => r.kind === 'end' && r.src === f.src && r.conn === f.conn)),
      'expire-session fault record and the replaced answer',
    );
    const f = faultsOf(records).find((x) => x.fault === 'expire-session')!;
    expect(f).toMatchObject({ status: 404, serverStatus: 200, origin: 'panel' });
    const res = records.find((r) => r.kind === 'response' && r.src === f.src && r.conn === f.conn);
    expect(res).toMatchObject({ status: 404 });
    await waitFor(
      () => h.panel.eval(`globalThis.__MSI_UI__.snapshot().findings.some((f) => f.code === 'session-expired' && f.injected && f.injected.fault === 'expire-session')`),
      { timeoutMs: 20_000, message: 'session-expired attributed to the fault' },
    );
    if (!(await h.panel.eval<boolean>(`!!document.querySelector('[data-testid=faults-panel]')`))) await clickTestId(h.panel, 'tb-faults');
    await waitFor(() => h.panel.eval(`['fail', 'pass'].includes(document.querySelector('[data-testid=fault-verdict-session-404]')?.dataset.outcome)`), { message: 'session-404 verdict' });
    // expire-session stays armed for the session's later requests until disarmed.
    await clickTestId(h.panel, 'fault-disarm-all');
    await waitFor(async () => (await relayFaults()).length === 0, { message: 'disarmed in the page\'s relay' });
    expect(await h.panel.eval(`document.querySelector('[data-testid=tb-faults]').dataset.armed`)).toBe('0');
  });

  it('a fault written by hand in the panel (the short form): events delayed, recorded; a wrong one is refused with the reason', async () => {
    if (!(await h.panel.eval<boolean>(`!!document.querySelector('[data-testid=faults-panel]')`))) await clickTestId(h.panel, 'tb-faults');
    const type = (text: string) =>
      h.panel.eval(`(() => { const el = document.querySelector('[data-testid=fault-text]');
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(el, ${JSON.stringify(text)});
        el.dispatchEvent(new Event('input', { bubbles: true })); return true; })()`);
    await type('cut:x');
    await clickTestId(h.panel, 'fault-arm-text');
    await waitFor(() => h.panel.eval(`document.querySelector('[data-testid=fault-error]')?.textContent.includes('must be a whole number')`), { message: 'the error says why' });
    // What `npm run demo -- --fault` uses (the panel's CDP-only hook) refuses it the same way.
    expect(await h.panel.eval<string>(`globalThis.__MSI_PANEL__.armFaults('cut:x')`)).toMatch(/whole number/);
    await type('delay:400:2,tool=long_task');
    await clickTestId(h.panel, 'fault-arm-text');
    await waitFor(async () => (await relayFaults()).length === 1, { message: 'delay armed in the relay' });
    expect(await h.panel.eval<string>(`document.querySelector('[data-testid=faults-armed]').textContent`)).toContain('delay event 2 by 400 ms · tool long_task · next 1');
    const run = await runSession();
    expect(run.error).toBeUndefined();
    expect(run.progress).toEqual([1, 2, 3, 4, 5, 6]);
    const records = await waitForRecords(h.panel, (rs) => faultsOf(rs).some((f) => f.fault === 'delay'), 'delay fault record');
    const d = faultsOf(records).find((f) => f.fault === 'delay')!;
    expect(d).toMatchObject({ delayMs: 400, events: 1 });
    // The delayed event reached the page at least 400 ms after the server sent it.
    const sent = mcp.log.find((e) => e.type === 'sse' && e.id === d.eventIds[0]) as { t: number } | undefined;
    const got = records.find((r) => r.kind === 'chunk' && r.src === d.src && r.conn === d.conn && r.text.includes(`id: ${d.eventIds[0]}\n`));
    expect(sent && got).toBeTruthy();
    expect(got!.t - sent!.t).toBeGreaterThanOrEqual(390);
    await waitFor(async () => (await relayFaults()).length === 0, { message: 'the delay was used once and disarmed' });
  });

  it('a live stream: a fault armed while the call streams applies to it from its next event', async () => {
    // A body the page cloned is not faulted live (the clone, teed before the fault, would show
    // what is withheld): this page reads its bodies once.
    await h.evalPage('window.cloneBodies = false');
    const logBefore = mcp.log.length;
    const run = await runSession(10, 250, async () => {
      await waitFor(() => h.evalPage('window.progress.length >= 2'), { timeoutMs: 20_000, message: 'the call is streaming' });
      await typeFault('withhold:2-3,tool=long_task');
      await waitFor(async () => (await relayFaults()).length === 1, { message: 'armed in the relay while the stream is open' });
    });
    expect(run.error).toBeUndefined();
    expect(run.text).toMatch(/^long_task finished/);
    const records = await waitForRecords(h.panel, (rs) => faultsOf(rs).filter((f) => f.fault === 'withhold' && f.text.includes('withhold events 2–3')).flatMap((f) => f.eventIds).length >= 2, 'live withhold records');
    const w = faultsOf(records).filter((f) => f.fault === 'withhold' && f.text.includes('withhold events 2–3'));
    const ids = w.flatMap((f) => f.eventIds);
    expect(ids.length).toBe(2);
    // The POST stream that was already open when the fault was armed: no resume, the server sent them.
    const post = records.find((r) => r.kind === 'request' && r.src === w[0]!.src && r.conn === w[0]!.conn) as Extract<CaptureRecord, { kind: 'request' }>;
    expect(post.method).toBe('POST');
    const sent = mcp.log.slice(logBefore).filter((e) => e.type === 'sse').map((e) => (e as { id?: string }).id);
    for (const id of ids) expect(sent).toContain(id);
    const reads = await h.evalPage<{ method: string; text: string }[]>('window.reads');
    for (const x of w.flatMap((f) => f.withheld ?? [])) expect(reads.some((r) => r.text.includes(x.text))).toBe(false);
    await waitFor(
      () => h.panel.eval(`globalThis.__MSI_UI__.snapshot().findings.some((f) => f.code === 'live-gap' && f.injected && f.injected.fault === 'withhold')`),
      { timeoutMs: 20_000, message: 'live-gap attributed to the fault' },
    );
    await h.evalPage('window.cloneBodies = true');
  });

  it('a page cannot arm, disarm or forge a fault', async () => {
    if ((await relayFaults()).length) {
      await clickTestId(h.panel, 'fault-disarm-all'); // what an earlier test left armed
      await waitFor(async () => (await relayFaults()).length === 0, { message: 'disarmed' });
    }
    const before = faultsOf(await h.panel.eval<CaptureRecord[]>('globalThis.__MSI_PANEL__.records()')).length;
    // Everything a page can reach: window messages in the extension's envelope, a forged hook
    // hello with a port of its own, the extension's runtime (not reachable from a web page).
    await h.evalPage(`(() => {
      const env = { ch: 'mcp-stream-inspector', v: 2 };
      const spec = { action: { kind: 'cut', afterEvents: 0 } };
      for (const m of [{ ...env, type: 'fault-arm', on: true }, { ...env, type: 'faults', faults: [{ id: 'x', text: 'x', spec }] },
        { ...env, type: 'arm-faults', faults: [{ id: 'x', text: 'x', spec }] }, { ...env, type: 'fault-plan', conn: 'c1', plan: 'replace', status: 404 }]) postMessage(m, '*');
      const ch = new MessageChannel();
      postMessage({ ...env, type: 'hook-hello' }, '*', [ch.port2]);
      ch.port1.postMessage({ ...env, type: 'hook-batch', records: [{ kind: 'fault', conn: 'c1', t: 1, fault: 'cut', origin: 'panel', armed: 'x', text: 'forged', eventIds: [], events: 0 }] });
      ch.port1.postMessage({ ...env, type: 'fault-query', conn: 'c1', method: 'GET', url: location.href, headers: [], body: null, status: 200, contentType: 'text/event-stream' });
      return typeof chrome === 'undefined' || !chrome.runtime || typeof chrome.runtime.sendMessage !== 'function';
    })()`);
    const run = await runSession();
    expect(run.error).toBeUndefined();
    expect(run.progress).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await relayFaults()).toEqual([]);
    const reads = await h.evalPage<{ lastEventId: string | null }[]>('window.reads');
    expect(reads.every((r) => r.lastEventId === null)).toBe(true); // nothing was cut
    const records = await h.panel.eval<CaptureRecord[]>('globalThis.__MSI_PANEL__.records()');
    expect(faultsOf(records).length).toBe(before);
    expect(records.some((r) => r.kind === 'notice' && r.code === 'forged-hook-hello')).toBe(true);
  });
});

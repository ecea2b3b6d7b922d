// Isolation (issue 5): two tabs with their own DevTools stay separate (also on the same MCP
// session); a cross-origin frame's capture is never observable by the top page or a sibling frame;
// no web page and no other extension can reach the extension; the extension reloaded under open
// pages recovers and says what it missed. One browser, with a second (hostile) test extension.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaptureRecord } from '../../src/core/record';
import { DIST } from '../support/browser';
import { openAllPanels, type PanelHandle } from '../support/devtools';
import { bodyText, navigate, openInspected, waitForRecords, type Harness } from '../support/extension';
import { relayContext, relayStats } from '../support/relay';
import { startTestServer, type TestServer } from '../support/server';
import { waitFor } from '../support/wait';

let server: TestServer;
let h: Harness;
let otherDir: string;

type Req = Extract<CaptureRecord, { kind: 'request' }>;
const reqs = (rs: CaptureRecord[]) => rs.filter((r): r is Req => r.kind === 'request');

/** A page that reads /stream?tag=..&n=..&ms=.. with MCP headers and keeps what it read. */
const streamPage = (tag: string, n: number, ms: number, session = 'shared-session') => `<!doctype html><html><head><script>
  window.pageText = ''; window.streamDone = false; window.errors = [];
  window.addEventListener('error', (e) => window.errors.push(String(e.message)));
  window.addEventListener('unhandledrejection', (e) => window.errors.push(String(e.reason)));
  (async () => {
    const r = await fetch('/stream?tag=${tag}&n=${n}&ms=${ms}', { headers: { accept: 'text/event-stream', 'Mcp-Session-Id': '${session}' } });
    const rd = r.body.getReader(); const dec = new TextDecoder();
    for (;;) { const { done, value } = await rd.read(); if (done) break; window.pageText += dec.decode(value, { stream: true }); }
    window.streamDone = true;
  })();
</script></head><body>${tag}</body></html>`;

beforeAll(async () => {
  server = await startTestServer();
  server.route('/stream', (req, res) => {
    const q = new URL(req.url!, 'http://x').searchParams;
    const n = Number(q.get('n'));
    const ms = Number(q.get('ms'));
    const tag = q.get('tag');
    res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 'shared-session', 'access-control-allow-origin': '*' });
    let i = 0;
    const tick = () => {
      if (res.destroyed) return;
      i++;
      res.write(`id: ${tag}-${i}\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"tag":"${tag}","i":${i}}}\n\n`);
      if (i >= n) res.end();
      else setTimeout(tick, ms);
    };
    tick();
  });
  server.page('/tab-a.html', streamPage('tab-a', 30, 20));
  server.page('/tab-b.html', streamPage('tab-b', 30, 20));
  server.page('/reload.html', streamPage('reload', 60, 100));
  server.page('/after-reload.html', streamPage('after', 3, 10));

  // Top page that listens to everything it can while a cross-origin frame captures a secret.
  server.page('/spy.html', `<!doctype html><html><head><script>
    window.observed = [];
    const log = (where) => (e) => { try { window.observed.push({ where, data: JSON.stringify(e.data) ?? String(e.data), ports: e.ports ? e.ports.length : 0, origin: e.origin }); } catch (err) { window.observed.push({ where, data: String(err) }); } };
    window.addEventListener('message', log('window-capture'), true);
    window.addEventListener('message', log('window-bubble'));
    document.addEventListener('message', log('document'), true);
    // Intercept any MessagePort that ever receives a message in this realm.
    const desc = Object.getOwnPropertyDescriptor(MessagePort.prototype, 'onmessage');
    Object.defineProperty(MessagePort.prototype, 'onmessage', { configurable: true, get: desc.get, set(fn) { window.observed.push({ where: 'port-onmessage-set' }); return desc.set.call(this, fn); } });
  </script></head><body>
    <iframe id="x" src="${server.altUrl('/secret-frame.html')}"></iframe>
    <iframe id="s" src="/sibling.html"></iframe>
  </body></html>`);
  server.route('/secret-frame.html', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html><head><script>
      window.secretText = fetch('/secret', { headers: { accept: 'text/event-stream' } }).then((r) => r.text());
    </script></head><body>secret</body></html>`);
  });
  server.route('/secret', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' }).end('id: s1\ndata: {"jsonrpc":"2.0","method":"x","params":{"secret":"SECRET-7f3a"}}\n\n');
  });
  server.page('/sibling.html', `<!doctype html><html><head><script>
    window.observed = [];
    window.addEventListener('message', (e) => window.observed.push(JSON.stringify(e.data) ?? String(e.data)), true);
    parent.window.addEventListener('message', (e) => window.observed.push('via-parent:' + (JSON.stringify(e.data) ?? String(e.data))), true);
  </script></head><body>sibling</body></html>`);

  // A second, hostile extension: tries to message and connect to ours.
  otherDir = mkdtempSync(join(tmpdir(), 'msi-other-ext-'));
  writeFileSync(join(otherDir, 'manifest.json'), JSON.stringify({ manifest_version: 3, name: 'Other test extension', version: '1.0', background: { service_worker: 'other-sw.js' } }));
  writeFileSync(join(otherDir, 'other-sw.js'), 'self.ready = true;\n');

  h = await openInspected(server.url('/tab-a.html'), {
    openPanel: false,
    // unsafe-extension-debugging: CDP Extensions.loadUnpacked, used to reload the extension as
    // chrome://extensions' Reload button does.
    extraArgs: [`--disable-extensions-except=${DIST},${otherDir}`, `--load-extension=${DIST},${otherDir}`, '--enable-unsafe-extension-debugging'],
  });
});

afterAll(async () => {
  await h?.close();
  await server?.close();
  if (otherDir) rmSync(otherDir, { recursive: true, force: true });
});

const ofTag = (rs: CaptureRecord[], tag: string) => reqs(rs).filter((r) => r.url.includes(`tag=${tag}`));
const endedTag = (rs: CaptureRecord[], tag: string) => {
  const r = ofTag(rs, tag)[0];
  return !!r && rs.some((x) => x.kind === 'end' && x.src === r.src && x.conn === r.conn);
};

describe('isolation', () => {
  let panels: (PanelHandle & { tabId: number })[] = [];

  it('two tabs, each with its own DevTools and panel, on the same MCP session: records never cross', async () => {
    const { targetId } = await h.browser.cdp.send<{ targetId: string }>('Target.createTarget', { url: server.url('/tab-b.html') });
    const pageB = await h.browser.cdp.attach(targetId);
    panels = await openAllPanels(h.browser, 2);
    expect(new Set(panels.map((p) => p.tabId)).size).toBe(2);
    // Both tabs stream again while both panels are open (live, not backfill).
    const urlA = server.url('/tab-a.html?run=2');
    const urlB = server.url('/tab-b.html?run=2');
    await h.browser.cdp.send('Page.navigate', { url: urlA }, h.page);
    await h.browser.cdp.send('Page.navigate', { url: urlB }, pageB);
    const done = (s: string, url: string) =>
      waitFor(() => h.browser.cdp.evaluate(s, `location.href === ${JSON.stringify(url)} && window.streamDone === true`).catch(() => false), { message: `stream of ${url}` });
    await done(h.page, urlA);
    await done(pageB, urlB);
    const text = { 'tab-a': await h.evalPage<string>('window.pageText'), 'tab-b': await h.browser.cdp.evaluate<string>(pageB, 'window.pageText') };
    const recs = await Promise.all(panels.map((p) => waitForRecords(p, (rs) => endedTag(rs, 'tab-a') || endedTag(rs, 'tab-b'), `panel of tab ${p.tabId}`)));
    const tagsOf = (rs: CaptureRecord[]) => [...new Set(reqs(rs).map((r) => new URL(r.url).searchParams.get('tag')))];
    const tags = recs.map(tagsOf).sort((a, b) => String(a).localeCompare(String(b)));
    expect(tags).toEqual([['tab-a'], ['tab-b']]);
    // Same session id on both, still two captures: disjoint srcs, each panel only its own tab's.
    const srcs = recs.map((rs) => new Set(rs.map((r) => r.src)));
    expect([...srcs[0]!].some((s) => srcs[1]!.has(s))).toBe(false);
    for (const rs of recs) {
      expect(ofTag(rs, 'tab-a').concat(ofTag(rs, 'tab-b')).every((r) => r.headers.some(([k, v]) => k === 'Mcp-Session-Id' && v === 'shared-session'))).toBe(true);
      const tag = tagsOf(rs)[0]!;
      expect(JSON.stringify(rs)).not.toContain(tag === 'tab-a' ? 'tab-b' : 'tab-a');
    }
    for (const rs of recs) {
      const tag = tagsOf(rs)[0] as 'tab-a' | 'tab-b';
      expect(bodyText(rs, `tag=${tag}`)).toBe(text[tag]); // each panel: exactly what its page read
    }
    const recA = recs.find((rs) => tagsOf(rs)[0] === 'tab-a')!;
    await h.browser.cdp.send('Target.closeTarget', { targetId });
    panels = panels.filter((p) => recs[panels.indexOf(p)] === recA);
    expect(panels.length).toBe(1);
  });

  it("a cross-origin frame's captured data is never observable by the top page or a sibling frame", async () => {
    const panel = panels[0]!;
    await navigate(h, server.url('/spy.html'));
    const records = await waitForRecords(panel, (rs) => reqs(rs).some((r) => r.url.endsWith('/secret')) && rs.some((r) => r.kind === 'end'), 'secret frame stream');
    // Captured (in the frame's own src) ...
    const req = reqs(records).find((r) => r.url.endsWith('/secret'))!;
    expect(req.url.startsWith(server.altOrigin)).toBe(true);
    expect(bodyText(records, '/secret')).toContain('SECRET-7f3a');
    const topNav = records.find((r) => r.kind === 'navigation' && r.top)!;
    expect(req.src).not.toBe(topNav.src);
    // ... and nothing of it, nor any handshake, reached the top page or the sibling frame.
    const top = await h.evalPage<{ where: string; data?: string; ports?: number }[]>('window.observed');
    const sibling = await h.evalPage<string[]>(`document.getElementById('s').contentWindow.observed`);
    expect(JSON.stringify(top)).not.toContain('SECRET');
    expect(JSON.stringify(top)).not.toContain('mcp-stream-inspector');
    expect(top.filter((o) => o.where === 'port-onmessage-set' || (o.ports ?? 0) > 0)).toEqual([]);
    expect(JSON.stringify(sibling)).not.toContain('SECRET');
    expect(JSON.stringify(sibling)).not.toContain('mcp-stream-inspector');
    // The top page cannot reach into the cross-origin frame either.
    expect(await h.evalPage<string>(`(() => { try { return String(document.getElementById('x').contentWindow.secretText); } catch (e) { return e.name; } })()`)).toBe('SecurityError');
  });

  it('no web page and no other extension can message or connect to the extension; its files are not web-accessible', async () => {
    const id = h.browser.extensionId!;
    // A web page: no chrome.runtime messaging API is exposed, and extension files cannot be fetched.
    const page = await h.evalPage<{ runtime: string; fetches: string[] }>(`(async () => {
      const runtime = typeof (window.chrome && window.chrome.runtime && window.chrome.runtime.sendMessage);
      const fetches = [];
      for (const p of ['manifest.json', 'src/extension/hook/hook.js', 'src/extension/relay/relay.js', 'src/panel/panel.html', 'service-worker-loader.js']) {
        try { const r = await fetch('chrome-extension://${id}/' + p); fetches.push(p + ': ' + r.status); } catch (e) { fetches.push(p + ': ' + e.name); }
      }
      return { runtime, fetches };
    })()`);
    expect(page.runtime).toBe('undefined');
    expect(page.fetches.every((f) => f.endsWith(': TypeError'))).toBe(true);
    // Another extension: sendMessage and connect (with our port names and well-formed messages) fail.
    const sw = await waitFor(async () => (await h.browser.cdp.targets()).find((t) => t.type === 'service_worker' && t.url.endsWith('/other-sw.js')), {
      message: 'other extension worker',
    });
    const s = await h.browser.cdp.attach(sw.targetId);
    const other = await h.browser.cdp.evaluate<{ send: string; connect: string; got: number }>(s, `(async () => {
      const env = (b) => Object.assign({ ch: 'mcp-stream-inspector', v: 1 }, b);
      const send = await new Promise((res) => {
        try { chrome.runtime.sendMessage('${id}', env({ type: 'relay-hello', src: 'evil' }), (r) => res(chrome.runtime.lastError ? 'error: ' + chrome.runtime.lastError.message : 'reply: ' + JSON.stringify(r))); }
        catch (e) { res('threw: ' + e.message); }
      });
      let got = 0;
      const connect = await new Promise((res) => {
        try {
          const p = chrome.runtime.connect('${id}', { name: 'msi-panel' });
          p.onMessage.addListener(() => got++);
          p.onDisconnect.addListener(() => res('disconnected: ' + (chrome.runtime.lastError ? chrome.runtime.lastError.message : '')));
          p.postMessage(env({ type: 'panel-hello', tabId: ${panels[0]!.tabId}, cursors: {} }));
          setTimeout(() => res('still open'), 3000);
        } catch (e) { res('threw: ' + e.message); }
      });
      return { send, connect, got };
    })()`);
    console.log('other extension:', JSON.stringify(other));
    expect(other.send).toMatch(/^(error|threw): /);
    expect(other.connect).toMatch(/^(disconnected|threw): /);
    expect(other.got).toBe(0);
    // What makes it so, in the built manifest (docs/permissions.md): no external connections, no
    // web-accessible resources, no host permissions, one API permission.
    const manifest = JSON.parse(readFileSync(join(DIST, 'manifest.json'), 'utf8'));
    expect(manifest.externally_connectable).toEqual({ ids: [] });
    expect(manifest.web_accessible_resources).toBeUndefined();
    expect(manifest.host_permissions).toBeUndefined();
    expect(manifest.optional_permissions).toBeUndefined();
    expect(manifest.permissions).toEqual(['storage']);
  });

  it('the extension reloaded under an open page: the page keeps working, the new panel says what it missed, a page reload captures again', async () => {
    const { cdp } = h.browser;
    await navigate(h, server.url('/reload.html'));
    const oldPanel = panels[0]!;
    await waitForRecords(oldPanel, (rs) => ofTag(rs, 'reload').length === 1 && rs.filter((r) => r.kind === 'chunk').length >= 3, 'stream under way');
    const ctx = await relayContext(cdp, h.page);
    const oldSw = (await cdp.targets()).find((t) => t.type === 'service_worker' && t.url.endsWith('/service-worker-loader.js'))!;
    // Reload the unpacked extension (what chrome://extensions' Reload does). Headless Chromium then
    // closes the DevTools window; open it again on the same, still running, page.
    const { id } = await cdp.send<{ id: string }>('Extensions.loadUnpacked', { path: DIST });
    expect(id).toBe(h.browser.extensionId);
    await waitFor(async () => (await cdp.targets()).some((t) => t.type === 'service_worker' && t.url.endsWith('/service-worker-loader.js') && t.targetId !== oldSw.targetId), {
      timeoutMs: 20_000,
      message: 'new service worker after reload',
    });
    // The old relay notices that its extension context is gone and lets go of its buffer.
    await waitFor(async () => (await relayStats(cdp, h.page, ctx).catch(() => null))?.released, { message: 'old relay released' });
    const pageTarget = await h.browser.pageTarget('/reload.html');
    await waitFor(async () => !(await cdp.targets()).some((t) => t.url.startsWith('devtools://')), { message: 'DevTools closed by the reload' }).catch(() => {});
    await cdp.send('Target.openDevTools', { targetId: pageTarget.targetId });
    const [panel] = await openAllPanels(h.browser, 1, new Set([oldPanel.target.targetId]));
    const records = await waitForRecords(panel!, (rs) => rs.some((r) => r.kind === 'capture-gap' && r.reason === 'extension-reloaded'), 'reload notice in the new panel', 20_000);
    const notice = records.find((r) => r.kind === 'notice' && r.code === 'extension-reloaded') as Extract<CaptureRecord, { kind: 'notice' }>;
    expect(notice).toBeTruthy();
    expect(notice.level).toBe('error');
    const gap = records.find((r) => r.kind === 'capture-gap') as Extract<CaptureRecord, { kind: 'capture-gap' }>;
    // DevTools was reopened after the reload, so its network log does not hold the page's open
    // stream: the count of what is missing is unknown here (0, a lower bound), and the notice says so.
    expect(gap.lost).toBeGreaterThanOrEqual(0);
    expect(notice.message).toMatch(/reloaded or updated at .* after this page was loaded/);
    expect(notice.message).toContain('Reload the page');
    console.log('after reload:', notice.message);
    // The page never noticed.
    await waitFor(() => h.evalPage('window.streamDone'), { timeoutMs: 30_000, message: 'page stream finished after the reload' });
    expect(await h.evalPage<string[]>('window.errors')).toEqual([]);
    expect((await h.evalPage<string>('window.pageText')).match(/\n\n/g)!.length).toBe(60);
    // Reloading the page brings capture back with the new instance.
    await navigate(h, server.url('/after-reload.html'));
    const after = await waitForRecords(panel!, (rs) => endedTag(rs, 'after'), 'capture after page reload');
    expect(bodyText(after, 'tag=after')).toBe(await h.evalPage<string>('window.pageText'));
  });
});

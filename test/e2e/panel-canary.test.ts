// Issue 5, "Page data is text", end to end in real DevTools: a page talks Streamable-HTTP-shaped
// SSE with a server whose payloads, header values, URLs, event types, ids and JSON-RPC method
// names carry HTML, script, `javascript:` URLs, the bidi override U+202E and control characters.
// Each payload would set `window.__canary` in the panel if it were ever parsed as HTML or
// followed as a link. After the panel has rendered every view (sessions, session header with the
// reconnect chain, timeline, events table with each row selected and the JSON tree fully expanded,
// requests with each detail, findings with each detail, export menu, settings) the canary is
// untouched, no CSP violation happened, no element or attribute from the data exists, and no raw
// bidi/control character reached a text node or attribute (they are shown as ⟨U+202E⟩).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openInspected, type Harness } from '../support/extension';
import { clickTestId, screenshot, showTab } from '../support/panel-ui';
import { startTestServer, type TestServer } from '../support/server';
import { waitFor } from '../support/wait';

const SET = `window.__canary='pwned'`;
const IMG = `<img src=x onerror="${SET}">`;
const SCRIPT = `<script>${SET}</script>`;
const SVG = `<svg onload="${SET}"><a href="javascript:${SET}">x</a></svg>`;
const JSURL = `javascript:${SET}//`;
const BIDI = '\u202Egnp.exe';
const CTRL = '\u0007\u001b[31mred\u0000\u0008';
const ALL = `${IMG}${SCRIPT}${SVG} ${JSURL} ${BIDI} ${CTRL}`;
/** A session id and header values: visible ASCII only (HTTP), HTML still. */
const SID = `sid-<img src=x onerror=${SET}>`;
const HOSTILE_PATH = new URL(`/mcp/javascript:alert(1)/<img src=x onerror=${SET}>`, 'http://x').pathname;

let server: TestServer;
let h: Harness;

/** JSON for inside an inline <script> (a literal "</script>" in the data would end it). */
const js = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c');

function sse(events: { id?: string; event?: string; data: string }[]): string {
  return events
    .map((e) => `${e.id !== undefined ? `id: ${e.id}\n` : ''}${e.event ? `event: ${e.event}\n` : ''}${e.data.split('\n').map((l) => `data: ${l}`).join('\n')}\n\n`)
    .join('');
}

beforeAll(async () => {
  server = await startTestServer();
  const reqId = `${IMG}${BIDI}`;
  server.route(HOSTILE_PATH, (req, res, body) => {
    const headers = { 'content-type': 'text/event-stream', 'mcp-session-id': SID, 'x-evil': `${SCRIPT} ${JSURL}`, 'cache-control': 'no-store' };
    if (req.method === 'GET') {
      res.writeHead(200, headers);
      res.end(
        sse([
          { id: `9${BIDI}`, data: JSON.stringify({ jsonrpc: '2.0', method: `notifications/${SCRIPT}`, params: { note: ALL } }) },
          { id: '10', event: `${IMG}${BIDI}`, data: `${CTRL}${SCRIPT}${IMG}` },
        ]),
      );
      return;
    }
    const msg = JSON.parse(body);
    res.writeHead(200, headers);
    if (msg.method === 'initialize') {
      res.end(sse([{ id: '1', data: JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: `2025-11-25${IMG}`, capabilities: { experimental: { [IMG]: { x: ALL } } }, serverInfo: { name: ALL, version: BIDI } } }) }]));
      return;
    }
    res.end(
      sse([
        { id: '2', data: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: { html: ALL, link: JSURL, nested: { deeper: [IMG, SCRIPT, { [SCRIPT]: BIDI }] } } } }) },
        { id: '3', data: JSON.stringify({ jsonrpc: '2.0', method: `notifications/${IMG}`, params: { [IMG]: CTRL } }) },
        // 4 never sent
        { id: `5`, event: `message`, data: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: SCRIPT, progress: 1, message: ALL } }) },
        { id: `6${BIDI}`, event: SCRIPT, data: `not json ${ALL}` },
        { id: '7', data: JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text: ALL }, { type: 'resource_link', uri: JSURL, name: IMG }] } }) },
      ]),
    );
  });
  server.page(
    '/hostile.html',
    `<!doctype html><html><head><title>hostile</title><script>
      window.run = async () => {
        const url = ${js(HOSTILE_PATH)} + '?q=' + ${js(encodeURIComponent(ALL))} + '&u=' + ${js(JSURL)};
        const post = (body, extra = {}) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...extra }, body: JSON.stringify(body) }).then((r) => r.text().then((t) => [r.headers.get('mcp-session-id'), t]));
        const [sid] = await post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', clientInfo: { name: ${js(ALL)}, version: '1' }, capabilities: {} } });
        await post({ jsonrpc: '2.0', id: ${js(reqId)}, method: 'tools/call', params: { name: ${js(IMG + BIDI)}, arguments: { q: ${js(ALL)} }, _meta: { progressToken: ${js(SCRIPT)} } } }, { 'mcp-session-id': sid });
        await post({ jsonrpc: '2.0', id: 99, method: ${js(`${SCRIPT}${BIDI}/x`)}, params: {} }, { 'mcp-session-id': sid });
        const g = await fetch(url, { headers: { accept: 'text/event-stream', 'mcp-session-id': sid, 'last-event-id': ${js(`5 ${IMG}`)} } });
        await g.text();
        return sid;
      };
    </script></head><body>hostile page</body></html>`,
  );
  h = await openInspected(server.url('/hostile.html'));
  await waitFor(() => h.panel.eval(`typeof globalThis.__MSI_UI__ === 'object'`), { message: 'inspector UI mounted' });
}, 180_000);

afterAll(async () => {
  await h?.close();
  await server?.close();
});

/** Everything the panel window must still satisfy; returns the problems found. */
const CHECK = `(() => {
  const bad = [];
  if (window.__canary !== 'untouched') bad.push('canary: ' + String(window.__canary));
  if (window.__violations.length) bad.push('CSP violations: ' + JSON.stringify(window.__violations));
  const raw = /[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f\\u202a-\\u202e\\u2066-\\u2069]/;
  for (const el of document.querySelectorAll('*')) {
    const tag = el.tagName.toUpperCase();
    if (['IMG', 'IFRAME', 'OBJECT', 'EMBED', 'FRAME', 'BASE', 'META', 'LINK', 'FORM'].includes(tag) && !(tag === 'LINK' && el.href.startsWith(location.origin)) && !(tag === 'META' && el.closest('head')) && !(tag === 'FORM' && el.closest('[data-testid=settings-dialog]'))) bad.push('element ' + tag);
    if (tag === 'SCRIPT' && !el.src.startsWith(location.origin + '/')) bad.push('inline script');
    for (const a of el.attributes) {
      if (/^on/i.test(a.name)) bad.push('handler attribute ' + tag + ' ' + a.name);
      if (/^\\s*javascript:/i.test(a.value) && /^(href|src|xlink:href|action|formaction|data)$/i.test(a.name)) bad.push('javascript: ' + tag + ' ' + a.name);
      // data-* are the test hooks (raw ids on purpose, never displayed); the rest (title, aria-*) is shown or read out.
      if (!a.name.startsWith('data-') && raw.test(a.value)) bad.push('raw control/bidi in attribute ' + tag + ' ' + a.name + '=' + JSON.stringify(a.value.slice(0, 60)));
    }
  }
  const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n; (n = w.nextNode()); ) if (raw.test(n.data.replace(/[\\n\\r\\t]/g, ''))) bad.push('raw control/bidi in text ' + JSON.stringify(n.data.slice(0, 80)));
  if (document.title !== 'MCP Streams') bad.push('title ' + document.title);
  return bad;
})()`;

async function expectClean(where: string): Promise<void> {
  expect(await h.panel.eval<string[]>(CHECK), where).toEqual([]);
}

/** Click every element matching `selector` one by one (re-queried: lists re-render). */
async function clickEach(selector: string, after: () => Promise<void>): Promise<number> {
  const n = await h.panel.eval<number>(`document.querySelectorAll(${JSON.stringify(selector)}).length`);
  for (let i = 0; i < n; i++) {
    await h.panel.eval(`(() => { const el = document.querySelectorAll(${JSON.stringify(selector)})[${i}]; el?.scrollIntoView({ block: 'nearest' }); el?.click(); return true; })()`);
    await after();
  }
  return n;
}

describe('page data is text in the real DevTools panel', () => {
  it('hostile payloads, headers, URLs, ids and method names never run or become elements, in any view', async () => {
    await h.panel.eval(`(() => {
      window.__canary = 'untouched';
      window.__violations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
      return true; })()`);
    const frontend = (await h.browser.cdp.targets()).find((t) => t.type === 'page' && t.url.startsWith('devtools://'))!;
    const fe = await h.browser.cdp.attach(frontend.targetId);
    await h.browser.cdp.evaluate(fe, `window.__canary = 'untouched'; true`);

    const sid = await h.evalPage<string>('window.run()');
    expect(sid).toBe(SID);

    // The capture is complete in the panel: 4 POSTs' worth of requests and the GET's events.
    await waitFor(
      () =>
        h.panel.eval(`(() => { const s = globalThis.__MSI_UI__.snapshot(); const reqs = Object.values(s.requests).flat();
          return s.sessions.length === 1 && reqs.length >= 3 && reqs.some((r) => r.method === 'tools/call' && r.response) &&
            Object.values(s.streams).some((x) => x.method === 'GET' && x.events.length === 2 && x.state !== 'open'); })()`),
      { timeoutMs: 20_000, message: 'panel analysed the hostile session' },
    );
    const snap = await h.panel.eval<any>('globalThis.__MSI_UI__.snapshot()');
    expect(snap.sessions[0].sessionId).toBe(SID); // kept exactly, only shown escaped
    expect(snap.findings.length).toBeGreaterThan(0); // rendered in the callout and the Findings view

    // First screen: sessions list, session header (reconnect chain with the hostile cursor), the
    // worst finding, the timeline and the requests summary.
    await showTab(h.panel, 'timeline');
    await waitFor(() => h.panel.eval(`!!document.querySelector('[data-testid=session-header]') && !!document.querySelector('[data-testid=timeline]')`), {
      message: 'first screen',
    });
    await expectClean('first screen');
    expect(await h.panel.eval<string>(`document.querySelector('[data-testid=session-header]').textContent`)).toContain('sid-<img src=x onerror=');
    // timeline: select events by keyboard-less click on marks, if any are drawn as buttons
    await clickEach('[data-testid=timeline] [role=button], [data-testid=timeline] [data-event-id]', () => expectClean('timeline selection'));

    // Events: every row selected, the JSON tree fully expanded each time.
    await showTab(h.panel, 'events');
    let expandedMax = 0;
    const rows = await clickEach('[data-testid=event-row]', async () => {
      await waitFor(() => h.panel.eval(`!!document.querySelector('[data-testid=event-detail]')`), { message: 'event detail' });
      for (let i = 0; i < 20; i++) {
        const opened = await h.panel.eval<number>(`(() => { const b = [...document.querySelectorAll('[data-testid=event-detail] button.jt-toggle[aria-label=Expand]')]; b.forEach((x) => x.click()); return b.length; })()`);
        if (!opened) break;
      }
      expandedMax = Math.max(expandedMax, await h.panel.eval<number>(`document.querySelectorAll('[data-testid=event-detail] [role=treeitem][aria-expanded=true]').length`));
      await expectClean('event detail');
    });
    expect(rows).toBeGreaterThanOrEqual(8);
    expect(expandedMax).toBeGreaterThanOrEqual(4); // the nested payloads really were opened and rendered
    await h.browser.cdp.send('Emulation.setDeviceMetricsOverride', { width: 1280, height: 800, deviceScaleFactor: 1, mobile: false }, fe);
    await h.panel.eval('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))');
    await screenshot(h.browser.cdp, fe, 'panel-canary-events-light');
    const bodyText = await h.panel.eval<string>('document.body.innerText');
    expect(bodyText).toContain('⟨U+202E⟩'); // bidi shown escaped
    expect(bodyText).toContain('<img src=x onerror='); // the markup shown as text

    // Requests: each request's detail.
    await showTab(h.panel, 'requests');
    const reqs = await clickEach('[data-testid=request-row]', async () => {
      await waitFor(() => h.panel.eval(`!!document.querySelector('[data-testid=request-detail]')`), { message: 'request detail' });
      await h.panel.eval(`(() => { document.querySelectorAll('[data-testid=request-detail] button.jt-toggle[aria-label=Expand]').forEach((x) => x.click()); return true; })()`);
      await expectClean('request detail');
    });
    expect(reqs).toBeGreaterThanOrEqual(3);

    // Findings: each finding's detail.
    await showTab(h.panel, 'findings');
    const fs = await clickEach('[data-testid=finding-row]', async () => {
      await waitFor(() => h.panel.eval(`!!document.querySelector('[data-testid=finding-detail]')`), { message: 'finding detail' });
      await expectClean('finding detail');
    });
    expect(fs).toBeGreaterThanOrEqual(1);

    // Filter with hostile text, the export menu, the settings dialog.
    await h.panel.eval(`(() => { const i = document.querySelector('[data-testid=tb-filter]');
      const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set; set.call(i, ${JSON.stringify(IMG)});
      i.dispatchEvent(new Event('input', { bubbles: true })); return true; })()`);
    await showTab(h.panel, 'events');
    await expectClean('filtered');
    await clickTestId(h.panel, 'tb-export');
    await expectClean('export menu');
    await clickTestId(h.panel, 'tb-export');
    await clickTestId(h.panel, 'tb-settings');
    await waitFor(() => h.panel.eval(`!!document.querySelector('[data-testid=settings-dialog]')`), { message: 'settings' });
    await expectClean('settings');
    await h.panel.eval(`(() => { document.querySelector('[data-testid=settings-dialog]').dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true })); return true; })()`);

    // The exports are text as well: Markdown has no raw HTML/bidi, the others are well-formed JSON.
    const md = await h.panel.eval<string>(`globalThis.__MSI_UI__.exportAs('markdown')`);
    expect(md).not.toMatch(/<img|<script|<svg|\u202E/);
    for (const k of ['json', 'har', 'trace']) expect(JSON.parse(await h.panel.eval<string>(`globalThis.__MSI_UI__.exportAs('${k}')`)), k).toBeTruthy();

    await expectClean('after every view');
    expect(await h.browser.cdp.evaluate(fe, 'window.__canary')).toBe('untouched');
    expect(await h.evalPage('document.title')).toBe('hostile');

    // The detector itself: the same payload rendered as HTML in the panel is caught (CSP blocks the
    // handler — a violation — and the element and attribute are found).
    await h.panel.eval(`(() => { const d = document.createElement('div'); d.id = 'msi-selftest'; d.innerHTML = ${JSON.stringify(IMG + '\u202E')}; document.body.append(d); return true; })()`);
    const caught = await waitFor(async () => {
      const bad = await h.panel.eval<string[]>(CHECK);
      return bad.some((b) => b.startsWith('CSP')) ? bad : null;
    }, { message: 'self-test: CSP violation seen' });
    expect(caught.join('\n')).toMatch(/element IMG[\s\S]*handler attribute IMG onerror[\s\S]*raw control\/bidi in text/);
    await h.panel.eval(`(() => { document.getElementById('msi-selftest').remove(); window.__violations.length = 0; return true; })()`);
  });
});

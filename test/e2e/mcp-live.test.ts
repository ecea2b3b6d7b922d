// `mcp-stream-inspector mcp --browser-url` against real Chromium with the extension and remote
// debugging, the demo page (the official SDK client in the browser) and the fixture MCP server in
// `lossy` mode. An SDK v2 client drives the server as a coding agent would: with live access off
// it gets a clear refusal; on, it finds the live tab, reads lossy-result-accepted on request 2
// (ids 12–13 never delivered), arms a cut, runs the page again and reads the new verdict. The
// verdicts are checked against the core's own analysis of the capture the tools export.
// The session's tool calls and short answers are written to test-artifacts/mcp-live-transcript.md
// (docs/mcp-server.md shows one).
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoServer } from '../../demo/server';
import { analyzeRecords } from '../../src/core';
import { importText } from '../../src/core/import';
import type { CaptureRecord } from '../../src/core/record';
import { PRODUCT_VERSION } from '../../src/export/version';
import { DIST, launchBrowser, type Browser } from '../support/browser';
import { devtoolsFrontend } from '../support/devtools';
import { evalServiceWorker, type Harness } from '../support/extension';
import { buildCli, connectHttp, connectStdio, startHttpServer, type McpConnection } from '../support/mcp-cli';
import { screenshot } from '../support/panel-ui';
import { waitFor } from '../support/wait';
import { openDemoPanel } from './demo-panel';

let bin: string;
let demo: DemoServer;
let h: Harness;
let browser: Browser;
let mcp: McpConnection;
let page: string;
const transcript: string[] = [];

const short = (v: unknown, n = 400) => {
  const s = JSON.stringify(v);
  return s.length > n ? `${s.slice(0, n)}…` : s;
};

/** A tool call as the agent makes it, recorded in the transcript with a short answer. */
async function tool(name: string, args: Record<string, unknown>, pick?: (sc: any) => unknown): Promise<{ sc: any; error?: string }> {
  const r = await mcp.client.callTool({ name, arguments: args });
  const error = r.isError ? (r.content as { text: string }[]).map((c) => c.text).join(' ') : undefined;
  transcript.push(`→ ${name} ${JSON.stringify(args)}`, `← ${error !== undefined ? `error: ${error}` : short(pick ? pick(r.structuredContent) : r.structuredContent)}`, '');
  return { sc: r.structuredContent, ...(error !== undefined ? { error } : {}) };
}

/** The user's way: the panel's Settings dialog, the checkbox, Save (screenshot of the dialog). */
async function setAccess(on: boolean) {
  await h.panel.eval(`document.querySelector('[data-testid=tb-settings]').click(), true`);
  await waitFor(() => h.panel.eval<boolean>(`!!document.querySelector('[data-testid=settings-agent-access]')`), { message: 'settings dialog' });
  if ((await h.panel.eval<boolean>(`document.querySelector('[data-testid=settings-agent-access]').checked`)) !== on) {
    await h.panel.eval(`document.querySelector('[data-testid=settings-agent-access]').click(), true`);
  }
  if (on) {
    const fe = await browser.cdp.attach((await devtoolsFrontend(browser)).targetId);
    await h.panel.eval(`document.querySelector('[data-testid=settings-agent-access]').scrollIntoView(), true`);
    await screenshot(browser.cdp, fe, 'mcp-live-settings-agent-access');
  }
  await h.panel.eval(`document.querySelector('[data-testid=settings-save]').click(), true`);
  await waitFor(() => evalServiceWorker<boolean>(browser, `chrome.storage.local.get('agentAccess').then((v) => v.agentAccess === ${on})`), {
    message: `the panel saved agentAccess ${on}`,
  });
}

describe('live browser over the DevTools protocol', () => {
  beforeAll(async () => {
    bin = buildCli();
    // Chrome with remote debugging and the extension, DevTools open on the demo page with the
    // inspector's panel (the bridge is one more panel next to it).
    ({ demo, h } = await openDemoPanel({ mode: 'lossy' }, { mode: 'lossy' }));
    browser = h.browser;
    page = h.page;
    const port = readFileSync(join(browser.userDataDir, 'DevToolsActivePort'), 'utf8').split('\n')[0]!;
    mcp = await connectStdio(bin, ['--browser-url', `http://127.0.0.1:${port}`]);
  }, 180_000);

  afterAll(async () => {
    await mcp?.close();
    await h?.close();
    await demo?.close();
    mkdirSync('test-artifacts', { recursive: true });
    writeFileSync('test-artifacts/mcp-live-transcript.md', transcript.join('\n'));
  });

  it('refuses clearly while live access is off', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['list_tabs', 'open_tab', 'arm_fault', 'list_faults', 'disarm_faults', 'get_request']));
    transcript.push('(live access off in the extension\'s settings)', '');
    const r = await tool('list_tabs', {});
    expect(r.error).toMatch(/Live access is off/);
    expect(r.error).toContain('Let coding agents read this browser’s MCP captures and arm faults over the DevTools protocol');
  });

  let tabId: number;
  let capture: string;

  it('finds the live tab and reads lossy-result-accepted on request 2, ids 12–13', async () => {
    await setAccess(true);
    transcript.push('(the user turns live access on)', '');
    const tabs = await tool('list_tabs', {});
    const tab = tabs.sc.tabs.find((t: { url: string }) => t.url.startsWith(demo.origin));
    expect(tab, JSON.stringify(tabs.sc)).toBeTruthy();
    tabId = tab.tabId;
    const opened = await tool('open_tab', { tabId }, (sc) => ({ capture: sc.capture, label: sc.label, sessions: sc.sessions }));
    capture = opened.sc.capture;
    // What the user sees: the bridge's tab says that an agent reads this tab.
    const bridgePage = (await browser.cdp.targets()).find((t) => t.type === 'page' && t.url.includes('/src/panel/agent-bridge.html'))!;
    const bs = await browser.cdp.attach(bridgePage.targetId);
    await waitFor(() => browser.cdp.evaluate<boolean>(bs, `document.getElementById('tabs').textContent.includes('Reading tab ${tabId}')`), { message: 'bridge page names the tab' });
    await screenshot(browser.cdp, bs, 'mcp-live-bridge-page');
    // The agent makes the page run its MCP call (as chrome-devtools-mcp's evaluate_script would).
    transcript.push('(the page runs its agent: window.__demo.run("lossy"))', '');
    const outcome = await browser.cdp.evaluate(page, `window.__demo.run('lossy')`);
    expect(outcome.callSucceeded).toBe(true);
    expect(outcome.hashMatches).toBe(false);
    let worst: any;
    await waitFor(
      async () => {
        const r = await mcp.client.callTool({ name: 'list_findings', arguments: { capture, code: 'lossy-result-accepted' } });
        worst = (r.structuredContent as any)?.findings?.[0];
        return worst && !worst.pending;
      },
      { timeoutMs: 20_000, message: 'lossy-result-accepted in the live capture' },
    );
    const f = await tool('list_findings', { capture, severity: 'error' }, (sc) => sc.findings.map((x: any) => ({ code: x.code, requestId: x.requestId, missing: x.missing })));
    expect(f.sc.findings[0].code).toBe('lossy-result-accepted');
    expect(f.sc.findings[0].requestId).toBe('2');
    const req = await tool('get_request', { capture, request: '2' }, (sc) => ({ name: sc.name, verdict: sc.verdict, loss: sc.loss, whatToDo: sc.whatToDo[0] }));
    expect(req.sc.verdict).toBe('lossy');
    expect(req.sc.loss.missing).toBe('12–13');
    expect(req.sc.whatToDo[0].code).toBe('lossy-result-accepted');
    // The same answer as the core's analysis of the records the extension holds.
    const exported = await mcp.client.callTool({ name: 'export_capture', arguments: { capture, format: 'json' } });
    const snap = analyzeRecords(importText((exported.structuredContent as any).text).records);
    const core = Object.values(snap.requests).flat().find((r) => r.id === '2' && r.method === 'tools/call')!;
    expect(core.verdict).toBe('lossy');
    expect(snap.findings.find((x) => x.code === 'lossy-result-accepted')?.missing ?? snap.findings.find((x) => x.code === 'replay-gap')?.missing).toBe('12–13');
    // One more panel: the records the agent reads are the panel's, with the same numbering.
    const key = (r: CaptureRecord) => `${r.src}#${r.seq}`;
    const panelKeys = new Set(((await h.panel.records()) as CaptureRecord[]).filter((r) => r.src !== 'panel').map(key));
    const agentKeys = importText((exported.structuredContent as any).text).records.map(key);
    expect(agentKeys.length).toBeGreaterThan(10);
    expect(agentKeys.filter((k) => !panelKeys.has(k))).toEqual([]);
  });

  it('the same over --http: a second server reads the tab through the same bridge page', async () => {
    const port = readFileSync(join(browser.userDataDir, 'DevToolsActivePort'), 'utf8').split('\n')[0]!;
    const srv = await startHttpServer(bin, ['--browser-url', `http://127.0.0.1:${port}`]);
    const c = await connectHttp(srv.url);
    try {
      const tabs = (await c.client.callTool({ name: 'list_tabs', arguments: {} })).structuredContent as any;
      expect(tabs.tabs.map((t: { tabId: number }) => t.tabId)).toContain(tabId);
      const opened = (await c.client.callTool({ name: 'open_tab', arguments: { tabId } })).structuredContent as any;
      const r = (await c.client.callTool({ name: 'get_request', arguments: { capture: opened.capture, request: '2' } })).structuredContent as any;
      expect(r.verdict).toBe('lossy');
      expect(r.loss.missing).toBe('12–13');
      const bridges = (await browser.cdp.targets()).filter((t) => t.type === 'page' && t.url.includes('/src/panel/agent-bridge.html'));
      expect(bridges).toHaveLength(1);
    } finally {
      await c.close();
      await srv.stop();
    }
  });

  it('arms a cut, runs the page again and reads the new verdict', async () => {
    const armed = await tool('arm_fault', { tabId, fault: 'cut:3,tool=long_task' });
    expect(armed.sc.armed).toHaveLength(1);
    expect(armed.sc.armed[0].text).toMatch(/cut/i);
    transcript.push('(the page runs its agent again, against a server that replays correctly: window.__demo.run("lossless"))', '');
    const outcome = await browser.cdp.evaluate(page, `window.__demo.run('lossless')`);
    expect(outcome.callSucceeded).toBe(true);
    // The records reach the bridge a moment after the page's call resolved: wait for the verdict.
    await waitFor(
      async () => {
        const r = await mcp.client.callTool({ name: 'get_request', arguments: { capture, session: 's2', request: '2' } });
        return !r.isError && (r.structuredContent as any).verdict !== 'pending';
      },
      { timeoutMs: 20_000, message: 'request 2 of the second session decided in the live capture' },
    );
    const list = await tool('list_sessions', { capture }, (sc) => sc.sessions.map((s: any) => ({ session: s.session, verdicts: s.verdicts, worst: s.worstFinding?.code ?? null })));
    const second = list.sc.sessions.find((s: any) => s.session === 's2');
    const tl = await tool('get_timeline', { capture, session: 's2' }, (sc) => ({ streams: sc.streams.map((x: any) => [x.kind, x.state, x.lastEventIdSent]), faults: sc.faults.map((x: any) => x.text) }));
    expect(tl.sc.faults.length).toBeGreaterThan(0);
    expect(tl.sc.streams.some((x: any) => x.kind === 'resume' || x.lastEventIdSent !== null)).toBe(true);
    const req = await tool('get_request', { capture, session: second.session, request: '2' }, (sc) => ({ name: sc.name, verdict: sc.verdict, verdictText: sc.verdictText, findings: sc.findings.map((x: any) => x.code) }));
    const exported = await mcp.client.callTool({ name: 'export_capture', arguments: { capture, format: 'json' } });
    const snap = analyzeRecords(importText((exported.structuredContent as any).text).records);
    const core = (snap.requests[snap.sessions[1]!.key] ?? []).find((r) => r.id === '2')!;
    expect(req.sc.verdict).toBe(core.verdict);
    expect(['complete', 'complete-unverified']).toContain(req.sc.verdict);
    expect(snap.faults?.length).toBeGreaterThan(0);
    const left = await tool('list_faults', { tabId });
    expect(left.sc.armed).toEqual([]); // a cut armed for one connection is spent once it fired
  });

  it('turning live access off again ends the reading at once', async () => {
    await setAccess(false);
    transcript.push('(the user turns live access off)', '');
    const r = await tool('get_request', { capture, request: '2' });
    expect(r.error).toMatch(/Live access is off/);
  });
});

describe('a browser without the extension', () => {
  let plain: Browser | undefined;
  let c: McpConnection | undefined;
  afterAll(async () => {
    await c?.close();
    await plain?.close();
  });

  it('says the extension is not loaded', async () => {
    plain = await launchBrowser({ extension: false });
    const port = readFileSync(join(plain.userDataDir, 'DevToolsActivePort'), 'utf8').split('\n')[0]!;
    c = await connectStdio(bin ?? buildCli(), ['--browser-url', `http://127.0.0.1:${port}`]);
    const r = await c.client.callTool({ name: 'list_tabs', arguments: {} });
    expect(r.isError).toBe(true);
    expect((r.content as { text: string }[])[0]!.text).toMatch(/The MCP Stream Inspector extension is not loaded in the Chrome at http:\/\/127\.0\.0\.1:\d+/);
  });
});

describe('an extension of another release', () => {
  let other: Browser | undefined;
  let c: McpConnection | undefined;
  let dist: string | undefined;
  afterAll(async () => {
    await c?.close();
    await other?.close();
    if (dist) rmSync(dist, { recursive: true, force: true });
  });

  it('says so, naming both versions', async () => {
    // The built extension with its agent bridge one version ahead (as a newer release would be).
    dist = mkdtempSync(join(tmpdir(), 'msi-other-release-'));
    cpSync(DIST, dist, { recursive: true });
    const asset = readdirSync(join(dist, 'assets')).find((n) => /^agent-bridge-.*\.js$/.test(n))!;
    const js = readFileSync(join(dist, 'assets', asset), 'utf8');
    expect(js).toContain('bridge:1,access:');
    writeFileSync(join(dist, 'assets', asset), js.replace('bridge:1,access:', 'bridge:2,access:'));
    other = await launchBrowser({ dist, devtools: false });
    const port = readFileSync(join(other.userDataDir, 'DevToolsActivePort'), 'utf8').split('\n')[0]!;
    c = await connectStdio(bin ?? buildCli(), ['--browser-url', `http://127.0.0.1:${port}`]);
    const r = await c.client.callTool({ name: 'list_tabs', arguments: {} });
    expect(r.isError).toBe(true);
    const v = PRODUCT_VERSION;
    expect((r.content as { text: string }[])[0]!.text).toContain(`is another version (${v}, agent bridge 2); this server is ${v} (agent bridge 1)`);
  });
});

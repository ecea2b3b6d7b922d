// use-mcp (the React hook web agents use to reach MCP servers; the official TypeScript SDK v1's
// client and StreamableHTTPClientTransport underneath), bundled with React for a page in Chromium
// with the real extension, against the v2 fixture server's `legacy-lossy` route. What it does on
// the wire, which the live panel must show:
//  - on connect it lists tools, resources and prompts; the fixture answers the last two with
//    -32601 errors on streams that carry ids. SDK v1 counts only results as responses
//    (isJSONRPCResultResponse), so it resumes both finished streams: two needless resumes;
//  - the fixture's lossy store holds a resume up to 5 s waiting for events after its cursor, and
//    the needless resumes get none: each waits 5 s for its response headers;
//  - Chrome's HTTP cache lets one GET per URL wait for its headers at a time (request-stalled): the call's own resume
//    (Last-Event-ID 15), sent 0.1 s after its stream was cut, waits in the browser behind the two,
//    ~10 s; by then the tool has finished, and the lossy replay leaves out the one event left, the
//    result: an empty stream;
//  - the SDK then reconnects without Last-Event-ID (typescript-sdk #2499), gets 409 (a standalone
//    stream is open) until it gives up; use-mcp says "failed", and callTool waits for its 60 s
//    timeout.
// The hook records an MCP request when the page sends it: the waiting resumes are in the panel
// while they wait (before, a request appeared only with its response, ten seconds later here).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeRecords } from '../../src/core/analyzer';
import { importText } from '../../src/core/import';
import { devtoolsFrontend } from '../support/devtools';
import { startClientPage, type ClientPage } from '../support/client-page';
import type { Harness } from '../support/extension';
import { screenshot, showTab } from '../support/panel-ui';
import { buildUseMcpBundle } from '../support/sdk-bundle';
import { waitFor } from '../support/wait';

let cp: ClientPage;
let h: Harness;

beforeAll(async () => {
  cp = await startClientPage({
    bundlePath: '/use-mcp.js',
    bundle: buildUseMcpBundle(),
    pagePath: '/use-mcp-agent.html',
    html: `<!doctype html><html><head><script type="module">
      import { useMcp, createElement, useEffect, useRef, createRoot } from '/use-mcp.js';
      window.states = [];
      window.outcome = 'pending';
      function Agent({ url }) {
        const m = useMcp({ url, clientName: 'use-mcp-page-agent', transportType: 'http', autoReconnect: false, autoRetry: false });
        const called = useRef(false);
        useEffect(() => { window.states.push(m.state); }, [m.state]);
        useEffect(() => {
          if (m.state !== 'ready' || called.current) return;
          called.current = true;
          m.callTool('long_task', { chunks: 6, delayMs: 40, tag: 'main' }).then(
            (r) => { window.outcome = 'result'; window.text = r.content.map((c) => c.text).join(''); },
            (e) => { window.outcome = 'error: ' + String((e && e.message) || e); },
          );
        }, [m.state]);
        return null;
      }
      window.start = (url) => { createRoot(document.getElementById('root')).render(createElement(Agent, { url })); return true; };
      window.ready = true;
    </script></head><body><div id="root"></div></body></html>`,
  });
}, 180_000);

afterAll(() => cp?.close());

type Outcome = { states: string[]; outcome: string; text?: string };
const outcomeOf = (evalPage: <T>(x: string) => Promise<T>) => evalPage<Outcome>('({ states: window.states, outcome: window.outcome, text: window.text })');

async function startAgent(evalPage: <T>(x: string) => Promise<T>): Promise<void> {
  await waitFor(() => evalPage<boolean>('window.ready === true'), { message: 'agent page ready' });
  await evalPage(`window.start(${JSON.stringify(cp.mcp.modeUrl('legacy-lossy'))})`);
}

describe('use-mcp in a page', () => {
  it('legacy-lossy: resumes are in the panel while they wait for their response; needless resumes hold the call\'s resume up; needless-resume, request-stalled, resume-rejected, result-missing, resume-cursor-lost; the same page without the extension does the same', async () => {
    h = await cp.inspected();
    await waitFor(() => h.panel.eval(`typeof globalThis.__MSI_UI__ === 'object'`), { message: 'inspector UI mounted in the panel' });
    await startAgent((x) => h.evalPage(x));

    // While the call's resume waits: it is in the panel, with no response, and the call is pending.
    type S = { kind: string; state: string; status?: number; start: number; lastEventIdSent?: string };
    let last = '';
    const waiting = await waitFor(
      async () => {
        const s = await h.panel.eval<any>('globalThis.__MSI_UI__.snapshot()');
        const resumes = (Object.values(s.streams) as S[]).filter((x) => x.kind === 'resume');
        const call = (Object.values(s.requests).flat() as any[]).find((r) => r.method === 'tools/call');
        last = JSON.stringify({ resumes: resumes.map((r) => [r.lastEventIdSent, r.state, r.status]), call: call?.verdict, outcome: await h.evalPage('window.outcome') });
        const own = resumes.find((r) => r.lastEventIdSent === '15');
        return own && own.status === undefined && own.state === 'open' && call?.verdict === 'pending' ? { s, own } : null;
      },
      { timeoutMs: 20_000, message: () => `the call's resume in the panel before its response; the panel showed ${last}` },
    );
    expect(await h.evalPage('window.outcome')).toBe('pending');
    expect(waiting.s.findings.map((f: any) => f.code)).not.toContain('result-missing');
    const fe = await h.browser.cdp.attach((await devtoolsFrontend(h.browser)).targetId);
    await showTab(h.panel, 'timeline');
    await waitFor(() => h.panel.eval<boolean>(`[...document.querySelectorAll('.tl-label .l2')].some((e) => e.textContent.includes('awaiting response'))`), { message: 'a lane says awaiting response' });
    await screenshot(h.browser.cdp, fe, 'use-mcp-awaiting-response');

    // Then the replay comes: the call resolves with a chunk missing, and the panel says so.
    // The call's resume is answered ~10 s after it was sent, with an empty stream; the client
    // then reconnects without its cursor, and use-mcp gives up.
    await waitFor(() => h.evalPage<boolean>(`window.states.includes('failed')`), { timeoutMs: 40_000, message: 'use-mcp says failed' });
    const captured = await outcomeOf((x) => h.evalPage(x));
    expect(captured).toEqual({ states: ['discovering', 'connecting', 'loading', 'ready', 'failed'], outcome: 'pending' });
    const want = ['needless-resume', 'request-stalled', 'resume-rejected', 'result-missing', 'resume-cursor-lost'];
    let codes: string[] = [];
    const snap = await waitFor(
      async () => {
        const s = await h.panel.eval<any>('globalThis.__MSI_UI__.snapshot()');
        codes = s.findings.map((f: any) => f.code);
        return want.every((c) => codes.includes(c)) ? s : null;
      },
      { timeoutMs: 20_000, message: () => `${want.join(' + ')} in the live panel; it showed ${codes.join(', ')}` },
    );
    expect(codes).not.toContain('lossy-result-accepted');
    const of = (code: string) => snap.findings.filter((f: any) => f.code === code);
    expect(of('needless-resume').map((f: any) => f.message.match(/request (\d+)/)?.[1]).sort()).toEqual(['2', '3']);
    expect(of('needless-resume').every((f: any) => /its error/.test(f.message))).toBe(true);
    expect(of('resume-rejected')[0].message).toContain('Last-Event-ID 15');
    // The resumes of requests 3 and 4 waited in the browser behind the one before each (and so
    // may the SDK's GETs without Last-Event-ID that follow an empty resume).
    expect(of('request-stalled').map((f: any) => f.eventIds[0] ?? '(none)')).toEqual(expect.arrayContaining(['15', '8']));
    expect(of('request-stalled').find((f: any) => f.eventIds[0] === '15').message).toMatch(/was answered \d+\.\d s after the page sent it/);
    expect(of('result-missing')[0].message).toContain('Request 4 (tools/call)');
    expect(of('resume-cursor-lost')[0].message).toContain('WITHOUT Last-Event-ID');
    const call = (Object.values(snap.requests).flat() as any[]).find((r) => r.method === 'tools/call');
    expect(call.verdict).toBe('incomplete');
    // The call's resume: sent at once, answered when the two before it were (its request is timed
    // when sent).
    const own = (Object.values(snap.streams) as any[]).find((x) => x.kind === 'resume' && x.lastEventIdSent === '15');
    expect(own.status).toBe(200);
    const conn = String(own.id).split(':').at(-1);
    const times = await h.panel.eval<[string, number][]>(`globalThis.__MSI_UI__.records().filter((r) => r.conn === ${JSON.stringify(conn)} && (r.kind === 'request' || r.kind === 'response')).map((r) => [r.kind, r.t])`);
    expect(times.map(([k]) => k)).toEqual(['request', 'response']);
    expect(times[1]![1] - times[0]![1]).toBeGreaterThan(8000);

    // DevTools' own HAR of the tab (what "Save all as HAR" writes) shows the hold itself: its
    // timings.blocked. Imported, it gives request-stalled for the same resumes, saying so.
    const log = await h.panel.eval<unknown>(`new Promise((r) => chrome.devtools.network.getHAR((x) => r(x)))`);
    const harText = JSON.stringify({ log });
    mkdirSync(join(process.cwd(), 'test-artifacts', 'har'), { recursive: true });
    writeFileSync(join(process.cwd(), 'test-artifacts', 'har', 'use-mcp.devtools.har'), harText);
    const fromHar = analyzeRecords(importText(harText).records).findings.filter((f) => f.code === 'request-stalled');
    expect(fromHar.map((f) => f.eventIds[0] ?? '(none)')).toEqual(expect.arrayContaining(['15', '8']));
    expect(fromHar.find((f) => f.eventIds[0] === '15')!.message).toMatch(/waited in the browser \(the HAR's timings: blocked \d+\.\d s before it was sent\)/);

    // The same page in a browser without the extension gets the same outcome.
    const bare = await cp.bare();
    await startAgent(bare);
    await waitFor(() => bare<boolean>(`window.states.includes('failed')`), { timeoutMs: 40_000, message: 'use-mcp says failed, without the extension' });
    expect(await outcomeOf(bare)).toEqual(captured);
  }, 120_000);
});

// The real panel in real DevTools against the SDK v2 client in the browser (the demo page with
// ?sdk=v2: @modelcontextprotocol/client 2.4 bundled by vite) and the SDK v2 fixture server
// (@modelcontextprotocol/server 2.4), in both eras. One browser for every scenario: the panel is
// cleared, the page's agent runs the scenario once (window.__demo.run(name)), then:
// - every request the server received is in the panel, and every SSE message the page read is in
//   the panel, in order, per connection (a broken stream: a prefix of what the server wrote, with
//   exactly the chunks the agent itself accumulated); no duplicate records, seq dense;
// - legacy era: the live panel reports the findings the v1 fixture gets for the same fault;
// - modern era: the live panel reports the scenario's 2026-07-28 findings (request-reissued,
//   subscription-dropped, header-mismatch, …: issue 12), equal to the core's on the panel's own
//   export; the fault is on the first screen (the worst-finding callout, the era badge, the
//   re-issue link or the outage window in the timeline); the requests of the scenario are there.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoServer } from '../../demo/server';
import { analyzeRecords } from '../../src/core';
import { importText } from '../../src/core/import';
import type { CaptureRecord } from '../../src/core/record';
import { V2_SCENARIOS, type V2ScenarioName } from '../fixtures/v2/scenarios';
import { duplicateKeys, type Harness } from '../support/extension';
import { devtoolsFrontend, setDockSide } from '../support/devtools';
import { clickTestId, screenshot, showTab, uiState, type UiState } from '../support/panel-ui';
import { waitFor } from '../support/wait';
import { openDemoPanel } from './demo-panel';

let demo: DemoServer;
let h: Harness;

beforeAll(async () => {
  ({ demo, h } = await openDemoPanel({ sdk: 'v2', mode: 'modern-baseline' }, { sdk: 'v2', mode: 'modern-baseline', chunks: 6, delayMs: 40 }));
}, 180_000);

afterAll(async () => {
  await h?.close();
  await demo?.close();
});

interface PanelConn {
  method: string;
  body: string | null;
  status?: number;
  end?: string;
  /** JSON-RPC methods (or `result:<id>` / `error:<code>`) of the SSE data the page read, in order. */
  messages: string[];
}

const label = (m: { method?: string; id?: unknown; result?: unknown; error?: { code?: number } }) =>
  m.method ?? (m.error ? `error:${m.error.code}` : m.result !== undefined ? `result:${String(m.id)}` : 'unknown');

function panelConns(records: CaptureRecord[], origin: string): PanelConn[] {
  const byConn = new Map<string, PanelConn & { text: string; sse: boolean }>();
  for (const r of [...records].sort((a, b) => a.seq - b.seq)) {
    if (!('conn' in r)) continue;
    const key = `${r.src}/${r.conn}`;
    if (r.kind === 'request') {
      if (r.url.startsWith(origin)) byConn.set(key, { method: r.method, body: r.body, messages: [], text: '', sse: false });
      continue;
    }
    const c = byConn.get(key);
    if (!c) continue;
    if (r.kind === 'response') {
      c.status = r.status;
      c.sse = r.capture === 'sse';
    } else if (r.kind === 'chunk') c.text += r.text;
    else if (r.kind === 'end') c.end = r.how;
  }
  return [...byConn.values()].map(({ text, sse, ...c }) => ({
    ...c,
    messages: sse
      ? [...text.matchAll(/^data: ?(.+)$/gm)].flatMap((m) => {
          try {
            return [label(JSON.parse(m[1]!))];
          } catch {
            return [];
          }
        })
      : [],
  }));
}

/** What the server wrote per HTTP request (non-OPTIONS), in arrival order, with the request body's method. */
/** (From log entry `from` on: a scenario run again counts its own run only.) */
function serverConns(scenario: string, from = 0) {
  const out: { httpMethod: string; rpc: string; id?: string | number; messages: string[]; cut: boolean }[] = [];
  const byConn = new Map<number, (typeof out)[number]>();
  for (const e of demo.fixtureV2.log.slice(from)) {
    if (e.route !== scenario) continue;
    if (e.type === 'http' && e.httpMethod !== 'OPTIONS') {
      const c = { httpMethod: e.httpMethod, rpc: e.rpc[0]?.method ?? '', ...(e.rpc[0]?.id !== undefined ? { id: e.rpc[0].id } : {}), messages: [], cut: false };
      out.push(c);
      byConn.set(e.conn, c);
    } else if (e.type === 'sse' && e.rpc && e.rpc.kind !== 'priming') {
      const r = e.rpc;
      byConn.get(e.conn)?.messages.push(r.method ?? (r.kind === 'error' ? `error:${r.errorCode}` : `result:${String(r.id)}`));
    } else if (e.type === 'cut' || e.type === 'listen-dropped') {
      const c = byConn.get(e.conn);
      if (c) c.cut = true;
    }
  }
  return out;
}

const bodyKey = (body: string | null) => {
  if (!body) return '';
  try {
    const b = JSON.parse(body) as { method?: string; id?: unknown };
    return `${b.method ?? ''}#${String(b.id ?? '')}`;
  } catch {
    return body;
  }
};

/**
 * A request the page made that failed before any response: the server may never have seen it (the
 * SDK's standalone GET started as the session is deleted is aborted on its way; under load it can
 * be recorded by the page and never logged by the server).
 */
const neverAnswered = (c: PanelConn) => c.status === undefined && (c.end === 'page-aborted' || c.end === 'network-error');

/** Findings that stay pending while the page runs, by design (a re-issue, a refetch or a retry may still come). */
const LIVE_PENDING = new Set(['request-abandoned', 'lists-not-refetched', 'input-not-answered']);

async function runScenario(name: V2ScenarioName) {
  await clickTestId(h.panel, 'tb-clear');
  await waitFor(() => h.panel.eval(`globalThis.__MSI_UI__.snapshot().sessions.length === 0`), { message: 'panel cleared' });
  const logStart = demo.fixtureV2.log.length;
  const outcome = await h.evalPage<any>(`window.__demo.run(${JSON.stringify(name)})`);
  expect(demo.fixtureV2.log.length).toBeGreaterThan(logStart);
  const origin = demo.fixtureV2.origin;
  // Wait until the panel holds a request record for every request the server received (the
  // server's list is read again on each poll: a notifications/cancelled the SDK sends without
  // awaiting can arrive after run() resolved) and an end record for every body it captures (the
  // 202s carry none), and its analysis has settled.
  let last = '';
  const records = await waitFor(
    async () => {
      const rs = (await h.panel.records()) as CaptureRecord[];
      const conns = panelConns(rs, origin);
      const snap = await h.panel.eval<any>('globalThis.__MSI_UI__.snapshot()');
      const open = conns.filter((c) => c.status !== 202 && c.end === undefined);
      const pending = snap.findings.filter((f: any) => f.pending && !LIVE_PENDING.has(f.code)).map((f: any) => f.code);
      const server = serverConns(name, logStart).length;
      last = `panel ${conns.length} requests, server ${server}, open ${JSON.stringify(open.map((c) => `${c.method} ${bodyKey(c.body)}`))}, pending ${JSON.stringify(pending)}`;
      const counted = conns.length === server || conns.filter((c) => !neverAnswered(c)).length === server;
      return counted && open.length === 0 && pending.length === 0 ? rs : null;
    },
    { timeoutMs: 20_000, message: () => `${name}: every request in the panel, every body ended; last: ${last}` },
  );
  return { outcome, records, server: serverConns(name, logStart), conns: panelConns(records, origin) };
}

/** The panel's connections and the server's, matched by JSON-RPC method and id (GETs in order). */
function expectEveryEventInOrder(name: string, conns: PanelConn[], server: ReturnType<typeof serverConns>, outcome: any) {
  const remaining = [...server];
  const taskAttempts: PanelConn[] = [];
  for (const c of conns) {
    const key = c.method === 'POST' ? bodyKey(c.body) : c.method;
    const i = remaining.findIndex((s) => (s.httpMethod === 'POST' ? `${s.rpc}#${String(s.id ?? '')}` : s.httpMethod) === key);
    if (i < 0 && neverAnswered(c)) continue;
    expect(i, `${name}: panel request ${key} is one the server received`).toBeGreaterThanOrEqual(0);
    const s = remaining.splice(i, 1)[0]!;
    if (c.end === 'network-error' || s.cut) {
      // What the page read before the break: a prefix of what the server wrote.
      expect(s.messages.slice(0, c.messages.length), `${name}: ${key} (broken)`).toEqual(c.messages);
    } else if (c.messages.length || s.messages.length) {
      expect(c.messages, `${name}: ${key}`).toEqual(s.messages);
    }
    if (c.body?.includes('"long_task"') && c.body.includes('"tools/call"')) taskAttempts.push(c);
  }
  expect(remaining, `${name}: server requests missing from the panel`).toEqual([]);
  // The chunks the agent itself accumulated are the chunks the panel shows: per tools/call attempt
  // in the modern era, in all (POST stream + resumed GETs) in the legacy era.
  const chunks = (cs: PanelConn[]) => cs.map((c) => c.messages.filter((m) => m === 'notifications/message').length);
  const resumed = conns.some((c) => c.method === 'GET' && c.messages.length > 0);
  if (outcome.v2?.chunksPerAttempt?.length && !resumed) expect(chunks(taskAttempts)).toEqual(outcome.v2.chunksPerAttempt);
  expect(chunks(conns).reduce((a, b) => a + b, 0)).toBe(outcome.v2?.chunksReceived ?? 0);
}

interface EraScreen {
  state: UiState;
  /** Era badges of the session rows; the header's era; its link kinds and subscription states; the timeline's links and outages. */
  eras: string[];
  headerEra: string | null;
  headerLinks: string[];
  subscriptions: string[];
  timelineLinks: string[];
  outages: number;
  /** A re-issue / MRTR link or an outage window is drawn inside the timeline's visible part (the lane scrolled to). */
  lossInView: boolean;
  /** The same within the timeline body's scrolled part, wherever the window cuts the body. */
  lossInBody: boolean;
  rects?: string;
}

/** Poll the first screen (timeline tab) until `pred` holds. */
async function firstScreen(name: string, pred: (s: EraScreen) => boolean): Promise<EraScreen> {
  let last: EraScreen | undefined;
  await waitFor(
    async () => {
      await showTab(h.panel, 'timeline');
      const state = await uiState(h.panel);
      const dom = await h.panel.eval<Omit<EraScreen, 'state'>>(`(() => {
        const q = (s) => [...document.querySelectorAll(s)];
        return {
          eras: q('[data-testid=session-row] [data-testid=era-badge]').map((e) => e.dataset.era),
          headerEra: document.querySelector('[data-testid=session-era]')?.dataset.era ?? null,
          headerLinks: q('[data-testid=request-link]').map((e) => e.dataset.kind),
          subscriptions: q('[data-testid=subscription]').map((e) => e.dataset.state),
          timelineLinks: q('[data-testid=timeline-request-link]').map((e) => e.dataset.kind),
          outages: q('[data-testid=timeline-outage]').length,
          lossInView: (() => {
            const body = document.querySelector('.tl-body')?.getBoundingClientRect();
            return !!body && q('[data-testid=timeline-request-link], [data-testid=timeline-outage]').some((e) => {
              const r = e.getBoundingClientRect();
              return r.bottom > body.top + 20 && r.top < Math.min(body.bottom, innerHeight);
            });
          })(),
          lossInBody: (() => {
            const body = document.querySelector('.tl-body')?.getBoundingClientRect();
            return !!body && q('[data-testid=timeline-request-link], [data-testid=timeline-outage]').some((e) => {
              const r = e.getBoundingClientRect();
              return r.bottom > body.top + 20 && r.top < body.bottom;
            });
          })(),
          rects: JSON.stringify({ inner: innerHeight, body: document.querySelector('.tl-body')?.getBoundingClientRect(), st: document.querySelector('.tl-body')?.scrollTop, ch: document.querySelector('.tl-body')?.clientHeight, els: q('[data-testid=timeline-request-link], [data-testid=timeline-outage]').map((e) => e.getBoundingClientRect()) }),
        };
      })()`);
      last = { state, ...dom };
      return pred(last);
    },
    { timeoutMs: 20_000, message: () => `${name}: first screen; rects ${last?.rects}; the panel showed ${JSON.stringify(last).slice(0, 2500)}` },
  );
  return last!;
}

async function panelAnalysis() {
  const snap = await h.panel.eval<any>('globalThis.__MSI_UI__.snapshot()');
  const live = [...new Set<string>(snap.findings.map((f: any) => f.code))].sort();
  const file = analyzeRecords(importText(await h.panel.eval<string>(`globalThis.__MSI_UI__.exportAs('json')`)).records);
  const fromFile = [...new Set(file.findings.map((f) => f.code))].sort();
  const requests = Object.values(snap.requests as Record<string, any[]>).flat();
  return { snap, live, fromFile, requests };
}

describe('the panel against SDK v2 (client in the page, server in the fixture), legacy era', () => {
  const legacy: V2ScenarioName[] = ['legacy-lossy', 'legacy-lossless', 'legacy-dropped-result', 'legacy-session-404', 'legacy-live-drop', 'legacy-duplicate-replay', 'dual-legacy-lossy', 'dual-stateless-legacy'];
  for (const name of legacy) {
    const exp = V2_SCENARIOS[name].expect;
    it(`${name}: every event in order; the live panel reports ${exp.codes.join(' + ') || 'no finding'} (the v1 findings for ${'sameAsV1' in exp ? exp.sameAsV1 : '?'})`, async () => {
      const { outcome, records, server, conns } = await runScenario(name);
      expect(outcome.sdk).toBe('v2');
      expect(outcome.era).toBe('legacy');
      expectEveryEventInOrder(name, conns, server, outcome);
      expect(duplicateKeys(records)).toEqual([]);
      const { live, fromFile, snap } = await panelAnalysis();
      expect(live).toEqual([...exp.codes].sort());
      expect(fromFile).toEqual(live);
      expect(snap.sessions.length).toBe(1);
    });
  }
});

describe('the panel against SDK v2, modern era (2026-07-28)', () => {
  const modern: { name: V2ScenarioName; methods: string[] }[] = [
    { name: 'modern-baseline', methods: ['server/discover', 'tools/list', 'tools/call'] },
    { name: 'modern-reissue', methods: ['server/discover', 'tools/list', 'tools/call', 'tools/call'] },
    { name: 'modern-abandoned', methods: ['server/discover', 'tools/list', 'tools/call'] },
    { name: 'modern-dropped-result', methods: ['server/discover', 'tools/list', 'tools/call'] },
    { name: 'modern-mrtr', methods: ['server/discover', 'tools/list', 'tools/call', 'tools/call'] },
    { name: 'modern-mrtr-altered', methods: ['server/discover', 'tools/list', 'tools/call', 'tools/call'] },
    { name: 'modern-missing-capability', methods: ['server/discover', 'tools/list', 'tools/call'] },
    { name: 'modern-listen-drop', methods: ['server/discover', 'tools/list', 'subscriptions/listen', 'tools/call', 'tools/call', 'subscriptions/listen', 'tools/list'] },
    { name: 'modern-listen-no-refetch', methods: ['server/discover', 'tools/list', 'subscriptions/listen', 'tools/call', 'tools/call', 'subscriptions/listen'] },
    // In the browser the SDK neither mirrors Mcp-Param-* nor retries after -32020: one call.
    { name: 'modern-header-mismatch', methods: ['server/discover', 'tools/list', 'tools/call'] },
    { name: 'modern-param-browser', methods: ['server/discover', 'tools/list', 'tools/call'] },
    { name: 'era-legacy-to-modern', methods: ['initialize', 'server/discover', 'tools/list', 'tools/call'] },
    { name: 'era-modern-to-legacy', methods: ['server/discover', 'initialize', 'tools/list', 'tools/call'] },
  ];
  for (const { name, methods } of modern) {
    it(`${name}: sessions, streams and requests in the panel, every event in order`, async () => {
      const { outcome, records, server, conns } = await runScenario(name);
      expectEveryEventInOrder(name, conns, server, outcome);
      expect(duplicateKeys(records)).toEqual([]);
      const src = records.find((r) => r.kind === 'request')!.src;
      const seqs = records.filter((r) => r.src === src).map((r) => r.seq);
      expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i)); // dense (the panel was cleared before: not from 1)
      const { live, fromFile, snap, requests } = await panelAnalysis();
      expect(snap.sessions.length).toBeGreaterThanOrEqual(1);
      const seen = requests.map((r: any) => r.method);
      for (const m of new Set(methods)) expect(seen.filter((x: string) => x === m).length, `${name}: ${m}`).toBe(methods.filter((x) => x === m).length);
      expect(fromFile).toEqual(live);
      // Issue 12: the scenario's findings, live (pending where the page may still act) and from the export.
      const exp = V2_SCENARIOS[name].expect;
      // In the browser a cut can take the chunks still in flight with it: when the page read none
      // of the broken attempt's output, there is none to hold twice (no reissued-over-partial-output).
      const partial = outcome.v2?.chunksPerAttempt?.[0];
      const codes: readonly string[] = name === 'modern-reissue' && partial === 0 ? exp.codes.filter((c) => c !== 'reissued-over-partial-output') : exp.codes;
      expect(live, `${name}: chunks of the broken attempt ${partial}`).toEqual([...codes].sort());
      for (const f of snap.findings) if (LIVE_PENDING.has(f.code)) expect(f, `${name}: ${f.code} live`).toMatchObject({ pending: true });
      const screen = await firstScreen(name, (x) => x.state.sessions.length > 0 && (codes.length === 0 || (x.state.worst !== null && codes.includes(x.state.worst.code))));
      if (codes.length) expect(screen.state.worst!.onFirstScreen).toBe(true);
      // The era badge of every session row, the selected session's era in its header.
      for (const e of screen.eras) expect(['legacy', 'modern']).toContain(e);
      expect(screen.eras).toContain(exp.era === 'modern' && !name.startsWith('era-') ? 'modern' : exp.era);
      expect(screen.headerEra).toMatch(/^(legacy|modern)$/);
      if (['modern-reissue', 'modern-listen-drop', 'modern-listen-no-refetch'].includes(name)) {
        // The timeline opens scrolled to the loss: the re-issue link / the outage window is on the first screen.
        const inView = await firstScreen(name, (x) => x.lossInView);
        expect(inView.lossInView).toBe(true);
      }
      if (name === 'modern-reissue' || name === 'modern-listen-no-refetch') {
        // Docked to the bottom (short): the worst finding is still on the first screen, and the
        // timeline is scrolled to the loss. (This harness's bottom dock is about 260 px high: the
        // timeline's body then reaches below the window, so only the scroll is asserted.)
        await setDockSide(h.browser, 'bottom');
        try {
          const short = await firstScreen(`${name} (bottom)`, (x) => x.state.worst !== null && x.lossInBody);
          expect(short.state.worst!.onFirstScreen).toBe(true);
          const fe = await h.browser.cdp.attach((await devtoolsFrontend(h.browser)).targetId);
          await screenshot(h.browser.cdp, fe, `v2-${name}-panel-bottom`);
        } finally {
          await setDockSide(h.browser, 'right');
        }
      }
      if (name === 'modern-reissue') {
        expect(screen.headerLinks).toEqual(['reissue']);
        expect(screen.timelineLinks).toEqual(['reissue']);
        expect(screen.state.header).toMatch(/re-issues request/);
      }
      if (name === 'modern-mrtr' || name === 'modern-mrtr-altered') expect(screen.timelineLinks).toEqual(['mrtr']);
      if (name === 'modern-listen-drop' || name === 'modern-listen-no-refetch') {
        expect(screen.subscriptions).toContain('dropped');
        expect(screen.outages).toBe(1);
      }
      if (name === 'modern-param-browser') {
        // The real browser: the SDK skipped Mcp-Param-Region, the strict server said -32020.
        const call = conns.find((c) => c.body?.includes('query_region'))!;
        expect(call.status).toBe(400);
        expect(outcome.error?.code).toBe(-32020);
      }
      if (name === 'modern-reissue' || name === 'modern-listen-drop' || name === 'modern-header-mismatch' || name === 'modern-mrtr-altered') {
        await showTab(h.panel, 'timeline');
        const fe = await h.browser.cdp.attach((await devtoolsFrontend(h.browser)).targetId);
        await screenshot(h.browser.cdp, fe, `v2-${name}-panel`);
      }
    });
  }
});

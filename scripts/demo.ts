// npm run demo -- [--sdk v1|v2] [--mode lossy] [--port N] [--no-browser] [--once] [--no-build] [--browser PATH]
//                 [--serve] [--autorun] [--remote-debugging-port N] [--fault <preset|fault>]
//
// Starts the fixture MCP servers (SDK v1 and SDK v2), serves the demo page (a web agent on the
// official SDK client: v1 by default, v2 with --sdk v2), builds the extension if dist/ is stale, and opens Chromium with the extension loaded
// and DevTools open on the page — or prints how to do that by hand.
//
// Browsers it can drive: Chromium and Chrome for Testing (they honour --load-extension).
// Branded Google Chrome ignores --load-extension since version 137: load dist/ by hand there.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDemoPageStale, isStale } from '../demo/build.js';
import { startDemoServer, REPO_ROOT, type DemoServer } from '../demo/server.js';
import { SCENARIOS, runScenario, type ScenarioOptions } from '../test/fixtures/client/run-scenario.js';
import { MODE_NAMES, isModeName, type ModeName } from '../test/fixtures/mcp-server/options.js';
import { runV2Scenario } from '../test/fixtures/v2/client/run-scenario.js';
import { V2_SCENARIOS, V2_SCENARIO_NAMES, isV2ScenarioName, type V2ScenarioName } from '../test/fixtures/v2/scenarios.js';
import { connectCdp } from '../test/support/cdp.js';
import { describeFault, FaultSpecError, parseFaultText, presetById, PRESETS, type FaultSpec } from '../src/core/faults/index.js';
import { startServe } from '../src/cli/serve/command.js';

const DEMO_MODES: ModeName[] = ['lossless', 'lossy', 'opaque', 'dropped-result', 'cross-stream', 'session-404'];
/** The v2 scenarios worth a first look (every scenario of test/fixtures/v2/scenarios.ts works). */
const DEMO_V2_MODES: V2ScenarioName[] = ['modern-reissue', 'modern-abandoned', 'modern-listen-drop', 'modern-header-mismatch', 'modern-mrtr', 'legacy-lossy'];
const EXT_DIST = join(REPO_ROOT, 'dist');

interface Args {
  sdk: 'v1' | 'v2';
  mode: ModeName | V2ScenarioName;
  port: number;
  browser: boolean;
  once: boolean;
  build: boolean;
  browserPath?: string;
  serve: boolean;
  /** Open the page with ?autorun=1 (the agent calls long_task on load). */
  autorun: boolean;
  /** Chromium's --remote-debugging-port (for checking the launch from a script). */
  debugPort?: number;
  /** --fault: a preset id or a fault (serve's short form or JSON), armed from the panel. */
  fault?: { text: string; specs: FaultSpec[] };
}

function usage(msg?: string): never {
  if (msg) console.error(`demo: ${msg}`);
  (msg ? console.error : console.log)(
    [
      'usage: npm run demo -- [options]',
      '  --sdk v1|v2     the official SDK the page\'s agent and the --once agent use: v1 = @modelcontextprotocol/sdk 1.32',
      '                  (default), v2 = @modelcontextprotocol/client 2.4 against the @modelcontextprotocol/server 2.4 fixture',
      `  --mode M        v1 server mode: ${DEMO_MODES.join(', ')} (also: ${MODE_NAMES.filter((m) => !DEMO_MODES.includes(m)).join(', ')}); default lossy`,
      `                  v2 scenario: ${DEMO_V2_MODES.join(', ')} (also: ${V2_SCENARIO_NAMES.filter((m) => !DEMO_V2_MODES.includes(m)).join(', ')}); default modern-reissue`,
      '  --port N        port of the demo page on 127.0.0.1 (default: any free port)',
      '  --no-browser    do not launch a browser; print how to load the extension and which URL to open',
      '  --once          start, check the page is served, run the agent once (Node SDK client), print JSON, exit',
      '  --no-build      do not build the extension even if dist/ is stale',
      '  --browser PATH  Chromium / Chrome for Testing binary (default: $CHROMIUM_PATH, $CHROME_PATH, /usr/bin/chromium)',
      '  --serve         with CI=true, keep serving instead of behaving like --once',
      '  --autorun       open the page with ?autorun=1: the agent calls long_task as soon as it loads',
      '  --remote-debugging-port N   passed to Chromium (to drive the launched browser from a script)',
      `  --fault F       arm a fault from the panel as soon as it opens (a preset: ${PRESETS.map((p) => p.id).join(', ')};`,
      '                  or a fault as serve --fault takes it, e.g. cut:3,method=tools/call); the server mode',
      '                  defaults to baseline (a correct server), so what breaks is the fault. With --once: the Node',
      '                  agent runs against a correct capture served with the fault, and the preset\'s verdict is printed',
    ].join('\n'),
  );
  process.exit(msg ? 2 : 0);
}

function parseArgs(argv: string[]): Args {
  const a: Args = { sdk: 'v1', mode: 'lossy', port: 0, browser: true, once: false, build: true, serve: false, autorun: false };
  let mode: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const x = argv[i]!;
    const v = () => argv[++i] ?? usage(`${x} needs a value`);
    if (x === '--mode') mode = v();
    else if (x.startsWith('--mode=')) mode = x.slice(7);
    else if (x === '--sdk' || x.startsWith('--sdk=')) {
      const s = x === '--sdk' ? v() : x.slice(6);
      if (s !== 'v1' && s !== 'v2') usage(`unknown sdk ${s} (v1 or v2)`);
      a.sdk = s;
    } else if (x === '--port') {
      const p = Number(v());
      if (!Number.isInteger(p) || p < 0 || p > 65535) usage('--port needs a port number');
      a.port = p;
    } else if (x === '--no-browser') a.browser = false;
    else if (x === '--once') a.once = true;
    else if (x === '--no-build') a.build = false;
    else if (x === '--browser') a.browserPath = v();
    else if (x === '--serve') a.serve = true;
    else if (x === '--autorun') a.autorun = true;
    else if (x === '--remote-debugging-port') a.debugPort = Number(v());
    else if (x === '--fault' || x.startsWith('--fault=')) {
      const text = x === '--fault' ? v() : x.slice(8);
      try {
        a.fault = { text, specs: parseFaultText(text) };
      } catch (e) {
        usage(e instanceof FaultSpecError ? e.message : String(e));
      }
    }
    else if (x === '-h' || x === '--help') usage();
    else usage(`unknown argument ${x}`);
  }
  if (a.sdk === 'v2') {
    if (mode !== undefined && !isV2ScenarioName(mode)) usage(`unknown mode ${mode} for --sdk v2 (a scenario: ${V2_SCENARIO_NAMES.join(', ')})`);
    a.mode = (mode as V2ScenarioName | undefined) ?? (a.fault ? 'modern-baseline' : 'modern-reissue');
  } else {
    if (mode !== undefined && !isModeName(mode)) usage(`unknown mode ${mode}${isV2ScenarioName(mode) ? ' (a v2 scenario: add --sdk v2)' : ''}`);
    a.mode = (mode as ModeName | undefined) ?? (a.fault ? 'baseline' : 'lossy');
  }
  if (process.env.CI === 'true' && !a.serve && !a.once) {
    console.log('demo: CI=true: behaving like --once --no-browser (pass --serve to keep serving)');
    a.once = true;
  }
  if (a.once) a.browser = false;
  if (a.once && a.fault && a.sdk === 'v2') usage('--once --fault runs the SDK v1 agent only; with --sdk v2, arm the fault in the panel (drop --once)');
  return a;
}

function run(cmd: string, args: string[]): void {
  console.log(`demo: $ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: REPO_ROOT, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`demo: "${cmd} ${args.join(' ')}" failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}

function buildIfStale(a: Args): { extension: 'built' | 'fresh' | 'stale' | 'missing' } {
  if (isDemoPageStale()) run('npx', ['vite', 'build', '--config', 'demo/vite.config.ts']);
  const extInputs = ['src', 'public', 'manifest.json', 'vite.config.ts'].map((p) => join(REPO_ROOT, p));
  const manifest = join(EXT_DIST, 'manifest.json');
  const stale = isStale(manifest, extInputs);
  if (!stale) return { extension: 'fresh' };
  if (!a.build) return { extension: existsSync(manifest) ? 'stale' : 'missing' };
  run('npm', ['run', 'build']);
  return { extension: 'built' };
}

function findBrowser(explicit?: string): string | undefined {
  const candidates = [explicit, process.env.CHROMIUM_PATH, process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome-for-testing'];
  return candidates.find((c): c is string => !!c && existsSync(c));
}

function whatToLookForV2(demo: DemoServer, mode: V2ScenarioName): string {
  const sc = V2_SCENARIOS[mode];
  return [
    '',
    `SDK v2 scenario "${mode}" (server: ${sc.server.era}, client negotiation: ${sc.client.negotiation}):`,
    `  ${sc.shows}.`,
    '',
    'What to look at:',
    '  1. The demo page runs the @modelcontextprotocol/client 2.4 agent; its "Check" box names the era,',
    '     the tools/call attempts and what the agent accumulated.',
    '  2. In DevTools → "MCP Streams": the session (legacy era) or the endpoint group (modern era) with',
    '     every stream and request; the Events table shows each SSE message in order.',
    sc.expect.era === 'legacy'
      ? `  3. The findings are the v1 fixture's for the same fault: ${sc.expect.codes.join(', ') || 'none'}.`
      : `  3. The first screen names the 2026-07-28 finding this scenario is built for (${sc.expect.codes.join(', ') || 'none'}),\n` +
        '     with the era badge, and the timeline draws its re-issue / MRTR links and subscription outages.',
    `  4. The recorded capture of this scenario: ${demo.viewerUrl(`/captures/v2/${mode}.capture.json`)}`,
    '',
  ].join('\n');
}

function whatToLookFor(demo: DemoServer, mode: ModeName): string {
  return [
    '',
    'What to look at (about a minute):',
    '  1. On the demo page press "Call long_task". In "lossy" mode the page says the call succeeded',
    '     and that the data is wrong (a chunk is missing).',
    '  2. In DevTools → "MCP Streams": the red box at the top names the call accepted over a lossy',
    '     replay (lossy-result-accepted, request … tools/call long_task), the lost event ids and what',
    '     to do. The timeline shows the cut, the GET with Last-Event-ID and the gap; Requests shows',
    '     the verdict "lossy"; Findings lists every code (replay-gap, …).',
    '  3. Export ▾ → JSON / HAR / Perfetto trace / Markdown (downloads).',
    `  4. Standalone viewer: ${demo.viewerUrl()} → "Open file…" → the .msi.json you exported.`,
    `     A recorded ${mode === 'lossy' ? 'lossy' : 'lossy-mode'} capture opens at once: ${demo.viewerUrl('/captures/lossy.capture.json')}`,
    `     (the extension's own viewer: chrome-extension://<id>/src/panel/viewer.html?src=${demo.origin}/captures/lossy.capture.json)`,
    '',
  ].join('\n');
}

function whatToLookForFault(a: Args): string {
  const preset = presetById(a.fault!.text.trim());
  return [
    '',
    `Fault from the panel: ${a.fault!.specs.map(describeFault).join('; ')}`,
    ...(preset ? [`  ${preset.question} A correct client: ${preset.correct}`] : []),
    '',
    'What to look at:',
    '  1. Select the "MCP Streams" panel in DevTools: the fault is armed as it opens, and the toolbar\'s',
    '     ⚡ button says which faults are armed (click it for the presets, the armed list, what fired).',
    `  2. On the demo page press "Call long_task". The server (mode ${a.mode}) does nothing wrong: what breaks is the fault.`,
    '  3. The panel shows the fault as injected (⚡ injected from the panel on the findings it explains, a',
    '     fault record in the capture with what the page did not get) and, under the preset, what this',
    '     client did. To arm it by hand instead: ⚡ → the preset\'s Arm button, or type it in the box.',
    '',
  ].join('\n');
}

function manualInstructions(pageUrl: string): string {
  return [
    '',
    'To inspect the demo in your browser:',
    `  1. chrome://extensions → Developer mode → Load unpacked → ${EXT_DIST}`,
    '     (Chromium and Chrome for Testing can also be started with --load-extension; branded',
    '      Google Chrome ignores that flag since version 137, so load it by hand there.)',
    `  2. Open ${pageUrl}`,
    '  3. Open DevTools (F12) → the "MCP Streams" panel, then press "Call long_task" on the page.',
    '',
  ].join('\n');
}

function launchBrowser(bin: string, pageUrl: string, debugPort?: number): { child: ChildProcess; endpoint: Promise<string>; cleanup: () => void } {
  const profile = mkdtempSync(join(tmpdir(), 'mcp-stream-inspector-demo-'));
  const args = [
    `--user-data-dir=${profile}`,
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-dev-shm-usage',
    `--disable-extensions-except=${EXT_DIST}`,
    `--load-extension=${EXT_DIST}`,
    '--auto-open-devtools-for-tabs',
    ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
    ...(debugPort !== undefined ? [`--remote-debugging-port=${debugPort}`] : []),
    pageUrl,
  ];
  // stderr is read for the "DevTools listening on ws://…" line (--autorun drives the tab over it),
  // and drained afterwards so Chromium never blocks on a full pipe.
  const child = spawn(bin, args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  let found = false;
  const endpoint = new Promise<string>((resolve) => {
    child.stderr?.on('data', (d: Buffer) => {
      if (found) return;
      err += d.toString('utf8');
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(err);
      if (m) {
        found = true;
        resolve(m[1]!);
      } else if (err.length > 65536) err = err.slice(-4096);
    });
  });
  const cleanup = () => {
    try {
      if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
    rmSync(profile, { recursive: true, force: true });
  };
  return { child, endpoint, cleanup };
}

/**
 * --autorun: the agent calls long_task as soon as the page loads, but the relay records only once
 * the background knows DevTools inspects the tab (capture while DevTools is closed is off by
 * default), and --auto-open-devtools-for-tabs opens DevTools concurrently with the page. So the
 * browser starts on about:blank; once the DevTools page has connected, the tab is navigated.
 */
async function navigateWhenInspected(endpoint: Promise<string>, pageUrl: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  const poll = async <T>(f: () => Promise<T | null | undefined | false>): Promise<T> => {
    for (;;) {
      const v = await f().catch(() => null);
      if (v) return v as T;
      if (Date.now() > deadline) throw new Error('timed out waiting for the browser and DevTools');
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const ws = await Promise.race([endpoint, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('Chromium did not print its DevTools endpoint')), 30_000))]);
  const cdp = await connectCdp(ws);
  try {
    const sw = await poll(async () => (await cdp.targets()).find((t) => t.type === 'service_worker' && t.url.startsWith('chrome-extension://')));
    const swSession = await cdp.attach(sw.targetId);
    await poll(() => cdp.evaluate<boolean>(swSession, '(globalThis.__MSI_BACKGROUND__?.inspectedTabs().length ?? 0) > 0'));
    const tab = await poll(async () => (await cdp.targets()).find((t) => t.type === 'page' && t.url === 'about:blank'));
    const tabSession = await cdp.attach(tab.targetId);
    await cdp.send('Page.navigate', { url: pageUrl }, tabSession);
  } finally {
    cdp.close();
  }
}

async function once(a: Args, demo: DemoServer, ext: string): Promise<number> {
  const pageUrl = demo.pageUrl({ mode: a.mode, sdk: a.sdk, autorun: true });
  const page = await fetch(pageUrl);
  const html = await page.text();
  const script = /<script type="module"[^>]*src="([^"]+)"/.exec(html)?.[1];
  const bundle = script ? await fetch(new URL(script, pageUrl)) : undefined;
  const config = await fetch(new URL('/demo-config.js', pageUrl)).then((r) => r.text());
  const viewerHtml = await fetch(demo.viewerUrl()).then((r) => (r.ok ? r.text() : ''));
  const viewerScript = /<script type="module"[^>]*src="([^"]+)"/.exec(viewerHtml)?.[1];
  const viewerOk = !!viewerScript && (await fetch(new URL(viewerScript, demo.viewerUrl()))).ok;
  const pageOk = page.ok && html.includes('Demo web agent') && !!bundle?.ok && config.includes(demo.fixture.origin);

  if (a.sdk === 'v2') return onceV2(a, demo, ext, { pageUrl, pageOk: pageOk && config.includes(demo.fixtureV2.origin), viewerOk });
  if (a.fault) return onceFault(a, demo, pageOk);
  const mode = a.mode as ModeName;
  const preset: Partial<ScenarioOptions> = mode in SCENARIOS ? SCENARIOS[mode as keyof typeof SCENARIOS] : {};
  const r = await runScenario({ ...preset, name: mode, mode, server: demo.fixture, chunks: 8, delayMs: 20 });
  const o = r.outcome;
  const summary = {
    mode: a.mode,
    pageUrl,
    mcpUrl: demo.fixture.modeUrl(mode),
    page: pageOk ? 'ok' : 'broken',
    viewerUrl: demo.viewerUrl('/captures/lossy.capture.json'),
    viewer: viewerOk ? 'ok' : ext === 'missing' ? 'not built' : 'broken',
    extension: ext,
    agent: {
      callSucceeded: !!o.result && !o.error,
      hashMatches: o.hashMatches,
      missingChunks: o.missingChunks,
      foreignChunks: o.foreignChunks,
      resumes: o.resumes,
      ...(o.error ? { error: o.error.message } : {}),
    },
    records: r.records.length,
  };
  console.log(JSON.stringify(summary, null, 2));
  return pageOk ? 0 : 1;
}

/**
 * --once --fault: no browser here, so the fault is applied the way `serve --fault` applies it (the
 * same fault model as the panel): the Node agent records a run against the correct server, that
 * capture is served with the fault, the agent runs again against it, and the preset says what a
 * correct client does and what this one did.
 */
async function onceFault(a: Args, demo: DemoServer, pageOk: boolean): Promise<number> {
  const mode = a.mode as ModeName;
  const base = await runScenario({ name: mode, mode, server: demo.fixture, chunks: 8, delayMs: 20 });
  const preset = presetById(a.fault!.text.trim());
  const served = await startServe({ records: base.records, port: 0, faults: a.fault!.specs, ...(preset ? { presets: [preset] } : {}) });
  const url = served.endpoints[0]!.url;
  let faulted;
  try {
    faulted = await runScenario({ name: `${mode}+fault`, mode, server: { url, origin: served.origin, modeUrl: () => url, log: [], sessions: new Map(), close: async () => {} }, chunks: 8, delayMs: 20 });
  } finally {
    await served.close();
  }
  const o = faulted.outcome;
  const verdict = preset ? served.presetResults().find((r) => r.preset.id === preset.id)?.result : undefined;
  console.log(
    JSON.stringify(
      {
        mode,
        fault: a.fault!.specs.map(describeFault),
        ...(preset ? { preset: preset.id, question: preset.question, correct: preset.correct } : {}),
        ...(verdict ? { outcome: verdict.outcome, observed: verdict.observed } : {}),
        agent: { callSucceeded: !!o.result && !o.error, hashMatches: o.hashMatches, missingChunks: o.missingChunks, resumes: o.resumes, ...(o.error ? { error: o.error.message } : {}) },
        page: pageOk ? 'ok' : 'broken',
      },
      null,
      2,
    ),
  );
  return pageOk ? 0 : 1;
}

/**
 * --fault with a browser: the panel page loads when the user first selects "MCP Streams"; the
 * faults are armed in it then, through its CDP-only hook (as if typed in its faults box).
 */
async function armWhenPanelOpens(endpoint: Promise<string>, text: string): Promise<void> {
  const ws = await Promise.race([endpoint, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('Chromium did not print its DevTools endpoint')), 30_000))]);
  const cdp = await connectCdp(ws);
  const deadline = Date.now() + 30 * 60_000;
  try {
    for (;;) {
      const panel = (await cdp.targets().catch(() => [])).find((t) => t.url.startsWith('chrome-extension://') && t.url.includes('panel.html'));
      if (panel) {
        const s = await cdp.attach(panel.targetId);
        for (let i = 0; i < 100; i++) {
          const r = await cdp.evaluate<string | null>(s, `globalThis.__MSI_PANEL__ ? globalThis.__MSI_PANEL__.armFaults(${JSON.stringify(text)}) : null`).catch(() => null);
          if (r) {
            console.log(r === 'armed' ? `demo: fault armed in the panel: ${parseFaultText(text).map(describeFault).join('; ')}` : `demo: the panel refused the fault: ${r}`);
            return;
          }
          await new Promise((res) => setTimeout(res, 200));
        }
        return;
      }
      if (Date.now() > deadline) return;
      await new Promise((res) => setTimeout(res, 300));
    }
  } finally {
    cdp.close();
  }
}

/** --once --sdk v2: the same checks, then the v2 agent (Node, SDK v2 client) once against the v2 fixture. */
async function onceV2(a: Args, demo: DemoServer, ext: string, page: { pageUrl: string; pageOk: boolean; viewerOk: boolean }): Promise<number> {
  const mode = a.mode as V2ScenarioName;
  const r = await runV2Scenario(mode, { server: demo.fixtureV2, client: { chunks: 6, delayMs: 20 } });
  const o = r.outcome;
  const summary = {
    sdk: 'v2',
    mode,
    pageUrl: page.pageUrl,
    mcpUrl: demo.fixtureV2.modeUrl(mode),
    page: page.pageOk ? 'ok' : 'broken',
    viewerUrl: demo.viewerUrl(`/captures/v2/${mode}.capture.json`),
    viewer: page.viewerOk ? 'ok' : ext === 'missing' ? 'not built' : 'broken',
    extension: ext,
    agent: {
      era: o.era ?? null,
      protocolVersion: o.protocolVersion ?? null,
      callSucceeded: o.callSucceeded,
      hashMatches: o.hashMatches,
      missingChunks: o.missingChunks,
      attempts: o.attempts,
      chunksPerAttempt: o.chunksPerAttempt,
      resumes: o.resumes,
      ...(o.mrtr ? { mrtr: o.mrtr } : {}),
      ...(o.listen ? { listen: o.listen } : {}),
      ...(o.error ? { error: o.error.message } : {}),
    },
    expect: V2_SCENARIOS[mode].expect,
    records: r.records.length,
  };
  console.log(JSON.stringify(summary, null, 2));
  return page.pageOk ? 0 : 1;
}

async function main() {
  const a = parseArgs(process.argv.slice(2));
  const { extension } = buildIfStale(a);
  if (extension === 'missing' || extension === 'stale') {
    console.log(`demo: dist/ is ${extension} and --no-build was given: the extension may not match the sources`);
  }
  const demo = await startDemoServer({ mode: a.mode, sdk: a.sdk, port: a.port });
  const pageUrl = demo.pageUrl({ mode: a.mode, sdk: a.sdk, autorun: a.autorun });
  let browser: ReturnType<typeof launchBrowser> | undefined;
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    browser?.cleanup();
    await demo.close().catch(() => {});
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  if (a.once) {
    const code = await once(a, demo, extension);
    await stop(code);
    return;
  }

  console.log(`\nMCP Stream Inspector demo — SDK ${a.sdk}, mode "${a.mode}"`);
  console.log(`  demo page:  ${pageUrl}`);
  if (a.sdk === 'v2') console.log(`  MCP server: ${demo.fixtureV2.modeUrl(a.mode as V2ScenarioName)} (SDK v2; every scenario at ${demo.fixtureV2.origin}/mcp/<scenario>)`);
  else console.log(`  MCP server: ${demo.fixture.modeUrl(a.mode as ModeName)} (every mode at ${demo.fixture.origin}/mcp/<mode>)`);
  console.log(`  extension:  ${EXT_DIST} (${extension})`);
  console.log(`  viewer:     ${demo.viewerUrl()} (standalone viewer: open an export without DevTools)`);
  console.log(a.fault ? whatToLookForFault(a) : a.sdk === 'v2' ? whatToLookForV2(demo, a.mode as V2ScenarioName) : whatToLookFor(demo, a.mode as ModeName));

  const bin = a.browser ? findBrowser(a.browserPath) : undefined;
  const display = !!(process.env.DISPLAY || process.env.WAYLAND_DISPLAY) || process.platform === 'darwin' || process.platform === 'win32';
  if (!a.browser) {
    console.log(manualInstructions(pageUrl));
  } else if (!bin) {
    console.log('\ndemo: no Chromium found (looked at --browser, $CHROMIUM_PATH, $CHROME_PATH, /usr/bin/chromium): not opening a browser.');
    console.log(manualInstructions(pageUrl));
  } else if (!display) {
    console.log(`\ndemo: no display ($DISPLAY / $WAYLAND_DISPLAY unset): not opening ${bin}.`);
    console.log(manualInstructions(pageUrl));
  } else {
    console.log(`\ndemo: opening ${bin} with the extension loaded and DevTools open on the demo page.`);
    console.log(
      a.autorun
        ? '      The page opens once DevTools is up, and its agent calls long_task by itself: select the "MCP Streams" panel.'
        : '      Select the "MCP Streams" panel in DevTools, then press "Call long_task".',
    );
    browser = launchBrowser(bin, a.autorun ? 'about:blank' : pageUrl, a.autorun || a.fault ? (a.debugPort ?? 0) : a.debugPort);
    if (a.fault) {
      const text = a.fault.text;
      armWhenPanelOpens(browser.endpoint, text).catch((e: unknown) => {
        console.log(`demo: could not arm the fault (${e instanceof Error ? e.message : String(e)}); arm it in the panel: ⚡ → ${text}`);
      });
    }
    if (a.autorun) {
      const b = browser;
      navigateWhenInspected(b.endpoint, pageUrl).catch((e: unknown) => {
        console.log(`demo: could not wait for DevTools (${e instanceof Error ? e.message : String(e)}); open ${pageUrl} yourself.`);
      });
    }
    browser.child.on('exit', () => {
      console.log('demo: browser closed; stopping.');
      void stop(0);
    });
  }
  console.log('Press Ctrl+C to stop.');
}

main().catch((e: unknown) => {
  console.error(`demo: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});

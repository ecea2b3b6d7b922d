// The demo page. Query parameters (all optional):
//   sdk=v1|v2             which official SDK client the agent uses (default: the demo server's --sdk, v1):
//                         v1 = @modelcontextprotocol/sdk 1.32, v2 = @modelcontextprotocol/client 2.4
//   mode=<fixture mode>   default: the demo server's --mode (for v2: a scenario of test/fixtures/v2/scenarios.ts)
//   autorun=1             run once on load
//   chunks=N delayMs=N timeoutMs=N
//   server=<origin>       the fixture server's origin (default: the demo server's config)
// window.__demo = { config, outcome: Promise<DemoOutcome> (the first run), run(): Promise<DemoOutcome>, runs }

import { MODE_NAMES } from '../test/fixtures/mcp-server/options.js';
import { V2_SCENARIO_NAMES, isV2ScenarioName } from '../test/fixtures/v2/scenarios.js';
import { runAgent, type AgentOptions, type DemoOutcome } from './agent.js';
import { runAgentV2 } from './agent-v2.js';

interface DemoConfig {
  mcpOrigin: string;
  /** The SDK v2 fixture server (every scenario at <mcpV2Origin>/mcp/<scenario>). */
  mcpV2Origin: string;
  mode: string;
  sdk: 'v1' | 'v2';
}
/** What the page exposes as `window.__demo` (for tests driving the page). */
export interface DemoPageApi {
  config: { mode: string; url: string; sdk: 'v1' | 'v2' } & AgentOptions;
  /** The first run's outcome (the autorun's, or the first button press's). */
  outcome: Promise<DemoOutcome>;
  run(mode?: string): Promise<DemoOutcome>;
  runs: DemoOutcome[];
  running: boolean;
}
declare global {
  interface Window {
    __DEMO_CONFIG__?: Partial<DemoConfig>;
    __demo?: DemoPageApi;
  }
}

const params = new URLSearchParams(location.search);
const cfg = window.__DEMO_CONFIG__ ?? {};
const mcpOrigin = params.get('server') ?? cfg.mcpOrigin ?? location.origin;
const sdk: 'v1' | 'v2' = (params.get('sdk') ?? cfg.sdk) === 'v2' ? 'v2' : 'v1';
const mcpV2Origin = params.get('server') ?? cfg.mcpV2Origin ?? location.origin;
let mode = params.get('mode') ?? cfg.mode ?? (sdk === 'v2' ? 'modern-reissue' : 'lossy');
const num = (name: string, dflt: number) => {
  const v = Number(params.get(name));
  return params.has(name) && Number.isFinite(v) && v >= 0 ? v : dflt;
};

function optionsFor(m: string): { mode: string; url: string; sdk: 'v1' | 'v2' } & AgentOptions {
  const short = m === 'dropped-result' || m === 'session-404' || m === 'evicted' || /dropped-result|session-404|abandoned|result-event-type/.test(m);
  return {
    mode: m,
    sdk,
    url: `${sdk === 'v2' ? mcpV2Origin : mcpOrigin}/mcp/${m}`,
    chunks: num('chunks', 12),
    delayMs: num('delayMs', 120),
    timeoutMs: num('timeoutMs', short ? 3000 : 30_000),
    warmup: m === 'cross-stream' || m === 'duplicate-cross-stream',
  };
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const modeSelect = $<HTMLSelectElement>('mode');
const runButton = $<HTMLButtonElement>('run');

for (const m of sdk === 'v2' ? V2_SCENARIO_NAMES : MODE_NAMES) {
  const opt = document.createElement('option');
  opt.value = opt.textContent = m;
  modeSelect.append(opt);
}
modeSelect.value = mode;
$('sdk-name').textContent = sdk === 'v2' ? '@modelcontextprotocol/client 2.4, era negotiated per scenario' : '@modelcontextprotocol/sdk 1.32';

function setBadge(id: string, cls: 'good' | 'bad' | 'warn' | 'neutral', text: string) {
  const el = $(id);
  el.className = `badge ${cls}`;
  el.textContent = text;
}

function showEndpoint() {
  $('endpoint').textContent = optionsFor(mode).url;
}
showEndpoint();
modeSelect.addEventListener('change', () => {
  mode = modeSelect.value;
  showEndpoint();
});

let resolveFirst!: (o: DemoOutcome) => void;
const firstOutcome = new Promise<DemoOutcome>((r) => (resolveFirst = r));
const runs: DemoOutcome[] = [];

async function run(m: string = mode): Promise<DemoOutcome> {
  const o = optionsFor(m);
  demo.running = true;
  runButton.disabled = true;
  $('output').textContent = '';
  $('result').textContent = '';
  $('check').textContent = '';
  $('log').textContent = '';
  const bar = $<HTMLProgressElement>('progress');
  bar.max = o.chunks;
  bar.value = 0;
  $('progress-text').textContent = '';
  setBadge('call-status', 'neutral', 'Calling long_task…');
  setBadge('data-status', 'neutral', '—');
  const t0 = performance.now();
  const events = {
    log(line: string) {
      const li = document.createElement('li');
      li.textContent = `${((performance.now() - t0) / 1000).toFixed(2)}s ${line}`;
      $('log').append(li);
    },
    progress(value: number, total: number) {
      bar.max = total;
      bar.value = value;
      $('progress-text').textContent = `${value} / ${total}`;
    },
    chunk(_c: unknown, accumulated: string) {
      $('output').textContent = accumulated;
    },
  };
  const outcome: DemoOutcome =
    sdk === 'v2' && isV2ScenarioName(m)
      ? await runAgentV2(m, { url: o.url, chunks: o.chunks, delayMs: o.delayMs, ...(params.has('timeoutMs') ? { timeoutMs: o.timeoutMs } : {}) }, events)
      : await runAgent(m, o, events);
  if (outcome.callSucceeded) setBadge('call-status', 'good', '✔ The call succeeded');
  else setBadge('call-status', 'bad', `✘ The call failed: ${outcome.error?.message ?? 'unknown error'}`);
  if (outcome.hashMatches === true) setBadge('data-status', 'good', '✔ Output matches the result hash');
  else if (outcome.hashMatches === false)
    setBadge(
      'data-status',
      'bad',
      `✘ The data is wrong: accumulated output ≠ result sha256` +
        (outcome.missingChunks.length ? ` (missing chunk ${outcome.missingChunks.join(', ')})` : '') +
        (outcome.foreignChunks ? ` (${outcome.foreignChunks} chunks of another call)` : ''),
    );
  else setBadge('data-status', 'warn', 'No result to check against');
  $('result').textContent = outcome.resultText ?? outcome.error?.message ?? '';
  const dl = $('check');
  const rows: [string, string][] = [
    ['chunks received', `${outcome.chunksReceived} of ${outcome.chunksExpected}`],
    ['missing chunks', outcome.missingChunks.join(', ') || 'none'],
    ['result sha256', outcome.resultSha256 ?? '—'],
    ['accumulated sha256', outcome.accumulatedSha256],
    ['session', outcome.sessionId ?? '—'],
    ['SDK', sdk === 'v2' ? '@modelcontextprotocol/client 2.4' : '@modelcontextprotocol/sdk 1.32'],
    ...('era' in outcome ? ([['era', String((outcome as { era?: string }).era ?? '—')]] as [string, string][]) : []),
    ...('attempts' in outcome ? ([['tools/call attempts', String((outcome as { attempts: number }).attempts)]] as [string, string][]) : []),
    ['duration', `${outcome.durationMs} ms`],
  ];
  for (const [k, v] of rows) {
    const dt = document.createElement('dt');
    dt.textContent = k;
    const dd = document.createElement('dd');
    dd.textContent = v;
    dl.append(dt, dd);
  }
  document.body.dataset.outcome = outcome.hashMatches === false ? 'wrong' : outcome.callSucceeded ? 'ok' : 'failed';
  runs.push(outcome);
  demo.running = false;
  runButton.disabled = false;
  resolveFirst(outcome);
  return outcome;
}

const demo: DemoPageApi = {
  config: optionsFor(mode),
  outcome: firstOutcome,
  run,
  runs,
  running: false,
};
window.__demo = demo;
runButton.addEventListener('click', () => void run());
if (params.get('autorun') === '1' || params.get('autorun') === 'true') void run();

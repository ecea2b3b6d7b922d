// The demo page. Query parameters (all optional):
//   mode=<fixture mode>   default: the demo server's --mode
//   autorun=1             run once on load
//   chunks=N delayMs=N timeoutMs=N
//   server=<origin>       the fixture server's origin (default: the demo server's config)
// window.__demo = { config, outcome: Promise<DemoOutcome> (the first run), run(): Promise<DemoOutcome>, runs }

import { MODE_NAMES } from '../test/fixtures/mcp-server/options.js';
import { runAgent, type AgentOptions, type DemoOutcome } from './agent.js';

interface DemoConfig {
  mcpOrigin: string;
  mode: string;
}
/** What the page exposes as `window.__demo` (for tests driving the page). */
export interface DemoPageApi {
  config: { mode: string; url: string } & AgentOptions;
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
let mode = params.get('mode') ?? cfg.mode ?? 'lossy';
const num = (name: string, dflt: number) => {
  const v = Number(params.get(name));
  return params.has(name) && Number.isFinite(v) && v >= 0 ? v : dflt;
};

function optionsFor(m: string): { mode: string; url: string } & AgentOptions {
  const short = m === 'dropped-result' || m === 'session-404' || m === 'evicted';
  return {
    mode: m,
    url: `${mcpOrigin}/mcp/${m}`,
    chunks: num('chunks', 12),
    delayMs: num('delayMs', 120),
    timeoutMs: num('timeoutMs', short ? 3000 : 30_000),
    warmup: m === 'cross-stream',
  };
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const modeSelect = $<HTMLSelectElement>('mode');
const runButton = $<HTMLButtonElement>('run');

for (const m of MODE_NAMES) {
  const opt = document.createElement('option');
  opt.value = opt.textContent = m;
  modeSelect.append(opt);
}
modeSelect.value = mode;

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
  const outcome = await runAgent(m, o, {
    log(line) {
      const li = document.createElement('li');
      li.textContent = `${((performance.now() - t0) / 1000).toFixed(2)}s ${line}`;
      $('log').append(li);
    },
    progress(value, total) {
      bar.max = total;
      bar.value = value;
      $('progress-text').textContent = `${value} / ${total}`;
    },
    chunk(_c, accumulated) {
      $('output').textContent = accumulated;
    },
  });
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

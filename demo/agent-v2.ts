// The demo's SDK v2 web agent: the same application as the v2 fixture scenarios
// (test/fixtures/v2/client/agent.ts, on @modelcontextprotocol/client 2.4 bundled for the browser),
// run with the page's own fetch, looked up at call time so an inspector's hook sees every request.
// Its outcome is mapped onto the page's DemoOutcome so main.ts renders both SDKs alike.

import { runV2Agent, type V2AgentOutcome } from '../test/fixtures/v2/client/agent.js';
import { v2Scenario, type V2ScenarioName } from '../test/fixtures/v2/scenarios.js';
import type { AgentEvents, DemoOutcome } from './agent.js';

export interface V2DemoOutcome extends DemoOutcome {
  sdk: 'v2';
  era?: string;
  attempts: number;
  v2: V2AgentOutcome;
}

export async function runAgentV2(
  scenario: V2ScenarioName,
  o: { url: string; chunks: number; delayMs: number; timeoutMs?: number },
  ev: AgentEvents,
): Promise<V2DemoOutcome> {
  const sc = v2Scenario(scenario);
  const r = await runV2Agent(
    {
      ...sc.client,
      url: o.url,
      chunks: o.chunks,
      delayMs: o.delayMs,
      timeoutMs: o.timeoutMs ?? sc.client.timeoutMs ?? 30_000,
      clientName: 'demo-web-agent-v2',
      fetch: (input, init) => globalThis.fetch(input, init),
    },
    { log: ev.log, progress: ev.progress, chunk: ev.chunk },
  );
  return {
    sdk: 'v2',
    mode: scenario,
    url: o.url,
    ...(r.sessionId ? { sessionId: r.sessionId } : {}),
    callSucceeded: r.callSucceeded,
    ...(r.error ? { error: { message: r.error.message, ...(r.error.code !== undefined ? { code: r.error.code } : {}) } } : {}),
    ...(r.resultText ? { resultText: r.resultText } : {}),
    ...(r.resultSha256 ? { resultSha256: r.resultSha256 } : {}),
    accumulatedSha256: r.accumulatedSha256,
    hashMatches: r.hashMatches,
    chunksReceived: r.chunksReceived,
    chunksExpected: r.chunksExpected,
    missingChunks: r.missingChunks,
    foreignChunks: 0,
    progress: r.progress,
    durationMs: r.durationMs,
    ...(r.era ? { era: r.era } : {}),
    attempts: r.attempts,
    v2: r,
  };
}

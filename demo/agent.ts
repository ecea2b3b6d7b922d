// The demo's web agent: the official SDK client in the browser, calling long_task and checking
// what it accumulated against the sha256 in the result. No DOM here (main.ts renders).

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  LONG_TASK_LOGGER,
  isChunkMessageData,
  sha256FromResultText,
  type ChunkMessageData,
} from '../test/fixtures/mcp-server/long-task.js';

export interface AgentOptions {
  url: string;
  chunks: number;
  delayMs: number;
  timeoutMs: number;
  /** A complete warm-up call before the main one (the cross-stream mode needs another stream). */
  warmup: boolean;
}

export interface DemoOutcome {
  mode: string;
  url: string;
  sessionId?: string;
  /** The tools/call resolved (the SDK reported success). */
  callSucceeded: boolean;
  error?: { message: string; code?: number | string };
  resultText?: string;
  resultSha256?: string;
  accumulatedSha256: string;
  /** null when there is no result to compare with. */
  hashMatches: boolean | null;
  chunksReceived: number;
  chunksExpected: number;
  missingChunks: number[];
  foreignChunks: number;
  progress: number[];
  durationMs: number;
}

export interface AgentEvents {
  log(line: string): void;
  progress(value: number, total: number): void;
  chunk(c: ChunkMessageData, accumulated: string): void;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export async function runAgent(mode: string, o: AgentOptions, ev: AgentEvents): Promise<DemoOutcome> {
  const started = performance.now();
  // Look fetch up at call time, so an inspector's hook installed on window.fetch sees every request.
  const transport = new StreamableHTTPClientTransport(new URL(o.url), {
    fetch: (input, init) => globalThis.fetch(input, init),
  });
  const client = new Client({ name: 'demo-web-agent', version: '1.0.0' });
  client.onerror = (e) => ev.log(`transport: ${e.message}`);

  let bucket: ChunkMessageData[] | undefined;
  let accumulated = '';
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    if (n.params.logger !== LONG_TASK_LOGGER || !isChunkMessageData(n.params.data) || !bucket) return;
    bucket.push(n.params.data);
    if (bucket === main) {
      accumulated += n.params.data.chunk;
      ev.chunk(n.params.data, accumulated);
    }
  });
  const main: ChunkMessageData[] = [];
  const progress: number[] = [];
  let result: CallToolResult | undefined;
  let error: DemoOutcome['error'];

  try {
    ev.log(`connect ${o.url}`);
    await client.connect(transport);
    ev.log(`session ${transport.sessionId ?? '(none)'}, protocol ${transport.protocolVersion ?? '?'}`);
    const tools = await client.listTools();
    ev.log(`tools: ${tools.tools.map((t) => t.name).join(', ')}`);
    if (o.warmup) {
      bucket = [];
      ev.log('warm-up call long_task {chunks: 3}');
      await client.callTool({ name: 'long_task', arguments: { chunks: 3, delayMs: 10, tag: 'warmup' } });
    }
    bucket = main;
    ev.log(`call long_task {chunks: ${o.chunks}, delayMs: ${o.delayMs}}`);
    result = (await client.callTool(
      { name: 'long_task', arguments: { chunks: o.chunks, delayMs: o.delayMs, tag: 'main' } },
      undefined,
      {
        timeout: o.timeoutMs,
        onprogress: (p) => {
          progress.push(p.progress);
          ev.progress(p.progress, p.total ?? o.chunks);
        },
      },
    )) as CallToolResult;
    ev.log('tools/call resolved');
  } catch (e) {
    const err = e as Error & { code?: number | string };
    error = { message: err.message, ...(err.code !== undefined ? { code: err.code } : {}) };
    ev.log(`tools/call failed: ${err.message}`);
  } finally {
    bucket = undefined;
  }
  const sessionId = transport.sessionId;
  await client.close().catch(() => {});

  const text = result?.content.find((c) => c.type === 'text');
  const resultText = text && text.type === 'text' ? text.text : undefined;
  const resultSha256 = resultText ? sha256FromResultText(resultText) : undefined;
  const accumulatedSha256 = await sha256Hex(main.map((c) => c.chunk).join(''));
  const own = new Set(main.filter((c) => c.call === 'main').map((c) => c.index));
  const missingChunks: number[] = [];
  for (let i = 1; i <= o.chunks; i++) if (!own.has(i)) missingChunks.push(i);
  return {
    mode,
    url: o.url,
    ...(sessionId ? { sessionId } : {}),
    callSucceeded: !!result && !error,
    ...(error ? { error } : {}),
    ...(resultText ? { resultText } : {}),
    ...(resultSha256 ? { resultSha256 } : {}),
    accumulatedSha256,
    hashMatches: resultSha256 ? resultSha256 === accumulatedSha256 : null,
    chunksReceived: main.length,
    chunksExpected: o.chunks,
    missingChunks,
    foreignChunks: main.filter((c) => c.call !== 'main').length,
    progress,
    durationMs: Math.round(performance.now() - started),
  };
}

// The official SDK client (v1, the 2025 era) on a recording fetch: what a real client does with
// the server's streams (its own resumption with Last-Event-ID after a cut included).

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createRecorder, errorText, type Recorder } from './record-fetch';
import { createHttpFetch } from './http-fetch';
import type { ProbeSettings } from './settings';
import { PRODUCT_VERSION } from '../../export/version';

export interface ProbeSession {
  /** tools/call through the SDK (v1 and v2 spell it differently). */
  call(name: string, args: Record<string, unknown>, options: { timeout: number; signal?: AbortSignal }): Promise<unknown>;
  listTools(): Promise<{ name: string; annotations?: { readOnlyHint?: boolean; idempotentHint?: boolean; destructiveHint?: boolean } }[]>;
  era: 'legacy' | 'modern';
  recorder: Recorder;
  sessionId: string | undefined;
  protocolVersion: string | undefined;
  close(): Promise<void>;
}

export async function openSession(s: ProbeSettings, src: string): Promise<ProbeSession> {
  const http = createHttpFetch();
  const recorder = createRecorder(src, http.fetch);
  const transport = new StreamableHTTPClientTransport(new URL(s.url), {
    fetch: recorder.fetch,
    requestInit: { headers: s.headers },
    // The SDK's own reconnect (Last-Event-ID) after a cut: quick, and few retries, so an unresumable
    // stream ends the experiment soon.
    reconnectionOptions: { initialReconnectionDelay: 50, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 2, maxRetries: 2 },
  });
  const client = new Client({ name: 'mcp-stream-inspector-probe', version: PRODUCT_VERSION }, { capabilities: {} });
  // The SDK reports stream errors (our own cuts among them) here; the records hold them.
  client.onerror = () => {};
  // Bounded by --timeout, as every call is (the SDK's default is 60 s: a server that never answers).
  await client.connect(transport, { timeout: s.timeoutMs });
  return {
    era: 'legacy',
    call: (name, args, o) => client.callTool({ name, arguments: args }, undefined, { onprogress: () => {}, timeout: o.timeout, ...(o.signal ? { signal: o.signal } : {}) }),
    listTools: async () => (await client.listTools(undefined, { timeout: s.timeoutMs })).tools,
    recorder,
    sessionId: transport.sessionId,
    protocolVersion: transport.protocolVersion,
    async close() {
      // DELETE ends the session on the server; a server that refuses it (405) is fine.
      await transport.terminateSession().catch(() => {});
      await client.close().catch(() => {});
      http.close();
    },
  };
}

export interface CallOutcome {
  ok: boolean;
  result?: unknown;
  error?: string;
  /** The call did not finish in time (the result never reached the client). */
  timedOut?: boolean;
  ms: number;
}

/** tools/call with a progress token (so the server may stream progress), bounded by the timeout. */
export async function callTool(p: ProbeSession, name: string, args: Record<string, unknown>, timeoutMs: number, signal?: AbortSignal): Promise<CallOutcome> {
  const t0 = Date.now();
  try {
    const result = await p.call(name, args, { timeout: timeoutMs, ...(signal ? { signal } : {}) });
    return { ok: true, result, ms: Date.now() - t0 };
  } catch (e) {
    const text = errorText(e);
    return { ok: false, error: text, timedOut: /timed out|timeout/i.test(text), ms: Date.now() - t0 };
  }
}

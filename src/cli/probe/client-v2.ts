// The official SDK v2 client (@modelcontextprotocol/client) on the probe's recording fetch: the
// 2026-07-28 era (no sessions, no Last-Event-ID), or whatever `auto` negotiation settles on.

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createHttpFetch } from './http-fetch';
import { createRecorder } from './record-fetch';
import type { ProbeSession } from './client';
import type { ProbeSettings } from './settings';
import { PRODUCT_VERSION } from '../../export/version';

export interface V2Session extends ProbeSession {
  client: Client;
}

export async function openV2Session(s: ProbeSettings, src: string, mode: 'auto' | 'legacy' = 'auto'): Promise<V2Session> {
  const http = createHttpFetch();
  const recorder = createRecorder(src, http.fetch);
  const transport = new StreamableHTTPClientTransport(new URL(s.url), {
    fetch: (input, init) => recorder.fetch(input, init),
    requestInit: { headers: s.headers },
    reconnectionOptions: { initialReconnectionDelay: 50, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 2, maxRetries: 2 },
  });
  const client = new Client({ name: 'mcp-stream-inspector-probe', version: PRODUCT_VERSION }, { versionNegotiation: { mode } });
  client.onerror = () => {};
  try {
    await client.connect(transport, { timeout: s.timeoutMs });
  } catch (e) {
    http.close();
    throw e;
  }
  return {
    client,
    era: client.getProtocolEra() === 'modern' ? 'modern' : 'legacy',
    call: (name, args, o) => client.callTool({ name, arguments: args }, { onprogress: () => {}, timeout: o.timeout, ...(o.signal ? { signal: o.signal } : {}) }),
    listTools: async () => (await client.listTools(undefined, { timeout: s.timeoutMs })).tools,
    recorder,
    sessionId: transport.sessionId,
    protocolVersion: client.getNegotiatedProtocolVersion?.() ?? transport.protocolVersion,
    async close() {
      await client.close().catch(() => {});
      http.close();
    },
  };
}

// The MCP server's tools in this process (no CLI build): the official SDK v2 client linked to
// createMcpServer over an in-memory transport, on a context the test builds (a fake live tab).
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import type { McpContext } from '../../src/cli/mcp/context';
import { createMcpServer } from '../../src/cli/mcp/server';
import { callTool, refusal } from './mcp-cli';

export interface InProcess {
  /** A tool's structuredContent; throws with its error text. */
  call(name: string, args?: Record<string, unknown>): Promise<Record<string, any>>;
  /** The error text of a tool that must refuse. */
  refusal(name: string, args?: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

export async function connectInProcess(ctx: McpContext): Promise<InProcess> {
  const server = createMcpServer(ctx);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'msi-test', version: '1.0.0' });
  await client.connect(clientSide);
  return {
    call: (name, args = {}) => callTool(client, name, args),
    refusal: (name, args = {}) => refusal(client, name, args),
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

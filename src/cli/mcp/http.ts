// --http: Streamable HTTP on 127.0.0.1 only. A browser page (the page under debugging is
// untrusted) must not reach it: requests whose Host is not this server's loopback address, or
// that carry an Origin other than the server's own, are refused before the SDK sees them (DNS
// rebinding; a page on another localhost port).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import type { McpContext } from './context';
import { createMcpServer } from './server';

export const MCP_PATH = '/mcp';

export interface HttpHandle {
  url: string;
  port: number;
  close(): Promise<void>;
}

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message } }));
}

/** Whether the Host and Origin headers name this server (loopback, this port) or are absent (Origin). */
export function checkHeaders(req: Pick<IncomingMessage, 'headers'>, port: number): string | undefined {
  const allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  const host = req.headers.host;
  if (typeof host !== 'string' || !allowedHosts.includes(host.toLowerCase())) return 'Host header refused: this server answers only 127.0.0.1 / localhost on its own port';
  const origin = req.headers.origin;
  if (origin !== undefined && !allowedHosts.map((h) => `http://${h}`).includes(String(origin).toLowerCase())) return 'Origin refused: web pages may not use this server';
  return undefined;
}

export async function startHttp(ctx: McpContext, port: number): Promise<HttpHandle> {
  const handler = createMcpHandler(() => createMcpServer(ctx));
  const node = toNodeHandler(handler);
  let actual = 0;
  const server: Server = createServer((req, res) => {
    const bad = checkHeaders(req, actual);
    if (bad) return refuse(res, 403, bad);
    const path = (req.url ?? '/').split('?')[0];
    if (path !== MCP_PATH) return refuse(res, 404, `not found: the MCP endpoint is ${MCP_PATH}`);
    void node(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}${MCP_PATH}`,
    port: actual,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// A loopback HTTP server for e2e pages and streams. Pages are served from 127.0.0.1; the same
// server answers on `localhost` too, which the browser treats as a different origin (iframes).

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => unknown;

export interface TestServer {
  port: number;
  /** http://127.0.0.1:<port> */
  origin: string;
  /** http://localhost:<port> (another origin for the browser) */
  altOrigin: string;
  url(path: string): string;
  altUrl(path: string): string;
  /** Serve an HTML page at `path`. */
  page(path: string, html: string): void;
  /** Handle `path` (any method) with `handler`; the request body is read first. */
  route(path: string, handler: Handler): void;
  /** Requests seen so far (method, path, headers). */
  log: { method: string; path: string; headers: IncomingMessage['headers']; body: string }[];
  close(): Promise<void>;
}

export async function startTestServer(): Promise<TestServer> {
  const routes = new Map<string, Handler>();
  routes.set('/favicon.ico', (_req, res) => res.writeHead(204).end()); // no 404 noise in consoles
  const sockets = new Set<import('node:net').Socket>();
  const log: TestServer['log'] = [];
  const server: Server = createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    log.push({ method: req.method ?? 'GET', path, headers: req.headers, body });
    const h = routes.get(path);
    if (!h) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    try {
      await h(req, res, body);
    } catch (e) {
      if (!res.headersSent) res.writeHead(500).end(String(e));
      else res.destroy();
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  const altOrigin = `http://localhost:${port}`;
  return {
    port,
    origin,
    altOrigin,
    url: (p) => origin + p,
    altUrl: (p) => altOrigin + p,
    page(path, html) {
      routes.set(path, (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
      });
    },
    route(path, handler) {
      routes.set(path, handler);
    },
    log,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** Write SSE events `{id, event, data}` as one chunk each, then end (or keep open). */
export function sse(
  events: { id?: string; event?: string; data: string; retry?: number }[],
  opts: { end?: boolean; status?: number; headers?: Record<string, string> } = {},
): Handler {
  return (_req, res) => {
    res.writeHead(opts.status ?? 200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...opts.headers });
    for (const e of events) {
      let s = '';
      if (e.retry !== undefined) s += `retry: ${e.retry}\n`;
      if (e.id !== undefined) s += `id: ${e.id}\n`;
      if (e.event !== undefined) s += `event: ${e.event}\n`;
      for (const line of e.data.split('\n')) s += `data: ${line}\n`;
      res.write(s + '\n');
    }
    if (opts.end ?? true) res.end();
  };
}

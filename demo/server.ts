// Serves the demo page (demo/dist, built by demo/vite.config.ts) on 127.0.0.1 next to a fixture MCP
// server on another port (so the page's MCP traffic is cross-origin, with CORS, as in real life).
// Used by scripts/demo.ts and by the panel's end-to-end tests:
//
//   const demo = await startDemoServer({ mode: 'lossy' });
//   demo.pageUrl({ mode: 'lossy', autorun: true })  // http://127.0.0.1:<p>/?mode=lossy&autorun=1
//   await demo.close();
//
// The page reads its config from /demo-config.js: { mcpOrigin, mcpV2Origin, mode, sdk }. Every fixture mode is
// served at <mcpOrigin>/mcp/<mode>; the page's ?mode= picks one. The extension's build output
// (dist/) is also served read-only under /ext/, and the standalone viewer at /viewer (its
// /assets/ fall back to dist/assets): /viewer?src=/captures/lossy.capture.json opens a recorded
// capture (test/fixtures/captures), and /viewer alone offers "Open file…" for an export. Every
// answer carries `access-control-allow-origin: *`, so the extension's own viewer
// (chrome-extension://<id>/src/panel/viewer.html?src=<this origin>/captures/…) can fetch them too.

import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ModeName } from '../test/fixtures/mcp-server/options.js';
import { startFixtureServer, type FixtureServer } from '../test/fixtures/mcp-server/server.js';
import type { V2ScenarioName } from '../test/fixtures/v2/scenarios.js';
import { startV2FixtureServer, type V2FixtureServer } from '../test/fixtures/v2/server/server.js';
import { buildDemoPage } from './build.js';

/** The page's `window.__demo` and the outcome of one run (types only). */
export type { DemoPageApi } from './main.js';
export type { DemoOutcome } from './agent.js';

export const DEMO_DIR = fileURLToPath(new URL('.', import.meta.url));
export const DEMO_DIST = join(DEMO_DIR, 'dist');
export const REPO_ROOT = resolve(DEMO_DIR, '..');

export interface DemoServerOptions {
  /** Default mode of the page (its ?mode= overrides). Default 'lossy' (v1) / 'modern-reissue' (v2). */
  mode?: ModeName | V2ScenarioName;
  /** Default SDK of the page's agent (its ?sdk= overrides). Default 'v1'. */
  sdk?: 'v1' | 'v2';
  /** Use this SDK v2 fixture server instead of starting one. */
  fixtureV2?: V2FixtureServer;
  host?: string;
  /** Page port; default 0 (ephemeral). */
  port?: number;
  /** Fixture server port; default 0. */
  mcpPort?: number;
  /** Use this fixture server instead of starting one. */
  fixture?: FixtureServer;
  /** Directory of the built page. Default demo/dist. */
  distDir?: string;
  /** Build demo/dist first if it is missing or stale (vite). Default true. */
  build?: boolean;
}

export interface PageParams {
  mode?: ModeName | V2ScenarioName;
  sdk?: 'v1' | 'v2';
  autorun?: boolean;
  chunks?: number;
  delayMs?: number;
  timeoutMs?: number;
}

export interface DemoServer {
  origin: string;
  fixture: FixtureServer;
  /** The SDK v2 fixture server (scenarios at <origin>/mcp/<scenario>). */
  fixtureV2: V2FixtureServer;
  pageUrl(p?: PageParams): string;
  /** The standalone viewer served here; with `src` (a path on this server or a URL) it opens that file. */
  viewerUrl(src?: string): string;
  close(): Promise<void>;
}

/** Recorded captures served under /captures/ (CaptureFile JSON and HAR). */
export const CAPTURES_DIR = join(REPO_ROOT, 'test', 'fixtures', 'captures');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.har': 'application/json',
  '.md': 'text/markdown; charset=utf-8',
};

async function serveFile(res: ServerResponse, root: string, rel: string): Promise<boolean> {
  const path = normalize(join(root, rel));
  if (path !== root && !path.startsWith(root.endsWith(sep) ? root : root + sep)) return false;
  try {
    const s = await stat(path);
    if (!s.isFile()) return false;
  } catch {
    return false;
  }
  res.writeHead(200, {
    'content-type': TYPES[extname(path)] ?? 'application/octet-stream',
    'cache-control': 'no-store',
    // Read-only static files: the extension's viewer page (another origin) may fetch them (?src=).
    'access-control-allow-origin': '*',
  });
  res.end(await readFile(path));
  return true;
}

export async function startDemoServer(opts: DemoServerOptions = {}): Promise<DemoServer> {
  const dist = opts.distDir ?? DEMO_DIST;
  if (opts.build !== false && !opts.distDir) await buildDemoPage();
  if (!existsSync(join(dist, 'index.html'))) {
    throw new Error(`demo page not built: ${join(dist, 'index.html')} is missing (npx vite build --config demo/vite.config.ts)`);
  }
  const host = opts.host ?? '127.0.0.1';
  const fixture = opts.fixture ?? (await startFixtureServer({ host, port: opts.mcpPort ?? 0 }));
  const fixtureV2 = opts.fixtureV2 ?? (await startV2FixtureServer({ host }));
  const sdk = opts.sdk ?? 'v1';
  const mode = opts.mode ?? (sdk === 'v2' ? 'modern-reissue' : 'lossy');
  const extDir = join(REPO_ROOT, 'dist');

  const http = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const p = decodeURIComponent(url.pathname);
    (async () => {
      if (p === '/demo-config.js') {
        res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
        res.end(`window.__DEMO_CONFIG__ = ${JSON.stringify({ mcpOrigin: fixture.origin, mcpV2Origin: fixtureV2.origin, mode, sdk })};\n`);
        return;
      }
      if (p === '/favicon.ico') {
        res.writeHead(204);
        res.end();
        return;
      }
      if (p.startsWith('/ext/') && (await serveFile(res, extDir, p.slice('/ext/'.length)))) return;
      if ((p === '/viewer' || p === '/viewer/' || p === '/viewer.html') && (await serveFile(res, extDir, 'src/panel/viewer.html'))) return;
      if (p.startsWith('/captures/') && (await serveFile(res, CAPTURES_DIR, p.slice('/captures/'.length)))) return;
      if (await serveFile(res, dist, p === '/' ? 'index.html' : p.slice(1))) return;
      // The viewer's (and the extension pages') absolute /assets/… and /icons/… from dist/.
      if ((p.startsWith('/assets/') || p.startsWith('/icons/')) && (await serveFile(res, extDir, p.slice(1)))) return;
      res.writeHead(404, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' });
      res.end('not found');
    })().catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(e));
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(opts.port ?? 0, host, () => resolve());
  });
  const addr = http.address() as AddressInfo;
  const origin = `http://${host}:${addr.port}`;

  return {
    origin,
    fixture,
    fixtureV2,
    pageUrl(p: PageParams = {}) {
      const q = new URLSearchParams();
      if ((p.sdk ?? sdk) === 'v2') q.set('sdk', 'v2');
      q.set('mode', p.mode ?? mode);
      if (p.autorun) q.set('autorun', '1');
      if (p.chunks !== undefined) q.set('chunks', String(p.chunks));
      if (p.delayMs !== undefined) q.set('delayMs', String(p.delayMs));
      if (p.timeoutMs !== undefined) q.set('timeoutMs', String(p.timeoutMs));
      return `${origin}/?${q.toString()}`;
    },
    viewerUrl(src?: string) {
      return src ? `${origin}/viewer?src=${encodeURIComponent(src).replace(/%2F/g, '/').replace(/%3A/g, ':')}` : `${origin}/viewer`;
    },
    async close() {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      if (!opts.fixture) await fixture.close();
      if (!opts.fixtureV2) await fixtureV2.close();
    },
  };
}

// `mcp-stream-inspector mcp`: the inspector as an MCP server for coding agents, over stdio (the
// default) or Streamable HTTP on 127.0.0.1 (--http). See docs/mcp-server.md.
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { IMPORT_LIMIT_BYTES } from '../../core/import/index';
import { CaptureSet } from './captures';
import type { McpContext } from './context';
import { startHttp } from './http';
import { connectBrowser } from './live/bridge';
import { realRoot } from './paths';
import { createMcpServer } from './server';
import { untilSignal } from '../until-signal';

const NAME = 'mcp-stream-inspector';
export const DEFAULT_MCP_PORT = 6398;
export const INLINE_MAX_BYTES = 1_000_000;

export const MCP_USAGE = `Usage: ${NAME} mcp [--root DIR] [--http [--port N]] [--browser-url URL] [--max-size MB]

The inspector as an MCP server for coding agents (Claude Code, Cursor, VS Code...): tools that open
HAR and capture files and answer with sessions, timelines, findings, events, a request's verdict
and what to do, exports; with --browser-url, the same on a Chrome tab's live capture, and faults.
See docs/mcp-server.md for the configuration lines.

  --root DIR         the folder tools may read and write in (default: the current folder); any
                     path outside it is refused
  --http             serve Streamable HTTP on 127.0.0.1 instead of stdio (Host and Origin checked)
  --port N           the --http port (default ${DEFAULT_MCP_PORT}; 0 picks a free one)
  --browser-url URL  a Chrome started with --remote-debugging-port, with the extension loaded and
                     "Let coding agents read this browser's MCP captures..." on in its settings
                     (e.g. http://127.0.0.1:9222); loopback addresses only
  --extension-id ID  the extension's id, when several extensions are loaded (default: found)
  --max-size MB      refuse capture files larger than MB megabytes (default ${IMPORT_LIMIT_BYTES / 1e6})
  -h, --help         show this help
`;

export interface McpCommandHooks {
  /** Tests: resolves to stop an --http server. */
  stop?: Promise<void>;
  onListening?: (url: string) => void;
}

export async function mcpCommand(argv: string[], io: { stdout: (s: string) => void; stderr: (s: string) => void }, hooks: McpCommandHooks = {}): Promise<number> {
  const bad = (m: string) => (io.stderr(`${NAME} mcp: ${m}\n`), 2);
  let v;
  try {
    v = parseArgs({
      args: argv,
      allowPositionals: false,
      strict: true,
      options: {
        root: { type: 'string' },
        http: { type: 'boolean' },
        port: { type: 'string' },
        'browser-url': { type: 'string' },
        'extension-id': { type: 'string' },
        'max-size': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (e) {
    return bad(`${e instanceof Error ? e.message.split('\n')[0] : String(e)} (see --help)`);
  }
  if (v.help) {
    io.stdout(MCP_USAGE);
    return 0;
  }
  let root: string;
  try {
    root = realRoot(v.root ?? process.cwd());
  } catch {
    return bad(`--root ${v.root}: no such folder`);
  }
  const maxMb = v['max-size'] === undefined ? IMPORT_LIMIT_BYTES / 1e6 : Number(v['max-size']);
  if (!Number.isFinite(maxMb) || maxMb <= 0) return bad('--max-size must be a positive number of megabytes');
  const port = v.port === undefined ? DEFAULT_MCP_PORT : Number(v.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) return bad('--port must be a port number (0 picks a free one)');
  if (v.port !== undefined && !v.http) return bad('--port goes with --http');

  const ctx: McpContext = { captures: new CaptureSet({ root, maxBytes: Math.floor(maxMb * 1e6), maxFiles: 200 }), root, inlineMaxBytes: INLINE_MAX_BYTES };
  if (v['browser-url'] !== undefined) {
    try {
      ctx.live = connectBrowser({ browserUrl: v['browser-url'], ...(v['extension-id'] ? { extensionId: v['extension-id'] } : {}), captures: ctx.captures });
    } catch (e) {
      return bad(e instanceof Error ? e.message : String(e));
    }
  }

  if (!v.http) {
    const server = createMcpServer(ctx);
    const transport = new StdioServerTransport();
    // The SDK's transport closes when the client closes our stdin (the stdio binding's rule).
    const closed = new Promise<void>((resolve) => {
      transport.onclose = () => resolve();
    });
    await server.connect(transport);
    await closed;
    await ctx.live?.close();
    return 0;
  }
  let handle;
  try {
    handle = await startHttp(ctx, port);
  } catch (e) {
    const code = (e as { code?: string }).code;
    return bad(code === 'EADDRINUSE' ? `port ${port} is in use (--port 0 picks a free one)` : `cannot listen: ${e instanceof Error ? e.message : String(e)}`);
  }
  io.stderr(`${NAME} mcp: Streamable HTTP at ${handle.url} (root ${root})\n`);
  hooks.onListening?.(handle.url);
  await (hooks.stop ?? untilSignal());
  await handle.close();
  await ctx.live?.close();
  return 0;
}

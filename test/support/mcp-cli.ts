// The `mcp` command, built into a temporary folder and driven by the official SDK v2 client over
// stdio or --http (the same way an agent's MCP client starts it).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

/** Builds the CLI bundle (vite.cli.config.ts) into a temporary folder; returns its launcher. */
export function buildCli(): string {
  const out = join(mkdtempSync(join(tmpdir(), 'msi-mcp-cli-')), 'dist-cli');
  execFileSync('npx', ['vite', 'build', '--config', 'vite.cli.config.ts', '--outDir', out, '--logLevel', 'error'], { stdio: 'pipe' });
  const bin = join(out, 'bin.mjs');
  // the same launcher as bin/mcp-stream-inspector.mjs, pointed at this build
  writeFileSync(bin, `const { main } = await import(${JSON.stringify(join(out, 'cli.mjs'))});\nprocess.exitCode = await main(process.argv.slice(2));\n`);
  return bin;
}

export interface McpConnection {
  client: Client;
  /** --http only: the server's URL. */
  url?: string;
  stderr(): string;
  close(): Promise<void>;
}

export async function connectStdio(bin: string, args: string[]): Promise<McpConnection> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', ...args], stderr: 'pipe' });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: 'msi-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => err, close: () => client.close() };
}

/** Starts `mcp --http --port 0 …`, waits for the URL it prints, connects a client to it. */
export async function startHttpServer(bin: string, args: string[]): Promise<{ url: string; proc: ChildProcess; stderr(): string; stop(): Promise<void> }> {
  const proc = spawn(process.execPath, [bin, 'mcp', '--http', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  const url = await new Promise<string>((resolve, reject) => {
    proc.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /Streamable HTTP at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err);
      if (m) resolve(m[1]!);
    });
    proc.once('exit', (code) => reject(new Error(`mcp --http exited (${code}): ${err}`)));
  });
  return {
    url,
    proc,
    stderr: () => err,
    stop: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      }),
  };
}

export async function connectHttp(url: string): Promise<McpConnection> {
  const client = new Client({ name: 'msi-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return { client, url, stderr: () => '', close: () => client.close() };
}

/** Calls a tool; returns its structuredContent, or throws with its error text. */
export async function callTool<T = Record<string, any>>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const r = await client.callTool({ name, arguments: args });
  if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.content)}`);
  return r.structuredContent as T;
}

/** Calls a tool that must refuse; returns its error text. */
export async function refusal(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const r = await client.callTool({ name, arguments: args });
  if (!r.isError) throw new Error(`${name} did not refuse: ${JSON.stringify(r.structuredContent)}`);
  return (r.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
}

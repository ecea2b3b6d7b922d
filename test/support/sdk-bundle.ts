// A browser bundle of the official MCP TypeScript SDK client (Client + StreamableHTTPClientTransport),
// built in memory with Vite for pages served by the test server. Used until/unless the fixtures
// provide their own bundle page.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build, type Rolldown } from 'vite';

const ROOT = resolve(import.meta.dirname, '../..');

/** Returns the ES module text exporting `Client` and `StreamableHTTPClientTransport`. */
export async function buildSdkClientBundle(): Promise<string> {
  const dir = join(ROOT, 'test-artifacts', 'sdk-bundle');
  mkdirSync(dir, { recursive: true });
  const entry = join(dir, 'entry.js');
  writeFileSync(
    entry,
    `export { Client } from '@modelcontextprotocol/sdk/client/index.js';\n` +
      `export { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';\n`,
  );
  const out = (await build({
    configFile: false,
    root: ROOT,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      target: 'chrome116',
      lib: { entry, formats: ['es'], fileName: 'sdk' },
      rolldownOptions: { output: { codeSplitting: false } },
    },
  })) as Rolldown.RolldownOutput | Rolldown.RolldownOutput[];
  const outputs = Array.isArray(out) ? out : [out];
  const chunk = outputs.flatMap((o) => o.output).find((c) => c.type === 'chunk');
  if (!chunk || chunk.type !== 'chunk') throw new Error('SDK bundle: no output chunk');
  return chunk.code;
}

/** Returns the ES module text exporting `createMCPClient` of the AI SDK's MCP client (`@ai-sdk/mcp`). */
export async function buildAiSdkMcpBundle(): Promise<string> {
  const dir = join(ROOT, 'test-artifacts', 'ai-sdk-bundle');
  mkdirSync(dir, { recursive: true });
  const entry = join(dir, 'entry.js');
  writeFileSync(entry, `export { createMCPClient } from '@ai-sdk/mcp';\n`);
  const out = (await build({
    configFile: false,
    root: ROOT,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      target: 'chrome116',
      lib: { entry, formats: ['es'], fileName: 'ai-sdk-mcp' },
      rolldownOptions: { output: { codeSplitting: false } },
    },
  })) as Rolldown.RolldownOutput | Rolldown.RolldownOutput[];
  const outputs = Array.isArray(out) ? out : [out];
  const chunk = outputs.flatMap((o) => o.output).find((c) => c.type === 'chunk');
  if (!chunk || chunk.type !== 'chunk') throw new Error('@ai-sdk/mcp bundle: no output chunk');
  return chunk.code;
}

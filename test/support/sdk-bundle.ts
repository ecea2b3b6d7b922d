// Browser bundles of MCP clients (the official TypeScript SDK's Client +
// StreamableHTTPClientTransport; the AI SDK's createMCPClient), built in memory with Vite for pages
// served by the test server.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build, type Rolldown } from 'vite';

const ROOT = resolve(import.meta.dirname, '../..');

/** Bundles `source` (an ES module re-exporting a client) into one ES module text. */
async function bundleEntry(dirName: string, fileName: string, source: string, what: string): Promise<string> {
  const dir = join(ROOT, 'test-artifacts', dirName);
  mkdirSync(dir, { recursive: true });
  const entry = join(dir, 'entry.js');
  writeFileSync(entry, source);
  const out = (await build({
    configFile: false,
    root: ROOT,
    logLevel: 'silent',
    // React reads process.env.NODE_ENV, which a page does not have (library mode leaves it as is).
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      write: false,
      minify: false,
      target: 'chrome116',
      lib: { entry, formats: ['es'], fileName },
      rolldownOptions: { output: { codeSplitting: false } },
    },
  })) as Rolldown.RolldownOutput | Rolldown.RolldownOutput[];
  const outputs = Array.isArray(out) ? out : [out];
  const chunk = outputs.flatMap((o) => o.output).find((c) => c.type === 'chunk');
  if (!chunk || chunk.type !== 'chunk') throw new Error(`${what} bundle: no output chunk`);
  return chunk.code;
}

/** Returns the ES module text exporting `Client` and `StreamableHTTPClientTransport`. */
export function buildSdkClientBundle(): Promise<string> {
  return bundleEntry(
    'sdk-bundle',
    'sdk',
    `export { Client } from '@modelcontextprotocol/sdk/client/index.js';\n` +
      `export { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';\n`,
    'SDK',
  );
}

/** Returns the ES module text exporting `createMCPClient` of the AI SDK's MCP client (`@ai-sdk/mcp`). */
export function buildAiSdkMcpBundle(): Promise<string> {
  return bundleEntry('ai-sdk-bundle', 'ai-sdk-mcp', `export { createMCPClient } from '@ai-sdk/mcp';\n`, '@ai-sdk/mcp');
}

/**
 * Returns the ES module text exporting use-mcp's React hook (`useMcp`) with the React it runs in
 * (`createElement`, `useEffect`, `createRoot`): a page renders a component that uses the hook, as
 * the apps built on it do.
 */
export function buildUseMcpBundle(): Promise<string> {
  return bundleEntry(
    'use-mcp-bundle',
    'use-mcp',
    `export { useMcp } from 'use-mcp/react';\n` + `export { createElement, useEffect, useRef } from 'react';\n` + `export { createRoot } from 'react-dom/client';\n`,
    'use-mcp',
  );
}

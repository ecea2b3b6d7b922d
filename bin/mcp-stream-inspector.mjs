#!/usr/bin/env node
// Thin launcher: the command is built by `npm run build` into dist-cli/.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
const built = fileURLToPath(new URL('../dist-cli/cli.mjs', import.meta.url));
if (!existsSync(built)) {
  process.stderr.write('mcp-stream-inspector: not built yet; run `npm run build` first\n');
  process.exit(2);
}
const { main } = await import(built);
process.exitCode = await main(process.argv.slice(2));

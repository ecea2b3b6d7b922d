// npm run findings-help: writes src/core/findings-help.ts from docs/findings.md, so that every
// finding code carries its explanation wherever the core goes (SARIF rules' help in `audit
// --format sarif`, the MCP server). test/unit/core/findings-help.test.ts fails while it is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { findingsHelpSource } from './findings-help-source';

const docs = readFileSync(new URL('../docs/findings.md', import.meta.url), 'utf8');
writeFileSync(new URL('../src/core/findings-help.ts', import.meta.url), findingsHelpSource(docs));
process.stdout.write('wrote src/core/findings-help.ts\n');

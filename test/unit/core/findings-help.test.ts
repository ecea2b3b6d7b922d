// Every finding code carries its explanation (docs/findings.md) in the core: SARIF rules and the MCP
// server read it there. The committed src/core/findings-help.ts must be what the docs make now.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALL_CODES, FINDING_HELP } from '../../../src/core';
import { findingsHelpSource } from '../../../scripts/findings-help-source';

describe('findings help', () => {
  it('src/core/findings-help.ts is up to date with docs/findings.md (npm run findings-help)', () => {
    const docs = readFileSync('docs/findings.md', 'utf8');
    expect(readFileSync('src/core/findings-help.ts', 'utf8')).toBe(findingsHelpSource(docs));
  });

  it('has a summary, Markdown and plain text for every code, and nothing else', () => {
    expect(Object.keys(FINDING_HELP).sort()).toEqual([...ALL_CODES].sort());
    for (const code of ALL_CODES) {
      const h = FINDING_HELP[code];
      expect(h.summary.length, code).toBeGreaterThan(10);
      expect(h.markdown, code).toMatch(/\*\*What to do\.\*\*|What to do/);
      expect(h.text, code).not.toMatch(/\*\*|\]\(#/);
    }
  });
});

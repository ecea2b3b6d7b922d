// CORS problems in a HAR file DevTools saved (chrome.devtools.network.getHAR in real Chromium,
// recorded by test/e2e/witness.test.ts against fixture servers with a narrow CORS answer): the
// file alone shows what the live panel's witness shows, with the same codes and texts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeRecords } from '../../../src/core/analyzer';
import { importText } from '../../../src/core/import/index';
import { exportHar } from '../../../src/export/har';

const file = (name: string) => readFileSync(new URL(`../../fixtures/captures/browser/${name}`, import.meta.url), 'utf8');
const findings = (text: string) => analyzeRecords(importText(text).records).findings;

describe('CORS findings from a DevTools HAR', () => {
  it('a preflight that does not allow mcp-protocol-version: one cors-preflight-rejected error, in the session of the failed request', () => {
    const fs = findings(file('cors-preflight-rejected.devtools.har')).filter((f) => f.code === 'cors-preflight-rejected');
    expect(fs).toHaveLength(1);
    expect(fs[0]!.severity).toBe('error');
    expect(fs[0]!.sessionId).not.toBeNull();
    expect(fs[0]!.message).toContain('does not allow mcp-protocol-version');
  });

  it('a cross-origin Mcp-Session-Id that Access-Control-Expose-Headers leaves out: session-id-not-exposed', () => {
    const fs = findings(file('session-id-not-exposed.devtools.har')).filter((f) => f.code === 'session-id-not-exposed');
    expect(fs).toHaveLength(1);
    expect(fs[0]!.message).toContain("Add Mcp-Session-Id to the server's Access-Control-Expose-Headers");
  });

  it('same-origin traffic and CORS answers that allow the MCP headers give neither finding', () => {
    for (const name of ['baseline.playwright.har', 'lossy.playwright.har', 'python-example.playwright.har']) {
      const codes = findings(file(name)).map((f) => f.code);
      expect(codes, name).not.toContain('cors-preflight-rejected');
      expect(codes, name).not.toContain('session-id-not-exposed');
    }
  });

  it('the product’s own HAR export carries the finding once (its notice record), not again from its entries', () => {
    const records = importText(file('session-id-not-exposed.devtools.har')).records;
    const again = analyzeRecords(importText(exportHar(records)).records).findings.filter((f) => f.code === 'session-id-not-exposed');
    expect(again).toHaveLength(1);
  });
});

// What docs/ci/mcp-streams.spec.ts does in a user's Playwright test, with playwright-core: open the
// app's page in a browser context that records a HAR of the MCP endpoint only (`recordHar` with a
// urlFilter, bodies embedded), let the agent run, wait until every POST has finished loading
// (recordHar keeps a body only for a response that finished), close the context (writes the HAR).
// test/e2e/ci-gate.test.ts runs it on the demo page; test/fixtures/ci/record-baseline.ts made the
// committed baseline with it.
import type { Browser } from 'playwright-core';

/** The urlFilter of the documented test: the MCP endpoint and its sub-paths (`/mcp`, `/mcp/<mode>`). */
export const MCP_URL_FILTER = /\/mcp(\/|\?|$)/;

export async function recordAgentHar(browser: Browser, url: string, harPath: string, done: (page: import('playwright-core').Page) => Promise<unknown>): Promise<void> {
  const context = await browser.newContext({ recordHar: { path: harPath, content: 'embed', urlFilter: MCP_URL_FILTER } });
  try {
    const page = await context.newPage();
    const posts = new Set<unknown>();
    page.on('request', (r) => void (r.method() === 'POST' && posts.add(r)));
    page.on('requestfinished', (r) => void posts.delete(r));
    page.on('requestfailed', (r) => void posts.delete(r));
    await page.goto(url);
    await done(page);
    for (const deadline = Date.now() + 10_000; posts.size > 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
    await page.close();
  } finally {
    await context.close(); // writes the HAR
  }
}

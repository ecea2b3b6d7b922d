// e2e/mcp-streams.spec.ts (@playwright/test): drive your web agent once and record its MCP traffic
// as a HAR for `mcp-stream-inspector audit --baseline` (docs/ci/mcp-stream-gate.yml, docs/ci.md).
// test/support/agent-har.ts does the same with playwright-core in this project's own suite.
import { expect, test } from '@playwright/test';

const APP_URL = process.env.APP_URL ?? 'http://localhost:3000/';
const MCP_HAR = process.env.MCP_HAR ?? 'test-results/mcp/agent.har';

test('the agent answers from a complete MCP stream', async ({ browser }) => {
  // Only the MCP endpoint (keeps the HAR small and free of the app's own traffic); bodies embedded.
  const context = await browser.newContext({ recordHar: { path: MCP_HAR, content: 'embed', urlFilter: /\/mcp(\/|\?|$)/ } });
  const page = await context.newPage();

  // recordHar keeps a body only for a response that finished loading: wait for every POST (each
  // JSON-RPC request's stream) to finish before the context closes.
  const posts = new Set<unknown>();
  page.on('request', (r) => void (r.method() === 'POST' && posts.add(r)));
  page.on('requestfinished', (r) => void posts.delete(r));
  page.on('requestfailed', (r) => void posts.delete(r));

  await page.goto(APP_URL);
  await page.getByRole('button', { name: 'Ask' }).click(); // your agent's own steps
  await expect(page.getByTestId('answer')).toBeVisible();
  await expect.poll(() => posts.size, { timeout: 10_000 }).toBe(0);

  await context.close(); // writes the HAR
});

// `mcp --browser-url` before any browser is involved: a non-loopback URL is refused at start (exit
// 2, one line); no browser answering, or a /json/version that points the DevTools WebSocket at
// another machine, are refused by the live tools with the reason (the file tools keep working).
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, connectStdio, refusal } from '../../support/mcp-cli';

let bin: string;
let fake: Server;
let fakePort: number;
let closedPort: number;

beforeAll(async () => {
  bin = buildCli();
  // Answers /json/version as a browser would, but with a WebSocket on another machine.
  fake = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ Browser: 'Chrome/999', webSocketDebuggerUrl: 'ws://evil.example:9222/devtools/browser/x' }));
  });
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', () => r()));
  fakePort = (fake.address() as AddressInfo).port;
  const tmp = createServer();
  await new Promise<void>((r) => tmp.listen(0, '127.0.0.1', () => r()));
  closedPort = (tmp.address() as AddressInfo).port;
  await new Promise<void>((r) => tmp.close(() => r()));
}, 120_000);

afterAll(() => new Promise<void>((r) => fake.close(() => r())));

describe('mcp --browser-url refusals', () => {
  it('refuses a browser on another machine at start', () => {
    const r = spawnSync(process.execPath, [bin, 'mcp', '--browser-url', 'http://example.com:9222'], { encoding: 'utf8', input: '' });
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe('mcp-stream-inspector mcp: --browser-url http://example.com:9222: only a browser on this machine (127.0.0.1, localhost, [::1])');
  });

  it('says when no browser answers, and when the DevTools WebSocket is elsewhere', async () => {
    const a = await connectStdio(bin, ['--browser-url', `http://127.0.0.1:${closedPort}`]);
    try {
      expect(await refusal(a.client, 'list_tabs')).toMatch(/^No browser answers at http:\/\/127\.0\.0\.1:\d+: start Chrome with --remote-debugging-port/);
      expect(await refusal(a.client, 'open_tab', { tabId: 1 })).toMatch(/No browser answers/);
      // The file tools do not depend on the browser.
      expect((await a.client.callTool({ name: 'explain_finding', arguments: { code: 'replay-gap' } })).isError).toBeFalsy();
    } finally {
      await a.close();
    }
    const b = await connectStdio(bin, ['--browser-url', `http://127.0.0.1:${fakePort}`]);
    try {
      expect(await refusal(b.client, 'list_tabs')).toMatch(/pointed at a DevTools WebSocket on evil\.example, not this machine: refused/);
    } finally {
      await b.close();
    }
  });
});

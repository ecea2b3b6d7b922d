// A client of the field in a page (e2e): the v2 fixture server, a page server serving the client's
// browser bundle and an agent page, and that page opened in a browser with the extension (DevTools
// and the panel open) and in one without it, to compare what the page sees in both.

import { startV2FixtureServer, type V2FixtureServer } from '../fixtures/v2/server/server';
import { launchBrowser, type Browser } from './browser';
import { openInspected, type Harness } from './extension';
import { startTestServer, type TestServer } from './server';

export interface ClientPage {
  mcp: V2FixtureServer;
  pages: TestServer;
  /** The agent page in a browser with the extension, DevTools and the panel open. */
  inspected(opts?: Parameters<typeof openInspected>[1]): Promise<Harness>;
  /** The agent page in a browser without the extension: an evaluate in it. */
  bare(): Promise<<T>(expression: string) => Promise<T>>;
  close(): Promise<void>;
}

/** `html`: the agent page, served at `pagePath`; it imports the bundle from `bundlePath`. */
export async function startClientPage(o: { bundlePath: string; bundle: Promise<string>; pagePath: string; html: string }): Promise<ClientPage> {
  const mcp = await startV2FixtureServer();
  const pages = await startTestServer();
  const code = await o.bundle;
  pages.route(o.bundlePath, (_q, res) => res.writeHead(200, { 'content-type': 'text/javascript' }).end(code));
  pages.page(o.pagePath, o.html);
  const open: { close(): Promise<void> }[] = [];
  return {
    mcp,
    pages,
    async inspected(opts) {
      const h = await openInspected(pages.url(o.pagePath), opts);
      open.push(h);
      return h;
    },
    async bare() {
      const b: Browser = await launchBrowser({ extension: false, url: pages.url(o.pagePath) });
      open.push(b);
      const page = await b.attachPage(new URL(pages.url('/')).host);
      return <T>(x: string) => b.cdp.evaluate<T>(page, x);
    },
    async close() {
      for (const x of open) await x.close().catch(() => {});
      await pages.close();
      await mcp.close();
    },
  };
}

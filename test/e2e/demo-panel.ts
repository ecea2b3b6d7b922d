// The setup the panel e2e files against the demo page share (panel-modes.test.ts, v2-panel.test.ts):
// the demo server (page + fixture servers), one browser with the extension inspecting the page,
// the page's agent loaded and the inspector UI mounted in the panel.

import { startDemoServer, type DemoServer, type DemoServerOptions, type PageParams } from '../../demo/server';
import { openInspected, type Harness } from '../support/extension';
import { waitFor } from '../support/wait';

export async function openDemoPanel(demoOptions: DemoServerOptions, page: PageParams): Promise<{ demo: DemoServer; h: Harness }> {
  const demo = await startDemoServer(demoOptions);
  let opened: Harness | undefined;
  try {
    const h = (opened = await openInspected(demo.pageUrl(page)));
    await waitFor(() => h.evalPage('typeof window.__demo?.run === "function"'), { message: 'demo page ready' });
    await waitFor(() => h.panel.eval(`typeof globalThis.__MSI_UI__ === 'object'`), { message: 'inspector UI mounted in the panel' });
    return { demo, h };
  } catch (e) {
    await opened?.close();
    await demo.close();
    throw e;
  }
}

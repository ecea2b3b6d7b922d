// Scratch (not committed): screenshots of the covered-listen session in the standalone viewer at two widths.
import { writeFileSync } from 'node:fs';
import { launchBrowser } from '../test/support/browser';
import { startTestServer } from '../test/support/server';
import { exportJson } from '../src/export';
import { Capture, ev, result } from '../test/unit/core/helpers';

const PV = '2026-07-28';
const meta = () => ({ 'io.modelcontextprotocol/protocolVersion': PV, 'io.modelcontextprotocol/clientInfo': { name: 'agent', version: '1.0' }, 'io.modelcontextprotocol/clientCapabilities': {} });
const rpc = (id: number | string, method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta() } });
const c = new Capture();
const hdr = (m: string) => [['mcp-protocol-version', PV], ['mcp-method', m]] as [string, string][];
const open = (body: ReturnType<typeof rpc>, events: unknown[]) => { const p = c.request({ body, headers: hdr(body.method) }); c.response(p); for (const e of events) c.chunk(p, ev(undefined, e)); return p; };
const d = open(rpc('probe', 'server/discover'), [result('probe', { supportedVersions: [PV], capabilities: {} })]); c.end(d);
const ack = { jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: { toolsListChanged: true } } };
const l1 = open(rpc('l1', 'subscriptions/listen', { notifications: { toolsListChanged: true } }), [ack]);
const l2 = open(rpc('l2', 'subscriptions/listen', { notifications: { toolsListChanged: true } }), [ack]);
c.end(l1, 'network-error');
c.chunk(l2, ev(undefined, { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: {} }));
const t = open(rpc(5, 'tools/list'), [result(5, { tools: [] })]); c.end(t);
const server = await startTestServer();
const file = exportJson(c.records, { createdAt: '2026-12-08T00:00:00.000Z', source: 'covered-listen' });
server.route('/covered.msi.json', (_q, res) => void res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' }).end(file));
const b = await launchBrowser({ devtools: false, url: 'about:blank' });
try {
  const url = `chrome-extension://${b.extensionId}/src/panel/viewer.html?src=${encodeURIComponent(server.url('/covered.msi.json'))}`;
  const { targetId } = await b.cdp.send<{ targetId: string }>('Target.createTarget', { url });
  const { sessionId } = await b.cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
  for (const [name, w, h] of [['wide', 1400, 800], ['narrow', 520, 900]] as const) {
    await b.cdp.send('Emulation.setDeviceMetricsOverride', { width: w, height: h, deviceScaleFactor: 1, mobile: false }, sessionId);
    for (let i = 0; i < 50; i++) {
      const n = await b.cdp.send<{ result: { value: number } }>('Runtime.evaluate', { expression: 'document.querySelectorAll("[data-testid=subscription]").length', returnByValue: true }, sessionId);
      if (n.result.value > 0) break;
      await b.cdp.send('Runtime.evaluate', { expression: 'document.querySelector("[data-testid=session-row]")?.click(); 0', returnByValue: true }, sessionId);
      await new Promise((r) => setTimeout(r, 200));
    }
    const txt = await b.cdp.send<{ result: { value: string } }>('Runtime.evaluate', { expression: '[...document.querySelectorAll("[data-testid=subscription]")].map(e => e.dataset.state + " | " + e.className + " | " + e.textContent).join("\\n")', returnByValue: true }, sessionId);
    console.log(name, '\n' + txt.result.value);
    const shot = await b.cdp.send<{ data: string }>('Page.captureScreenshot', { format: 'png' }, sessionId);
    writeFileSync(`test-artifacts/screenshots/covered-listen-viewer-${name}.png`, Buffer.from(shot.data, 'base64'));
  }
} finally {
  await b.close();
  await server.close();
}

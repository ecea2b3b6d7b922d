// A diagnostic, not a figure: what the viewer holds per imported event (row 7), from two heap
// snapshots of the viewer page (the 1,000-event capture, then the 100,000-event one): the self
// size per kind of object and per constructor, grown from one to the other, divided by the events
// added. Typed arrays' backing stores are counted (V8 reports them as JSArrayBufferData).
//
//   flock /tmp/chromium.lock npx tsx bench/profile-heap.ts [--dist=<dir>] [--small=1000] [--big=100000] [--buffers[=<bytes>]]
//
// --buffers lists the array buffers of each snapshot by size; --buffers=<bytes> also shows what
// holds the buffers of that size (their retainers, four levels up).

import { launch, buildExtension } from './lib/browser';
import { startBenchServer } from './lib/server';
import { buildCapture, captureFile } from './lib/workload';
import { waitFor } from '../test/support/wait';
import type { Browser } from '../test/support/browser';

const args = process.argv.slice(2);
const arg = (k: string) => args.find((a) => a.startsWith(`--${k}=`))?.slice(k.length + 3);
const dist = arg('dist') ?? buildExtension();
const small = Number(arg('small') ?? 1000);
const big = Number(arg('big') ?? 100_000);
const buffers = args.includes('--buffers') ? 1 : Number(arg('buffers') ?? 0);

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

/** Self size by "type / name" over the whole heap. */
async function sizes(browser: Browser, session: string): Promise<Map<string, number>> {
  const { cdp } = browser;
  const parts: string[] = [];
  const off = cdp.on('HeapProfiler.addHeapSnapshotChunk', (p: { chunk: string }) => void parts.push(p.chunk));
  await cdp.send('HeapProfiler.collectGarbage', {}, session);
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false, captureNumericValue: false }, session);
  off();
  const s = JSON.parse(parts.join('')) as Snapshot;
  const f = s.snapshot.meta.node_fields;
  const types = s.snapshot.meta.node_types[0];
  const [ti, ni, si] = [f.indexOf('type'), f.indexOf('name'), f.indexOf('self_size')];
  const out = new Map<string, number>();
  if (buffers) {
    const bufs: number[] = [];
    for (let i = 0; i < s.nodes.length; i += f.length) if (s.strings[s.nodes[i + ni]!] === 'system / JSArrayBufferData') bufs.push(s.nodes[i + si]!);
    const hist = new Map<number, number>();
    for (const b of bufs) hist.set(b, (hist.get(b) ?? 0) + 1);
    if (buffers > 1) {
      // Who holds the buffers of that size: their retainers, three levels up.
      const ef = (s.snapshot.meta as unknown as { edge_fields: string[] }).edge_fields;
      const edges = (s as unknown as { edges: number[] }).edges;
      const [eti, eni, eto] = [ef.indexOf('type'), ef.indexOf('name_or_index'), ef.indexOf('to_node')];
      const ec = f.indexOf('edge_count');
      const retainers = new Map<number, [number, string][]>();
      let e = 0;
      for (let i = 0; i < s.nodes.length; i += f.length) {
        for (let k = 0; k < s.nodes[i + ec]!; k++, e += ef.length) {
          const to = edges[e + eto]!;
          const t = edges[e + eti]!;
          const nm = t === 2 || t === 3 ? s.strings[edges[e + eni]!]! : String(edges[e + eni]);
          let l = retainers.get(to);
          if (!l) retainers.set(to, (l = []));
          l.push([i, nm]);
        }
      }
      const name = (i: number) => `${types[s.nodes[i + ti]!]}:${s.strings[s.nodes[i + ni]!]!.slice(0, 50)}`;
      for (let i = 0; i < s.nodes.length; i += f.length) {
        if (s.nodes[i + si] !== buffers) continue;
        let frontier = [i];
        for (let d = 0; d < 4; d++) {
          const next: number[] = [];
          for (const x of frontier) for (const [r, nm] of (retainers.get(x) ?? []).slice(0, 3)) {
            console.log(`${'  '.repeat(d)}${name(x)} <-[${nm}]- ${name(r)}`);
            next.push(r);
          }
          frontier = next;
        }
      }
    }
    console.log('array buffers by size (size × count):', [...hist].sort((a, b) => b[0] * b[1] - a[0] * a[1]).slice(0, 15).map(([z, c]) => `${z}×${c}`).join(', '));
  }
  for (let i = 0; i < s.nodes.length; i += f.length) {
    const type = types[s.nodes[i + ti]!]!;
    // Strings and numbers are grouped by kind, objects by constructor.
    const name = type === 'object' || type === 'native' || type === 'closure' || type === 'hidden' ? s.strings[s.nodes[i + ni]!]!.slice(0, 60) : '';
    const k = `${type} / ${name}`;
    out.set(k, (out.get(k) ?? 0) + s.nodes[i + si]!);
  }
  return out;
}

const server = await startBenchServer();
const browser = await launch({ dist, devtools: false, url: server.url('/bench.html') });
try {
  for (const n of [small, big]) {
    const body = Buffer.from(JSON.stringify(captureFile(buildCapture(n, 200, 64 * 1024, server.origin))));
    server.route(`/cap-${n}.json`, (_req, res) => void res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' }).end(body));
  }
  const session = await browser.attachPage('/bench.html');
  await browser.cdp.send('HeapProfiler.enable', {}, session);
  const got = new Map<number, Map<string, number>>();
  for (const n of [small, big]) {
    const url = `chrome-extension://${browser.extensionId}/src/panel/viewer.html?src=${encodeURIComponent(server.url(`/cap-${n}.json`))}`;
    await browser.cdp.send('Page.navigate', { url }, session);
    await waitFor(() => browser.cdp.evaluate<boolean>(session, `location.href === ${JSON.stringify(url)} && !!window.__MSI_UI__ && window.__MSI_UI__.progress() === undefined && !!document.querySelector('[data-testid=tab-events]')`).catch(() => false), {
      timeoutMs: 180_000,
      intervalMs: 100,
      message: `viewer did not show ${n} events`,
    });
    await browser.cdp.evaluate(session, `document.querySelector('[data-testid=tab-events]').click()`);
    await waitFor(() => browser.cdp.evaluate<boolean>(session, `!!document.querySelector('[data-testid=event-row]')`), { timeoutMs: 60_000, message: 'events table rows' });
    got.set(n, await sizes(browser, session));
  }
  const a = got.get(small)!;
  const b = got.get(big)!;
  const rows = [...b].map(([k, v]) => [k, (v - (a.get(k) ?? 0)) / (big - small)] as const).filter(([, d]) => Math.abs(d) >= 0.5);
  rows.sort((x, y) => y[1] - x[1]);
  const total = rows.reduce((t, [, d]) => t + d, 0);
  console.log(`bytes per event added (${small} → ${big} events), total ${total.toFixed(1)}:`);
  for (const [k, d] of rows.slice(0, 30)) console.log(`${d.toFixed(1).padStart(8)}  ${k}`);
} finally {
  await browser.close();
  await server.close();
}

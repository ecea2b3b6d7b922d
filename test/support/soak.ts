// A steady event stream for memory soaks: the server writes `rate` SSE events per second (in
// 10 ms ticks) for `seconds`; the page reads them with a reader and keeps only counters.
// Shared by test/e2e/hostile-limits.test.ts (short) and scripts/soak.ts (30 minutes).

import type { TestServer } from './server';

export const SOAK_EVENT_DATA = '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"soak","progress":';

export function addSoakRoutes(server: TestServer): void {
  server.route('/soak', (req, res) => {
    // An EventSource reconnecting after the end is told to stop (204).
    if (req.headers['last-event-id']) return void res.writeHead(204).end();
    const q = new URL(req.url!, 'http://x').searchParams;
    const rate = Number(q.get('rate') ?? 1000);
    const total = Math.round(rate * Number(q.get('seconds') ?? 20));
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    let i = 0;
    const t0 = Date.now();
    const tick = () => {
      if (res.destroyed) return;
      // Catch up with the wall clock, so the rate holds on a busy machine.
      const due = Math.min(total, Math.floor(((Date.now() - t0) / 1000) * rate) + 1);
      let s = '';
      while (i < due) {
        i++;
        s += `id: ${i}\ndata: ${SOAK_EVENT_DATA}${i}}}\n\n`;
      }
      if (s) res.write(s);
      if (i >= total) res.end();
      else setTimeout(tick, 10);
    };
    tick();
  });
  server.page(
    '/soak.html',
    `<!doctype html><html><head><script>
      window.soak = { events: 0, bytes: 0, done: false, error: null, esEvents: 0, esDone: false };
      // EventSource: one es-event record per event (the relay's worst case for record count).
      window.startEsSoak = (rate, seconds) => {
        const es = new EventSource('/soak?es=1&rate=' + rate + '&seconds=' + seconds);
        es.onmessage = () => { window.soak.esEvents++; };
        es.onerror = () => { if (es.readyState !== 1) { es.close(); window.soak.esDone = true; } };
      };
      // fetch + reader, as MCP clients read: records per network read, not per event.
      window.startSoak = async (rate, seconds) => {
        const r = await fetch('/soak?rate=' + rate + '&seconds=' + seconds, { headers: { accept: 'text/event-stream', 'mcp-session-id': 'soak' } });
        const rd = r.body.getReader(); const dec = new TextDecoder(); let tail = '';
        try {
          for (;;) {
            const { done, value } = await rd.read();
            if (done) break;
            window.soak.bytes += value.byteLength;
            const s = tail + dec.decode(value, { stream: true });
            const parts = s.split('\\n\\n');
            tail = parts.pop();
            window.soak.events += parts.length;
          }
        } catch (e) { window.soak.error = String(e); }
        window.soak.done = true;
      };
    </script></head><body>soak</body></html>`,
  );
}

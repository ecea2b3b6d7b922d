// The standalone-stream experiment grades the probe's own GET (Last-Event-ID: the stream's first
// id), not the connection the recorder saw last: when that GET takes over, a server may close the
// SDK's standalone stream, and the SDK reconnects it (with its own cursor) on the same recorder,
// before the probe's GET has its answer graded (review case P2: "refused: no answer" on a server
// whose capture shows the 200 and the replay).
import { describe, expect, it } from 'vitest';
import { standaloneExperiment } from '../../../src/cli/probe/exp-cursors';
import { createRecorder } from '../../../src/cli/probe/record-fetch';
import { parseProbeArgs } from '../../../src/cli/probe/command';
import type { ProbeSession } from '../../../src/cli/probe/client';

const sse = (body: string) => new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });

describe('standaloneExperiment', () => {
  it("grades the probe's GET, also when the SDK's reconnect of the standalone stream comes after it", async () => {
    let rec: ReturnType<typeof createRecorder>;
    const base = (async (_input: RequestInfo | URL, init?: RequestInit) => {
      const h = new Headers(init?.headers);
      const cursor = h.get('last-event-id');
      if (cursor === null) return sse('id: _GET_1\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"ping"}}\n\n');
      if (cursor === '_GET_1') {
        // the SDK reconnects its standalone stream (its own cursor) while this one is answered
        void rec.fetch('http://127.0.0.1:9/mcp', { method: 'GET', headers: { accept: 'text/event-stream', 'last-event-id': '_GET_16' } });
        return sse('id: _GET_2\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"ping 2"}}\n\n');
      }
      return new Promise<Response>(() => {}); // the reconnect: no answer yet
    }) as typeof fetch;
    rec = createRecorder('probe-session-a', base);
    const first = await rec.fetch('http://127.0.0.1:9/mcp', { method: 'GET', headers: { accept: 'text/event-stream' } });
    await first.text();
    const a = { recorder: rec, sessionId: 's1', protocolVersion: '2025-11-25', era: 'legacy' } as unknown as ProbeSession;
    const s = parseProbeArgs(['http://127.0.0.1:9/mcp', '--tool', 'task', '--listen', '200'], {});
    const r = await standaloneExperiment(a, s);
    expect(r.status).toBe('ran');
    // before: fail, "the standalone stream's own cursor _GET_1 is refused: no answer (request failed)"
    expect(r.evidence).toEqual([expect.objectContaining({ on: 'gapless-retention', verdict: 'pass' })]);
  });
});

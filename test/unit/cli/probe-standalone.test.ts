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
      if (cursor === null) return sse('id: _GET_1\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"ping"}}\n\nid: _GET_2\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"ping 2"}}\n\n');
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

// The spec (Streamable HTTP, listening for messages from the server): the server MUST answer the
// GET with Content-Type: text/event-stream, or 405. A 200 alone shows no resumed stream, and a
// stream that replays nothing of what followed the cursor shows no retention.
describe('standaloneExperiment: the resume is graded on what it delivered, not on its 200', () => {
  const ping = (n: number) => `data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"ping ${n}"}}\n\n`;
  async function resumeAnswered(resume: () => Response, first = `id: _GET_1\n${ping(1)}id: _GET_2\n${ping(2)}`) {
    const base = (async (_input: RequestInfo | URL, init?: RequestInit) => (new Headers(init?.headers).get('last-event-id') === null ? sse(first) : resume())) as typeof fetch;
    const rec = createRecorder('probe-session-a', base);
    await (await rec.fetch('http://127.0.0.1:9/mcp', { method: 'GET', headers: { accept: 'text/event-stream' } })).text();
    const a = { recorder: rec, sessionId: 's1', protocolVersion: '2025-11-25', era: 'legacy' } as unknown as ProbeSession;
    return standaloneExperiment(a, parseProbeArgs(['http://127.0.0.1:9/mcp', '--tool', 'task', '--listen', '200'], {}));
  }

  it('200 with a JSON body is not an event stream: fails, saying so', async () => {
    const r = await resumeAnswered(() => new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } }));
    // before: pass, "the standalone stream's cursor _GET_1 is honoured (200 application/json)"
    expect(r.evidence).toEqual([expect.objectContaining({ on: 'gapless-retention', verdict: 'fail', text: expect.stringMatching(/answered 200 application\/json, not an event stream \(the spec: text\/event-stream, or 405\)/) })]);
  });

  it('an event stream that ends at once, or holds no SSE, replays nothing of what followed the cursor: fails, naming it', async () => {
    for (const body of ['', '{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"ping 2"}}\n']) {
      const r = await resumeAnswered(() => sse(body));
      // before: pass, "honoured (200 text/event-stream, 0 events (0 with data), ended)"
      expect(r.evidence, JSON.stringify(body)).toEqual([expect.objectContaining({ on: 'gapless-retention', verdict: 'fail', text: expect.stringMatching(/left out 1 message\(s\) the stream carried after it: notifications\/message/) })]);
    }
  });

  it('nothing followed the cursor: an accepted resume shows no retention (unknown); a replay of what followed passes', async () => {
    const empty = await resumeAnswered(() => sse(''), `id: _GET_1\n${ping(1)}`);
    // before: pass
    expect(empty.evidence).toEqual([expect.objectContaining({ on: 'gapless-retention', verdict: 'unknown', text: expect.stringMatching(/carried nothing after it .*nothing to check the replay against/) })]);
    const whole = await resumeAnswered(() => sse(`id: _GET_2\n${ping(2)}`));
    expect(whole.evidence).toEqual([expect.objectContaining({ on: 'gapless-retention', verdict: 'pass', text: expect.stringMatching(/replayed the 1 message\(s\) the stream carried after it/) })]);
  });

  it('a first GET answered 200 but not as an event stream is said as such', async () => {
    const base = (async () => new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } })) as typeof fetch;
    const rec = createRecorder('probe-session-a', base);
    await (await rec.fetch('http://127.0.0.1:9/mcp', { method: 'GET', headers: { accept: 'text/event-stream' } })).text();
    const a = { recorder: rec, sessionId: 's1', protocolVersion: '2025-11-25', era: 'legacy' } as unknown as ProbeSession;
    const r = await standaloneExperiment(a, parseProbeArgs(['http://127.0.0.1:9/mcp', '--tool', 'task', '--listen', '200'], {}));
    expect(r.status).toBe('skipped');
    // before: "the standalone GET stream carried no id within the probe (0 events)"
    expect(r.summary).toMatch(/answered the standalone GET 200 application\/json, not an event stream \(the spec: text\/event-stream, or 405\)/);
  });
});

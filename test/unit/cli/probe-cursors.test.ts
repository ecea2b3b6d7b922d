// The resumes with cursors the server never issued (unknown, malformed): what the answer holds of
// the probed call is a replay; a fresh stream's own messages (a server that ignores the cursor and
// opens a new standalone stream, greeting it) are not, and say nothing of a lost cursor either.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cursorExperiment } from '../../../src/cli/probe/exp-cursors';
import { parseProbeArgs } from '../../../src/cli/probe/command';
import type { ProbeSession } from '../../../src/cli/probe/client';
import type { Baseline } from '../../../src/cli/probe/exp-stream';

const note = (data: string) => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data } });
const CALL = [note('chunk 1'), note('chunk 2')];

describe('cursorExperiment: what a never-issued cursor is answered with', () => {
  let server: Server;
  let url = '';
  let answer: unknown[] = [];
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(answer.map((m, i) => `id: fresh-${i}\ndata: ${JSON.stringify(m)}\n\n`).join(''));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
  });
  const run = async (which: 'unknown' | 'malformed') => {
    const a = { sessionId: 's1', protocolVersion: '2025-11-25' } as unknown as ProbeSession;
    const b = { ids: ['1', '2', '3'], messages: CALL } as unknown as Baseline;
    return (await cursorExperiment(a, parseProbeArgs([url, '--tool', 'task', '--listen', '300'], {}), b, which, `probe-cursor-${which}`)).result;
  };

  it("a fresh stream greeting the client holds none of the call's messages: silent, not a replay", async () => {
    answer = [note('standalone stream open')];
    for (const which of ['unknown', 'malformed'] as const) {
      const r = await run(which);
      // before: fail, "it replayed 1 message(s) (notifications/message) for a cursor it never issued"
      expect(r.evidence, which).toEqual([expect.objectContaining({ on: 'gap-signalled', verdict: 'unknown', text: expect.stringMatching(/none of the call's messages \(1 of its own: notifications\/message\): silently/) })]);
    }
  });

  it("the call's messages for a cursor it never issued: a replay, failed, naming them", async () => {
    answer = [note('standalone stream open'), ...CALL];
    const r = await run('unknown');
    expect(r.evidence).toEqual([expect.objectContaining({ on: 'gap-signalled', verdict: 'fail', text: expect.stringMatching(/it replayed 2 of the call's message\(s\) \(notifications\/message, notifications\/message\) for a cursor it never issued/) })]);
  });
});

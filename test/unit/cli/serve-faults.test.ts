// `serve --fault`: the fault model applied to a served capture, with the official SDK client
// (v1) against it. What the client read (recording-fetch) shows the fault as a real server's
// misbehaviour would, and each preset's reading says what this client did.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { analyzeRecords } from '../../../src/core/analyzer.js';
import { evaluatePreset, parseFaultText, presetById } from '../../../src/core/faults/index.js';
import type { AnalysisSnapshot } from '../../../src/core/model.js';
import type { CaptureRecord } from '../../../src/core/record.js';
import { createRecordingFetch } from '../../fixtures/client/recording-fetch.js';
import { runScenario, type ScenarioOptions } from '../../fixtures/client/run-scenario.js';
import { runV2Scenario } from '../../fixtures/v2/client/run-scenario.js';
import { asFixtureServer, asV2FixtureServer, CAPTURES, loadRecords, serve, type Served } from './serve-helpers.js';

const baseline = loadRecords(`${CAPTURES}baseline.capture.json`);
const lossy = loadRecords(`${CAPTURES}lossy.capture.json`);

async function withFault(records: CaptureRecord[], fault: string, scenario: Partial<ScenarioOptions> = {}) {
  const preset = presetById(fault);
  const served = await serve(records, { faults: parseFaultText(fault), ...(preset ? { presets: [preset] } : {}) });
  try {
    const run = await runScenario({ name: 'baseline', mode: 'baseline', ...scenario, server: asFixtureServer(served) });
    const client = analyzeRecords(run.records);
    const server = analyzeRecords(served.records);
    return { run, client, server, served };
  } finally {
    await served.close();
  }
}

const codes = (s: AnalysisSnapshot) => s.findings.map((f) => f.code);
const call = (s: AnalysisSnapshot) => Object.values(s.requests).flat().find((r) => r.method === 'tools/call')!;

describe('presets through serve, with the SDK v1 client', () => {
  it('resume-after-cut: the tools/call stream is cut after 3 events; the client resumes from the last id and completes', async () => {
    const { run, client, server, served } = await withFault(baseline, 'resume-after-cut');
    // Cut after priming 5 + events 6, 7, 8: the client resumes with 8, the replay brings 9-22.
    expect(run.outcome.resumes).toEqual([{ lastEventId: '8', status: 200 }]);
    expect(run.outcome.hashMatches).toBe(true);
    const stream = Object.values(client.streams).find((s) => s.kind === 'post' && s.requestIds.includes('2'))!;
    expect(stream.state).toBe('error');
    expect(stream.events.map((e) => e.id)).toEqual(['5', '6', '7', '8']);
    expect(codes(client)).toEqual([]);
    expect(call(client).verdict).toBe('complete');
    expect(served.lines.some((l) => l.includes('cut after 3 events') && l.includes("last id: 8"))).toBe(true);
    expect(served.lines.some((l) => l.includes('Last-Event-ID 8 → no such resume recorded: replaying c5 after id 8 (14 events)'))).toBe(true);
    for (const snap of [client, server]) {
      const r = evaluatePreset('resume-after-cut', snap);
      expect(r.outcome).toBe('pass');
      expect(r.observed).toMatch(/^It resumed with GET \+ Last-Event-ID 8 \d+ ms after the cut\. The call completed \(verdict complete\)\.$/);
    }
    // The verdict was printed as soon as the traffic went quiet, or at close.
    expect(served.lines.some((l) => l.startsWith('preset resume-after-cut: PASS: It resumed with GET + Last-Event-ID 8'))).toBe(true);
  });

  it('lossy-replay: the replay after the cut leaves out 2 events; the SDK client accepts the result (lossy-result-accepted)', async () => {
    const { run, client, server } = await withFault(baseline, 'lossy-replay');
    expect(run.outcome.resumes).toEqual([{ lastEventId: '8', status: 200 }]);
    expect(run.outcome.error).toBeUndefined();
    expect(run.outcome.hashMatches).toBe(false);
    expect(run.outcome.missingChunks).toHaveLength(1);
    expect(codes(client)).toEqual(['replay-gap', 'lossy-result-accepted']);
    expect(client.findings[0]).toMatchObject({ severity: 'error', requestId: '2', missing: '9–10' });
    expect(call(client).verdict).toBe('lossy');
    for (const snap of [client, server]) {
      const r = evaluatePreset('lossy-replay', snap);
      expect(r.outcome).toBe('fail');
      expect(r.observed).toContain('accepted the result of tools/call 2 built from an incomplete stream (ids 9–10 missing)');
    }
  });

  it('session-404: the session is gone at tools/call; the SDK client does not start a new one', async () => {
    const { run, client } = await withFault(baseline, 'session-404');
    expect(run.outcome.error).toMatchObject({ code: 404 });
    expect(codes(client)).toEqual(['session-expired']);
    const r = evaluatePreset('session-404', client);
    expect(r.outcome).toBe('fail');
    expect(r.observed).toContain('no new session');
  });

  it('session-404: an agent that re-initializes on 404 gets a new session (a second pass of the recording) and its call completes', async () => {
    const served = await serve(baseline, { faults: parseFaultText('session-404') });
    const recorder = createRecordingFetch({ src: 'node:reinit' });
    const connect = async () => {
      const transport = new StreamableHTTPClientTransport(new URL(served.url), { fetch: recorder.fetch });
      const client = new Client({ name: 'fixture-agent', version: '1.0.0' });
      await client.connect(transport);
      return { client, transport };
    };
    const args = { name: 'long_task', arguments: { chunks: 8, delayMs: 30, tag: 'main' } };
    let c = await connect();
    await c.client.listTools();
    let error: unknown;
    try {
      await c.client.callTool(args, undefined, { onprogress: () => {} });
    } catch (e) {
      error = e;
    }
    expect((error as { code?: number }).code).toBe(404);
    const firstSession = c.transport.sessionId;
    await c.client.close();
    c = await connect();
    // Same session id with "-2": the second pass of the recorded session.
    expect(c.transport.sessionId).toBe(`${firstSession}-2`);
    const result = await c.client.callTool(args, undefined, { onprogress: () => {} });
    expect(JSON.stringify(result)).toContain('long_task finished: 8 chunks');
    await c.client.close();
    await served.close();
    const snap = analyzeRecords(recorder.records);
    expect(snap.sessions.map((s) => s.sessionId)).toEqual([firstSession, `${firstSession}-2`]);
    const r = evaluatePreset('session-404', snap);
    expect(r.outcome).toBe('pass');
    expect(r.observed).toMatch(/^It started a new session with initialize \d+ ms after the 404 and re-issued tools\/call in it \(the call completed \(verdict complete\)\)\.$/);
  });
});

describe('single faults through serve', () => {
  it('withhold on the live stream: ids 9-10 never arrive, no reconnect (live-gap), the result is accepted', async () => {
    const { run, client, served } = await withFault(baseline, 'withhold:4-5,method=tools/call');
    expect(run.outcome.resumes).toEqual([]);
    expect(codes(client)).toEqual(['live-gap', 'lossy-result-accepted']);
    expect(client.findings[0]!.missing).toBe('9–10');
    expect(served.lines).toContain('  fault withhold events 4–5 · tools/call · next 1: withheld 2 events (ids 9, 10)');
  });

  it('drop-result: the stream ends without the result; the resume finds nothing and stays open; the call times out (result-missing)', async () => {
    const { run, client, served } = await withFault(baseline, 'drop-result,method=tools/call', { timeoutMs: 1500 });
    expect(run.outcome.error).toMatchObject({ code: -32001 });
    expect(run.outcome.resumes).toEqual([{ lastEventId: '21', status: 200 }]);
    expect(codes(client)).toEqual(['result-missing']);
    expect(served.lines.some((l) => l.includes('replaying c5 after id 21 (0 events)') && l.includes('then stays open'))).toBe(true);
  });

  it.each([
    ['answer-resume:404', 404, ['session-expired', 'resume-rejected']],
    ['answer-resume:409', 409, ['resume-rejected']],
  ] as const)('%s: the first resume is rejected; the SDK retries it and gets the recorded replay', async (fault, status, expected) => {
    const { run, client } = await withFault(lossy, fault, { mode: 'lossy' });
    expect(run.outcome.resumes).toEqual([
      { lastEventId: '11', status },
      { lastEventId: '11', status: 200 },
    ]);
    expect(codes(client)).toEqual([...expected, 'replay-gap', 'lossy-result-accepted']);
  });

  it('answer-resume:empty: 200 with no event, ended; the SDK reconnects without Last-Event-ID (405 here) and the call times out', async () => {
    const { run, client, served } = await withFault(lossy, 'answer-resume:empty', { mode: 'lossy', timeoutMs: 1500 });
    expect(run.outcome.resumes).toEqual([{ lastEventId: '11', status: 200 }]);
    expect(run.outcome.error).toMatchObject({ code: -32001 });
    // Issue 19: the SDK's reconnect of the empty resume has no Last-Event-ID (typescript-sdk #2499).
    expect(codes(client)).toEqual(['resume-rejected', 'result-missing', 'resume-cursor-lost']);
    expect(client.findings.find((f) => f.code === 'resume-cursor-lost')!.message).toMatch(/WITHOUT Last-Event-ID.*with 405/);
    expect(served.lines.some((l) => l.startsWith('GET /mcp: not in the recording') && l.endsWith('→ 405'))).toBe(true);
  });

  it('delay: the second event of tools/call comes at least 400 ms later than recorded', async () => {
    const { run, served } = await withFault(baseline, 'delay:400:2,method=tools/call');
    expect(run.outcome.hashMatches).toBe(true);
    const chunks = (records: CaptureRecord[], conn: string) => records.filter((r) => r.kind === 'chunk' && r.conn === conn) as Extract<CaptureRecord, { kind: 'chunk' }>[];
    const recorded = chunks(baseline, 'c5');
    const post = served.records.find((r) => r.kind === 'request' && r.body?.includes('tools/call'))!;
    const sent = chunks(served.records, post.kind === 'request' ? post.conn : '');
    const at = (cs: typeof sent, id: string) => cs.find((c) => c.text.includes(`id: ${id}\n`))!.t;
    // Event 7 (the 2nd): the server writes it no earlier than its recorded offset from the response
    // headers plus the delay (timers never fire early), and the client sent the request before the
    // server began: a lower bound that holds however late a loaded machine runs event 6. (The gap
    // 6 → 7 does not: event 6 written late shortens it.)
    const recordedResponse = baseline.find((r) => r.kind === 'response' && r.conn === 'c5')!;
    expect(at(sent, '7') - post.t).toBeGreaterThanOrEqual(at(recorded, '7') - recordedResponse.t + 400 - 2);
  });

  it('a fault that has no effect on a stream stays armed for the next match (cut:3 with no method: not initialize, not tools/list)', async () => {
    const { run, served } = await withFault(baseline, 'cut:3');
    expect(run.outcome.resumes).toEqual([{ lastEventId: '8', status: 200 }]);
    expect(served.lines.filter((l) => l.includes('no effect on this stream; armed for the next match'))).toHaveLength(2);
  });

  it('a request the recording does not hold: a JSON-RPC error naming it, a console line, and the fault is not spent', async () => {
    const served = await serve(baseline, { faults: parseFaultText('cut:3,method=tools/call') });
    try {
      const client = new Client({ name: 'fixture-agent', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
      const err = await client.callTool({ name: 'long_task', arguments: { chunks: 3 } }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: -32050 });
      expect(String((err as Error).message)).toContain('this tools/call is not in the recording (the recorded tools/call has other params: {"name":"long_task","arguments":{"chunks":8,"delayMs":30,"tag":"main"}');
      expect(served.lines.some((l) => l.startsWith('POST /mcp tools/call #1: not in the recording') && l.endsWith('→ JSON-RPC error -32050'))).toBe(true);
      expect(served.remainingFaults()).toEqual([1]);
      await client.close();
    } finally {
      await served.close();
    }
  });
});

// The 2026-07-28 revision: no session, no resumption; a broken stream must be re-issued. No SDK in
// the repository speaks it yet (v2 is being added), so the capture and the clients are written
// here: a client that re-issues on a broken stream, and one that waits.
describe('reissue-after-break (2026-07-28) through serve', () => {
  const URL_ = 'http://127.0.0.1:4100/mcp';
  const V = '2026-07-28';
  const listen = (id: number) => ({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: { 'io.modelcontextprotocol/protocolVersion': V } } });
  const modern = (): CaptureRecord[] => {
    const out: CaptureRecord[] = [];
    let seq = 0;
    const t = 1_800_000_000_000;
    const push = (r: Record<string, unknown>) => out.push({ seq: ++seq, src: 'hand', ...r } as CaptureRecord);
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'long_task', arguments: { chunks: 3 }, _meta: { 'io.modelcontextprotocol/protocolVersion': V } } };
    push({ kind: 'request', t, conn: 'c1', transport: 'fetch', method: 'POST', url: URL_, headers: [['content-type', 'application/json'], ['mcp-protocol-version', V], ['mcp-method', 'tools/call'], ['mcp-name', 'long_task']], body: JSON.stringify(call) });
    push({ kind: 'response', t: t + 1, conn: 'c1', status: 200, statusText: 'OK', headers: [['content-type', 'text/event-stream']], url: URL_, redirected: false, type: 'basic', capture: 'sse' });
    const ev = (m: unknown) => `event: message\ndata: ${JSON.stringify(m)}\n\n`;
    for (let i = 1; i <= 3; i++) push({ kind: 'chunk', t: t + 10 * i, conn: 'c1', text: ev({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: { index: i } } }), bytes: 100 });
    push({ kind: 'chunk', t: t + 40, conn: 'c1', text: ev({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'done' }] } }), bytes: 80 });
    push({ kind: 'end', t: t + 41, conn: 'c1', how: 'complete' });
    // A subscriptions/listen stream: acknowledged, one notification, open until the client closed it.
    const sub = { 'io.modelcontextprotocol/subscriptionId': 2 };
    push({ kind: 'request', t: t + 50, conn: 'c2', transport: 'fetch', method: 'POST', url: URL_, headers: [['content-type', 'application/json'], ['mcp-protocol-version', V]], body: JSON.stringify(listen(2)) });
    push({ kind: 'response', t: t + 51, conn: 'c2', status: 200, statusText: 'OK', headers: [['content-type', 'text/event-stream']], url: URL_, redirected: false, type: 'basic', capture: 'sse' });
    push({ kind: 'chunk', t: t + 52, conn: 'c2', text: ev({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { _meta: sub } }), bytes: 90 });
    push({ kind: 'chunk', t: t + 60, conn: 'c2', text: ev({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: sub } }), bytes: 90 });
    push({ kind: 'end', t: t + 90, conn: 'c2', how: 'page-aborted' });
    return out;
  };

  /** A minimal 2026-07-28 client over the recording fetch: reads the stream; on a broken one, re-issues or not. */
  async function callTool(served: Served, reissue: boolean) {
    const recorder = createRecordingFetch({ src: 'node:modern' });
    let id = 0;
    const once = async (): Promise<'done' | 'broken'> => {
      const body = { jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: 'long_task', arguments: { chunks: 3 }, _meta: { 'io.modelcontextprotocol/protocolVersion': V } } };
      const res = await recorder.fetch(served.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': V, 'mcp-method': 'tools/call', 'mcp-name': 'long_task' },
        body: JSON.stringify(body),
      });
      try {
        const text = await res.text();
        return text.includes(`"id":${id},"result"`) ? 'done' : 'broken';
      } catch {
        return 'broken';
      }
    };
    let outcome = await once();
    if (outcome === 'broken' && reissue) outcome = await once();
    // Then listen: read until the acknowledgement (with this listen's id as its subscription id), keep it open.
    const acks: unknown[] = [];
    const ctl: AbortController[] = [];
    const listenOnce = async (): Promise<'open' | 'broken'> => {
      const c = new AbortController();
      ctl.push(c);
      const res = await recorder.fetch(served.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': V },
        body: JSON.stringify(listen(++id)),
        signal: c.signal,
      });
      const reader = res.body!.getReader();
      let text = '';
      try {
        for (;;) {
          const r = await reader.read();
          if (r.done) return 'broken';
          text += new TextDecoder().decode(r.value);
          const m = /"io\.modelcontextprotocol\/subscriptionId":(\d+)/.exec(text);
          if (m && text.includes('list_changed')) {
            acks.push(Number(m[1]));
            return 'open';
          }
        }
      } catch {
        return 'broken';
      }
    };
    let listening = await listenOnce();
    if (listening === 'broken' && reissue) listening = await listenOnce();
    for (const c of ctl) c.abort();
    await new Promise((r) => setTimeout(r, 50));
    return { outcome, listening, acks, snap: analyzeRecords(recorder.records) };
  }

  it('a client that re-issues gets the recorded answer for the new id; the preset says pass', async () => {
    const served = await serve(modern(), { faults: parseFaultText('reissue-after-break') });
    try {
      const { outcome, listening, acks, snap } = await callTool(served, true);
      expect(outcome).toBe('done');
      expect(listening).toBe('open');
      // The re-listen (id 4) got the recorded notifications tagged with its own id.
      expect(acks).toEqual([4]);
      expect(snap.sessions[0]).toMatchObject({ sessionId: null, protocolVersion: V });
      expect(served.lines.some((l) => l.includes('→ recorded c1: 200 SSE, 4 events (again: a re-issue of a request a fault broke)'))).toBe(true);
      expect(served.lines.some((l) => l.includes('→ recorded c2: 200 SSE, 2 events, then stays open (the client closed it) (again: a re-issue of a request a fault broke)'))).toBe(true);
      const r = evaluatePreset('reissue-after-break', snap);
      expect(r.outcome).toBe('pass');
      expect(r.observed).toMatch(/^It re-issued the request \(tools\/call 1 → 2\) \d+ ms after the break\. It re-listened \(subscriptions\/listen 3 → 4\) \d+ ms after the break\.$/);
      expect(evaluatePreset('reissue-after-break', analyzeRecords(served.records)).outcome).toBe('pass');
    } finally {
      await served.close();
    }
  });

  it('a client that waits: the preset says fail', async () => {
    const served = await serve(modern(), { faults: parseFaultText('reissue-after-break') });
    try {
      const { outcome, listening, snap } = await callTool(served, false);
      expect(outcome).toBe('broken');
      expect(listening).toBe('broken');
      const r = evaluatePreset('reissue-after-break', snap);
      expect(r.outcome).toBe('fail');
      expect(r.observed).toContain('It did not re-issue tools/call 1 after the break; the call never got its result');
      expect(r.observed).toContain('It did not listen again after subscriptions/listen 2 broke: notifications sent since are lost.');
    } finally {
      await served.close();
    }
  });

  it('the legacy presets do not fire on a 2026-07-28 request (era match)', async () => {
    const served = await serve(modern(), { faults: parseFaultText('resume-after-cut') });
    try {
      const { outcome, listening } = await callTool(served, false);
      expect(outcome).toBe('done');
      expect(listening).toBe('open');
      expect(served.lines.some((l) => l.includes('fault'))).toBe(false);
    } finally {
      await served.close();
    }
  });
});

describe('presets through serve, with the SDK v2 client (@modelcontextprotocol/client 2.4)', () => {
  it('reissue-after-break on its clean 2026-07-28 capture: the SDK itself waits for its timeout (fail); an application that re-issues passes', async () => {
    const records = loadRecords(`${CAPTURES}v2/modern-baseline.capture.json`);
    for (const plan of ['task', 'task-reissue'] as const) {
      const served = await serve(records, { faults: parseFaultText('reissue-after-break') });
      let run;
      try {
        run = await runV2Scenario('modern-baseline', { server: asV2FixtureServer(served), client: { plan, timeoutMs: 1500 } });
      } finally {
        await served.close();
      }
      const r = evaluatePreset('reissue-after-break', analyzeRecords(run.records));
      expect(served.lines.some((l) => l.includes('reissue-after-break · cut the stream after 1 event · tools/call, 2026-07-28 era · next 1: cut after 1 event'))).toBe(true);
      if (plan === 'task') {
        expect(r.outcome).toBe('fail');
        expect(r.observed).toContain('It did not re-issue tools/call');
      } else {
        expect(r.outcome).toBe('pass');
        expect(served.lines.some((l) => l.includes('(again: a re-issue of a request a fault broke)'))).toBe(true);
      }
    }
  });

  it('resume-after-cut and lossy-replay on its legacy-era capture: it resumes, and accepts the lossy result, as v1 does', async () => {
    const records = loadRecords(`${CAPTURES}v2/legacy-baseline.capture.json`);
    for (const preset of ['resume-after-cut', 'lossy-replay'] as const) {
      const served = await serve(records, { faults: parseFaultText(preset) });
      let run;
      try {
        run = await runV2Scenario('legacy-baseline', { server: asV2FixtureServer(served) });
      } finally {
        await served.close();
      }
      expect(run.outcome.resumes).toHaveLength(1);
      expect(evaluatePreset(preset, analyzeRecords(run.records)).outcome).toBe(preset === 'resume-after-cut' ? 'pass' : 'fail');
    }
  });
});

// The `serve` command: arguments, what it prints, HTTP details (CORS, Host, unknown paths and
// sessions), --loop, --speed, id rewriting, determinism, and files that hold less than a capture.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { serveCommand, type ServeHandle } from '../../../src/cli/serve/command.js';
import { analyzeRecords } from '../../../src/core/analyzer.js';
import type { CaptureRecord } from '../../../src/core/record.js';
import { runScenario, SCENARIOS } from '../../fixtures/client/run-scenario.js';
import { analysisOf, asFixtureServer, CAPTURES, loadRecords, serve } from './serve-helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'msi-serve-'));

async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s) });
  return { code, stdout, stderr };
}

/** Runs the command until `body` is done with the listening handle. */
async function running(argv: string[], body: (h: ServeHandle, out: () => string) => Promise<void>) {
  let stdout = '';
  let stderr = '';
  let stop!: () => void;
  const stopped = new Promise<void>((r) => (stop = r));
  let failure: unknown;
  const code = await serveCommand(
    argv,
    { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s) },
    {
      stop: stopped,
      onListening: (h) => {
        body(h, () => stdout).then(stop, (e) => {
          failure = e;
          stop();
        });
      },
    },
  );
  if (failure) throw failure;
  return { code, stdout, stderr };
}

function raw(port: number, o: { method?: string; path?: string; headers?: Record<string, string>; body?: string }) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: o.method ?? 'GET', path: o.path ?? '/mcp', headers: o.headers ?? {} }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

describe('serve: arguments and errors (exit 2, one line)', () => {
  it('--help lists the options and the presets with their questions', async () => {
    const r = await run(['serve', '--help']);
    expect(r.code).toBe(0);
    for (const s of ['--port N', '--speed X', '--loop', '--fault F', 'Does my client resume after a cut?', 'Does it notice a lossy replay?', 'Does it re-issue after a broken stream (2026-07-28)?', 'Does it survive a 404 session?'])
      expect(r.stdout).toContain(s);
    expect((await run(['--help'])).stdout).toContain('serve --help');
  });

  it.each([
    [[], /needs one capture or HAR file/],
    [['a', 'b'], /serves one file at a time/],
    [[join(tmp, 'missing.json')], /missing\.json: no such file/],
    [[tmp], /is a directory/],
    [['X', '--port', '70000'], /--port must be a port number/],
    [['X', '--speed', '0'], /--speed must be a positive number, not "0"/],
    [['X', '--match', 'fuzzy'], /--match must be params or method/],
    [['X', '--fault', 'explode'], /--fault explode: unknown fault "explode"; one of cut, withhold/],
    [['X', '--fault', 'cut:x'], /--fault cut:x: the event count must be a whole number, not "x"/],
    [['X', '--fault', '{"action":{"kind":"cut"}}'], /--fault .*: action\.afterEvents: /],
    [['X', '--fault', '{"action":{"kind":"cut","afterEvents":1},"match":{"tool":"a","bogus":1}}'], /match: unknown field "bogus"/],
    [['X', '--fault', '@' + join(tmp, 'nope.json')], /cannot read the file \(ENOENT\)/],
    [['X', '--bogus'], /Unknown option '--bogus'/],
    [['NOTMCP'], /NOTMCP: no MCP traffic in it/],
    [['BAD'], /BAD: not valid JSON/],
  ])('%j', async (args, re) => {
    writeFileSync(join(tmp, 'X'), '{}');
    writeFileSync(join(tmp, 'BAD'), '{"log": ');
    writeFileSync(
      join(tmp, 'NOTMCP'),
      JSON.stringify({ log: { version: '1.2', entries: [{ startedDateTime: '2026-01-01T00:00:00Z', time: 1, request: { method: 'GET', url: 'http://x.test/logo.png', headers: [] }, response: { status: 200, headers: [{ name: 'content-type', value: 'image/png' }], content: { size: 1 } }, timings: {} }] } }),
    );
    const argv = args.map((a) => (a === 'X' || a === 'NOTMCP' || a === 'BAD' ? join(tmp, a) : a));
    const r = await run(['serve', ...argv, ...(argv.includes('--port') ? [] : ['--port', '0'])]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(re);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a port in use: one line naming it', async () => {
    const s = await serve(loadRecords(`${CAPTURES}baseline.capture.json`));
    try {
      const r = await run(['serve', `${CAPTURES}baseline.capture.json`, '--port', String(s.port)]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`mcp-stream-inspector serve: port ${s.port} is in use (--port 0 picks a free one)\n`);
    } finally {
      await s.close();
    }
  });
});

describe('serve: what it prints and answers', () => {
  it('prints the served URL, the recorded sessions, the armed faults and the presets, then one line per request', async () => {
    const r = await running(['--port', '0', `${CAPTURES}lossy.capture.json`, '--fault', 'lossy-replay'], async (h, out) => {
      const a = await runScenario({ name: 'lossy', ...SCENARIOS.lossy, server: asFixtureServer(Object.assign(h, { url: h.endpoints[0]!.url, lines: [] })) });
      expect(a.outcome.resumes.length).toBeGreaterThan(0);
      expect(out()).toContain('POST /mcp tools/call #2 → recorded c5: 200 SSE, 6 events, then cut (connection reset)');
    });
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe(`mcp-stream-inspector serve: ${CAPTURES}lossy.capture.json (capture file, 26 records)`);
    expect(lines[1]).toMatch(/^ {2}http:\/\/127\.0\.0\.1:\d+\/mcp {3}recorded at http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(lines[2]).toMatch(/^ {4}session [0-9a-f-]{36}: 6 exchanges \(POST 4, GET 2\), 1 cut, 1 resume \(Last-Event-ID 11\)$/);
    expect(r.stdout).toContain('  speed 1×; plays once (--loop to repeat); matches by method and params');
    expect(r.stdout).toContain('  fault 1: lossy-replay · cut the stream after 3 events · tools/call, legacy era · next 1');
    expect(r.stdout).toContain('  fault 2: lossy-replay · withhold events 1–2 · tools/call, on its resume · next 1');
    expect(r.stdout).toContain('  preset lossy-replay: Does it notice a lossy replay? The next tools/call stream breaks after 3 events');
    expect(r.stdout).toMatch(/\n\+\d+\.\d{3}s +POST \/mcp initialize #0 → recorded c1: 200 SSE, 1 event\n/);
    expect(r.stdout).toMatch(/preset lossy-replay: FAIL: It accepted the result of tools\/call 2/);
  });

  it('CORS: a preflight from another origin is allowed with the MCP headers it asks for; responses expose Mcp-Session-Id', async () => {
    const s = await serve(loadRecords(`${CAPTURES}baseline.capture.json`));
    try {
      const pre = await raw(s.port, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://page.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,mcp-session-id,mcp-protocol-version,last-event-id,mcp-method,mcp-name,mcp-param-city',
          'access-control-request-private-network': 'true',
        },
      });
      expect(pre.status).toBe(204);
      expect(pre.headers['access-control-allow-origin']).toBe('https://page.example');
      expect(pre.headers['access-control-allow-methods']).toBe('GET, POST, DELETE, OPTIONS');
      expect(pre.headers['access-control-allow-headers']).toBe('content-type,mcp-session-id,mcp-protocol-version,last-event-id,mcp-method,mcp-name,mcp-param-city');
      expect(pre.headers['access-control-allow-private-network']).toBe('true');
      const first = loadRecords(`${CAPTURES}baseline.capture.json`)[0]!;
      const init = first.kind === 'request' ? first.body! : '';
      expect(init).toContain('"method":"initialize"');
      const res = await raw(s.port, { method: 'POST', headers: { origin: 'https://page.example', 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: init });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/event-stream');
      expect(res.headers['access-control-allow-origin']).toBe('https://page.example');
      expect(String(res.headers['access-control-expose-headers']).split(', ')).toEqual(expect.arrayContaining(['mcp-session-id', 'mcp-protocol-version']));
      expect(res.headers['mcp-session-id']).toMatch(/^[0-9a-f-]{36}$/);
      // Ours, not the recording's own CORS headers (which lacked the 2026-07-28 names).
      expect(res.headers['access-control-allow-headers']).toBe('content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id, mcp-method, mcp-name');
      expect(res.body).toContain('"protocolVersion":"2025-11-25"');
    } finally {
      await s.close();
    }
  });

  it('Host other than 127.0.0.1 / localhost is refused (DNS rebinding); an unknown path or session is a clear 404', async () => {
    const s = await serve(loadRecords(`${CAPTURES}baseline.capture.json`));
    try {
      const evil = await raw(s.port, { headers: { host: 'evil.example' } });
      expect(evil.status).toBe(403);
      expect(await raw(s.port, { headers: { host: `localhost:${s.port}`, accept: 'text/event-stream' }, path: '/other' })).toMatchObject({ status: 404, body: '{"error":"nothing recorded at /other; served: /mcp"}' });
      const stale = await raw(s.port, { method: 'POST', headers: { 'mcp-session-id': 'not-handed-out', 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
      expect(stale.status).toBe(404);
      expect(JSON.parse(stale.body)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } });
      expect(s.lines).toContain('POST /mcp tools/list #1: session not-handed-out was not handed out by this replay (no session yet: initialize first) → 404');
      expect(s.lines).toContain('GET /mcp: Host "evil.example" refused (403)');
    } finally {
      await s.close();
    }
  });

  it('without --loop the recording is served once; with --loop a second client gets it again under "<session>-2", with the same findings', async () => {
    const records = loadRecords(`${CAPTURES}lossy.capture.json`);
    const once = await serve(records);
    try {
      await runScenario({ name: 'lossy', ...SCENARIOS.lossy, server: asFixtureServer(once) });
      const second = await runScenario({ name: 'lossy', ...SCENARIOS.lossy, server: asFixtureServer(once) });
      expect(second.outcome.error?.message).toContain('this initialize is not in the recording (it was replayed already; --loop serves the recording again)');
    } finally {
      await once.close();
    }
    const looped = await serve(records, { loop: true });
    try {
      const a = await runScenario({ name: 'lossy', ...SCENARIOS.lossy, server: asFixtureServer(looped) });
      const b = await runScenario({ name: 'lossy', ...SCENARIOS.lossy, server: asFixtureServer(looped) });
      expect(b.outcome.sessionId).toBe(`${a.outcome.sessionId}-2`);
      expect(analysisOf(b.records)).toEqual(analysisOf(records));
    } finally {
      await looped.close();
    }
  });

  it('--speed scales the recorded timing (lower bound: at 0.25 the gaps between events are at least 4×)', async () => {
    const records = loadRecords(`${CAPTURES}lossy.capture.json`);
    const s = await serve(records, { speed: 0.25 });
    try {
      await runScenario({ name: 'lossy', ...SCENARIOS.lossy, server: asFixtureServer(s) });
    } finally {
      await s.close();
    }
    // When each event id went out: recorded (the chunk that carried it) and served (the write).
    const at = (rs: readonly CaptureRecord[], conn: string) => {
      const m = new Map<string, number>();
      for (const r of rs) if (r.kind === 'chunk' && r.conn === conn) for (const x of r.text.matchAll(/^id: (.*)$/gm)) m.set(x[1]!, r.t);
      return m;
    };
    // The response's headers: serve schedules every event of the body from them, so a first event
    // written late (a loaded machine) does not shorten the bound of the ones after it.
    const headersAt = (rs: readonly CaptureRecord[], conn: string) => rs.find((r) => r.kind === 'response' && r.conn === conn)!.t;
    const rec = at(records, 'c5');
    const post = s.records.find((r) => r.kind === 'request' && (r.body ?? '').includes('tools/call'));
    const conn = post && post.kind === 'request' ? post.conn : '';
    const sent = at(s.records, conn);
    expect([...sent.keys()]).toEqual(['5', '6', '7', '8', '9', '10', '11']);
    for (const id of sent.keys()) expect(sent.get(id)! - headersAt(s.records, conn)).toBeGreaterThanOrEqual((rec.get(id)! - headersAt(records, 'c5')) * 4 - 2);
    expect(sent.get('11')! - sent.get('5')!).toBeGreaterThan(400);
  });

  it('ids are the live client\'s: a client that skips tools/list calls with id 1; the result and progress come back as 1', async () => {
    const records = loadRecords(`${CAPTURES}lossy.capture.json`);
    const s = await serve(records);
    let run;
    try {
      run = await runScenario({ name: 'lossy', ...SCENARIOS.lossy, listTools: false, server: asFixtureServer(s) });
    } finally {
      await s.close();
    }
    expect(run.outcome.result).toBeDefined();
    expect(run.outcome.progress.length).toBeGreaterThan(0);
    const source = analyzeRecords(records).findings.map((f) => ({ code: f.code, missing: f.missing }));
    const served = analyzeRecords(run.records);
    expect(served.findings.map((f) => ({ code: f.code, missing: f.missing }))).toEqual(source);
    expect(served.findings.every((f) => f.requestId === '1')).toBe(true);
  });

  it('deterministic: two clients against two serves of one capture are sent the same bytes, connection by connection', async () => {
    const records = loadRecords(`${CAPTURES}cross-stream.capture.json`);
    const sent: string[][] = [];
    for (let i = 0; i < 2; i++) {
      const s = await serve(records);
      try {
        await runScenario({ name: 'cross-stream', ...SCENARIOS['cross-stream'], server: asFixtureServer(s) });
      } finally {
        await s.close();
      }
      const byConn = new Map<string, string>();
      const label = new Map<string, string>();
      for (const r of s.records) {
        if (r.kind === 'request') label.set(r.conn, `${r.method} ${r.body ?? ''} ${r.headers.find(([k]) => k === 'last-event-id')?.[1] ?? ''}`);
        if (r.kind === 'chunk') byConn.set(r.conn, (byConn.get(r.conn) ?? '') + r.text);
      }
      sent.push([...byConn].map(([c, text]) => `${label.get(c)}\n${text}`).sort());
    }
    expect(sent[0]!.length).toBeGreaterThan(4);
    expect(sent[1]).toEqual(sent[0]);
  });

  it('a browser HAR without the bodies of cut streams: served as it holds them, with a note per such stream', async () => {
    const r = await running(['--port', '0', `${CAPTURES}browser/lossy.playwright.har`], async () => {});
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('(HAR, ');
    expect(r.stdout).toContain('  http://127.0.0.1:');
    expect(r.stdout).toMatch(/note: POST \/mcp\/lossy \(e4\): the file holds no body for it; served as the capture holds it/);
  });

  it('a native EventSource capture (es-event records) is served back as SSE with its event names and ids', async () => {
    const url = 'http://127.0.0.1:4200/sse';
    const t = 1_800_000_000_000;
    const records = [
      { seq: 1, src: 'p', t, kind: 'request', conn: 'c1', transport: 'eventsource', method: 'GET', url, headers: [['accept', 'text/event-stream']], body: null },
      { seq: 2, src: 'p', t: t + 1, kind: 'response', conn: 'c1', status: 200, statusText: 'OK', headers: [['content-type', 'text/event-stream']], url, redirected: false, type: 'basic', capture: 'sse' },
      { seq: 3, src: 'p', t: t + 2, kind: 'es-event', conn: 'c1', type: 'message', data: '{"jsonrpc":"2.0","method":"notifications/message","params":{}}', lastEventId: '1' },
      { seq: 4, src: 'p', t: t + 3, kind: 'es-event', conn: 'c1', type: 'tick', data: 'a\nb', lastEventId: '1' },
      { seq: 5, src: 'p', t: t + 4, kind: 'end', conn: 'c1', how: 'complete' },
    ] as CaptureRecord[];
    const s = await serve(records);
    try {
      const res = await raw(s.port, { path: '/sse', headers: { accept: 'text/event-stream' } });
      expect(res.body).toBe('id: 1\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{}}\n\nevent: tick\ndata: a\ndata: b\n\n');
    } finally {
      await s.close();
    }
  });
});

describe('serve: a hostile or broken file does not break it', () => {
  it('records lost mid-event (a capture gap, a chunk the size cap cut): no event is made of text from both sides of the loss; the note says how much is left out', async () => {
    const url = 'http://127.0.0.1:4310/mcp';
    let seq = 0;
    const rec = (r: Record<string, unknown>) => ({ seq: ++seq, src: 'p', t: 1_800_000_000_000 + seq, ...r }) as CaptureRecord;
    const note = (text: string) => `data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"${text}"}}\n\n`;
    const result = 'id: 9\ndata: {"jsonrpc":"2.0","id":1,"result":{"content":[]}}\n\n';
    // The heads and tails of events a loss cut: none of them is served.
    const cut = ['id: 2\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"', 'z"}}\n\n', 'id: 6\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"lev', 'el":"info"}}\n\n'];
    const records = [
      rec({ kind: 'request', conn: 'c1', transport: 'fetch', method: 'POST', url, headers: [['content-type', 'application/json']], body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}' }),
      rec({ kind: 'response', conn: 'c1', status: 200, statusText: 'OK', headers: [['content-type', 'text/event-stream']], url, redirected: false, type: 'basic', capture: 'sse' }),
      rec({ kind: 'chunk', conn: 'c1', text: `id: 1\n${note('a')}${cut[0]}`, bytes: 1 }),
      rec({ kind: 'capture-gap', lost: 3, conns: ['c1'], reason: 'buffer-cap' }),
      // After the loss: the tail of an event whose head was lost, then whole events again.
      rec({ kind: 'chunk', conn: 'c1', text: `${cut[1]}id: 5\n${note('b')}${cut[2]}`, bytes: 1, droppedBytes: 40 }),
      rec({ kind: 'chunk', conn: 'c1', text: `${cut[3]}${result}`, bytes: 1 }),
      rec({ kind: 'end', conn: 'c1', how: 'complete' }),
    ];
    const s = await serve(records);
    try {
      const res = await raw(s.port, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}' });
      expect(res.body).toBe(`id: 1\n${note('a')}id: 5\n${note('b')}${result}`);
      expect(s.recording.warnings).toEqual([
        `POST /mcp (c1): 40 bytes were not kept by the capture (event size cap); the capture lost records of it (buffer-cap); ${cut.join('').length} characters of events the loss cut are not served (joined, they would make an event the server never sent); served as the capture holds it`,
      ]);
    } finally {
      await s.close();
    }
  });

  it('after a loss, a whole event the parser discarded is not served even when the next event is the same text', async () => {
    const url = 'http://127.0.0.1:4311/mcp';
    let seq = 0;
    const rec = (r: Record<string, unknown>) => ({ seq: ++seq, src: 'p', t: 1_800_000_000_000 + seq, ...r }) as CaptureRecord;
    const ping = 'data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"ping"}}\n\n';
    const result = 'data: {"jsonrpc":"2.0","id":1,"result":{"content":[]}}\n\n';
    const records = [
      rec({ kind: 'request', conn: 'c1', transport: 'fetch', method: 'POST', url, headers: [['content-type', 'application/json']], body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}' }),
      rec({ kind: 'response', conn: 'c1', status: 200, statusText: 'OK', headers: [['content-type', 'text/event-stream']], url, redirected: false, type: 'basic', capture: 'sse' }),
      rec({ kind: 'chunk', conn: 'c1', text: ping, bytes: 1 }),
      rec({ kind: 'capture-gap', lost: 3, conns: ['c1'], reason: 'buffer-cap' }),
      // the first ping after the loss is discarded (its start cannot be proven); the second is the same text
      rec({ kind: 'chunk', conn: 'c1', text: `${ping}${ping}${result}`, bytes: 1 }),
      rec({ kind: 'end', conn: 'c1', how: 'complete' }),
    ];
    const s = await serve(records);
    try {
      const res = await raw(s.port, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}' });
      // before: the discarded copy was taken for the kept one, and both were served
      expect(res.body).toBe(`${ping}${ping}${result}`);
      expect(s.recording.warnings[0]).toContain(`${ping.length} characters of events the loss cut are not served`);
    } finally {
      await s.close();
    }
  });

  it('a JSON answer the capture lost part of (a capture gap, a chunk the size cap cut) is not served joined: a JSON-RPC error -32051 for each of its requests, with a note and a line', async () => {
    const url = 'http://127.0.0.1:4312/mcp';
    let seq = 0;
    const rec = (r: Record<string, unknown>) => ({ seq: ++seq, src: 'p', t: 1_800_000_000_000 + seq, ...r }) as CaptureRecord;
    const call = (id: string | number, name: string) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}"}}`;
    const text = (id: number, s: string) => `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"${s}"}]}}`;
    const gap = (conn: string) => rec({ kind: 'capture-gap', lost: 2, conns: [conn], reason: 'buffer-cap' });
    const exchange = (conn: string, body: string, ...middle: CaptureRecord[]) => [
      rec({ kind: 'request', conn, transport: 'fetch', method: 'POST', url, headers: [['content-type', 'application/json']], body }),
      rec({ kind: 'response', conn, status: 200, statusText: 'OK', headers: [['content-type', 'application/json']], url, redirected: false, type: 'basic', capture: 'json' }),
      ...middle,
      rec({ kind: 'end', conn, how: 'complete' }),
    ];
    const chunk = (conn: string, t: string, droppedBytes?: number) => rec({ kind: 'chunk', conn, text: t, bytes: t.length, ...(droppedBytes ? { droppedBytes } : {}) });
    // Each joined text parses: a well-formed answer the server never sent ("abc" and "xyz" were not adjacent).
    const [head, tail] = text(1, 'abc|xyz').split('|') as [string, string];
    const records = [
      ...exchange('c1', call(1, 'gap'), chunk('c1', head), gap('c1'), chunk('c1', tail)),
      ...exchange('c2', call(2, 'cap'), chunk('c2', head.replace('"id":1', '"id":2'), 4000), chunk('c2', tail)),
      ...exchange('c3', `[${call(3, 'b1')},${call(4, 'b2')}]`, chunk('c3', `[${text(3, 'ok')},${head.replace('"id":1', '"id":4')}`), gap('c3'), chunk('c3', `${tail}]`)),
      // Lost after a body that is whole: nothing of it can have been lost, it is served.
      ...exchange('c4', call(5, 'after'), chunk('c4', text(5, 'whole')), gap('c4')),
      // Nothing of the body is left.
      ...exchange('c5', call(6, 'none'), gap('c5')),
    ];
    const s = await serve(records);
    try {
      const post = (body: string) => raw(s.port, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body });
      const lost = (id: string) => ({ jsonrpc: '2.0', id: JSON.parse(id) as unknown, error: { code: -32051, message: expect.stringContaining('the capture lost part of this answer') } });
      const first = await post(call(71, 'gap'));
      expect(first.status).toBe(200);
      expect(JSON.parse(first.body)).toEqual(lost('71'));
      expect(JSON.parse((await post(call(72, 'cap'))).body)).toEqual(lost('72'));
      const batch = await post(`[${call('"a"', 'b1')},${call('9007199254740993', 'b2')}]`);
      expect(JSON.parse(batch.body)).toEqual([lost('"a"'), lost('9007199254740993')]);
      expect(batch.body).toContain('"id":9007199254740993,');
      expect((await post(call(75, 'after'))).body).toBe(text(75, 'whole'));
      expect(JSON.parse((await post(call(76, 'none'))).body)).toEqual(lost('76'));
      expect(s.lines[0]).toBe('POST /mcp tools/call #71 → recorded c1: 200 JSON the capture lost part of: answered with JSON-RPC error -32051');
      const notes = s.recording.warnings;
      expect(notes.filter((w) => w.includes('answered with a JSON-RPC error -32051 in its place')).map((w) => w.slice(0, 14))).toEqual(['POST /mcp (c1)', 'POST /mcp (c2)', 'POST /mcp (c3)', 'POST /mcp (c5)']);
      expect(notes.find((w) => w.startsWith('POST /mcp (c4)'))).toContain('served as the capture holds it');
    } finally {
      await s.close();
    }
  });

  it('bad statuses, header names and values, status texts, deep and __proto__ params: answered or left out, never a crash', async () => {
    const url = 'http://127.0.0.1:4300/mcp';
    const t = 1_800_000_000_000;
    let seq = 0;
    const records: CaptureRecord[] = [];
    const push = (r: Record<string, unknown>) => records.push({ seq: ++seq, src: 'h', t: t + seq, ...r } as CaptureRecord);
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    const bodies = [
      '{"jsonrpc":"2.0","id":1,"method":"a","params":{"__proto__":{"x":1}}}',
      `{"jsonrpc":"2.0","id":2,"method":"b","params":{"d":${deep}}}`,
      '{"jsonrpc":"2.0","id":3,"method":"c"}',
      '{"jsonrpc":"2.0","id":4,"method":"d"}',
    ];
    const responses: [number, string, [string, string][]][] = [
      [1000, 'OK', [['content-type', 'application/json']]],
      [200, 'Fine\u202e\n', [['bad name', 'x'], ['x-ok', 'line\nbreak'], ['x-uni', 'caf\u00e9\u2603'], ['content-type', 'application/json'], [':status', '200']]],
      [204, 'No Content', [['content-type', 'application/json']]],
      [200, 'OK', [['content-type', 'text/event-stream']]],
    ];
    bodies.forEach((body, i) => {
      const conn = `c${i}`;
      push({ kind: 'request', conn, transport: 'fetch', method: 'POST', url, headers: [['content-type', 'application/json']], body });
      const [status, statusText, headers] = responses[i]!;
      push({ kind: 'response', conn, status, statusText, headers, url, redirected: false, type: 'basic', capture: i === 3 ? 'sse' : 'json' });
      push({ kind: 'chunk', conn, text: i === 3 ? `data: {"jsonrpc":"2.0","id":4,"result":{"d":${deep}}}\n\n` : `{"jsonrpc":"2.0","id":${i + 1},"result":{}}`, bytes: 10 });
      push({ kind: 'end', conn, how: 'complete' });
    });
    const s = await serve(records);
    try {
      const post = (body: string) =>
        raw(s.port, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body }).then(
          (r) => r,
          (e: Error) => ({ status: -1, headers: {} as Record<string, string | string[] | undefined>, body: e.message }),
        );
      // 1000 is no status a server can send: answered as the recording's failed request, a reset.
      expect((await post(bodies[0]!)).status).toBe(-1);
      const second = await post(bodies[1]!.replace('"id":2', '"id":20'));
      expect(second.status).toBe(200);
      expect(second.headers['x-uni']).toBeUndefined();
      expect(second.headers['bad name']).toBeUndefined();
      expect(JSON.parse(second.body)).toEqual({ jsonrpc: '2.0', id: 20, result: {} });
      expect((await post(bodies[2]!)).status).toBe(204);
      const deepAnswer = await post(bodies[3]!.replace('"id":4', '"id":40'));
      // id 4 → 40 is spliced into the recorded text: the 5000-deep value is skipped, not re-serialised.
      expect(deepAnswer.status).toBe(200);
      expect(deepAnswer.body).toBe(`data: {"jsonrpc":"2.0","id":40,"result":{"d":${deep}}}\n\n`);
      expect(s.lines.some((l) => l.startsWith('  this event is sent with its recorded ids'))).toBe(false);
      const after = await post('{"jsonrpc":"2.0","id":9,"method":"nothing"}');
      expect(JSON.parse(after.body).error.code).toBe(-32050);
    } finally {
      await s.close();
    }
  });
});

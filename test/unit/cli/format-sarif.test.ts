// `audit --format sarif`: valid SARIF 2.1.0, checked against the OASIS schema (2.1.0-rtm.5, the
// final 2.1.0 schema, as shipped by Microsoft's @microsoft/jest-sarif; draft-04, hence ajv-draft-04).
import { readdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main';
import { ALL_CODES, FINDING_HELP, SEVERITY, TITLE } from '../../../src/core';
import { isValidSarif, sarifValidator, type SarifValidate } from '../../support/sarif-schema';

const DIR = 'test/fixtures/captures/';

async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s) });
  return { code, stdout, stderr };
}

let validate: SarifValidate;

beforeAll(() => {
  const v = sarifValidator();
  expect(v.title).toMatch(/SARIF\) Version 2\.1\.0/);
  validate = v.validate;
});

const valid = (log: unknown) => isValidSarif(validate, log);

describe('audit --format sarif', () => {
  it('is valid SARIF 2.1.0 for a lossy HAR, with a rule per code and a result per finding', async () => {
    const r = await run(['audit', `${DIR}lossy.har`, '--format', 'sarif']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    const log = JSON.parse(r.stdout);
    expect(valid(log)).toBe(true);
    expect(log.version).toBe('2.1.0');
    const run0 = log.runs[0];
    expect(run0.tool.driver.name).toBe('mcp-stream-inspector');
    expect(run0.tool.driver.rules.map((x: { id: string }) => x.id)).toEqual(ALL_CODES);
    const gap = run0.tool.driver.rules.find((x: { id: string }) => x.id === 'replay-gap');
    expect(gap.shortDescription.text).toBe(TITLE['replay-gap']);
    expect(gap.fullDescription.text).toBe(FINDING_HELP['replay-gap'].summary);
    expect(gap.help.text).toContain('What to do.');
    expect(gap.help.markdown).toContain(FINDING_HELP['replay-gap'].markdown);
    expect(gap.defaultConfiguration.level).toBe('error');
    expect(run0.results.map((x: { ruleId: string; level: string }) => `${x.ruleId} ${x.level}`)).toEqual(['replay-gap error', 'lossy-result-accepted error']);
    const res = run0.results[0];
    expect(run0.tool.driver.rules[res.ruleIndex].id).toBe(res.ruleId);
    expect(res.message.text).toContain('Ids 12–13 never delivered');
    expect(res.locations[0].physicalLocation.artifactLocation).toEqual({ uri: `${DIR}lossy.har`, index: 0 });
    expect(res.locations[0].logicalLocations.map((x: { name: string; kind: string }) => `${x.kind}: ${x.name}`)).toEqual([
      expect.stringMatching(/^module: session [0-9a-f-]+ http:\/\/127\.0\.0\.1:\d+\/mcp$/),
      'function: tools/call long_task #1',
    ]);
    expect(res.properties).toMatchObject({ severity: 'error', requestId: '2', missing: '12–13', eventIds: ['12', '13'] });
    expect(run0.artifacts).toEqual([{ location: { uri: `${DIR}lossy.har` }, description: { text: expect.stringMatching(/^HAR, \d+ records$/) } }]);
    expect(res.baselineState).toBeUndefined();
  });

  it('maps severities to levels (info → note) and stays valid on every fixture at once', async () => {
    const files = [DIR, `${DIR}v2/`, `${DIR}browser/`].flatMap((d) => readdirSync(d).filter((f) => f.endsWith('.har') || f.endsWith('.capture.json')).map((f) => d + f));
    const r = await run(['audit', ...files, '--format', 'sarif', '--fail-on', 'never']);
    expect(r.code).toBe(0);
    const log = JSON.parse(r.stdout);
    expect(valid(log)).toBe(true);
    const results = log.runs[0].results as { ruleId: string; level: string; properties: { severity: string }; locations: { physicalLocation: { artifactLocation: { index: number; uri: string } } }[] }[];
    expect(results.length).toBeGreaterThan(40);
    const LEVEL = { error: 'error', warning: 'warning', info: 'note' } as const;
    for (const x of results) {
      expect(x.level).toBe(LEVEL[x.properties.severity as keyof typeof LEVEL]);
      const loc = x.locations[0]!.physicalLocation.artifactLocation;
      expect(loc.uri).toBe(files[loc.index]);
    }
    expect(new Set(results.map((x) => x.level))).toEqual(new Set(['error', 'warning', 'note']));
    for (const rule of log.runs[0].tool.driver.rules) expect(rule.defaultConfiguration.level).toBe(LEVEL[SEVERITY[rule.id as keyof typeof SEVERITY]]);
    // Capture health, per file, as the invocation's notifications.
    expect(log.runs[0].invocations[0].toolExecutionNotifications.length).toBeGreaterThanOrEqual(files.length);
  });

  it('the schema check can fail: a result with a level SARIF does not have is refused', async () => {
    const log = JSON.parse((await run(['audit', `${DIR}lossy.har`, '--format', 'sarif'])).stdout);
    log.runs[0].results[0].level = 'fatal';
    expect(validate(log)).toBe(false);
  });

  it('fingerprints follow the finding, not the run: the same in the HAR and the capture of one run, and in a second run', async () => {
    const fp = async (file: string) => JSON.parse((await run(['audit', file, '--format', 'sarif'])).stdout).runs[0].results.map((x: { partialFingerprints: Record<string, string> }) => x.partialFingerprints['mcpStreamInspectorFinding/v1']);
    const a = await fp(`${DIR}lossy.har`);
    expect(a).toHaveLength(2);
    expect(new Set(a).size).toBe(2);
    expect(await fp(`${DIR}lossy.capture.json`)).toEqual(a);
    // gapless-lossy is another run (other port, session id) with the same loss at the same place.
    expect(await fp(`${DIR}gapless-lossy.capture.json`)).toEqual(a);
  });

  it('with --baseline: baselineState per result, and the counts in the run properties', async () => {
    const r = await run(['audit', `${DIR}lossy.har`, '--format', 'sarif', '--baseline', `${DIR}lossless.capture.json`]);
    expect(r.code).toBe(1);
    const log = JSON.parse(r.stdout);
    expect(valid(log)).toBe(true);
    expect(log.runs[0].results.map((x: { baselineState: string }) => x.baselineState)).toEqual(['new', 'new']);
    expect(log.runs[0].properties.baseline).toEqual({ files: [`${DIR}lossless.capture.json`], suppressed: 0, new: 2 });
    const same = JSON.parse((await run(['audit', `${DIR}lossy.har`, '--format', 'sarif', '--baseline', `${DIR}lossy.capture.json`])).stdout);
    expect(same.runs[0].results.map((x: { baselineState: string }) => x.baselineState)).toEqual(['unchanged', 'unchanged']);
  });
});

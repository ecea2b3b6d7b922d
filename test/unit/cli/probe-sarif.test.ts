// `probe --format sarif`: valid SARIF 2.1.0 (the schema format-sarif.test.ts uses) on real probe
// runs of the fixture servers: a failing one (lossy), a passing one (lossless) and one that leaks
// across sessions (python-shared: the security result). Levels, locations, the events in the
// message, and fingerprints that stay the same across runs of two servers with the same fault.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../../fixtures/mcp-server/index.js';
import { startV2FixtureServer } from '../../fixtures/v2/server/server.js';
import { isValidSarif, sarifValidator, type SarifValidate } from '../../support/sarif-schema';
import { LONG_TASK, QUICK, card, probe } from './probe-helpers.js';

interface Result {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: { physicalLocation: { artifactLocation: { uri: string; index: number } }; logicalLocations: { name: string; kind: string }[] }[];
  partialFingerprints: Record<string, string>;
  properties: { verdict: string; condition: string; experiment: string; eventIds: string[]; tags?: string[]; sessions?: string[] };
}

let validate: SarifValidate;
const servers: { close: () => Promise<void> }[] = [];
let lossy: FixtureServer;
let lossless: FixtureServer;
let shared: FixtureServer;

beforeAll(async () => {
  validate = sarifValidator().validate;
  lossy = await startFixtureServer({ mode: 'lossy', cut: undefined });
  lossless = await startFixtureServer({ mode: 'lossless', cut: undefined });
  shared = await startFixtureServer({ mode: 'python-shared', cut: undefined });
  servers.push(lossy, lossless, shared);
});
afterAll(async () => {
  for (const s of servers) await s.close();
});

async function sarif(url: string, extra: string[] = []) {
  const r = await probe(url, [...LONG_TASK, ...QUICK, '--format', 'sarif', ...extra]);
  expect(r.stderr).toBe('');
  const log = JSON.parse(r.stdout);
  expect(isValidSarif(validate, log)).toBe(true);
  return { code: r.code, log, run: log.runs[0], results: log.runs[0].results as Result[] };
}

describe('probe --format sarif', () => {
  it('a failing server (lossy): a rule per condition and check plus the security rule; an error per failed condition and experiment, with its events', async () => {
    const { code, log, run, results } = await sarif(lossy.url);
    expect(code).toBe(1);
    expect(log.version).toBe('2.1.0');
    expect(run.tool.driver.name).toBe('mcp-stream-inspector');
    expect(run.tool.driver.rules.map((x: { id: string }) => x.id)).toEqual([
      'probe/gapless-retention',
      'probe/drops-only-idempotent',
      'probe/terminal-pinned',
      'probe/gap-signalled',
      'probe/session-scoping',
      'probe/priming',
      'probe/ids-unique',
      'probe/resume-prompt',
      'probe/cross-session-replay',
    ]);
    for (const r of results) expect(run.tool.driver.rules[r.ruleIndex].id).toBe(r.ruleId);
    // What the JSON report card says failed is what the SARIF reports, experiment by experiment.
    const { card: c } = await card(lossy.url);
    // (priming and resume-prompt fail as warnings: they do not fail the exit status on their own)
    const warnOnly = new Set(['priming', 'resume-prompt']);
    const expected = c.experiments.flatMap((x) => [...new Set(x.evidence.filter((e) => e.verdict === 'fail' && !warnOnly.has(e.on)).map((e) => e.on))].map((on) => `probe/${on} ${x.name}`));
    const errors = results.filter((r) => r.level === 'error');
    expect(errors.map((r) => `${r.ruleId} ${r.properties.experiment}`).sort()).toEqual(expected.sort());
    expect(new Set(errors.map((r) => r.ruleId))).toEqual(new Set(['probe/gapless-retention', 'probe/terminal-pinned', 'probe/gap-signalled']));
    const gap = errors.find((r) => r.ruleId === 'probe/gapless-retention' && /^cut after \d+ event/.test(r.properties.experiment))!;
    expect(gap.message.text).toMatch(/^gapless retention: FAIL in "cut after \d+ events?[^"]*": .*cursor/);
    expect(gap.properties.eventIds.length).toBeGreaterThan(0);
    expect(gap.message.text).toContain(`[events ${gap.properties.eventIds[0]}`);
    // Without --out: located at the endpoint, with the server and the experiment as logical locations.
    expect(run.artifacts).toEqual([{ location: { uri: lossy.url }, description: { text: expect.stringContaining('--out') } }]);
    expect(gap.locations[0]!.physicalLocation.artifactLocation).toEqual({ uri: lossy.url, index: 0 });
    expect(gap.locations[0]!.logicalLocations.map((l) => `${l.kind}: ${l.name}`)).toEqual([`module: ${lossy.url}`, `function: ${gap.properties.experiment}`]);
    // Unknown conditions are notes, never errors nor left out; passes give no result.
    const unknown = Object.entries(run.properties.probe.verdicts).filter(([, v]) => v === 'unknown').map(([k]) => `probe/${k}`);
    expect(results.filter((r) => r.level === 'note').map((r) => r.ruleId).sort()).toEqual(unknown.sort());
    expect(results.every((r) => ['error', 'note'].includes(r.level) || (r.level === 'warning' && warnOnly.has(r.properties.condition)))).toBe(true);
    expect(run.properties.probe).toMatchObject({ overall: 'no', tool: 'long_task', era: 'legacy' });
    expect(run.properties.probe.verdicts).toMatchObject({ 'gapless-retention': 'fail', 'session-scoping': 'pass' });
  });

  it('a passing server (lossless): no error, exit 0, the answer "yes" in the run properties', async () => {
    const { code, run, results } = await sarif(lossless.url);
    expect(code).toBe(0);
    expect(run.properties.probe.overall).toBe('yes');
    expect(results.filter((r) => r.level !== 'note')).toEqual([]);
    // gap signalled stays unknown against lossless (an unknown cursor is answered with a silent 200): a note that says why.
    const note = results.find((r) => r.ruleId === 'probe/gap-signalled')!;
    expect(note.level).toBe('note');
    expect(note.message.text).toMatch(/^gap signalled: unknown \(not shown by this probe\)\. resume with an unknown cursor: /);
  });

  it('a cross-session leak is a security error naming both sessions, tagged security', async () => {
    const { code, run, results } = await sarif(shared.url);
    expect(code).toBe(1);
    const sec = results.filter((r) => r.ruleId === 'probe/cross-session-replay');
    expect(sec).toHaveLength(1);
    expect(sec[0]!.level).toBe('error');
    expect(sec[0]!.properties.tags).toEqual(['security']);
    expect(sec[0]!.properties.sessions).toHaveLength(2);
    for (const s of sec[0]!.properties.sessions!) expect(sec[0]!.message.text).toContain(s);
    expect(sec[0]!.message.text).toMatch(/^SECURITY cross-session-replay: .*\[events /);
    const rule = run.tool.driver.rules[sec[0]!.ruleIndex];
    expect(rule.properties.tags).toContain('security');
    expect(rule.properties['security-severity']).toMatch(/^\d+\.\d$/);
    // The session-scoping failure is that result, not a second alert.
    expect(results.filter((r) => r.ruleId === 'probe/session-scoping')).toEqual([]);
    expect(run.properties.probe.verdicts['session-scoping']).toBe('fail');
  });

  it('with --out: results point at the saved capture of their experiment', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'msi-probe-sarif-')), 'caps');
    const { run, results } = await sarif(lossy.url, ['--out', out]);
    const uris = run.artifacts.map((a: { location: { uri: string } }) => a.location.uri);
    expect(uris).toContain(`file://${out}/probe-session-a.msi.json`);
    expect(uris).not.toContain(lossy.url);
    for (const r of results) {
      const loc = r.locations[0]!.physicalLocation.artifactLocation;
      expect(loc.uri).toBe(uris[loc.index]);
    }
    const gap = results.find((r) => r.ruleId === 'probe/gapless-retention' && r.properties.experiment.startsWith('cut after'))!;
    expect(gap.locations[0]!.physicalLocation.artifactLocation.uri).toMatch(/\/probe-(session-a|cut-before-id)\.msi\.json$/);
  });

  it('fingerprints follow the failure, not the run: the same for a second lossy server (other port, other session ids), distinct within a run', async () => {
    const other = await startFixtureServer({ mode: 'lossy', cut: undefined });
    servers.push(other);
    const fps = (rs: Result[]) => rs.map((r) => r.partialFingerprints['mcpStreamInspectorProbe/v1']).sort();
    const a = fps((await sarif(lossy.url)).results);
    expect(new Set(a).size).toBe(a.length);
    expect(fps((await sarif(other.url)).results)).toEqual(a);
  });

  it('the 2026-07-28 era (SDK v2 fixture, modern-baseline): valid, no error, no note for what that era makes moot', async () => {
    const v2 = await startV2FixtureServer();
    servers.push(v2);
    const { code, run, results } = await sarif(v2.modeUrl('modern-baseline'));
    expect(code).toBe(0);
    expect(run.properties.probe).toMatchObject({ era: 'modern', overall: 'not shown' });
    expect(run.properties.probe.verdicts['gapless-retention']).toBe('unknown');
    expect(results.filter((r) => r.level !== 'note')).toEqual([]);
    for (const k of ['gapless-retention', 'gap-signalled', 'session-scoping', 'priming', 'ids-unique']) expect(results.map((r) => r.ruleId)).not.toContain(`probe/${k}`);
    expect(run.invocations[0].toolExecutionNotifications.map((n: { message: { text: string } }) => n.message.text).join('\n')).toMatch(/note: the 2026-07-28 revision has no sessions/);
  });

  it('the schema check can fail: a level SARIF does not have is refused', async () => {
    const { log } = await sarif(lossy.url);
    log.runs[0].results[0].level = 'fatal';
    expect(validate(log)).toBe(false);
  });
});

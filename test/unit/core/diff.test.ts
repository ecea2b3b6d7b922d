// diffSnapshots (src/core/diff): two runs of one scenario compared by role, never by JSON-RPC id,
// session id or connection id (issue 20). Real captures of the fixture scenarios (the SDK client
// against the fixture server), a fresh run of the clean scenario, and properties over every fixture.
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeRecords } from '../../../src/core/analyzer';
import { baselineStates, diffSnapshots, findingIdentities, type SnapshotDiff } from '../../../src/core/diff/index';
import { importText } from '../../../src/core/import/index';
import type { AnalysisSnapshot } from '../../../src/core/model';
import { runScenario } from '../../fixtures/client/run-scenario';
import { runV2Scenario } from '../../fixtures/v2/client/run-scenario';
import { renumber, type Renumbering } from './renumber';

const DIR = 'test/fixtures/captures';
const load = (path: string): AnalysisSnapshot => analyzeRecords(importText(readFileSync(path, 'utf8')).records);

/** Everything the diff lists, as short lines: what a reader of `diff` would see named. */
function named(d: SnapshotDiff): string[] {
  const req = (r: { name: string; ordinal: number } | null) => (r ? ` ${r.name} #${r.ordinal}` : '');
  return [
    ...d.findings.new.map((x) => `+ ${x.ref.code}${req(x.ref.request)}`),
    ...d.findings.gone.map((x) => `- ${x.ref.code}${req(x.ref.request)}`),
    ...d.findings.changed.map((x) => `~ ${x.ref.code}${req(x.ref.request)} ${x.what.join(',')}`),
    ...d.verdicts.map((v) => `verdict${req(v.request)} ${v.base} -> ${v.head} [${[...v.findings.new.map((f) => `+${f.ref.code}`), ...v.findings.gone.map((f) => `-${f.ref.code}`)].join(' ')}]`),
    ...d.resumes.map((r) => `resume ${r.chain} ${JSON.stringify(r.base)} -> ${JSON.stringify(r.head)}`),
    ...d.eras.servers.map((s) => `server ${s.endpoint} ${s.base} -> ${s.head}`),
    ...d.eras.sessions.new.map((s) => `+ session ${s.endpoint} ${s.era} ${s.ordinal}`),
    ...d.eras.sessions.gone.map((s) => `- session ${s.endpoint} ${s.era} ${s.ordinal}`),
  ];
}

describe('diffSnapshots: lossless and lossy runs of one scenario', () => {
  for (const ext of ['capture.json', 'har']) {
    it(`${ext}: names the new gap and the changed verdict, nothing else`, () => {
      const d = diffSnapshots(load(`${DIR}/lossless.${ext}`), load(`${DIR}/lossy.${ext}`));
      expect(named(d)).toEqual(['+ replay-gap tools/call long_task #1', 'verdict tools/call long_task #1 complete -> lossy [+lossy-result-accepted]']);
      expect(d.same).toBe(false);
      expect(d.count).toBe(2);
      // The two runs used other ports: paired by host and path, which is not a difference.
      expect(d.endpoints).toEqual([{ base: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/), head: expect.stringMatching(/\/mcp$/), how: 'host' }]);
      expect(d.findings.new[0]!.at.missing).toBe('12–13');
      expect(d.findings.unchanged).toBe(0);
    });
  }

  it('baselineStates: the lossy run against a lossless baseline has two new findings; against itself none', () => {
    const lossy = load(`${DIR}/lossy.har`);
    expect(baselineStates(load(`${DIR}/lossless.capture.json`), lossy).map((x) => `${x.finding.code} ${x.state}`)).toEqual(['replay-gap new', 'lossy-result-accepted new']);
    expect(baselineStates(load(`${DIR}/lossy.capture.json`), lossy).map((x) => `${x.state} ${x.baseSeverity}`)).toEqual(['unchanged error', 'unchanged error']);
    // Identity keys carry no port, session id or JSON-RPC id.
    const keys = findingIdentities(lossy).map((x) => x.key);
    expect(keys).toEqual(['["replay-gap",["/mcp","legacy",1],["tools/call long_task",1],null]#1', '["lossy-result-accepted",["/mcp","legacy",1],["tools/call long_task",1],null]#1']);
  });

  it('the other way round: the gap is gone and the verdict changes back', () => {
    const d = diffSnapshots(load(`${DIR}/lossy.capture.json`), load(`${DIR}/lossless.capture.json`));
    expect(named(d)).toEqual(['- replay-gap tools/call long_task #1', 'verdict tools/call long_task #1 lossy -> complete [-lossy-result-accepted]']);
  });

  it('a capture and the HAR of the same run do not differ', () => {
    for (const name of ['lossy', 'lossless', 'cross-stream', 'python-shared', 'session-404']) {
      const d = diffSnapshots(load(`${DIR}/${name}.capture.json`), load(`${DIR}/${name}.har`));
      expect(named(d), name).toEqual([]);
      expect(d.same).toBe(true);
    }
  });

  it('another kind of loss in the same scenario: live-drop against lossy', () => {
    const d = diffSnapshots(load(`${DIR}/lossy.capture.json`), load(`${DIR}/live-drop.capture.json`));
    const lines = named(d);
    expect(lines).toContain('- replay-gap tools/call long_task #1');
    expect(lines).toContain('+ live-gap tools/call long_task #1');
    // lossy resumed once with Last-Event-ID; live-drop never reconnected.
    expect(lines.some((l) => l.startsWith('resume POST tools/call long_task #1 {"resumes":1,"lastEventId":[true]} -> null'))).toBe(true);
  });

  it('a gap at other ids of the same counter is a change, not a new finding', () => {
    const base = load(`${DIR}/lossy.capture.json`);
    const moved: AnalysisSnapshot = { ...base, findings: base.findings.map((f) => (f.code === 'replay-gap' ? { ...f, eventIds: ['14', '15'], missing: '14–15' } : f)) };
    const d = diffSnapshots(base, moved);
    expect(named(d)).toEqual(['~ replay-gap tools/call long_task #1 ids']);
    expect(d.findings.changed[0]!.base.missing).toBe('12–13');
    expect(d.findings.changed[0]!.head.missing).toBe('14–15');
  });

  it('ids of a gap under an opaque scheme are not compared', () => {
    const base = load(`${DIR}/lossy.capture.json`);
    const opaque = (s: AnalysisSnapshot, ids: string[]): AnalysisSnapshot => ({
      ...s,
      sessions: s.sessions.map((x) => ({ ...x, idScheme: { ...x.idScheme, kind: 'opaque' } })),
      findings: s.findings.map((f) => (f.code === 'replay-gap' ? { ...f, eventIds: ids } : f)),
    });
    expect(diffSnapshots(opaque(base, ['a1']), opaque(base, ['b2'])).same).toBe(true);
  });
});

describe('diffSnapshots: two runs of the same clean scenario', () => {
  it('a fresh run of the baseline scenario (new session id, new port, other times) against the committed one: no difference', async () => {
    const run = await runScenario('baseline');
    const fresh = analyzeRecords(run.records);
    const committed = load(`${DIR}/baseline.capture.json`);
    expect(fresh.sessions[0]!.sessionId).not.toBe(committed.sessions[0]!.sessionId);
    const d = diffSnapshots(committed, fresh);
    expect(named(d)).toEqual([]);
    expect(d.same).toBe(true);
    expect(d.count).toBe(0);
    // And the fresh run against the lossy capture still names the loss.
    expect(diffSnapshots(fresh, load(`${DIR}/lossy.capture.json`)).same).toBe(false);
  }, 30_000);
});

describe('diffSnapshots: second runs of 2026-07-28 scenarios (SDK v2 client and server)', () => {
  for (const name of ['modern-baseline', 'modern-reissue', 'dual-modern'] as const) {
    it(`${name}: a fresh run against the committed one: no difference`, async () => {
      const fresh = analyzeRecords((await runV2Scenario(name)).records);
      const committed = load(`${DIR}/v2/${name}.capture.json`);
      expect(fresh.sessions.length).toBeGreaterThan(0);
      expect(named(diffSnapshots(committed, fresh))).toEqual([]);
    }, 30_000);
  }

  it('modern-reissue against modern-baseline names what the broken stream changed', () => {
    const d = diffSnapshots(load(`${DIR}/v2/modern-baseline.capture.json`), load(`${DIR}/v2/modern-reissue.capture.json`));
    expect(d.same).toBe(false);
    expect(named(d).some((l) => l.startsWith('+ request-reissued'))).toBe(true);
  });
});

// ------------------------------------------------------------------ properties over every fixture

const FILES = [
  ...readdirSync(DIR).filter((f) => f.endsWith('.capture.json') || f.endsWith('.har')).map((f) => `${DIR}/${f}`),
  ...readdirSync(`${DIR}/v2`).filter((f) => f.endsWith('.capture.json')).map((f) => `${DIR}/v2/${f}`),
];
const SNAPS = new Map<string, AnalysisSnapshot>();
const snap = (f: string) => {
  let s = SNAPS.get(f);
  if (!s) SNAPS.set(f, (s = load(f)));
  return s;
};

const renumbering: fc.Arbitrary<Renumbering> = fc.record({
  idOffset: fc.integer({ min: 1, max: 1e6 }),
  stringIds: fc.boolean(),
  sessionSalt: fc.string({ minLength: 1, maxLength: 12 }),
  streamPrefix: fc.stringMatching(/^[a-z]{1,6}$/),
  messageSuffix: fc.string({ maxLength: 20 }),
});

describe('diffSnapshots: properties', () => {
  it('has fixtures to work on', () => {
    expect(FILES.length).toBeGreaterThan(50);
  });

  it('a side diffed with itself is empty (one file or several)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...FILES), { minLength: 1, maxLength: 3 }), (files) => {
        const side = files.map(snap);
        const d = diffSnapshots(side, side);
        expect(named(d)).toEqual([]);
        expect(d.same).toBe(true);
        expect(d.findings.unchanged).toBe(side.reduce((n, s) => n + s.findings.length, 0));
      }),
      { numRuns: 40 },
    );
  });

  it('is invariant under renumbering JSON-RPC ids, session ids, connection ids and messages', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FILES), renumbering, (file, how) => {
        const s = snap(file);
        const r = renumber(s, how);
        // The renumbering did change what it should.
        if (s.sessions.some((x) => x.sessionId !== null)) expect(r.sessions.map((x) => x.sessionId)).not.toEqual(s.sessions.map((x) => x.sessionId));
        expect(named(diffSnapshots(s, r))).toEqual([]);
        expect(named(diffSnapshots(r, s))).toEqual([]);
        // The same identity for `audit --baseline` and the SARIF fingerprints.
        expect(baselineStates(s, r).map((x) => x.state)).toEqual(r.findings.map(() => 'unchanged'));
        expect(findingIdentities(r).map((x) => x.key)).toEqual(findingIdentities(s).map((x) => x.key));
      }),
      { numRuns: 60 },
    );
  });

  it('a finding dropped from one side is named gone (or folded into its verdict), never silently lost', () => {
    const withFindings = FILES.filter((f) => snap(f).findings.length > 0);
    fc.assert(
      fc.property(fc.constantFrom(...withFindings), fc.nat(), (file, k) => {
        const s = snap(file);
        const i = k % s.findings.length;
        const fewer: AnalysisSnapshot = { ...s, findings: s.findings.filter((_, j) => j !== i) };
        const d = diffSnapshots(s, fewer);
        expect(d.same).toBe(false);
        expect(d.findings.gone.length).toBe(1);
        expect(d.findings.gone[0]!.ref.code).toBe(s.findings[i]!.code);
      }),
      { numRuns: 40 },
    );
  });
});

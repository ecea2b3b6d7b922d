// Acceptance on real traffic: the official SDK client against the fixture server
// (test/fixtures), from the committed captures and HAR files, and from a few live runs of
// variants that are not committed.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { analyzeRecords } from '../../../src/core/analyzer';
import { importText, importValue } from '../../../src/core/import/index';
import type { AnalysisSnapshot, FindingCode, Verdict } from '../../../src/core/model';
import { runScenario } from '../../fixtures/client/run-scenario';

const DIR = 'test/fixtures/captures/';
const load = (name: string, ext: 'capture.json' | 'har') => analyzeRecords(importText(readFileSync(`${DIR}${name}.${ext}`, 'utf8')).records);
const call = (s: AnalysisSnapshot) => {
  const calls = s.sessions.flatMap((x) => s.requests[x.key]!).filter((r) => r.method === 'tools/call');
  return calls[calls.length - 1]!;
};
const codes = (s: AnalysisSnapshot) => [...new Set(s.findings.map((f) => f.code))].sort();
const errors = (s: AnalysisSnapshot) => s.findings.filter((f) => f.severity === 'error').map((f) => f.code);

interface Expect {
  codes: FindingCode[];
  verdict: Verdict | Verdict[];
  scheme: string;
}
const EXPECTED: Record<string, Expect> = {
  baseline: { codes: [], verdict: 'complete', scheme: 'contiguous' },
  lossless: { codes: [], verdict: ['complete', 'complete-unverified'], scheme: 'contiguous' },
  lossy: { codes: ['lossy-result-accepted', 'replay-gap'], verdict: 'lossy', scheme: 'contiguous' },
  opaque: { codes: ['replay-unverifiable', 'unverified-result-accepted'], verdict: 'complete-unverified', scheme: 'opaque' },
  'dropped-result': { codes: ['result-missing'], verdict: 'incomplete', scheme: 'contiguous' },
  // The replayed warm-up events repeat ids the client had: replay-duplicate too (issue 19).
  'cross-stream': { codes: ['lossy-result-accepted', 'replay-cross-stream', 'replay-duplicate'], verdict: 'lossy', scheme: 'contiguous' },
  'session-404': { codes: ['result-missing', 'resume-rejected', 'session-expired'], verdict: 'incomplete', scheme: 'contiguous' },
  'gapless-declared': { codes: [], verdict: 'complete', scheme: 'contiguous' },
  'gapless-lossy': { codes: ['lossy-result-accepted', 'replay-gap'], verdict: 'lossy', scheme: 'contiguous' },
  resync: { codes: ['replay-gap'], verdict: 'complete-unverified', scheme: 'contiguous' },
  polling: { codes: [], verdict: 'complete', scheme: 'contiguous' },
  'json-response': { codes: [], verdict: 'complete', scheme: 'none' },
  stateless: { codes: [], verdict: 'complete', scheme: 'none' },
};

describe.each(Object.entries(EXPECTED))('committed fixture capture %s', (name, exp) => {
  it.each(['capture.json', 'har'] as const)('%s', (ext) => {
    const s = load(name, ext);
    expect(s.sessions).toHaveLength(1);
    expect(s.sessions[0]!.protocolVersion).toBe('2025-11-25');
    expect(s.sessions[0]!.idScheme.kind).toBe(exp.scheme);
    expect(codes(s)).toEqual([...exp.codes].sort());
    const verdicts = Array.isArray(exp.verdict) ? exp.verdict : [exp.verdict];
    expect(verdicts).toContain(call(s).verdict);
  });

  it('capture and HAR give the same findings (apart from stream ids)', () => {
    const strip = (s: AnalysisSnapshot) => s.findings.map((f) => ({ ...f, streamId: undefined, relatedStreamIds: undefined, message: f.message.replace(/(node:[\w-]+:c|har:e)\d+/g, 'S') }));
    expect(strip(load(name, 'har'))).toEqual(strip(load(name, 'capture.json')));
  });
});

describe('acceptance details', () => {
  it('lossy: names the missing ids and puts them on the tools/call', () => {
    const s = load('lossy', 'har');
    const gap = s.findings.find((f) => f.code === 'replay-gap')!;
    expect(gap.missing).toBe('12–13');
    expect(call(s).findings).toEqual(['replay-gap', 'lossy-result-accepted']);
    expect(s.sessions[0]!.lossless).toBe(false);
  });

  it('lossless cut-and-resume: no error-level finding', () => {
    expect(errors(load('lossless', 'har'))).toEqual([]);
    expect(errors(load('polling', 'har'))).toEqual([]);
  });

  it('stateless server: sessionless traffic grouped by endpoint, labelled with its revision', () => {
    const s = load('stateless', 'har');
    expect(s.sessions[0]).toMatchObject({ sessionId: null, protocolVersion: '2025-11-25' });
    expect(s.sessions[0]!.key).toMatch(/^endpoint:http:\/\/127\.0\.0\.1:\d+\/mcp/);
  });

  it('gapless declared: read from the fixture capability key', () => {
    expect(load('gapless-declared', 'capture.json').sessions[0]!.gaplessDeclared).toBe(true);
    expect(load('lossless', 'capture.json').sessions[0]!.gaplessDeclared).toBe(false);
  });
});

describe('live variants (SDK client against the fixture server)', () => {
  const CUT = { afterEvents: 7, how: 'destroy' as const };
  const cases: [string, Parameters<typeof runScenario>[0], FindingCode[], Verdict][] = [
    ['prefixed ids, lossy replay', { name: 'v1', mode: { idScheme: 'prefixed', cut: CUT, replay: { omitFirst: 2 } } }, ['lossy-result-accepted', 'replay-gap'], 'lossy'],
    ['opaque ids, lossy replay', { name: 'v2', mode: { idScheme: 'sdk-example', cut: CUT, replay: { omitFirst: 2 } } }, ['replay-unverifiable', 'unverified-result-accepted'], 'complete-unverified'],
    ['two cuts, second replay lossy', { name: 'v3', mode: { cut: { ...CUT, resumes: true }, replay: { omitFirst: 1 } } }, ['lossy-result-accepted', 'replay-gap'], 'lossy'],
    ['replay without message notifications', { name: 'v4', mode: { cut: CUT, replay: { omitMethods: ['notifications/message'] } } }, ['lossy-result-accepted', 'replay-gap'], 'lossy'],
    ['result dropped, stream left open', { name: 'v6', mode: { dropResult: { endStream: false } }, timeoutMs: 1500 }, ['result-missing'], 'incomplete'],
  ];
  it.each(cases)('%s', async (_name, opts, expCodes, verdict) => {
    const run = await runScenario(opts);
    for (const s of [analyzeRecords(run.records), analyzeRecords(importValue(JSON.parse(JSON.stringify(run.har))).records)]) {
      // The SDK example store (opaque ids) sorts its replay by string: an event of the cursor's
      // millisecond can come back a second time. That duplicate is real; it is not what is tested.
      expect(codes(s).filter((c) => c !== 'replay-duplicate')).toEqual([...expCodes].sort());
      expect(call(s).verdict).toBe(verdict);
    }
  }, 30_000);

  it('opaque ids, gapless declared: trusted (the SDK example store may replay one same-millisecond event twice)', async () => {
    const run = await runScenario({ name: 'v5', mode: { idScheme: 'sdk-example', cut: CUT, gapless: true } });
    const s = analyzeRecords(run.records);
    expect(codes(s).filter((c) => c !== 'replay-duplicate' && c !== 'progress-regressed' && c !== 'duplicate-output-accepted')).toEqual([]);
    // A cumulative notification replayed twice before the result: duplicated output (issue 19).
    const dupCumulative = s.findings.some((f) => f.code === 'replay-duplicate' && f.message.includes('Cumulative'));
    expect(codes(s).includes('duplicate-output-accepted')).toBe(dupCumulative);
    expect(call(s).verdict).toBe(dupCumulative ? 'duplicated' : 'complete');
  }, 30_000);
});

// The field's servers in the fixtures (test/fixtures/mcp-server/field-stores.ts): the SDK client
// against the Python SDK's stores and transport, mcp-proxy's store, Cloudflare agents' ids and a
// server without ids (tmcp), lossless and lossy. Each committed scenario is analysed three ways:
// the live path (the records as the page hook writes them, <name>.capture.json), a HAR with every
// body (<name>.har, as Chrome saves one) and a HAR with bodies as Playwright's recordHar keeps them
// (playwright-shape/<name>.har: none for streams not read to their end). A few scenarios also run
// live against the fixture server here, so the stores keep doing what the captures show.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeRecords } from '../../../src/core/analyzer';
import { importText, importValue } from '../../../src/core/import/index';
import type { AnalysisSnapshot, Finding, RequestInfo } from '../../../src/core/model';
import type { CaptureRecord } from '../../../src/core/record';
import { runScenario, type ScenarioName } from '../../fixtures/client/run-scenario';

const DIR = 'test/fixtures/captures/';
const index = JSON.parse(readFileSync(DIR + 'index.json', 'utf8')) as Record<string, Record<string, unknown>>;

type Path = 'live' | 'har' | 'playwright';
function analyse(name: string, path: Path): AnalysisSnapshot {
  const file = path === 'live' ? `${name}.capture.json` : path === 'har' ? `${name}.har` : `playwright-shape/${name}.har`;
  return analyzeRecords(importText(readFileSync(DIR + file, 'utf8')).records);
}
const calls = (s: AnalysisSnapshot): RequestInfo[] => Object.values(s.requests).flat().filter((r) => r.method === 'tools/call');
const errors = (s: AnalysisSnapshot): Finding[] => s.findings.filter((f) => f.severity === 'error');
const codesOf = (s: AnalysisSnapshot, sev?: Finding['severity']) => s.findings.filter((f) => !sev || f.severity === sev).map((f) => f.code);
const mainSession = (s: AnalysisSnapshot) => s.sessions.find((x) => calls(s).some((r) => s.requests[x.key]!.includes(r)))!;

/** What must hold of a scenario on every path (the Playwright shape may know less, never more). */
interface Expect {
  scheme: { kind: string; scope?: string; evidence?: RegExp };
  /** Error codes on the live path and the full HAR. */
  errors: string[];
  /** The verdicts of the tools/call requests, in capture order. */
  verdicts: string[];
  /** On the Playwright-shaped HAR, when it differs. */
  playwright?: { errors: string[]; verdicts: string[] };
  also?: (s: AnalysisSnapshot, path: Path) => void;
}

const FIELD: Record<string, Expect> = {
  'python-example': {
    scheme: { kind: 'opaque', evidence: /random UUIDs/ },
    errors: [],
    verdicts: ['complete-unverified'],
  },
  'python-evicted': {
    scheme: { kind: 'opaque' },
    errors: ['result-missing'],
    verdicts: ['incomplete'],
    playwright: { errors: [], verdicts: ['incomplete'] },
    also: (s) => {
      // The evicted cursor: 200 and an empty stream that ended at once.
      const resume = Object.values(s.streams).find((x) => x.kind === 'resume')!;
      expect(resume.status).toBe(200);
      expect(resume.events).toHaveLength(0);
      expect(codesOf(s)).toContain('resume-rejected');
    },
  },
  'python-polling': {
    scheme: { kind: 'contiguous', scope: 'session' },
    errors: [],
    verdicts: ['complete'],
    playwright: { errors: [], verdicts: ['complete-unverified'] },
    also: (s, path) => {
      // The second priming event in the middle of the resumed stream: no reorder, no gap.
      const resume = Object.values(s.streams).find((x) => x.kind === 'resume')!;
      if (path !== 'playwright') {
        const priming = resume.events.findIndex((e) => e.id !== undefined && e.data === '');
        expect(priming).toBeGreaterThan(0);
        expect(priming).toBeLessThan(resume.events.length - 1);
      }
      expect(codesOf(s)).not.toContain('replay-reordered');
    },
  },
  'python-polling-window': {
    scheme: { kind: 'contiguous', scope: 'session' },
    errors: ['replay-gap', 'lossy-result-accepted'],
    verdicts: ['lossy'],
    also: (s) => {
      const omitted = (index['python-polling-window']!.replays as { omitted: string[] }[])[0]!.omitted;
      expect(s.findings.find((f) => f.code === 'replay-gap')!.eventIds).toEqual(omitted);
    },
  },
  'python-shared': {
    scheme: { kind: 'sparse', scope: 'server', evidence: /shared by several sessions/ },
    errors: [],
    verdicts: ['complete-unverified', 'complete-unverified'],
    also: (s) => {
      expect(s.sessions).toHaveLength(2);
      for (const x of s.sessions) expect(x.idScheme).toMatchObject({ kind: 'sparse', scope: 'server' });
      expect(codesOf(s)).not.toContain('live-gap');
    },
  },
  'python-cross-session': {
    scheme: { kind: 'opaque' },
    errors: ['replay-cross-stream', 'replay-cross-stream', 'lossy-result-accepted'],
    verdicts: ['lossy', 'complete'],
    also: (s) => {
      const peer = (index['python-cross-session']!.peers as { sessionId: string }[])[0]!.sessionId;
      const f = s.findings.filter((x) => x.code === 'replay-cross-stream');
      expect(f.every((x) => x.sessionId !== peer && x.message.includes(`session ${peer}`))).toBe(true);
      // Every event of the peer's the resume delivered is named, and only those.
      const cross = (index['python-cross-session']!.replays as { crossStream: string[] }[])[0]!.crossStream;
      expect(f.flatMap((x) => x.eventIds)).toEqual(cross);
      // The main call took the peer's result (same JSON-RPC id 2) as its own.
      expect(s.findings.find((x) => x.code === 'lossy-result-accepted')!.message).toMatch(/another session had received/);
    },
  },
  'mcp-proxy': {
    scheme: { kind: 'opaque' },
    errors: [],
    verdicts: ['complete-unverified'],
    also: (s, path) => {
      if (path === 'playwright') return;
      const ids = Object.values(s.streams).flatMap((x) => x.events.map((e) => e.id).filter((i): i is string => i !== undefined));
      expect(ids.length).toBeGreaterThan(10);
      for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}_\d{13}_[0-9a-z]{4}_[0-9a-z]{3}$/);
    },
  },
  'mcp-proxy-evicted': {
    scheme: { kind: 'opaque' },
    errors: ['result-missing'],
    verdicts: ['incomplete'],
    playwright: { errors: [], verdicts: ['incomplete'] },
    also: (s) => {
      const rejected = s.findings.filter((f) => f.code === 'resume-rejected');
      expect(rejected.length).toBeGreaterThan(0);
      expect(rejected[0]!.message).toMatch(/HTTP 400/);
    },
  },
  cloudflare: {
    scheme: { kind: 'contiguous', scope: 'stream', evidence: /hexadecimal/ },
    errors: [],
    verdicts: ['complete'],
    playwright: { errors: [], verdicts: ['complete-unverified'] },
    also: (s, path) => {
      if (path === 'playwright') return;
      const ids = Object.values(s.streams).flatMap((x) => x.events.map((e) => e.id).filter((i): i is string => i !== undefined));
      for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}:[0-9a-f]{16}$/);
      // McpAgent writes no priming event.
      expect(Object.values(s.streams).flatMap((x) => x.events.slice()).some((e) => e.id !== undefined && e.data === '')).toBe(false);
      expect(ids.some((i) => /[a-f]$/.test(i))).toBe(true);
    },
  },
  'cloudflare-lossy': {
    scheme: { kind: 'contiguous', scope: 'stream', evidence: /hexadecimal/ },
    errors: ['replay-gap', 'lossy-result-accepted'],
    verdicts: ['lossy'],
    also: (s) => {
      // Resumed from …0009, the replay continued at …0010: 16, so …000a–…000f never came.
      const omitted = (index['cloudflare-lossy']!.replays as { omitted: string[] }[])[0]!.omitted;
      expect(omitted.map((x) => x.slice(-1))).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
      expect(s.findings.find((f) => f.code === 'replay-gap')!.eventIds).toEqual(omitted);
    },
  },
  tmcp: {
    scheme: { kind: 'none' },
    errors: [],
    verdicts: ['complete'],
    also: (s, path) => {
      expect(Object.values(s.streams).flatMap((x) => x.events.slice()).every((e) => e.id === undefined)).toBe(true);
      if (path !== 'playwright') expect(Object.values(s.streams).find((x) => x.kind === 'get')!.comments).toBeGreaterThan(0);
    },
  },
  'tmcp-cut': {
    scheme: { kind: 'none' },
    errors: ['result-missing'],
    verdicts: ['incomplete'],
    playwright: { errors: [], verdicts: ['incomplete'] },
  },
};

describe('the field\'s servers: committed captures, on the live path, a full HAR and a Playwright-shaped HAR', () => {
  for (const [name, exp] of Object.entries(FIELD)) {
    for (const path of ['live', 'har', 'playwright'] as const) {
      it(`${name} (${path})`, () => {
        const s = analyse(name, path);
        const pw = path === 'playwright' && exp.playwright;
        expect(codesOf(s, 'error')).toEqual(pw ? exp.playwright!.errors : exp.errors);
        expect(calls(s).map((r) => r.verdict)).toEqual(pw ? exp.playwright!.verdicts : exp.verdicts);
        const scheme = mainSession(s).idScheme;
        expect(scheme.kind).toBe(exp.scheme.kind);
        if (exp.scheme.scope) expect(scheme.scope).toBe(exp.scheme.scope);
        if (exp.scheme.evidence) expect(scheme.evidence).toMatch(exp.scheme.evidence);
        // Imported files never say the inspector lost records.
        for (const x of s.sessions) expect(x.losslessReasons.join('; ')).not.toMatch(/inspector lost/);
        exp.also?.(s, path);
      });
    }
  }

  it('every scenario is in index.json with what the SDK client saw', () => {
    // One chunk (its message and progress) fell into the replay-to-live window.
    expect(index['python-polling-window']).toMatchObject({ hashMatches: false, call: { resolved: true } });
    expect(index['python-polling-window']!.missingChunks).toHaveLength(1);
    expect(index['python-cross-session']).toMatchObject({ hashMatches: false });
    expect(index['python-cross-session']!.peers).toMatchObject([{ hashMatches: true }]);
    expect(index['python-shared']).toMatchObject({ hashMatches: true, missingChunks: [] });
    expect(index['python-shared']!.peers).toMatchObject([{ hashMatches: true, missingChunks: [] }]);
    expect(index['cloudflare-lossy']).toMatchObject({ hashMatches: false });
    expect((index['mcp-proxy-evicted']!.resumes as { status: number }[]).map((r) => r.status)).toContain(400);
    expect((index['mcp-proxy-evicted']!.resumes as { status: number }[]).every((r) => r.status === 400)).toBe(true);
    expect(index['tmcp-cut']).toMatchObject({ call: { error: { code: -32001 } } });
  });
});

describe('Python SDK answers: DELETE and notifications get JSON with an empty body', () => {
  const har = JSON.parse(readFileSync(`${DIR}playwright-shape/python-polling-window.har`, 'utf8')) as {
    log: { entries: { request: { method: string }; response: { status: number; headers: { name: string; value: string }[]; content: { size: number; text?: string } } }[] };
  };
  const header = (e: (typeof har.log.entries)[number], n: string) => e.response.headers.find((h) => h.name.toLowerCase() === n)?.value;

  it('200 / 202, application/json, content-length 0, and the Playwright shape holds no body for them', () => {
    const del = har.log.entries.find((e) => e.request.method === 'DELETE')!;
    expect(del.response.status).toBe(200);
    const accepted = har.log.entries.find((e) => e.response.status === 202)!;
    for (const e of [del, accepted]) {
      expect(header(e, 'content-type')).toBe('application/json');
      expect(header(e, 'content-length')).toBe('0');
      expect(e.response.content.text).toBeUndefined();
    }
  });

  it('neither is reported as a stream the file holds no body for', () => {
    const s = analyse('python-polling-window', 'playwright');
    const absent = s.findings.filter((f) => f.code === 'capture-gap').map((f) => s.streams[f.streamId!]!);
    expect(absent.map((x) => x.method)).toEqual(absent.map(() => 'POST'));
    expect(absent.every((x) => x.contentType === 'text/event-stream')).toBe(true);
  });
});

describe('the field\'s stores, run live against the fixture server', () => {
  const check = (records: CaptureRecord[], fn: (s: AnalysisSnapshot) => void) => fn(analyzeRecords(records));
  const live = (name: ScenarioName, fn: (s: AnalysisSnapshot) => void) =>
    it(`${name}: the live run and its Playwright-shaped HAR`, async () => {
      const run = await runScenario(name);
      check(run.records, fn);
      check(importValue(run.playwrightHar).records, fn);
    });

  live('python-polling-window', (s) => {
    expect(codesOf(s, 'error')).toEqual(['replay-gap', 'lossy-result-accepted']);
    expect(calls(s).map((r) => r.verdict)).toEqual(['lossy']);
  });
  live('python-cross-session', (s) => {
    expect(codesOf(s, 'error')).toContain('replay-cross-stream');
    expect(calls(s).map((r) => r.verdict)).toEqual(['lossy', 'complete']);
  });
  live('python-shared', (s) => {
    expect(errors(s)).toEqual([]);
    expect(s.sessions.map((x) => x.idScheme.scope)).toEqual(['server', 'server']);
  });
  live('cloudflare-lossy', (s) => {
    expect(codesOf(s, 'error')).toEqual(['replay-gap', 'lossy-result-accepted']);
    expect(s.findings.find((f) => f.code === 'replay-gap')!.eventIds.map((x) => x.slice(-1))).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });
});

// Property tests: findings do not depend on how bodies are chunked or records are batched (nor on
// snapshots taken in between), and no input makes the analyzer or the importers throw.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { createAnalyzer } from '../../../src/core/analyzer';
import { importText, ImportError } from '../../../src/core/import/index';
import type { AnalysisSnapshot } from '../../../src/core/model';
import type { CaptureRecord } from '../../../src/core/record';
import { Capture, call, cutAndResume, ev, initSession, message, progress, result } from './helpers';
import { sharedCounterCapture } from './shared-counter';
import { CLIENT_CASES } from './client-cases';

const CAPTURES = 'test/fixtures/captures/';

function handBuilt(): CaptureRecord[][] {
  const out: CaptureRecord[][] = [];
  for (const replayFrom of [12, 14, 10]) {
    const c = new Capture();
    initSession(c);
    const get = c.request({ sessionId: 'sess-1' });
    c.response(get);
    cutAndResume(c, { replayFrom, n: 24, cutAt: 9 });
    c.chunk(get, ev('30', message('late')) + 'id: 31\r\ndata: {"jsonrpc":"2.0","method":"notifications/message"}\r\n\r\n: ping\n\n');
    out.push(c.records);
  }
  const c = new Capture();
  initSession(c);
  const p = c.request({ sessionId: 'sess-1', body: call(2) });
  c.response(p);
  c.chunk(p, ev('1', progress(2, 1)) + ev('2', message('héllo 😀')) + ev('4', progress(2, 0.5)) + ev('5', result(2)) + 'id: 6\ndata: {"tr');
  c.end(p);
  out.push(c.records);
  return out;
}

/** Issue 19's SDK v2 captures (findings about the client): their findings must not depend on chunking either. */
const ISSUE19_V2 = ['legacy-evicted-cursor-lost', 'legacy-lossy-fed-forward', 'modern-reissue-fed-forward', 'modern-reissue-loop', 'modern-listen-narrowed'].map((n) => `v2/${n}.capture.json`);

function fixtureCaptures(): CaptureRecord[][] {
  if (!existsSync(CAPTURES)) return [];
  return readdirSync(CAPTURES)
    .filter((f) => f.endsWith('.capture.json'))
    .sort()
    // Issue 19's SDK v2 captures (the re-issued destructive tool, with and without the broken body;
    // the client findings of items 3-6)
    .concat(['v2/modern-reissue-destructive.capture.json', 'v2/modern-reissue.capture.json'])
    .concat(ISSUE19_V2)
    .map((f) => importText(readFileSync(CAPTURES + f, 'utf8')).records)
    .concat([importText(readFileSync(CAPTURES + 'v2/playwright-shape/modern-reissue-destructive.har', 'utf8')).records]);
}

/** What must not depend on chunking: findings and verdicts. */
function essence(s: AnalysisSnapshot) {
  return {
    findings: s.findings,
    sessions: s.sessions.map((x) => ({ key: x.key, scheme: x.idScheme.kind, lossless: x.lossless, reasons: x.losslessReasons, chains: x.chains })),
    verdicts: Object.fromEntries(Object.entries(s.requests).map(([k, v]) => [k, v.map((r) => [r.id, r.verdict, r.findings, r.cumulativeCount])])),
    events: Object.fromEntries(Object.values(s.streams).map((st) => [st.id, st.events.map((e) => [e.id, e.event, e.data, e.findings, e.truncated ?? false])])),
  };
}

function rechunk(records: CaptureRecord[], cuts: number[]): CaptureRecord[] {
  const out: CaptureRecord[] = [];
  let k = 0;
  for (const r of records) {
    if (r.kind !== 'chunk' || r.text.length < 2) {
      out.push(r);
      continue;
    }
    const n = (cuts[k++ % cuts.length] ?? 0) % 4;
    const points = new Set<number>();
    for (let i = 0; i < n; i++) points.add(1 + ((cuts[(k + i) % cuts.length] ?? 0) % (r.text.length - 1)));
    const sorted = [...points].sort((a, b) => a - b);
    let prev = 0;
    for (const p of [...sorted, r.text.length]) {
      const text = r.text.slice(prev, p);
      out.push({ ...r, text, bytes: new TextEncoder().encode(text).length });
      prev = p;
    }
  }
  return out.map((r, i) => ({ ...r, seq: i + 1 }));
}

function run(records: CaptureRecord[], batches: number[], snapshotsInBetween: boolean): AnalysisSnapshot {
  const a = createAnalyzer();
  let i = 0;
  let b = 0;
  while (i < records.length) {
    const size = 1 + ((batches[b++ % Math.max(1, batches.length)] ?? 0) % 7);
    a.pushAll(records.slice(i, i + size));
    i += size;
    if (snapshotsInBetween) a.snapshot();
  }
  a.finish();
  return a.snapshot();
}

describe('chunking independence', () => {
  // Issue 19's hand-built client cases (client-cases.ts) too.
  const inputs = [...handBuilt(), ...fixtureCaptures(), ...Object.values(CLIENT_CASES).map((f) => f())];
  it('has inputs', () => expect(inputs.length).toBeGreaterThan(3));
  inputs.forEach((records, n) => {
    it(`input ${n}: same findings for any chunking, batching and intermediate snapshots`, () => {
      const reference = essence(run(records, [1000], false));
      fc.assert(
        fc.property(fc.array(fc.nat(10_000), { minLength: 1, maxLength: 20 }), fc.array(fc.nat(50), { minLength: 1, maxLength: 10 }), fc.boolean(), (cuts, batches, snaps) => {
          const got = essence(run(rechunk(records, cuts), batches, snaps));
          // event indices stay the same because chunking never changes the events
          expect(got).toEqual(reference);
        }),
        { numRuns: 40 },
      );
    });
  });
});

describe('live capture vs its re-imported export', () => {
  const inputs = [...handBuilt(), ...fixtureCaptures()];
  inputs.forEach((records, n) => {
    it(`input ${n}: same analysis after export to a capture file and import`, () => {
      const file = JSON.stringify({ format: 'mcp-stream-inspector', version: 1, createdAt: new Date(0).toISOString(), records });
      const again = importText(file).records;
      expect(essence(run(again, [3], true))).toEqual(essence(run(records, [1000], false)));
    });
  });
});

describe('robustness', () => {
  const sseText = fc.stringMatching(/^(id: ?[0-9a-z_-]{0,6}|data: ?[{}":a-z0-9,[\] ]{0,20}|event: ?(message|resync|x)|retry: ?\d{0,4}|: ?c|)(\r\n|\n|\r)?$/);
  const header = fc.tuple(fc.constantFrom('mcp-session-id', 'Mcp-Session-Id', 'last-event-id', 'content-type', 'mcp-protocol-version', 'accept'), fc.constantFrom('s1', 's2', 'text/event-stream', 'application/json', '3', '', 'x'));
  const body = fc.oneof(
    fc.constant(null),
    fc.constantFrom(
      JSON.stringify(call(1)),
      JSON.stringify(call('a')),
      JSON.stringify([call(2), call(3)]),
      '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}',
      'not json',
      '[]',
    ),
  );
  const conn = fc.constantFrom('c1', 'c2', 'c3', 'c4');
  const record = fc.oneof(
    fc.record({ kind: fc.constant('request'), conn, transport: fc.constantFrom('fetch', 'xhr', 'eventsource', 'import'), method: fc.constantFrom('GET', 'POST', 'DELETE'), url: fc.constantFrom('http://h/mcp', 'http://h/sse', 'bad url'), headers: fc.array(header, { maxLength: 4 }), body, reconnectOf: fc.option(conn, { nil: undefined }) }),
    fc.record({ kind: fc.constant('response'), conn, status: fc.constantFrom(200, 202, 400, 404, 409, 500), statusText: fc.constant(''), headers: fc.array(header, { maxLength: 4 }), url: fc.constant('http://h/mcp'), redirected: fc.boolean(), type: fc.constant('basic'), capture: fc.constantFrom('sse', 'json', 'none') }),
    fc.record({ kind: fc.constant('chunk'), conn, text: fc.array(sseText, { maxLength: 6 }).map((a) => a.join('')), bytes: fc.nat(100), droppedBytes: fc.option(fc.nat(5), { nil: undefined }) }),
    fc.record({ kind: fc.constant('chunk'), conn, text: fc.string({ unit: 'binary', maxLength: 60 }), bytes: fc.nat(100) }),
    fc.record({ kind: fc.constant('chunk'), conn, text: fc.constantFrom(ev('1', message('a')), ev('2', result(1)), ev('3', progress(1, 2)), ev('1', result('a')), ev('9', [result(2), result(3)]), '{"jsonrpc":"2.0","id":1,"result":{}}'), bytes: fc.nat(100) }),
    fc.record({ kind: fc.constant('es-event'), conn, type: fc.constantFrom('message', 'resync', 'endpoint'), data: fc.constantFrom('{}', JSON.stringify(message('x')), '/mcp?sessionId=1', ''), lastEventId: fc.constantFrom('', '1', '2', 'x') }),
    fc.record({ kind: fc.constant('end'), conn, how: fc.constantFrom('complete', 'page-aborted', 'network-error', 'unknown', 'closed', 'unread') }),
    fc.record({ kind: fc.constant('capture-gap'), lost: fc.nat(5), conns: fc.array(conn, { maxLength: 2 }), reason: fc.constant('buffer-cap') }),
    fc.record({ kind: fc.constant('navigation'), url: fc.constant('http://h/'), top: fc.boolean() }),
    fc.anything().map((x) => x as never),
  );

  it('random records never throw and always give a serialisable snapshot', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 40 }), fc.boolean(), (recs, finish) => {
        const a = createAnalyzer();
        recs.forEach((r, i) => {
          const rec = (typeof r === 'object' && r !== null && !Array.isArray(r) ? { seq: i + 1, src: 's', t: i, ...(r as object) } : r) as CaptureRecord;
          a.push(rec);
          if (i % 5 === 0) a.snapshot();
        });
        if (finish) a.finish();
        const s = a.snapshot();
        expect(JSON.parse(JSON.stringify(s))).toEqual(s);
      }),
      { numRuns: 1500 },
    );
  });

  it('random file content either imports or fails with an ImportError', () => {
    const inputs = fc.oneof(
      fc.string(),
      fc.json(),
      fc.anything().map((v) => JSON.stringify({ log: { entries: [v] } }) ?? ''),
      fc.anything().map((v) => JSON.stringify({ format: 'mcp-stream-inspector', version: 1, records: [v] }) ?? ''),
      fc.uint8Array({ maxLength: 64 }).map((b) => new TextDecoder().decode(b)),
    );
    fc.assert(
      fc.property(inputs, (text) => {
        try {
          const r = importText(text);
          createAnalyzer().pushAll(r.records);
        } catch (e) {
          expect(e).toBeInstanceOf(ImportError);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('sessions sharing one lossless counter (issue 10)', () => {
  // The Python SDK's sse_polling store gives every stream of every session the next id of one
  // counter; a cut stream's resume replays its own tail. Nothing is lost, so whatever the
  // interleaving of the sessions, the cuts and the resumes, the capture must show no gap that is
  // an error and no lossy verdict; and every session whose range holds another session's ids is
  // classed as a shared counter (order only), whatever share of the ids it holds.
  it('any interleaving, any cuts: no error-level gap, no lossy verdict, classed shared where ids interleave', () => {
    const plan = fc.integer({ min: 1, max: 4 }).chain((sessions) =>
      fc.record({
        sessions: fc.constant(sessions),
        owners: fc.array(fc.nat(sessions - 1), { minLength: 1, maxLength: 120 }),
        cuts: fc.array(fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 3 }), { minLength: sessions, maxLength: sessions }),
        resumeDelay: fc.integer({ min: -1, max: 6 }),
        secondPriming: fc.boolean(),
        perChunk: fc.integer({ min: 1, max: 4 }),
      }),
    );
    fc.assert(
      fc.property(plan, fc.array(fc.nat(50), { minLength: 1, maxLength: 5 }), (p, batches) => {
        const records = sharedCounterCapture(p);
        const snap = run(records, batches, true);
        const bad = snap.findings.filter((f) => f.severity === 'error' || f.code === 'lossy-result-accepted' || f.code === 'replay-cross-stream');
        expect(bad).toEqual([]);
        for (const reqs of Object.values(snap.requests)) for (const r of reqs) expect(r.verdict).not.toBe('lossy');
        // A session whose range of ids holds one another session delivered is a shared counter.
        const ids = new Map(snap.sessions.map((x) => [x.key, new Set<number>()]));
        for (const st of Object.values(snap.streams)) for (const e of st.events) if (e.id !== undefined) ids.get(st.sessionKey)?.add(Number(e.id));
        for (const x of snap.sessions) {
          const mine = ids.get(x.key)!;
          if (mine.size < 2) continue;
          const lo = Math.min(...mine);
          const hi = Math.max(...mine);
          const interleaved = snap.sessions.some((y) => y !== x && [...ids.get(y.key)!].some((v) => v > lo && v < hi && !mine.has(v)));
          if (interleaved) expect(x.idScheme, x.key).toMatchObject({ kind: 'sparse', scope: 'server' });
          else expect(x.idScheme.scope).not.toBe('server');
        }
      }),
      { numRuns: 300 },
    );
  });
});

// Issue 19, items 1, 2 and 7: what the page's client did with what it got. Real captures from the
// SDK v1 / v2 clients against the fixture servers (test/fixtures/captures/…), and hand-built
// cases no fixture client produces (client-cases.ts says why for each). Every test here fails on
// the code before issue 19 (the codes and the `duplicated` verdict did not exist; the named-event
// result was `result-missing`; the HAR without body linked nothing).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeRecords } from '../../../src/core/analyzer';
import { importText, importValue } from '../../../src/core/import/index';
import type { AnalysisSnapshot, Finding, RequestInfo } from '../../../src/core/model';
import { CLIENT_CASES, legacyRetry, renamedDuplicate, resultAfterCancel, resultOnStandaloneGet } from './client-cases';

const DIR = 'test/fixtures/captures/';
const load = (f: string) => analyzeRecords(importText(readFileSync(DIR + f, 'utf8')).records);
const codes = (s: AnalysisSnapshot) => s.findings.map((f) => f.code);
const of = (s: AnalysisSnapshot, code: string) => s.findings.filter((f) => f.code === code);
const reqs = (s: AnalysisSnapshot): RequestInfo[] => Object.values(s.requests).flat();
const req = (s: AnalysisSnapshot, id: string, method = 'tools/call') => reqs(s).find((r) => r.id === id && r.method === method)!;
/** What must be the same in every shape of one run (stream ids differ between formats). */
const essence = (f: Finding) => ({ code: f.code, severity: f.severity, requestId: f.requestId, relatedRequestIds: f.relatedRequestIds, message: f.message });

describe('item 1: a tool that may have run twice', () => {
  const shapes = ['v2/modern-reissue-destructive.capture.json', 'v2/modern-reissue-destructive.har', 'v2/playwright-shape/modern-reissue-destructive.har'];

  it('SDK v2, 2026-07-28: purge_task (destructiveHint: true, idempotentHint: false) broke after reaching the server and was re-issued: destructive-tool-rerun (error)', () => {
    const s = load(shapes[0]!);
    const [f] = of(s, 'destructive-tool-rerun');
    expect(f).toMatchObject({ severity: 'error', requestId: '2', relatedRequestIds: ['1'] });
    expect(f!.message).toContain('purge_task');
    expect(f!.message).toContain('destructiveHint: true');
    expect(f!.message).toContain('idempotentHint: false');
    expect(f!.message).toContain('reached the server (HTTP 200');
    expect(f!.message).toMatch(/idempotency key in the call.s _meta/);
    expect(f!.message).toContain('read the state');
    expect(req(s, '1').findings).toContain('destructive-tool-rerun');
    expect(req(s, '2').findings).toContain('destructive-tool-rerun');
  });

  it('the HAR with the broken body and the HAR as Playwright / DevTools keep it (no body) give the same finding; the re-issue is linked in both', () => {
    const [full, bare] = [load(shapes[1]!), load(shapes[2]!)];
    expect(of(bare, 'destructive-tool-rerun').map(essence)).toEqual(of(full, 'destructive-tool-rerun').map(essence));
    expect(of(bare, 'destructive-tool-rerun')).toHaveLength(1);
    // no body for the broken attempt: still linked from its request line, failure and timing
    expect(req(bare, '1').reissuedAs).toBe('2');
    expect(req(bare, '2').reissueOf).toBe('1');
    expect(bare.sessions[0]!.links!.map((l) => [l.kind, l.from, l.to])).toEqual([['reissue', '1', '2']]);
    expect(codes(bare)).not.toContain('result-missing');
  });

  it('a HAR entry as DevTools writes a request that failed before any response (status 0, _error): a warning, and the file does not say whether it reached the server', () => {
    const h = JSON.parse(readFileSync(DIR + 'v2/playwright-shape/modern-reissue-destructive.har', 'utf8')) as { log: { entries: { request: { postData?: { text?: string } }; response: Record<string, unknown> }[] } };
    const broken = h.log.entries.find((e) => /"id":1,|"id":1}/.test(e.request.postData?.text ?? '') && e.request.postData!.text!.includes('tools/call'))!;
    broken.response = { status: 0, statusText: '', httpVersion: '', headers: [], cookies: [], content: { size: 0, mimeType: 'x-unknown' }, redirectURL: '', headersSize: -1, bodySize: -1, _error: 'net::ERR_CONNECTION_RESET' };
    const s = analyzeRecords(importValue(h).records);
    expect(codes(s)).not.toContain('destructive-tool-rerun');
    const [f] = of(s, 'tool-rerun-risk');
    expect(f).toMatchObject({ severity: 'warning', requestId: '2', relatedRequestIds: ['1'] });
    expect(f!.message).toContain('is not in the capture (no response status)');
  });

  it('SDK v2 re-issue of long_task (listed without annotations): tool-rerun-risk, a warning that names the spec defaults', () => {
    const s = load('v2/modern-reissue.capture.json');
    const [f] = of(s, 'tool-rerun-risk');
    expect(f).toMatchObject({ severity: 'warning', requestId: '2', relatedRequestIds: ['1'] });
    expect(f!.message).toContain('without readOnlyHint, destructiveHint or idempotentHint');
  });

  it('2025 era, an application retry after cancelling a broken call (hand-built): by the annotations, and "not in the capture" said as such', () => {
    const destructive = analyzeRecords(legacyRetry({ destructiveHint: true, idempotentHint: false }));
    expect(of(destructive, 'destructive-tool-rerun')).toHaveLength(1);
    expect(of(destructive, 'destructive-tool-rerun')[0]!.message).toContain('the client cancelled it');
    const idem = analyzeRecords(legacyRetry({ idempotentHint: true }));
    expect(of(idem, 'tool-rerun-risk').map((f) => f.severity)).toEqual(['info']);
    expect(of(idem, 'tool-rerun-risk')[0]!.message).toContain('should change nothing more');
    const unknown = analyzeRecords(legacyRetry(undefined, false));
    expect(of(unknown, 'tool-rerun-risk').map((f) => f.severity)).toEqual(['warning']);
    expect(of(unknown, 'tool-rerun-risk')[0]!.message).toContain('no tools/list answer is in the capture');
  });

  it('a call that completed and is sent again is no re-run risk; nor are two different calls', () => {
    for (const f of ['baseline.capture.json', 'v2/modern-baseline.capture.json', 'cross-stream.capture.json']) {
      const s = load(f);
      expect(codes(s)).not.toContain('tool-rerun-risk');
      expect(codes(s)).not.toContain('destructive-tool-rerun');
    }
  });
});

describe('item 2: a result delivered and not taken', () => {
  it('SDK v1 client, result written as `event: result`: result-not-taken (error) says where it was and why; never result-missing', () => {
    const s = load('result-event-type.capture.json');
    expect(codes(s)).not.toContain('result-missing');
    const [f] = of(s, 'result-not-taken');
    expect(f).toMatchObject({ severity: 'error', requestId: '2' });
    expect(f!.message).toContain('is in the capture');
    expect(f!.message).toContain('SSE event of type "result"');
    expect(f!.message).toContain('cancelled the request');
    expect(req(s, '2').verdict).toBe('incomplete');
    // the event that carried it is marked
    const ev = s.streams[f!.streamId!]!.events.at(f!.eventIndex!)!;
    expect(ev.event).toBe('result');
    expect(ev.findings).toContain('result-not-taken');
  });

  it('@ai-sdk/mcp (createMCPClient, HTTP transport) against the same server: its call times out without a cancellation; result-not-taken says it never took it', () => {
    for (const f of ['ai-sdk-result-event-type.capture.json', 'ai-sdk-result-event-type.har']) {
      const s = load(f);
      expect(codes(s)).not.toContain('result-missing');
      const [x] = of(s, 'result-not-taken');
      expect(x).toMatchObject({ severity: 'error', requestId: '3' });
      expect(x!.message).toContain('never took it');
      expect(x!.message).toContain('SSE event of type "result"');
    }
  });

  it('SDK v2 client (2025 era) against the same fault: result-not-taken, and its resume of the stream that "lacked" the result is answered empty', () => {
    for (const f of ['v2/legacy-result-event-type.capture.json', 'v2/legacy-result-event-type.har']) {
      const s = load(f);
      expect(codes(s)).not.toContain('result-missing');
      expect(of(s, 'result-not-taken')).toMatchObject([{ severity: 'error', requestId: '2' }]);
      expect(req(s, '2').verdict).toBe('incomplete');
    }
  });

  it('the same run as a HAR gives the same finding', () => {
    const a = of(load('result-event-type.capture.json'), 'result-not-taken').map((f) => ({ ...essence(f), message: f.message.replace(/(node:[\w-]+:c|har:e)\d+/g, 'S') }));
    const b = of(load('result-event-type.har'), 'result-not-taken').map((f) => ({ ...essence(f), message: f.message.replace(/(node:[\w-]+:c|har:e)\d+/g, 'S') }));
    expect(b).toEqual(a);
    expect(a).toHaveLength(1);
  });

  it('a response on the standalone GET the client cancelled and re-issued around (hand-built): error, "standalone GET"', () => {
    const s = analyzeRecords(resultOnStandaloneGet());
    const [f] = of(s, 'result-not-taken');
    expect(f).toMatchObject({ severity: 'error', requestId: '2', relatedRequestIds: ['3'] });
    expect(f!.message).toContain('standalone GET');
    expect(f!.message).toContain('re-issued it as request 3');
    expect(codes(s)).not.toContain('result-missing');
  });

  it('a response after the client cancelled (hand-built): a warning with the delay', () => {
    const s = analyzeRecords(resultAfterCancel());
    const [f] = of(s, 'result-not-taken');
    expect(f).toMatchObject({ severity: 'warning', requestId: '2' });
    expect(f!.message).toMatch(/\d+ ms after the client had cancelled/);
  });

  it('an error answer after the cancellation (a server saying "cancelled") is expected: no result-not-taken', () => {
    const records = resultAfterCancel().map((r) =>
      r.kind === 'chunk' && r.text.includes('"result"') ? { ...r, text: r.text.replace(/"result":\{"content":\[\]\}/, '"error":{"code":-32800,"message":"Request cancelled"}') } : r,
    );
    const s = analyzeRecords(records);
    expect(reqs(s).find((r) => r.id === '2')!.response).toBe('error');
    expect(codes(s)).not.toContain('result-not-taken');
  });

  it('no result-missing anywhere for a request whose response the capture holds (every fixture capture)', () => {
    for (const f of ['result-event-type.capture.json', 'result-event-type.har', 'dropped-result.capture.json', 'v2/modern-dropped-result.capture.json']) {
      const s = load(f);
      for (const m of of(s, 'result-missing')) {
        const r = reqs(s).find((x) => x.id === m.requestId)!;
        expect(r.response).toBeUndefined();
        const answers = (d: string): boolean => {
          try {
            const m = JSON.parse(d) as { id?: unknown; result?: unknown; error?: unknown };
            return String(m.id) === r.id && (m.result !== undefined || m.error !== undefined);
          } catch {
            return false;
          }
        };
        const held = Object.values(s.streams).some((st) => st.events.some((e) => answers(e.data)));
        expect(held).toBe(false);
      }
    }
  });
});

describe('item 7: duplicated output accepted', () => {
  it('SDK v1 client, replay starting 2 events early (duplicate-replay): verdict duplicated, duplicate-output-accepted names event 10', () => {
    const s = load('duplicate-replay.capture.json');
    expect(req(s, '2').verdict).toBe('duplicated');
    const [f] = of(s, 'duplicate-output-accepted');
    expect(f).toMatchObject({ severity: 'error', requestId: '2', eventIds: ['10'] });
    expect(f!.message).toContain('delivered a second time');
    expect(codes(s)).toContain('replay-duplicate');
  });

  it('SDK v1 client, a replay that re-sends received ids and mixes in the other call\'s events: replay-duplicate for both runs, duplicate-output-accepted, never complete', () => {
    const s = load('duplicate-cross-stream.capture.json');
    const call = req(s, '3');
    expect(call.verdict).not.toBe('complete');
    expect(['lossy', 'duplicated']).toContain(call.verdict);
    expect(of(s, 'replay-cross-stream').length).toBeGreaterThan(0);
    // the other stream's ids repeat too: a replay-duplicate run of their own
    const crossIds = new Set(of(s, 'replay-cross-stream').flatMap((f) => f.eventIds));
    expect(of(s, 'replay-duplicate').some((f) => f.eventIds.some((id) => crossIds.has(id)))).toBe(true);
    expect(of(s, 'duplicate-output-accepted')).toHaveLength(1);
    expect(of(s, 'duplicate-output-accepted')[0]!.eventIds.length).toBeGreaterThan(0);
  });

  it('the same notification re-sent under a new id on the resumed stream (hand-built): duplicated, not complete', () => {
    const s = analyzeRecords(renamedDuplicate());
    expect(req(s, '2').verdict).toBe('duplicated');
    const [f] = of(s, 'duplicate-output-accepted');
    expect(f).toMatchObject({ severity: 'error', eventIds: ['5'] });
    expect(f!.message).toContain('re-sent under a new id');
    expect(req(s, '2').cumulativeCount).toBe(3);
  });
});

describe('clean captures stay clean, and the hand-built cases give findings', () => {
  it('no finding above info from the client rules on the clean captures', () => {
    for (const f of ['baseline.capture.json', 'lossless.capture.json', 'polling.capture.json', 'v2/modern-baseline.capture.json', 'v2/legacy-baseline.capture.json', 'v2/modern-mrtr.capture.json']) {
      const s = load(f);
      expect(s.findings.filter((x) => ['tool-rerun-risk', 'destructive-tool-rerun', 'result-not-taken', 'duplicate-output-accepted'].includes(x.code))).toEqual([]);
    }
  });

  it.each(Object.keys(CLIENT_CASES))('%s: some client finding', (name) => {
    const s = analyzeRecords(CLIENT_CASES[name]!());
    expect(codes(s).some((c) => ['tool-rerun-risk', 'destructive-tool-rerun', 'result-not-taken', 'duplicate-output-accepted'].includes(c))).toBe(true);
  });
});

// The hook records an MCP request when the page sends it (not when its response comes): a capture
// holds requests still waiting for their response, and some never answered. What the analysis
// makes of them: the request is pending, and nothing is judged of a replay that has not begun.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportHar } from '../../../src/export/har';
import { importText } from '../../../src/core/import';
import { analyzeRecords, createAnalyzer } from '../../../src/core/analyzer';
import type { AnalysisSnapshot } from '../../../src/core/model';
import { Capture, call, ev, initSession, message, progress, result } from './helpers';

const codes = (s: AnalysisSnapshot) => s.findings.map((f) => f.code).sort();
const live = (c: Pick<Capture, 'records'>) => {
  const a = createAnalyzer();
  a.pushAll(c.records);
  return a.snapshot();
};
// Opaque ids: a replay after them cannot be checked for gaps (replay-unverifiable once it replays).
const opaque = (i: number) => `k${(i * 7919).toString(36)}x`;

/** tools/call 2 on a POST stream with opaque ids, cut after 5 events; then its resume sent, unanswered. */
function cutThenResumeSent(c: Capture) {
  initSession(c);
  const post = c.request({ sessionId: 'sess-1', body: call(2) });
  c.response(post);
  let text = '';
  for (let i = 1; i <= 5; i++) text += ev(opaque(i), i % 2 ? progress(2, i) : message(`part ${i}`));
  c.chunk(post, text);
  c.end(post, 'network-error');
  const get = c.request({ sessionId: 'sess-1', lastEventId: opaque(5) });
  return { post, get };
}

describe('requests recorded before their response', () => {
  it('a resume the server has not answered: the call is pending, its replay not judged; judged once it replays', () => {
    const c = new Capture();
    const { get } = cutThenResumeSent(c);
    for (const s of [live(c), analyzeRecords(c.records)]) {
      expect(codes(s)).toEqual([]);
      expect(s.requests['sess-1']!.find((r) => r.id === '2')!.verdict).toBe('pending');
      const resume = Object.values(s.streams).find((x) => x.kind === 'resume')!;
      expect(resume.state).toBe('open');
      expect(resume.status).toBeUndefined();
    }
    // The answer comes, with an event: whether it left events out cannot be checked.
    c.response(get);
    c.chunk(get, ev(opaque(6), result(2, { content: [{ type: 'text', text: 'done' }] })));
    c.end(get);
    const s = analyzeRecords(c.records);
    expect(codes(s)).toContain('replay-unverifiable');
    expect(s.requests['sess-1']!.find((r) => r.id === '2')!.verdict).not.toBe('pending');
  });

  it('an answered resume with no event yet is judged as before (its ids cannot show a gap)', () => {
    const c = new Capture();
    const { get } = cutThenResumeSent(c);
    c.response(get);
    expect(codes(live(c))).toEqual(['replay-unverifiable']);
  });

  it('a POST with no response: its request is pending and nothing is found', () => {
    const c = new Capture();
    initSession(c);
    c.request({ sessionId: 'sess-1', body: call(3) });
    for (const s of [live(c), analyzeRecords(c.records)]) {
      expect(codes(s)).toEqual([]);
      const r = s.requests['sess-1']!.find((x) => x.id === '3')!;
      expect(r.verdict).toBe('pending');
      expect(s.streams[r.streamId!]!.status).toBeUndefined();
    }
  });
});

describe('request-stalled: a GET held back behind another to the same URL', () => {
  /** GET A sent at 10_000, GET B at 10_100; A answered at `aAt`, B at `bAt` (each with an event). */
  function twoGets(o: { aAt: number; bAt: number; bUrl?: string; transport?: 'fetch' | 'xhr' | 'eventsource' }) {
    const c = new Capture();
    initSession(c);
    c.t = 10_000 - 1;
    const a = c.request({ sessionId: 'sess-1', lastEventId: '6', transport: o.transport });
    c.t = 10_100 - 1;
    const b = c.request({ sessionId: 'sess-1', lastEventId: '15', transport: o.transport, ...(o.bUrl ? { url: o.bUrl } : {}) });
    const answer = (conn: string, at: number) => {
      c.t = at - 1;
      c.response(conn);
    };
    for (const [conn, at] of [[a, o.aAt], [b, o.bAt]] as const) if (at === Math.min(o.aAt, o.bAt)) answer(conn, at);
    for (const [conn, at] of [[a, o.aAt], [b, o.bAt]] as const) if (at !== Math.min(o.aAt, o.bAt)) answer(conn, at);
    return { c, a, b };
  }
  const stalls = (c: Capture) => analyzeRecords(c.records).findings.filter((f) => f.code === 'request-stalled');

  it('B sent while A waited for its headers, answered after them: B likely waited in the browser', () => {
    const { c, a, b } = twoGets({ aAt: 15_100, bAt: 15_150 });
    const f = stalls(c);
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ severity: 'warning', streamId: `tab1:${b}`, relatedStreamIds: [`tab1:${a}`], eventIds: ['15'] });
    expect(f[0]!.message).toContain(`The GET stream tab1:${b} was answered 5.0 s after the page sent it, 5.0 s of it while stream tab1:${a} (a GET to the same URL)`);
    expect(f[0]!.message).toContain("cache: 'no-store'");
    // XHR goes through the HTTP cache too.
    expect(stalls(twoGets({ aAt: 15_100, bAt: 15_150, transport: 'xhr' }).c)).toHaveLength(1);
  });

  it('not when the wait is short, when B was answered first, for another URL or an EventSource', () => {
    expect(stalls(twoGets({ aAt: 10_900, bAt: 10_950 }).c)).toEqual([]);
    expect(stalls(twoGets({ aAt: 15_100, bAt: 12_000 }).c)).toEqual([]);
    expect(stalls(twoGets({ aAt: 15_100, bAt: 15_150, bUrl: 'http://127.0.0.1:3939/other' }).c)).toEqual([]);
    expect(stalls(twoGets({ aAt: 15_100, bAt: 15_150, transport: 'eventsource' }).c)).toEqual([]);
  });

  it('not when A was answered before B was sent', () => {
    const c = new Capture();
    initSession(c);
    c.t = 9_999;
    const a = c.request({ sessionId: 'sess-1', lastEventId: '6' });
    c.t = 14_999;
    c.response(a);
    c.t = 15_099;
    const b = c.request({ sessionId: 'sess-1', lastEventId: '15' });
    c.t = 16_199;
    c.response(b);
    expect(stalls(c)).toEqual([]);
  });
});

describe('in other wire formats and files', () => {
  // (an import numbers connections anew: the streams are named differently)
  const unnamed = (fs: { severity: string; eventIds: string[]; message: string }[]) => fs.map((f) => [f.severity, f.eventIds, f.message.replace(/stream \S+/g, 'stream S')]);
  const file = (p: string) => readFileSync(join(import.meta.dirname, '../../fixtures/captures', p), 'utf8');

  it("mcp-proxy (opaque ids): its resume, sent and not yet answered, is not judged; answered, it is replay-unverifiable as before", () => {
    const records = importText(file('mcp-proxy.capture.json')).records;
    const resume = records.find((r) => r.kind === 'request' && r.headers.some(([k]) => k.toLowerCase() === 'last-event-id'))!;
    // The capture up to the resume's request: what the panel holds while the server has not answered.
    const sent = records.filter((r) => r.seq <= resume.seq);
    const waiting = live({ records: sent });
    expect(codes(waiting)).not.toContain('replay-unverifiable');
    const call = Object.values(waiting.requests).flat().find((r) => r.method === 'tools/call')!;
    expect(call.verdict).toBe('pending');
    expect(codes(analyzeRecords(records))).toContain('replay-unverifiable');
  });

  it("DevTools' own HAR of the use-mcp run: request-stalled where an entry's timings.blocked is the wait, and only there", () => {
    // Saved by test/e2e/use-mcp.test.ts (chrome.devtools.network.getHAR, what "Save all as HAR"
    // writes): every entry is transport 'import', any of them may be an EventSource (never held).
    const text = readFileSync(join(import.meta.dirname, '../../fixtures/captures/browser/use-mcp-stalled.devtools.har'), 'utf8');
    const stalled = (t: string) => analyzeRecords(importText(t).records).findings.filter((f) => f.code === 'request-stalled');
    const found = stalled(text);
    expect(found.map((f) => f.eventIds[0] ?? '(none)')).toEqual(expect.arrayContaining(['15', '8']));
    expect(found.every((f) => /waited in the browser \(the HAR's timings: blocked \d+\.\d s before it was sent\)/.test(f.message))).toBe(true);
    const har = JSON.parse(text) as { log: { entries: { timings: Record<string, number> }[] } };
    // Each entry's hold moved into its wait (`f` gives the hold kept): the answers come when they came.
    const alter = (f: (blocked: number) => number) =>
      JSON.stringify({
        log: {
          ...har.log,
          entries: har.log.entries.map((e) => {
            const b = Math.max(0, e.timings.blocked!);
            const kept = f(b);
            return { ...e, timings: { ...e.timings, blocked: kept, wait: e.timings.wait! + b - Math.max(0, kept) } };
          }),
        },
      });
    expect(stalled(alter((b) => b))).toHaveLength(found.length);
    // Without the hold in the file (blocked -1, "not applicable"): nothing shows the wait was the browser's.
    expect(stalled(alter(() => -1))).toEqual([]);
    // A hold that is not the wait (half of it) is not this wait.
    expect(stalled(alter((b) => (b > 1000 ? b / 2 : b)))).toEqual([]);
    // The product's own HAR export of the import keeps the hold (timings.blocked) and the finding.
    const again = stalled(exportHar(importText(text).records));
    expect(unnamed(again)).toEqual(unnamed(found));
  });

  it("DevTools' HAR where the held resume's answer shows 2 ms before the headers that let it go: still request-stalled", () => {
    // A CI run's use-mcp HAR (test/e2e/use-mcp.test.ts): the resume from Last-Event-ID 15 was
    // blocked 9.7 s and answered at 46.394 s; the GET it waited behind got its headers at 46.396 s.
    const text = readFileSync(join(import.meta.dirname, '../../fixtures/captures/browser/use-mcp-stalled-tie.devtools.har'), 'utf8');
    const found = analyzeRecords(importText(text).records).findings.filter((f) => f.code === 'request-stalled');
    expect(found.map((f) => f.eventIds[0] ?? '(none)')).toEqual(expect.arrayContaining(['15', '8']));
    expect(found.find((f) => f.eventIds[0] === '15')!.message).toMatch(/waited in the browser \(the HAR's timings: blocked 9\.7 s before it was sent\)/);
  });

  it('request-stalled survives the HAR export and audit (the transport is kept in _msi)', () => {
    const c = new Capture();
    initSession(c);
    c.t = 9_999;
    const a = c.request({ sessionId: 'sess-1', lastEventId: '6' });
    c.t = 10_099;
    const b = c.request({ sessionId: 'sess-1', lastEventId: '15' });
    c.t = 15_099;
    c.response(a);
    c.end(a);
    c.t = 15_149;
    c.response(b);
    c.end(b);
    const before = analyzeRecords(c.records).findings.filter((f) => f.code === 'request-stalled');
    expect(before).toHaveLength(1);
    const again = analyzeRecords(importText(exportHar(c.records)).records).findings.filter((f) => f.code === 'request-stalled');
    expect(unnamed(again)).toEqual(unnamed(before));
  });
});

// The MCP server's lookups (src/cli/mcp/views.ts) on hand-built captures: request ids the client
// wrote as a number and as a string, and an id it used twice.
import { describe, expect, it } from 'vitest';
import { analyzeRecords } from '../../../src/core/analyzer';
import { eventsOf, findingView, findRequest, findStream, idReaderOf, requestView, timelineView } from '../../../src/cli/mcp/views';
import { parseIdGeneric } from '../../../src/core/ids/parse';
import { MISSING_MAX, STREAM_ID_MAX } from '../../../src/cli/mcp/text';
import { diffView } from '../../../src/cli/mcp/tools-diff';
import { diffSnapshots } from '../../../src/core/diff/index';
import { importText } from '../../../src/core/import';
import { readFileSync } from 'node:fs';
import { Capture, cutAndResume, ev, initSession, message, result } from '../core/helpers';

const call = (id: number | string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 't', arguments: {} } });

function capture(ids: (number | string)[]) {
  const c = new Capture();
  initSession(c);
  for (const id of ids) {
    const p = c.request({ sessionId: 'sess-1', body: call(id) });
    c.response(p);
    c.chunk(p, ev(undefined, result(id)));
    c.end(p);
  }
  return analyzeRecords(c.records);
}

describe('findRequest', () => {
  it('2 and "2" in one session: the id written as its JSON text picks one; a bare 2 the number', () => {
    const snap = capture([2, '2']);
    // before: both were "in 2 sessions (s1, s1)", neither reachable
    expect(findRequest(snap, '2', 's1').request.id).toBe('2');
    expect(findRequest(snap, '"2"', 's1').request.id).toBe('"2"');
  });

  it('an id the client used twice in one session: the refusal says so, not "in 2 sessions"', () => {
    const snap = capture([5, 5]);
    expect(() => findRequest(snap, '5', 's1')).toThrow(/2 requests of session s1 have id 5 \(the client used it again\)/);
  });

  it('an id the client used twice: each request is found by the stream that sent it, which the refusal names', () => {
    const snap = capture([5, 5]);
    const posts = snap.requests[snap.sessions[0]!.key]!.filter((r) => r.id === '5').map((r) => r.streamId);
    const handles = posts.map((id) => Object.keys(snap.streams).indexOf(id) + 1).map((n) => `st${n}`);
    // before: "list_requests lists them" (there is no such tool) and no way to name either
    expect(() => findRequest(snap, '5', 's1')).toThrow(`sent on streams ${handles.join(', ')}: say which with "stream"`);
    expect(findRequest(snap, '5', 's1', handles[1]).request.streamId).toBe(posts[1]);
    expect(findRequest(snap, '5', undefined, handles[0]).request.streamId).toBe(posts[0]);
    expect(() => findRequest(snap, '6', 's1', handles[0])).toThrow(/no request with id 6 in session s1 on stream st/);
  });
});

describe('eventsOf (get_events fromId / toId)', () => {
  it('opaque ids (UUIDs that end in digits): the events from the one with id fromId to the one with id toId, as the tool asks for them', () => {
    const snap = analyzeRecords(importText(readFileSync('test/fixtures/captures/python-example.har', 'utf8')).records);
    let checked = 0;
    for (const st of Object.values(snap.streams)) {
      const ids = st.events.map((e) => e.id).filter((x): x is string => x !== undefined);
      if (ids.length < 2) continue;
      const session = snap.sessions.find((x) => x.streamIds.includes(st.id))!;
      expect(session.idScheme.kind).toBe('opaque');
      const got = eventsOf(st, ids[0], ids.at(-1), 200, idReaderOf(session)).map((e) => e.id);
      // before: compared by the digits the UUIDs end in ([] or the wrong events)
      expect(got).toEqual(st.events.map((e) => e.id));
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('an opaque id the stream never carried is refused, saying which ids it has (not an empty list)', () => {
    const snap = analyzeRecords(importText(readFileSync('test/fixtures/captures/python-example.har', 'utf8')).records);
    const st = Object.values(snap.streams).find((x) => x.events.filter((e) => e.id !== undefined).length >= 2)!;
    const ids = st.events.map((e) => e.id).filter((x): x is string => x !== undefined);
    // before: [] — "no events there", for a typo or an id of another stream
    expect(() => eventsOf(st, 'not-an-id', undefined, 200, null)).toThrow(`no event with id not-an-id on this stream (ids are compared as text here: they are not counters): its ids run from ${ids[0]} to ${ids.at(-1)}`);
    expect(() => eventsOf(st, undefined, 'nope', 200, null)).toThrow(/no event with id nope/);
    expect(() => eventsOf(st, ids.at(-1), ids[0], 200, null)).toThrow(/comes before fromId on this stream/);
    expect(eventsOf(st, ids[0], ids[0], 200, null).map((e) => e.id)).toEqual([ids[0]]);
  });
});

describe('request ids shown as get_request takes them', () => {
  it('an id of 150 characters is shown whole in the timeline, get_request and the events, and finds the request', () => {
    const long = 'r'.repeat(150);
    const snap = capture([long]);
    const s = snap.sessions[0]!;
    const t = timelineView(snap, s);
    const shown = t.streams.flatMap((x) => x.requestIds).find((x) => x.startsWith('"r'))!;
    // before: cut to 80 characters, which no request has
    expect(findRequest(snap, shown, 's1').request.id).toBe(JSON.stringify(long));
    const r = requestView(snap, s, findRequest(snap, shown, 's1').request);
    expect(r.requestId).toBe(JSON.stringify(long));
    const st = findStream(snap, r.stream!);
    expect(eventsOf(st, undefined, undefined).flatMap((e) => e.messages.map((m) => m.id))).toContain(JSON.stringify(long));
  });
});

describe('eventsOf reads counters as the core does (parseIdGeneric)', () => {
  function stream(ids: string[]) {
    const c = new Capture();
    initSession(c);
    const p = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(p);
    c.chunk(p, ids.map((id, i) => ev(id, i === ids.length - 1 ? result(2) : message(`m${i}`))).join(''));
    c.end(p);
    const snap = analyzeRecords(c.records);
    return Object.values(snap.streams).find((x) => x.requestIds.includes('2'))!;
  }

  it('an id of 17 digits is no counter: from it, the events that follow it in the stream', () => {
    const st = stream(['1', '2', '99999999999999999', '3', '4']);
    // before: its last 15 digits were read as a counter under the prefix "99" (only itself matched)
    expect(eventsOf(st, '99999999999999999', undefined, 200, parseIdGeneric).map((e) => e.id)).toEqual(['99999999999999999', '3', '4']);
  });

  it('a counter zero-padded to 20 digits is the counter the core reads', () => {
    const pad = (n: number) => String(n).padStart(20, '0');
    const st = stream([1, 2, 3, 4, 5].map(pad));
    expect(eventsOf(st, pad(2), pad(4), 200, parseIdGeneric).map((e) => e.id)).toEqual([2, 3, 4].map(pad));
    // before: "2" (prefix "") and the padded ids (prefix "00000") never compared
    expect(eventsOf(st, '2', '4', 200, parseIdGeneric).map((e) => e.id)).toEqual([2, 3, 4].map(pad));
  });
});

describe('findingView', () => {
  it('missing ids of a long prefix are cut, saying how much (a hostile prefix made 40,000 characters)', () => {
    const c = new Capture();
    initSession(c);
    const p = 'x'.repeat(150) + '-';
    const a = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(a);
    c.chunk(a, ev(`${p}1`, message('m1')) + ev(`${p}5`, message('m5')) + ev(`${p}6`, result(2)));
    c.end(a);
    const snap = analyzeRecords(c.records);
    const f = snap.findings.find((x) => x.missing !== undefined)!;
    expect(f.missing!.length).toBeGreaterThan(MISSING_MAX);
    const v = findingView(snap, f);
    // before: the whole 40k characters, twice in get_request
    expect(v.missing!.length).toBeLessThan(MISSING_MAX + 40);
    expect(v.missing).toMatch(/more characters\)$/);
  });
});

describe('timelineView (get_timeline)', () => {
  /** Tool calls 1…n, then the canonical cut and resume (a chain and a replay gap at the end). */
  function longSession(n: number) {
    const c = new Capture();
    initSession(c);
    for (let id = 1; id <= n; id++) {
      const p = c.request({ sessionId: 'sess-1', body: call(1000 + id) });
      c.response(p);
      c.chunk(p, ev(undefined, result(1000 + id)));
      c.end(p);
    }
    cutAndResume(c, { replayFrom: 14 });
    return analyzeRecords(c.records);
  }

  it('a session of 300 tool calls comes in pages of streams, in the session order, each chain and gap on exactly one page', () => {
    const snap = longSession(300);
    const s = snap.sessions[0]!;
    const first = timelineView(snap, s);
    // before: all 300 streams in one answer (3,000 calls made 793 KB)
    expect(first.streams).toHaveLength(20);
    expect(first.total).toBe(s.streamIds.length);
    expect(JSON.stringify(first).length).toBeLessThan(20_000);
    const streams: string[] = [];
    const chains: string[] = [];
    const gaps: string[] = [];
    let page = first;
    for (let n = 0; ; n++) {
      expect(n).toBeLessThan(100);
      streams.push(...page.streams.map((x) => x.streamId));
      chains.push(...page.chains.map((x) => x.rootStreamId));
      gaps.push(...page.gaps.map((x) => x.finding));
      if (!page.nextCursor) break;
      page = timelineView(snap, s, page.nextCursor, 100);
    }
    expect(streams).toEqual(s.streamIds);
    expect(chains).toEqual((s.chains ?? []).map((x) => x.rootStreamId));
    expect(chains.length).toBeGreaterThan(0);
    const gapFindings = snap.findings.filter((f) => f.code === 'replay-gap').map((f) => findingView(snap, f).finding);
    expect(gaps).toEqual(gapFindings);
    expect(gaps.length).toBeGreaterThan(0);
    // The chain starts at the session's last streams: not on the first page.
    expect(first.chains).toEqual([]);
    expect(first.gaps).toEqual([]);
  });

  it('a session that fits one page is answered whole, with no next cursor', () => {
    const snap = longSession(3);
    const s = snap.sessions[0]!;
    const t = timelineView(snap, s);
    expect(t.streams.map((x) => x.streamId)).toEqual(s.streamIds);
    expect(t.chains).toHaveLength((s.chains ?? []).length);
    expect(t.total).toBe(s.streamIds.length);
    expect(t.nextCursor).toBeUndefined();
  });
});

describe('stream handles (a stream id of 60,000 characters)', () => {
  it('every stream has a short handle that findStream (get_events) takes; its id is shown cut, saying how much', () => {
    // The stream id is `<capture source>:<connection>`: a hostile page names its source.
    const c = new Capture('x'.repeat(60_000));
    initSession(c);
    cutAndResume(c, { replayFrom: 14 });
    const snap = analyzeRecords(c.records);
    const s = snap.sessions[0]!;
    const t = timelineView(snap, s);
    // before: every mention carried the whole id (resumes, resumedBy, chains, gaps too)
    expect(JSON.stringify(t).length).toBeLessThan(20_000);
    expect(t.streams).toHaveLength(s.streamIds.length);
    for (const [i, x] of t.streams.entries()) {
      expect(x.streamId.length).toBeLessThan(STREAM_ID_MAX + 40);
      expect(x.streamId).toMatch(/… \(\d+ more characters\)$/);
      // before: only the whole id named a stream, and get_events takes 300 characters
      expect(x.stream.length).toBeLessThan(10);
      expect(findStream(snap, x.stream).id).toBe(s.streamIds[i]);
    }
    const resume = t.streams.find((x) => x.resumes !== null)!;
    expect(t.chains[0]!.segments.map((g) => g.stream)).toContain(resume.stream);
    const gap = t.gaps[0]!;
    expect(findStream(snap, gap.stream!).id).toBe(snap.findings.find((f) => f.code === 'replay-gap')!.streamId);
    const r = requestView(snap, s, snap.requests[s.key]!.find((x) => x.id === '2')!);
    expect(findStream(snap, r.stream!).id).toBe(snap.requests[s.key]!.find((x) => x.id === '2')!.streamId);
    expect(r.streamId.length).toBeLessThan(STREAM_ID_MAX + 40);
  });

  it('a handle the capture has no stream for, and a real id, are told apart', () => {
    const snap = capture([1]);
    const id = Object.keys(snap.streams)[0]!;
    expect(findStream(snap, 'st1').id).toBe(id);
    expect(findStream(snap, id).id).toBe(id);
    expect(() => findStream(snap, 'st999')).toThrow(/no stream "st999"/);
    expect(() => findStream(snap, 'st0')).toThrow(/no stream/);
  });
});

describe('diffView (diff_captures)', () => {
  /** tools/call 2 of a tool named in 60,000 characters, cut after 3 and resumed; the replay starts at `replayFrom`. */
  function run(replayFrom: number) {
    const c = new Capture();
    initSession(c);
    const p = c.request({ sessionId: 'sess-1', body: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'T'.repeat(60_000), arguments: {} } } });
    c.response(p);
    c.chunk(p, ev('1', message('a')) + ev('2', message('b')) + ev('3', message('c')));
    c.end(p, 'network-error');
    const g = c.request({ sessionId: 'sess-1', lastEventId: '3' });
    c.response(g);
    let text = '';
    for (let i = replayFrom; i <= 6; i++) text += ev(String(i), i === 6 ? result(2) : message(`m${i}`));
    c.chunk(g, text);
    c.end(g);
    return analyzeRecords(c.records);
  }

  it('a role named after a tool of 60,000 characters is cut, saying how much', () => {
    const v = diffView(diffSnapshots([run(4)], [run(5)]), ['c1'], ['c2']);
    expect(v.verdicts.length + v.findings.new.length).toBeGreaterThan(1);
    // before: 120 KB, the tool's name in each finding and verdict
    expect(JSON.stringify(v).length).toBeLessThan(5_000);
    expect(v.verdicts[0]!.request).toMatch(/more characters\)$/);
  });
});

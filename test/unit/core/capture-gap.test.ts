// Capture gaps: lose nothing, invent nothing. Text before a gap and text after it are never joined
// into one event; events wholly before the gap, and every event after the first event boundary
// that follows it, are all reported; records of a connection whose request is not in the capture
// are kept; `not-recording` (the user's setting) is a warning and caps verdicts at
// complete-unverified.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { analyzeRecords, createAnalyzer } from '../../../src/core/analyzer';
import { createSseConnectionParser } from '../../../src/core/sse';
import type { AnalysisSnapshot } from '../../../src/core/model';
import type { CaptureGapRecord, CaptureRecord } from '../../../src/core/record';
import { Capture, call, ev, initSession, message, progress, result } from './helpers';

const codes = (s: AnalysisSnapshot) => s.findings.map((f) => f.code);
const events = (s: AnalysisSnapshot, id: string) => s.streams[id]!.events.map((e) => [e.id, e.data]);

function gapRecord(c: Capture, conns: string[], reason: CaptureGapRecord['reason'] = 'buffer-cap', lost = 3): void {
  const last = c.records[c.records.length - 1];
  c.records.push({ kind: 'capture-gap', seq: (last?.seq ?? 0) + 1, src: c.src, t: (last?.t ?? 0) + 1, lost, conns, reason });
}

describe('SSE parser resync', () => {
  const run = (parts: (string | 'GAP')[]) => {
    const p = createSseConnectionParser();
    const out: [string | undefined, string | undefined][] = [];
    for (const x of parts) {
      if (x === 'GAP') p.resync();
      else for (const b of p.feed(x)) out.push([b.id, b.data]);
    }
    for (const b of p.end()) out.push([b.id, b.data]);
    return { out, dropped: p.resyncDropped };
  };

  it('drops the partial event and the text up to the next blank line', () => {
    expect(run(['id: 5\ndata: {"a"', 'GAP', ':1}\n\nid: 9\ndata: {"b":2}\n\n']).out).toEqual([['9', '{"b":2}']]);
  });

  it('a leading LF after the gap only ends a line (it may be the LF of a lost CR)', () => {
    // Lost "…\r", then "\n" + a whole event: the event is dropped, not half-parsed.
    expect(run(['id: 1\ndata: a\n\n', 'GAP', '\nid: 2\ndata: b\n\nid: 3\ndata: c\n\n']).out).toEqual([
      ['1', 'a'],
      ['3', 'c'],
    ]);
  });

  it('CRLF boundaries split across reads after the gap', () => {
    expect(run(['GAP', 'x\r', '\n\r', '\nid: 4\r\ndata: d\r\n\r\n']).out).toEqual([['4', 'd']]);
    expect(run(['GAP', 'x\r\n\r', '\nid: 4\r\ndata: d\r\n\r\n']).out).toEqual([['4', 'd']]);
    expect(run(['GAP', 'x\r\r', 'id: 4\rdata: d\r\r']).out).toEqual([['4', 'd']]);
  });

  it('a stream that ends before any boundary gives nothing, not a truncated event', () => {
    expect(run(['GAP', 'data: {"half"']).out).toEqual([]);
  });
});

describe('capture gaps in the analyzer', () => {
  it('never makes an event of the text on both sides of a gap', () => {
    const c = new Capture();
    initSession(c);
    const p = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(p);
    c.chunk(p, ev('4', message('a')) + 'id: 5\ndata: {"a"');
    c.gap([p]);
    c.chunk(p, ':1}\n\n' + ev('9', message('b')) + ev('10', result(2)));
    c.end(p);
    const s = analyzeRecords(c.records);
    expect(events(s, `tab1:${p}`)).toEqual([
      ['4', JSON.stringify(message('a'))],
      ['9', JSON.stringify(message('b'))],
      ['10', JSON.stringify(result(2))],
    ]);
    // No live-gap for 6–8: those ids may have been in the lost records.
    expect(codes(s)).toEqual(['capture-gap']);
    expect(s.findings[0]!.message).toMatch(/dropped the 16 character\(s\) of the event cut before the loss and 4 character\(s\) after it up to the next blank line/);
    expect(s.requests['sess-1']!.find((r) => r.id === '2')!.verdict).toBe('complete-unverified');
  });

  it('the first block after a gap is dropped even when the text before ended at a boundary', () => {
    const c = new Capture();
    initSession(c);
    const p = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(p);
    c.chunk(p, ev('1', message('a')));
    c.gap([p]);
    c.chunk(p, ev('2', result(2)));
    c.end(p);
    const s = analyzeRecords(c.records);
    // The lost records may have ended inside an event: whether "id: 2" began one is unknowable.
    expect(events(s, `tab1:${p}`)).toEqual([['1', JSON.stringify(message('a'))]]);
    const r = s.requests['sess-1']!.find((x) => x.id === '2')!;
    expect(r.verdict).toBe('incomplete');
    expect(r.findings).toEqual(['capture-gap']);
    expect(codes(s)).toEqual(['capture-gap', 'capture-gap']);
  });

  it('a resume after a gap is not a stale cursor: the page may have received ids the capture lost', () => {
    const c = new Capture();
    initSession(c);
    const p = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(p);
    c.chunk(p, ev('1', progress(2, 1)) + ev('2', progress(2, 2)));
    c.gap([p]);
    c.end(p, 'network-error');
    const g = c.request({ sessionId: 'sess-1', lastEventId: '4' });
    c.response(g);
    c.chunk(g, ev('5', result(2)));
    c.end(g);
    const s = analyzeRecords(c.records);
    expect(codes(s)).not.toContain('stale-resume-cursor');
    expect(codes(s)).not.toContain('replay-gap');
  });

  it('a chunk cut by the size cap: the cut event is dropped, the next complete one kept, and said so', () => {
    const c = new Capture();
    initSession(c);
    const p = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(p);
    c.records.push({ kind: 'chunk', seq: 100, src: 'tab1', t: 5000, conn: p, text: ev('1', message('a')) + 'id: 2\ndata: {"json', bytes: 900, droppedBytes: 800 });
    c.records.push({ kind: 'chunk', seq: 101, src: 'tab1', t: 5001, conn: p, text: 'rpc":"2.0"}\n\n' + ev('3', result(2)), bytes: 60 });
    c.records.push({ kind: 'end', seq: 102, src: 'tab1', t: 5002, conn: p, how: 'complete' });
    const s = analyzeRecords(c.records);
    expect(events(s, `tab1:${p}`)).toEqual([
      ['1', JSON.stringify(message('a'))],
      ['3', JSON.stringify(result(2))],
    ]);
    const f = s.findings.find((x) => x.code === 'capture-gap')!;
    expect(f).toMatchObject({ severity: 'error', streamId: `tab1:${p}` });
    expect(f.message).toMatch(/cut 1 chunk\(s\).*800 byte/);
  });

  it('keeps the records of a connection whose request and response are not in the capture', () => {
    const c = new Capture();
    gapRecord(c, ['c9'], 'buffer-cap', 40);
    c.records.push({ kind: 'chunk', seq: 50, src: 'tab1', t: 5000, conn: 'c9', text: 'a":1}\n\n' + ev('7', message('x')) + ev('8', message('y')), bytes: 100 });
    c.records.push({ kind: 'end', seq: 51, src: 'tab1', t: 5001, conn: 'c9', how: 'complete' });
    const s = analyzeRecords(c.records);
    const st = s.streams['tab1:c9']!;
    expect(st.captureIncomplete).toBe(true);
    expect(events(s, 'tab1:c9')).toEqual([
      ['7', JSON.stringify(message('x'))],
      ['8', JSON.stringify(message('y'))],
    ]);
    expect(codes(s)).toEqual(['capture-gap']);
    expect(s.findings[0]!.streamId).toBe('tab1:c9');
  });

  it('records of a connection without any gap record: kept, with a capture-gap', () => {
    const c = new Capture();
    c.records.push({ kind: 'chunk', seq: 1, src: 'tab1', t: 5000, conn: 'c9', text: ev('7', message('x')) + ev('8', message('y')), bytes: 100 });
    const s = analyzeRecords(c.records);
    expect(events(s, 'tab1:c9')).toEqual([['8', JSON.stringify(message('y'))]]);
    expect(s.findings).toMatchObject([{ code: 'capture-gap', severity: 'error', streamId: 'tab1:c9' }]);
    expect(s.findings[0]!.message).toMatch(/without its request/);
  });

  it('an EventSource event after a gap is not said to carry an id a lost event may have carried', () => {
    const c = new Capture();
    const es = c.request({ transport: 'eventsource', sessionId: 'sess-1' });
    c.response(es);
    c.records.push({ kind: 'es-event', seq: 90, src: 'tab1', t: 5000, conn: es, type: 'message', data: '{}', lastEventId: '1' });
    gapRecord(c, [es]);
    c.records.push({ kind: 'es-event', seq: 92, src: 'tab1', t: 5002, conn: es, type: 'message', data: '{}', lastEventId: '3' });
    c.records.push({ kind: 'es-event', seq: 93, src: 'tab1', t: 5003, conn: es, type: 'message', data: '{}', lastEventId: '4' });
    const s = analyzeRecords(c.records);
    const evs = s.streams[`tab1:${es}`]!.events;
    expect(evs.map((e) => [e.id, e.cursor])).toEqual([
      ['1', '1'],
      [undefined, '3'],
      ['4', '4'],
    ]);
  });
});

describe('not-recording', () => {
  function openStreamThenRecording(withRequest: boolean) {
    const c = new Capture();
    initSession(c);
    let p = 'c99';
    if (withRequest) {
      p = c.request({ sessionId: 'sess-1', body: call(2) });
      c.response(p);
    }
    gapRecord(c, [p], 'not-recording', 12);
    c.chunk(p, 'ess":3}}\n\n' + ev('8', progress(2, 4)) + ev('9', message('m')) + ev('10', result(2)));
    c.end(p);
    return { s: analyzeRecords(c.records), p };
  }

  it('is a warning in words of the user setting, and the request is at best complete-unverified with the reason', () => {
    const { s, p } = openStreamThenRecording(true);
    const gap = s.findings.filter((f) => f.code === 'capture-gap');
    expect(gap).toHaveLength(1);
    expect(gap[0]).toMatchObject({ severity: 'warning', streamId: `tab1:${p}`, requestId: '2' });
    expect(gap[0]!.message).toMatch(/capture while DevTools is closed/);
    expect(gap[0]!.message).toMatch(/not a loss by the inspector/);
    expect(gap[0]!.message).not.toMatch(/lost \d+ record/);
    const r = s.requests['sess-1']!.find((x) => x.id === '2')!;
    expect(r.verdict).toBe('complete-unverified');
    expect(r.findings).toContain('capture-gap');
    const sess = s.sessions.find((x) => x.key === 'sess-1')!;
    expect(sess.losslessReasons.join(' ')).toMatch(/recording began only when DevTools opened/);
    expect(sess.losslessReasons.join(' ')).not.toMatch(/inspector lost/);
    expect(s.sessions.every((x) => x.worst !== 'error')).toBe(true);
    expect(events(s, `tab1:${p}`).map((e) => e[0])).toEqual(['8', '9', '10']);
  });

  it('a connection whose request was not kept: its events are still shown, the finding is a warning', () => {
    const { s } = openStreamThenRecording(false);
    expect(events(s, 'tab1:c99').map((e) => e[0])).toEqual(['8', '9', '10']);
    const gap = s.findings.filter((f) => f.code === 'capture-gap');
    expect(gap).toHaveLength(1);
    expect(gap[0]).toMatchObject({ severity: 'warning', streamId: 'tab1:c99' });
    expect(s.findings.some((f) => f.severity === 'error')).toBe(false);
  });

  it('a relay that re-sends the request and response after the gap: the body is parsed from its first boundary', () => {
    const c = new Capture();
    initSession(c);
    gapRecord(c, ['c2'], 'not-recording', 30);
    const p = c.request({ sessionId: 'sess-1', body: call(2) });
    expect(p).toBe('c2');
    c.response(p);
    c.chunk(p, 'id: 5\ndata: {"x"' + ':1}\n\n' + ev('8', progress(2, 4)) + ev('9', result(2)));
    c.end(p);
    const s = analyzeRecords(c.records);
    expect(events(s, `tab1:${p}`).map((e) => e[0])).toEqual(['8', '9']);
    const gap = s.findings.filter((f) => f.code === 'capture-gap');
    expect(gap).toHaveLength(1);
    expect(gap[0]).toMatchObject({ severity: 'warning', streamId: `tab1:${p}` });
    expect(s.requests['sess-1']!.find((x) => x.id === '2')!.verdict).toBe('complete-unverified');
    const sess = s.sessions.find((x) => x.key === 'sess-1')!;
    expect(sess.losslessReasons.join(' ')).toMatch(/recording began only when DevTools opened/);
    expect(sess.losslessReasons.join(' ')).not.toMatch(/inspector lost/);
  });

  it('a request with no result seen on a not-recorded stream: incomplete, a capture-gap warning, no result-missing', () => {
    const c = new Capture();
    initSession(c);
    const p = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(p);
    gapRecord(c, [p], 'not-recording', 5);
    c.chunk(p, 'x\n\n' + ev('8', progress(2, 4)));
    c.end(p);
    const s = analyzeRecords(c.records);
    expect(codes(s)).not.toContain('result-missing');
    const r = s.requests['sess-1']!.find((x) => x.id === '2')!;
    expect(r.verdict).toBe('incomplete');
    expect(s.findings.filter((f) => f.code === 'capture-gap').every((f) => f.severity === 'warning')).toBe(true);
  });
});

// ------------------------------------------------------------------------------------------------
// Property: random event streams, random chunkings, a random lost range.

interface SentEvent {
  id?: string;
  event?: string;
  data: string;
  start: number;
  /** Where a parser dispatches it: the end of its blank line, without the LF of a final CRLF. */
  end: number;
}

const EOLS = ['\n', '\r', '\r\n'] as const;
const line = fc.string({ maxLength: 12 }).map((x) => x.replace(/[\r\n]/g, ' '));
const sentEvent = fc.record({
  id: fc.option(fc.stringMatching(/^[a-z0-9]{1,4}$/), { nil: undefined }),
  event: fc.option(fc.constantFrom('message', 'resync', 'x'), { nil: undefined }),
  extra: fc.array(line, { maxLength: 2 }),
  comment: fc.boolean(),
  eols: fc.array(fc.constantFrom(...EOLS), { minLength: 8, maxLength: 8 }),
});

type Spec = { id?: string | undefined; event?: string | undefined; extra: string[]; comment: boolean; eols: string[] };

function body(evs: Spec[]): { text: string; sent: SentEvent[] } {
  let text = '';
  const sent: SentEvent[] = [];
  evs.forEach((e, n) => {
    let k = 0;
    // A CR followed by an LF would be one CRLF terminator, not two line ends.
    const eol = () => {
      const x = e.eols[k++ % e.eols.length]!;
      return x === '\n' && text.endsWith('\r') ? '\r\n' : x;
    };
    const start = text.length;
    if (e.comment) text += ': c' + eol();
    if (e.id !== undefined) text += `id: ${e.id}` + eol();
    if (e.event !== undefined) text += `event: ${e.event}` + eol();
    // The first data line is unique to the event, so a reported event maps to one sent event.
    const lines = [`{"n":${n}}`, ...e.extra];
    for (const l of lines) text += `data: ${l}` + eol();
    const blank = eol();
    text += blank;
    const end = text.length - (blank === '\r\n' ? 1 : 0);
    sent.push({ ...(e.id !== undefined ? { id: e.id } : {}), ...(e.event !== undefined ? { event: e.event } : {}), data: lines.join('\n'), start, end });
  });
  return { text, sent };
}

describe('property: no event is invented across a capture gap, none is lost away from it', () => {
  it('holds for random streams, chunkings and gap positions', () => {
    fc.assert(
      fc.property(
        fc.array(sentEvent, { minLength: 1, maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.nat(),
        fc.nat(),
        fc.constantFrom('gap', 'cut', 'orphan'),
        fc.boolean(),
        (spec, cutSeeds, gapA, gapB, how, snapshots) => {
          const { text, sent } = body(spec);
          // The lost range [l0, l1) and chunk boundaries around it.
          let l0 = gapA % (text.length + 1);
          let l1 = l0 + (gapB % (text.length - l0 + 1));
          if (how === 'orphan') l0 = 0;
          if (how === 'cut' && l1 === l0) l1 = Math.min(text.length, l0 + 1);
          const cuts = [...new Set(cutSeeds.map((x) => x % (text.length + 1)).filter((x) => x < l0 || x > l1))].sort((a, b) => a - b);
          const chunk = (from: number, to: number) => {
            const pts = [from, ...cuts.filter((x) => x > from && x < to), to];
            const out: string[] = [];
            for (let i = 0; i + 1 < pts.length; i++) if (pts[i + 1]! > pts[i]!) out.push(text.slice(pts[i], pts[i + 1]));
            return out;
          };
          const c = new Capture();
          let conn = 'c77';
          if (how !== 'orphan') {
            conn = c.request({ sessionId: 'S' });
            c.response(conn);
          }
          const before = chunk(0, l0);
          if (how === 'cut') {
            // The last chunk before the loss keeps its head; its tail is what the cap left out.
            const last = before.pop() ?? '';
            for (const t of before) c.chunk(conn, t);
            c.records.push({ kind: 'chunk', seq: c.records.length + 1, src: c.src, t: 9e9, conn, text: last, bytes: last.length + l1 - l0, droppedBytes: l1 - l0 });
          } else {
            for (const t of before) c.chunk(conn, t);
            if (how === 'gap') gapRecord(c, [conn]);
          }
          for (const t of chunk(l1, text.length)) c.chunk(conn, t);
          c.end(conn);

          const a = createAnalyzer();
          for (const r of c.records as CaptureRecord[]) {
            a.push(r);
            if (snapshots) a.snapshot();
          }
          a.finish();
          const s = a.snapshot();
          const got = s.streams[`${c.src}:${conn}`]?.events ?? [];
          let prev = -1;
          const reported = new Set<number>();
          for (const e of got) {
            const n = /^\{"n":(\d+)\}/.exec(e.data)?.[1];
            expect(n, `an event the server never sent: ${JSON.stringify(e.raw)}`).toBeDefined();
            const k = Number(n);
            const x = sent[k]!;
            // Same id, event name and data as sent; in order; never straddling the lost range.
            expect([e.id, e.event, e.data, e.truncated ?? false]).toEqual([x.id, x.event ?? 'message', x.data, false]);
            expect(k).toBeGreaterThan(prev);
            expect(x.end <= l0 || x.start >= l1).toBe(true);
            prev = k;
            reported.add(k);
          }
          // Everything wholly before the loss, and everything after the first event that starts
          // at or after it, is reported.
          const firstAfter = sent.find((x) => x.start >= l1);
          sent.forEach((x, k) => {
            if (x.end <= l0 && how !== 'orphan') expect(reported.has(k), `event ${k} before the gap`).toBe(true);
            if (firstAfter && x.start >= firstAfter.end) expect(reported.has(k), `event ${k} after the gap`).toBe(true);
          });
        },
      ),
      { numRuns: 1500 },
    );
  });
});

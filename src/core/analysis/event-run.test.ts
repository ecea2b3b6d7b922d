// A run of events read together (event-run.ts) leaves the analysis as the stages reading them one
// by one do: the whole snapshot, as JSON, with runs on and off, on every fixture capture and on
// generated streams made to sit on each edge of a run (the next id or not, padded, prefixed and
// hexadecimal ids, duplicates, ids going back, progress going back, shapes that change, named
// events, priming and id-only events, retry fields, CR LF line ends, resumes, a second session of
// the endpoint, capture gaps, chunks cut anywhere, snapshots taken in between).
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAnalyzer } from '../analyzer';
import { importText } from '../import/index';
import type { CaptureRecord } from '../record';
import { RUNS } from './event-run';
import { Capture, call, ev, initSession, message, progress, result } from '../../../test/unit/core/helpers';

afterEach(() => {
  RUNS.on = true;
});

/** Snapshots as JSON after the batches `cuts` makes (every one, then after finish). */
function snapshots(records: CaptureRecord[], on: boolean, cuts: number[]): string[] {
  RUNS.on = on;
  const a = createAnalyzer();
  const out: string[] = [];
  let i = 0;
  let k = 0;
  while (i < records.length) {
    const n = cuts.length ? 1 + ((cuts[k++ % cuts.length] ?? 0) % 9) : records.length;
    a.pushAll(records.slice(i, i + n));
    i += n;
    if (cuts.length) out.push(JSON.stringify(a.snapshot()));
  }
  a.finish();
  out.push(JSON.stringify(a.snapshot()));
  RUNS.on = true;
  return out;
}

function same(records: CaptureRecord[], cuts: number[] = []): void {
  const off = snapshots(records, false, cuts);
  const on = snapshots(records, true, cuts);
  expect(on.length).toBe(off.length);
  for (let i = 0; i < on.length; i++) if (on[i] !== off[i]) expect(on[i]).toBe(off[i]);
}

function files(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...files(p));
    else if (/\.(capture\.json|har)$/.test(e.name)) out.push(p);
  }
  return out.sort();
}

type Kind = 'next' | 'skip' | 'dup' | 'back' | 'progress-back' | 'same-progress' | 'message' | 'counting' | 'other-token' | 'named' | 'id-only' | 'priming' | 'retry' | 'crlf' | 'comment' | 'no-id' | 'result' | 'zero-lead' | 'odd-id' | 'after-data' | 'two-data' | 'no-space' | 'message-line' | 'massage' | 'bom' | 'multi' | 'bare';
const kind = fc.oneof(
  { weight: 24, arbitrary: fc.constant<Kind>('next') },
  ...(['skip', 'dup', 'back', 'progress-back', 'same-progress', 'message', 'counting', 'other-token', 'named', 'id-only', 'priming', 'retry', 'crlf', 'comment', 'no-id', 'result', 'zero-lead', 'odd-id', 'after-data', 'two-data', 'no-space', 'message-line', 'massage', 'bom', 'multi', 'bare'] as const).map((k) => ({ weight: 1, arbitrary: fc.constant<Kind>(k) })),
);
type Op = { op: 'events'; kinds: Kind[]; on: number } | { op: 'post' } | { op: 'resume'; back: number; token: boolean } | { op: 'end'; how: 'complete' | 'network-error' } | { op: 'gap' } | { op: 'session' };
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ kinds: fc.array(kind, { minLength: 1, maxLength: 30 }), on: fc.nat(3) }).map(({ kinds, on }) => ({ op: 'events' as const, kinds, on })) },
  { weight: 1, arbitrary: fc.constant<Op>({ op: 'post' }) },
  // a resume from the last id or one before it, carrying its own request's progress or another's
  { weight: 2, arbitrary: fc.record({ back: fc.nat(4), token: fc.boolean() }).map(({ back, token }) => ({ op: 'resume' as const, back, token })) },
  { weight: 1, arbitrary: fc.constantFrom<Op>({ op: 'end', how: 'complete' }, { op: 'end', how: 'network-error' }) },
  { weight: 1, arbitrary: fc.constant<Op>({ op: 'gap' }) },
  { weight: 1, arbitrary: fc.constant<Op>({ op: 'session' }) },
);
/** How a session's server writes its ids. */
const idStyle = fc.constantFrom('plain', 'prefixed', 'padded', 'hex', 'stream-prefix');

function scenario(ops: Op[], style: string, cutPoints: number[], total: boolean): CaptureRecord[] {
  const c = new Capture();
  let sid = 'sess-1';
  initSession(c, sid);
  let counter = 0;
  let rpc = 2;
  const open: { conn: string; token: number; progress: number; prefix: string }[] = [];
  const delivered: string[] = [];
  let streamN = 0;
  const idOf = (n: number, prefix: string) =>
    style === 'prefixed' ? `ev-${n}` : style === 'padded' ? String(n).padStart(6, '0') : style === 'hex' ? `${prefix}:${n.toString(16).padStart(16, '0')}` : style === 'stream-prefix' ? `${prefix}_${n}` : String(n);
  const post = () => {
    const token = rpc++;
    const conn = c.request({ sessionId: sid, body: call(token) });
    c.response(conn);
    open.push({ conn, token, progress: 0, prefix: `s${++streamN}` });
  };
  post();
  let cut = 0;
  const chunked = (conn: string, text: string) => {
    let at = 0;
    while (at < text.length) {
      const n = 1 + ((cutPoints[cut++ % cutPoints.length] ?? 500) % 400);
      c.chunk(conn, text.slice(at, at + n));
      at += n;
    }
  };
  for (const o of ops) {
    if (o.op === 'post') post();
    else if (o.op === 'session') {
      sid = `sess-${rpc}`;
      initSession(c, sid);
      post();
    } else if (o.op === 'gap') c.gap(open.map((s) => s.conn).slice(0, 1), 2);
    else if (o.op === 'end') {
      const s = open.shift();
      if (s) c.end(s.conn, o.how);
      if (open.length === 0) post();
    } else if (o.op === 'resume') {
      const from = delivered[Math.max(0, delivered.length - 1 - o.back)];
      const s = open[0]!;
      c.end(s.conn, 'network-error');
      const conn = c.request({ sessionId: sid, ...(from !== undefined ? { lastEventId: from } : {}) });
      c.response(conn);
      // the resume carries this stream's request, or (a server replaying the wrong stream) another's
      const other = open.length > 1 ? open[open.length - 1]! : undefined;
      open[0] = { ...s, conn, ...(o.token && other ? { token: other.token, progress: other.progress } : {}) };
    } else {
      const s = open[o.on % open.length]!;
      let text = '';
      for (const k of o.kinds) {
        const step = (n: number) => {
          counter = n;
          const id = idOf(counter, s.prefix);
          delivered.push(id);
          return id;
        };
        const p = (d: number) => (s.progress += d);
        const prog = (v: number) => progress(s.token, v, total ? 1000 : undefined);
        switch (k) {
          case 'next':
            text += ev(step(counter + 1), prog(p(1)));
            break;
          case 'skip':
            text += ev(step(counter + 3), prog(p(1)));
            break;
          case 'dup':
            text += ev(delivered[delivered.length - 1] ?? step(counter + 1), prog(p(1)));
            break;
          case 'back':
            text += ev(step(Math.max(1, counter - 2)), prog(p(1)));
            break;
          case 'progress-back':
            text += ev(step(counter + 1), prog(p(-1)));
            break;
          case 'same-progress':
            text += ev(step(counter + 1), prog(p(0)));
            break;
          case 'message':
            text += ev(step(counter + 1), message(`part ${counter}`));
            break;
          case 'counting':
            text += ev(step(counter + 1), { ...prog(p(1)), params: { ...prog(s.progress).params, message: `step ${s.progress}` } });
            break;
          case 'other-token':
            text += ev(step(counter + 1), progress(s.token + 1000, p(1)));
            break;
          case 'named':
            text += ev(step(counter + 1), prog(p(1)), 'tick');
            break;
          case 'id-only':
            text += `id: ${step(counter + 1)}\n\n`;
            break;
          case 'priming':
            text += `id: ${step(counter + 1)}\ndata: \n\n`;
            break;
          case 'retry':
            text += `retry: 500\n` + ev(step(counter + 1), prog(p(1)));
            break;
          case 'crlf':
            text += ev(step(counter + 1), prog(p(1))).replace(/\n/g, '\r\n');
            break;
          case 'comment':
            text += `: keep-alive\n` + ev(step(counter + 1), prog(p(1)));
            break;
          case 'no-id':
            text += ev(undefined, prog(p(1)));
            break;
          case 'result':
            text += ev(step(counter + 1), result(s.token));
            break;
          case 'odd-id':
            // the next counter's digits, then more: not that counter
            text += `id: ${step(counter + 1)}x\ndata: ${JSON.stringify(prog(p(1)))}\n\n`;
            break;
          case 'after-data':
            text += `id: ${step(counter + 1)}\ndata: ${JSON.stringify(prog(p(1)))}\n: note\n\n`;
            break;
          case 'two-data':
            text += `id: ${step(counter + 1)}\ndata: ${JSON.stringify(prog(p(1)))}\ndata: \n\n`;
            break;
          case 'no-space':
            text += `id:${step(counter + 1)}\ndata:${JSON.stringify(prog(p(1)))}\n\n`;
            break;
          case 'message-line':
            text += `id: ${step(counter + 1)}\nevent: message\ndata: ${JSON.stringify(prog(p(1)))}\n\n`;
            break;
          case 'massage':
            // a named event as long as "message": another type all the same
            text += `id: ${step(counter + 1)}\nevent: massage\ndata: ${JSON.stringify(prog(p(1)))}\n\n`;
            break;
          case 'multi':
          case 'bare': {
            // JSON over two data lines (joined by LF: the shape taught from it holds one), or the
            // second line without "data:" (a field named by the JSON, ignored: the data is cut)
            const [head, ...tail] = JSON.stringify(prog(p(1))).split(',');
            text += `id: ${step(counter + 1)}\ndata: ${head},\n${k === 'multi' ? 'data: ' : ''}${tail.join(',')}\n\n`;
            break;
          }
          case 'bom':
            // a U+FEFF inside the stream is text, not a BOM: an id line that starts with it is no id line
            text += `\uFEFFid: ${step(counter + 1)}\ndata: ${JSON.stringify(prog(p(1)))}\n\n`;
            break;
          case 'zero-lead':
            // padded to 4 digits or more: the session's ids are read as hexadecimal too
            text += ev(step(counter + 1).padStart(4, '0'), prog(p(1)));
            break;
        }
      }
      chunked(s.conn, text);
    }
  }
  return c.records;
}

describe('a run of events read together', () => {
  it('leaves every fixture capture as the stages do', () => {
    const all = files('test/fixtures');
    expect(all.length).toBeGreaterThan(50);
    let runs = 0;
    for (const f of all) {
      let records: CaptureRecord[];
      try {
        records = importText(readFileSync(f, 'utf8')).records;
      } catch {
        continue; // fixtures that are import errors on purpose
      }
      same(records);
      runs++;
    }
    expect(runs).toBeGreaterThan(50);
  });

  it('leaves generated streams as the stages do, on the edges of a run', () => {
    let withRuns = 0;
    let cases = 0;
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 14 }), idStyle, fc.array(fc.nat(), { minLength: 1, maxLength: 8 }), fc.array(fc.nat(), { maxLength: 6 }), fc.boolean(), (ops, style, cutPoints, batches, total) => {
        RUNS.read = 0;
        same(scenario(ops, style, cutPoints, total), batches);
        cases++;
        if (RUNS.read > 0) withRuns++;
      }),
      { numRuns: process.env.CI ? 300 : 150 },
    );
    // The generator is no test of runs unless a good share of cases have some. About 37 % do
    // (six runs of 150: 47–65); a third sat within a standard deviation of that and failed one run
    // in three. A sixth is five deviations below it.
    expect(withRuns).toBeGreaterThan(cases / 6);
  });

  it('reads runs from where a read starts after a BOM, the LF of a split CR LF and a resync (spans counted from the text fed)', () => {
    const events = (from: number, to: number, eol = '\n') => {
      let t = '';
      for (let i = from; i <= to; i++) t += ev(String(i), progress(2, i, 100)).replace(/\n/g, eol);
      return t;
    };
    const start = () => {
      const c = new Capture();
      initSession(c);
      const conn = c.request({ sessionId: 'sess-1', body: call(2) });
      c.response(conn);
      return { c, conn };
    };
    // a BOM: the reader strips it, so the text it reads starts one character into the read
    const a = start();
    a.c.chunk(a.conn, '\uFEFF' + events(1, 40));
    a.c.end(a.conn);
    // CR LF line ends cut between a blank line's CR and its LF, then LF line ends
    const b = start();
    const crlf = events(1, 5, '\r\n');
    b.c.chunk(b.conn, crlf.slice(0, -1));
    b.c.chunk(b.conn, '\n' + events(6, 40));
    b.c.end(b.conn);
    // a capture gap: the next read starts inside an event, which the reader drops up to a boundary
    const c = start();
    c.c.chunk(c.conn, events(1, 10));
    c.c.gap([c.conn], 2);
    const rest = events(13, 60);
    c.c.chunk(c.conn, rest.slice(25));
    c.c.end(c.conn);
    for (const x of [a, b, c]) {
      RUNS.read = 0;
      same(x.c.records);
      expect(RUNS.read).toBeGreaterThan(20);
    }
  });

  it('reads a long run together, and the stages read the same stream to the same snapshot', () => {
    const c = new Capture();
    initSession(c);
    const conn = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(conn);
    let text = '';
    for (let i = 1; i <= 3000; i++) text += ev(String(i), progress(2, i, 3000));
    text += ev('3001', result(2));
    for (let at = 0; at < text.length; at += 4096) c.chunk(conn, text.slice(at, at + 4096));
    c.end(conn);
    same(c.records);
    RUNS.on = true;
    RUNS.read = 0;
    const a = createAnalyzer();
    a.pushAll(c.records);
    a.finish();
    const s = a.snapshot();
    const st = Object.values(s.streams).find((x) => x.id.endsWith(conn))!;
    expect(st.events.length).toBe(3001);
    expect(s.findings).toEqual([]);
    // the stages read the first events (the shape is taught from two) and each chunk's first
    expect(RUNS.read).toBeGreaterThan(2800);
  });

  it('does not read a data line and the line after it as one data field (a shape taught from data of two lines holds an LF)', () => {
    const c = new Capture();
    initSession(c);
    const conn = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(conn);
    const tail = (n: number) => `"method":"notifications/progress","params":{"progressToken":2,"progress":${n}}}`;
    const two = (n: number) => `id: ${n}\ndata: {"jsonrpc":"2.0",\ndata: ${tail(n)}\n\n`;
    // event 4's second line has no "data:": the reader sees a field named "method" and data '{"jsonrpc":"2.0",'
    c.chunk(conn, two(1) + two(2) + two(3) + `id: 4\ndata: {"jsonrpc":"2.0",\n${tail(4)}\n\n`);
    c.end(conn);
    same(c.records);
  });
});

// The progress shape (src/core/progress-shape.ts) reads a progress notification without
// JSON.parse only where that gives what decodeJsonRpc gives: checked on generated streams whose
// texts vary in every way a server's might (key order, spaces, number forms, a message that
// counts, duplicate keys, a token or total that changes, other messages and broken JSON between).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeJsonRpc } from '../../../src/core/jsonrpc';
import { ProgressShape, ShapedMessage } from '../../../src/core/progress-shape';
import type { JsonRpcSummary } from '../../../src/core/model';

/** What the shape gives for `text`, and whether it read it without decoding. */
function take(shape: ProgressShape, text: string): { summaries: JsonRpcSummary[]; read: boolean; msg: unknown } {
  const sm = shape.read(text);
  if (sm !== undefined) return { summaries: [sm], read: true, msg: new ShapedMessage(sm, text).msg };
  const d = shape.decode(text);
  return { summaries: d.messages.map((m) => m.summary), read: false, msg: d.messages[0]?.msg };
}

function expectSame(shape: ProgressShape, text: string): boolean {
  const got = take(shape, text);
  const want = decodeJsonRpc(text);
  // As text: the key order of a summary reaches snapshots and exports.
  expect(JSON.stringify(got.summaries)).toBe(JSON.stringify(want.messages.map((m) => m.summary)));
  got.summaries.forEach((s, i) => expect(Object.is(s.progress, want.messages[i]!.summary.progress)).toBe(true));
  if (want.messages.length === 1) expect(got.msg).toEqual(want.messages[0]!.msg);
  return got.read;
}

interface Ev {
  order: number;
  sp: string;
  progress: string;
  total: string | undefined;
  token: string;
  message: string | undefined;
  dup: string | undefined;
  other: number;
}

const plain = (i: number, extra = ''): string => `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":${i},"total":100${extra}}}`;

describe('progress shape', () => {
  it('reads a stream of progress notifications that differ only in their progress', () => {
    const shape = new ProgressShape();
    const reads = Array.from({ length: 40 }, (_, i) => expectSame(shape, plain(i + 1)));
    // Taught by the first two; after that only a change of digit count (9 → 10) is decoded again.
    expect(reads.slice(0, 2)).toEqual([false, false]);
    expect(reads.filter(Boolean).length).toBeGreaterThanOrEqual(35);
  });

  it('reads a message that counts, a log message between; never a changed total, token or method, or a key twice', () => {
    const counting = (i: number) => plain(i, `,"message":"step ${i} of 100, \\"quoted\\" \\u00e9"`);
    // true: read from the shape (most of them); false: never; undefined: only the same as decoded.
    const cases: [string, (i: number) => string, boolean | undefined][] = [
      ['a message that counts', counting, true],
      ['a log message between', (i) => (i % 3 ? counting(i) : '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}'), true],
      // JSON.parse keeps the second "progress": the first, which changes, is not it.
      ['a key twice', (i) => `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":${i},"progress":7}}`, false],
      ['the total', (i) => `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":${i},"total":${i * 2}}}`, false],
      ['the token', (i) => `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t${i}","progress":${i}}}`, false],
      ['a number in a string, the progress the same', (i) => plain(5, `,"message":"step ${i}"`), true],
      // The same value written two ways teaches nothing that lets another value through.
      ['the total written two ways, then another', (i) => plain(i).replace('"total":100', `"total":${i < 20 ? (i % 2 ? '100' : '1e2') : '300'}`), undefined],
      ['the method written two ways, then another', (i) => plain(i).replace('notifications/progress', i < 20 ? (i % 2 ? 'notifications/progress' : 'notifications\\/progress') : 'notifications/message'), false],
      ['the token written two ways, then another', (i) => plain(i).replace('"t"', i < 20 ? (i % 2 ? '"t"' : '"\\u0074"') : '"u"'), undefined],
      ['the token in _meta written two ways, then another', (i) => `{"jsonrpc":"2.0","method":"notifications/progress","params":{"_meta":{"progressToken":${i < 20 ? (i % 2 ? '"t"' : '"\\u0074"') : '"u"'}},"progress":${i}}}`, undefined],
      ['true and false', (i) => plain(i, `,"done":${i % 2 ? 'true' : 'false'}`), false],
    ];
    for (const [what, make, reads] of cases) {
      const shape = new ProgressShape();
      const read = Array.from({ length: 40 }, (_, i) => expectSame(shape, make(i))).filter(Boolean).length;
      if (reads === true) expect(read, what).toBeGreaterThanOrEqual(15);
      if (reads === false) expect(read, what).toBe(0);
    }
  });

  it('reads what JSON.parse reads: decimals, exponents, negative zero, long integers', () => {
    const shape = new ProgressShape();
    const values = ['1', '2', '3', '4.5', '-0', '0', '1e3', '12345678901234567890', '1E-2', '-7', '5', '6', '007', '1.', '.5', '+1', '1e400'];
    let read = 0;
    for (const v of values) if (expectSame(shape, plain(0).replace('"progress":0', `"progress":${v}`))) read++;
    expect(read).toBeGreaterThan(5);
  });

  it('gives what decodeJsonRpc gives on generated streams', () => {
    const sp = fc.constantFrom('', ' ', '\n', '\t ');
    const num = fc.oneof(
      fc.nat({ max: 1e6 }).map(String),
      fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
      fc.constantFrom('-0', '0.0', '1e2', '1E+2', '9007199254740993', '123456789012345', '1234567890123456'),
      fc.constantFrom('01', '1.', '-', '1e', '+1', 'NaN', '0x1', ' 1'),
    );
    const message = fc.oneof(
      fc.constant('same'),
      fc.nat(30).map((n) => `n ${n}`),
      fc.constantFrom('\\u0031', 'a\\"b', '9', 'é \\n\\/'),
      // Not JSON: an unknown escape, a short \u, a control character (alone, or with an escape),
      // a bare quote or backslash.
      fc.constantFrom('\\q', '\\u12', 'a\u0001b', 'a\u0001\\n', 'a"b', 'a\\', '\\u00zz'),
    );
    const event = fc.record({
      order: fc.constantFrom(0, 1, 2),
      sp,
      progress: num,
      total: fc.option(fc.constantFrom('100', '200', '1.5'), { nil: undefined }),
      token: fc.constantFrom('"t"', '"u"', '7', 'null', '{"a":1}'),
      message: fc.option(message, { nil: undefined }),
      dup: fc.option(num, { nil: undefined }),
      other: fc.constantFrom(0, 0, 0, 0, 1, 2, 3),
    });
    const build = (e: Ev): string => {
      if (e.other === 1) return '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}';
      if (e.other === 2) return `[{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":${e.progress}}}]`;
      if (e.other === 3) return `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":${e.progress}`;
      const s = e.sp;
      const parts = [`"progressToken"${s}:${s}${e.token}`, `"progress"${s}:${s}${e.progress}`];
      if (e.total !== undefined) parts.push(`"total":${e.total}`);
      if (e.message !== undefined) parts.push(`"message":"${e.message}"`);
      if (e.dup !== undefined) parts.splice(e.order, 0, `"progress":${e.dup}`);
      else if (e.order === 1) parts.reverse();
      const params = `{${parts.join(`,${s}`)}}`;
      return e.order === 2 ? `{"params":${params},${s}"method":"notifications/progress","jsonrpc":"2.0"}` : `{"jsonrpc":"2.0",${s}"method":"notifications/progress","params":${params}}`;
    };
    // A run repeats one event's shape with another progress (what the shape reads), then changes.
    // Its next events: another progress, and sometimes another message (a message that counts).
    const run = fc.tuple(event, fc.array(fc.tuple(num, fc.option(message, { nil: undefined, freq: 2 })), { minLength: 1, maxLength: 8 }));
    let reads = 0;
    fc.assert(
      fc.property(fc.array(run, { minLength: 1, maxLength: 12 }), (runs) => {
        const shape = new ProgressShape();
        for (const [e, next] of runs) {
          if (expectSame(shape, build(e))) reads++;
          for (const [v, m] of next) if (expectSame(shape, build({ ...e, progress: v, message: m !== undefined && e.message !== undefined ? m : e.message }))) reads++;
        }
      }),
      { numRuns: 400 },
    );
    // The generated runs do exercise the shape's reading, not only its fallback.
    expect(reads).toBeGreaterThan(50);
  });
});

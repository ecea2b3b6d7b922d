// The connection parser reads SSE fields itself (one pass); eventsource-parser is the oracle:
// same events (event type, data, id of the block), same retry values, for any text and any split.
// eventsource-parser 3 (the line Node 20 installs cleanly, and the one the official SDKs use) keeps
// a stream-leading U+FEFF, which the WHATWG algorithm strips ("one leading U+FEFF BYTE ORDER MARK
// character must be ignored"; v4 does): the oracle strips it before feeding, as the standard says.
// Without that the bodies drawn with a BOM differ (the first field name would be "\uFEFFdata").
// v3 also holds a CR that ends the text fed so far until it sees whether an LF follows (a CRLF
// split across chunks); at the end of the stream that CR is a line end all the same (WHATWG; v4 and
// the core dispatch on it), so the oracle tells v3 so with an LF (CR LF is that one line end).
import { createParser } from 'eventsource-parser';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSseConnectionParser } from './sse';

const line = fc.oneof(
  fc.constantFrom('data: {"a":1}', 'data:x', 'data', 'data: ', 'id: 7', 'id:', 'id', 'id: a\u0000b', 'event: ping', 'event:', 'event', 'retry: 100', 'retry: 1x', 'retry:', ': c', ':', 'foo: bar', 'dat: x', 'data:  two', 'ID: 3', ''),
  fc.string({ maxLength: 6 }).map((s) => 'data: ' + s.replace(/[\r\n]/g, '')),
);
const eol = fc.constantFrom('\n', '\r\n', '\r');
const body = fc
  .tuple(fc.boolean(), fc.array(fc.tuple(line, eol), { maxLength: 30 }))
  .map(([bom, ls]) => (bom ? '\uFEFF' : '') + ls.map(([l, e]) => l + e).join(''));

function oracle(text: string, cuts: number[]) {
  const out: { id?: string; event?: string; data: string }[] = [];
  const retries: number[] = [];
  const p = createParser({ onEvent: (e) => out.push({ ...(e.id !== undefined ? { id: e.id } : {}), ...(e.event !== undefined ? { event: e.event } : {}), data: e.data }), onRetry: (r) => retries.push(r) });
  // WHATWG: one leading BOM of the stream is not part of it (see the top of this file).
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let at = bom;
  for (const c of [...cuts, text.length]) {
    if (c < at) continue;
    p.feed(text.slice(at, c));
    at = c;
  }
  if (text.endsWith('\r')) p.feed('\n'); // the end of the stream (see the top of this file)
  return { out, retries };
}

function ours(text: string, cuts: number[]) {
  const out: { id?: string; event?: string; data: string }[] = [];
  const retries: number[] = [];
  const p = createSseConnectionParser();
  let at = 0;
  for (const c of [...cuts, text.length]) {
    for (const b of p.feed(text.slice(at, c))) {
      if (b.retry !== undefined) retries.push(b.retry);
      if (b.data !== undefined) out.push({ ...(b.id !== undefined ? { id: b.id } : {}), ...(b.event !== undefined ? { event: b.event } : {}), data: b.data });
    }
    at = c;
  }
  return { out, retries };
}

describe('SSE fields: same as eventsource-parser', () => {
  it('any text, any split', () => {
    fc.assert(
      fc.property(body, fc.array(fc.nat(), { maxLength: 6 }), (text, raw) => {
        const cuts = [...new Set(raw.map((x) => x % (text.length + 1)))].sort((a, b) => a - b);
        const a = oracle(text, cuts);
        const b = ours(text, cuts);
        expect(b.out).toEqual(a.out);
        // retry fields of blocks that were dispatched (ours reports retry per returned block)
        for (const r of b.retries) expect(a.retries).toContain(r);
      }),
      { numRuns: 400 },
    );
  });
});

// Hostile SSE bytes: random and crafted bodies, decoded as the page hook decodes them (one
// streaming TextDecoder per connection), in every chunking. Nothing throws; what the core derives
// (events, cursors, findings, verdicts) is the same for every chunking of the same bytes.
//
// Every split point of the real captures' bodies is checked at the SSE-block level (the only part
// of the core that sees chunk boundaries: the analyzer consumes blocks, chunk times aside), and at
// the full-analysis level at a stride and for random multi-cut chunkings.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createSseConnectionParser, type SseBlock } from '../../../src/core/sse';
import { analyze, bodies, decodeLikeHook, essence, fixtureCaptures, rechunkCapture, splitAt, streamRecords } from './helpers';

const enc = (s: string) => new TextEncoder().encode(s);
const cat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
};

/** Blocks, cursor, comments and retry of one body fed in `chunks` (decoded like the hook). */
function blocksOf(chunks: Uint8Array[]) {
  const p = createSseConnectionParser();
  const blocks: SseBlock[] = [];
  for (const c of decodeLikeHook(chunks)) blocks.push(...p.feed(c.text));
  const cursor = p.cursor;
  blocks.push(...p.end());
  return { blocks, cursor, comments: p.comments, retry: p.retry };
}

const FIELDS = ['id', 'event', 'data', 'retry', 'comments', 'raw', 'truncated'] as const;
function sameBlocks(a: ReturnType<typeof blocksOf>, b: ReturnType<typeof blocksOf>): boolean {
  if (a.cursor !== b.cursor || a.comments !== b.comments || a.retry !== b.retry || a.blocks.length !== b.blocks.length) return false;
  return a.blocks.every((x, i) => FIELDS.every((f) => x[f] === b.blocks[i]![f]));
}

function events(chunks: Uint8Array[], opts?: { get?: boolean }) {
  const s = analyze(streamRecords(chunks, opts));
  return { snap: s, stream: Object.values(s.streams)[0]! };
}

// SSE-looking fragments, hostile ones included: every line terminator, BOM bytes, NUL, invalid
// UTF-8 (lone continuation, truncated sequences, overlong, 0xFF), multi-byte characters.
const fragment = fc.oneof(
  fc.constantFrom('id:', 'id: ', 'data:', 'data: ', 'event:', 'event: ', 'retry:', 'retry: ', ':', ': ping', 'id', 'data').map(enc),
  fc.constantFrom('\n', '\r', '\r\n', '\n\n', '\r\r', '\r\n\r\n', '\n\r').map(enc),
  fc.constantFrom('1', '2', '7', '42', 'abc', 'x', ' ', 'message', 'resync', '\u0000', 'é', '😀', '\u202e', '<script>', '{}', '[]', 'null').map(enc),
  fc.constantFrom(
    '{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"a"}}',
    '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":3}}',
    '{"jsonrpc":"2.0","id":1,"result":{}}',
    '{"jsonrpc":"2.0","id":"1","result":{}}',
    '[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","method":"x"}]',
  ).map(enc),
  fc.constantFrom([0xef, 0xbb, 0xbf], [0xff], [0x80], [0xc3], [0xe2, 0x82], [0xf0, 0x9f, 0x98], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0x00]).map((a) => new Uint8Array(a)),
  fc.uint8Array({ maxLength: 6 }),
);
const body = fc.array(fragment, { maxLength: 40 }).map((parts) => cat(...parts));
const cuts = fc.array(fc.nat(2000), { maxLength: 12 });

describe('random bytes', () => {
  it('arbitrary bytes in any chunking: no exception, same text, same blocks, same analysis', () => {
    fc.assert(
      fc.property(fc.oneof(body, fc.uint8Array({ maxLength: 300 })), cuts, fc.boolean(), (bytes, cs, get) => {
        const one = [bytes];
        const many = splitAt(bytes, cs);
        // The streaming decoder gives the same text for every chunking (a precondition).
        expect(decodeLikeHook(many).map((c) => c.text).join('')).toBe(decodeLikeHook(one).map((c) => c.text).join(''));
        expect(blocksOf(many)).toEqual(blocksOf(one));
        const a = analyze(streamRecords(one, { get }));
        const b = analyze(streamRecords(many, { get }), 2);
        expect(essence(b)).toEqual(essence(a));
        // serialisable
        expect(JSON.parse(JSON.stringify(b))).toEqual(b);
      }),
      { numRuns: 1500 },
    );
  });

  it('byte-by-byte delivery equals one chunk', () => {
    fc.assert(
      fc.property(body, (bytes) => {
        const single = Array.from(bytes, (_, i) => bytes.subarray(i, i + 1));
        expect(essence(analyze(streamRecords(single)))).toEqual(essence(analyze(streamRecords([bytes]))));
      }),
      { numRuns: 200 },
    );
  });
});

describe('every split point of the real captures', () => {
  const caps = fixtureCaptures();
  const variants: [string, (s: string) => string][] = [
    ['LF', (s) => s],
    ['CRLF', (s) => s.replace(/\n/g, '\r\n')],
    ['CR', (s) => s.replace(/\n/g, '\r')],
  ];
  it('has captures', () => expect(caps.length).toBeGreaterThanOrEqual(10));

  it('SSE blocks are the same for every single split point (CRLF / CR variants: around line ends)', () => {
    let splits = 0;
    for (const { name, records } of caps) {
      const sseConns = new Set(records.filter((r) => r.kind === 'response' && r.capture === 'sse').map((r) => r.src + '\u0000' + (r as { conn: string }).conn));
      for (const [key, b] of bodies(records)) {
        if (!sseConns.has(key)) continue;
        for (const [vname, f] of variants) {
          const bytes = enc(f(new TextDecoder().decode(b)));
          const ref = blocksOf([bytes]);
          expect(ref.blocks.length, `${name} ${vname}`).toBeGreaterThan(0);
          // Every offset of the body as captured (LF); with CRLF and CR endings every offset within
          // two bytes of a line terminator and every 4th elsewhere (keeps the suite fast).
          const near = (k: number) => [k - 2, k - 1, k, k + 1].some((j) => bytes[j] === 10 || bytes[j] === 13);
          for (let k = 1; k < bytes.length; k++) {
            if (vname !== 'LF' && k % 4 !== 0 && !near(k)) continue;
            const got = blocksOf([bytes.subarray(0, k), bytes.subarray(k)]);
            if (!sameBlocks(got, ref)) expect(got, `${name} ${key} ${vname} split at byte ${k}`).toEqual(ref);
            splits++;
          }
        }
      }
    }
    expect(splits).toBeGreaterThan(100_000);
  });

  it('the whole analysis is the same at every 41st split point of every connection', () => {
    for (const { name, records } of caps) {
      const ref = JSON.stringify(essence(analyze(records)));
      const max = Math.max(...[...bodies(records).values()].map((b) => b.length));
      for (let k = 1; k < max; k += 41) {
        const got = essence(analyze(rechunkCapture(records, (_key, b) => splitAt(b, [k]))));
        if (JSON.stringify(got) !== ref) expect(got, `${name} split at ${k}`).toEqual(JSON.parse(ref));
      }
    }
  });

  it('the whole analysis is the same for random multi-cut chunkings, CRLF bodies included', () => {
    for (const { name, records } of caps) {
      for (const [vname, f] of variants) {
        const base = rechunkCapture(records, (_k, b) => [enc(f(new TextDecoder().decode(b)))]);
        const ref = essence(analyze(base));
        fc.assert(
          fc.property(fc.array(fc.nat(4000), { maxLength: 10 }), (cs) => {
            expect(essence(analyze(rechunkCapture(base, (_k, b) => splitAt(b, cs)), 3)), `${name} ${vname}`).toEqual(ref);
          }),
          { numRuns: 8 },
        );
      }
    }
  });
});

describe('crafted bodies', () => {
  const msg = (i: number) => `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"m${i}"}}`;

  it('CR, LF and CRLF mixed, with CR and LF of one CRLF in different chunks', () => {
    const text = `id: 1\r\ndata: ${msg(1)}\r\n\r\nid: 2\rdata: ${msg(2)}\r\rid: 3\ndata: ${msg(3)}\n\nid: 4\r\ndata: ${msg(4)}\n\r\n`;
    const bytes = enc(text);
    const ref = events([bytes]).stream;
    expect(ref.events.map((e) => e.id)).toEqual(['1', '2', '3', '4']);
    expect(ref.events.map((e) => e.data)).toEqual([msg(1), msg(2), msg(3), msg(4)]);
    for (let k = 1; k < bytes.length; k++) {
      const got = events([bytes.subarray(0, k), bytes.subarray(k)]).stream;
      expect(got.events.map((e) => [e.id, e.data, e.raw])).toEqual(ref.events.map((e) => [e.id, e.data, e.raw]));
    }
    // Every CR of a CRLF at the end of a chunk, its LF starting the next.
    const crs = [...text].flatMap((c, i) => (c === '\r' && text[i + 1] === '\n' ? [i + 1] : []));
    const got = events(splitAt(bytes, crs)).stream;
    expect(got.events.map((e) => e.raw)).toEqual(ref.events.map((e) => e.raw));
  });

  it('a BOM at the start is not part of the first field (hook decoder and raw text alike)', () => {
    const text = `id: 1\ndata: ${msg(1)}\n\n`;
    const withBom = cat(new Uint8Array([0xef, 0xbb, 0xbf]), enc(text));
    for (let k = 0; k <= 3; k++) {
      const s = events([withBom.subarray(0, k), withBom.subarray(k)]).stream;
      expect(s.events.map((e) => [e.id, e.data])).toEqual([['1', msg(1)]]);
    }
    // A BOM kept in the text (an imported capture whose chunk starts with U+FEFF).
    const p = createSseConnectionParser();
    const blocks = [...p.feed('\uFEFF'), ...p.feed(text)];
    expect(blocks.map((b) => [b.id, b.data])).toEqual([['1', msg(1)]]);
    // A BOM later in the stream is content: "\uFEFFid" is an unknown field name, ignored.
    const later = events([enc(text + '\uFEFFid: 9\ndata: x\n\n')]).stream;
    expect(later.events.map((e) => e.id)).toEqual(['1', undefined]);
    expect(later.lastCursor).toBe('1');
  });

  it('an id containing NUL is ignored (the cursor stays), as the SSE spec says', () => {
    const s = events([enc(`id: 1\ndata: ${msg(1)}\n\nid: 2\u00003\ndata: ${msg(2)}\n\nid: 4\ndata: ${msg(4)}\n\n`)]).stream;
    expect(s.events.map((e) => e.id)).toEqual(['1', undefined, '4']);
    expect(s.events.at(1)!.cursor).toBe('1');
    expect(s.lastCursor).toBe('4');
    // The NUL split from the rest of the id across chunks changes nothing.
    const bytes = enc(`id: 2\u00003\ndata: x\n\n`);
    for (let k = 1; k < bytes.length; k++) expect(events([bytes.subarray(0, k), bytes.subarray(k)]).stream.events.map((e) => e.id)).toEqual([undefined]);
  });

  it('a non-numeric retry is ignored; a numeric one is kept', () => {
    const s = events([enc(`retry: abc\ndata: ${msg(1)}\n\nretry: 10x\ndata: ${msg(2)}\n\nretry: -5\nretry: 1.5\ndata: ${msg(3)}\n\n`)]).stream;
    expect(s.retry).toBeUndefined();
    expect(s.events.map((e) => e.retry)).toEqual([undefined, undefined, undefined]);
    const t = events([enc(`retry: 2500\ndata: ${msg(1)}\n\nretry: x\ndata: ${msg(2)}\n\n`)]).stream;
    expect(t.retry).toBe(2500);
    expect(t.events.at(0)!.retry).toBe(2500);
  });

  it('invalid UTF-8 becomes U+FFFD, multi-byte characters split at every byte arrive whole', () => {
    const text = `id: 1\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"data":"é😀€ — 中文"}}\n\n`;
    const bytes = enc(text);
    for (let k = 1; k < bytes.length; k++) {
      const s = events([bytes.subarray(0, k), bytes.subarray(k)]).stream;
      expect(s.events.at(0)!.data).toBe(text.slice("id: 1\ndata: ".length, -2));
      expect(s.events.at(0)!.jsonError).toBeUndefined();
    }
    const bad = cat(enc('id: 1\ndata: a'), new Uint8Array([0xff, 0xc3]), enc('b\n\n'), enc('id: 2\ndata: '), new Uint8Array([0xf0, 0x9f]));
    for (let k = 0; k <= bad.length; k++) {
      const s = events([bad.subarray(0, k), bad.subarray(k)]).stream;
      expect(s.events.map((e) => [e.id, e.data, e.truncated ?? false])).toEqual([
        ['1', 'a\uFFFD\uFFFDb', false],
        ['2', '\uFFFD', true],
      ]);
    }
  });

  it('an unterminated last event is reported (truncated-event) for every split point', () => {
    const text = `id: 1\ndata: ${msg(1)}\n\nid: 2\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n`;
    const bytes = enc(text);
    for (let k = 0; k <= bytes.length; k++) {
      const { snap, stream } = events([bytes.subarray(0, k), bytes.subarray(k)]);
      expect(stream.events.map((e) => [e.id, e.truncated ?? false])).toEqual([
        ['1', false],
        ['2', true],
      ]);
      expect(snap.findings.map((f) => f.code)).toContain('truncated-event');
      // The client never dispatched it: the request has no result, the cursor is still 1.
      expect(stream.lastCursor).toBe('1');
      expect(snap.requests['S']![0]!.response).toBeUndefined();
    }
  });

  it('a 10 MB single event in 64 KiB reads: one event, all data, no quadratic work', () => {
    const payload = 'x'.repeat(10 * 1024 * 1024);
    const text = `id: 1\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"data":"${payload}"}}\n\n`;
    const bytes = enc(text);
    const chunks: Uint8Array[] = [];
    for (let o = 0; o < bytes.length; o += 65536) chunks.push(bytes.subarray(o, o + 65536));
    const { snap, stream } = events(chunks);
    expect(stream.events.length).toBe(1);
    expect(stream.events.at(0)!.data.length).toBe(text.length - 'id: 1\ndata: '.length - 2);
    expect(stream.events.at(0)!.messages[0]!.method).toBe('notifications/message');
    expect(stream.bytes).toBe(bytes.length);
    expect(snap.requests['S']![0]!.cumulativeCount).toBe(1);
    // The same event as 10 MB of data lines (one line per 100 bytes).
    const lines = ('data: ' + 'y'.repeat(94) + '\n').repeat(100_000) + '\n';
    const lb = enc(lines);
    const lchunks: Uint8Array[] = [];
    for (let o = 0; o < lb.length; o += 65536) lchunks.push(lb.subarray(o, o + 65536));
    const l = events(lchunks).stream;
    expect(l.events.length).toBe(1);
    expect(l.events.at(0)!.data.length).toBe(100_000 * 95 - 1);
  }, 60_000);

  it('many tiny events (100k here; 1M in `npx tsx bench/core-micro.ts --full`): none lost, order kept', () => {
    const n = 100_000;
    const text = Array.from({ length: n }, (_, i) => `id:${i + 1}\ndata:${i % 10}\n\n`).join('');
    const bytes = enc(text);
    const chunks: Uint8Array[] = [];
    for (let o = 0; o < bytes.length; o += 4096) chunks.push(bytes.subarray(o, o + 4096));
    const { snap, stream } = events(chunks, { get: true });
    expect(stream.events.length).toBe(n);
    expect(stream.events.at(n - 1)!.id).toBe(String(n));
    let ordered = true;
    for (let i = 0; i < n; i++) if (stream.events.at(i)!.id !== String(i + 1)) ordered = false;
    expect(ordered).toBe(true);
    expect(snap.sessions[0]!.idScheme.kind).toBe('contiguous');
    expect(snap.findings.filter((f) => f.code !== 'replay-unverifiable')).toEqual([]);
  }, 60_000);
});

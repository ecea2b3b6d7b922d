// Events keep their raw text, id and data as spans of the text the parser was fed (event-text.ts):
// whatever the line ends, chunking, BOM or loss, each event gives back exactly what the parser
// read, and a stream may name any number of event types or methods (page data).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSseConnectionParser, type SseBlock } from '../sse';
import { analyzeRecords, createAnalyzer } from '../analyzer';
import type { CaptureRecord } from '../record';
import type { SseEvent } from '../model';
import { EventStore } from './event-store';

const line = fc.constantFrom('\n', '\r\n', '\r');
const value = fc.string({ unit: fc.constantFrom(...'az09 {}":é', '😀'), maxLength: 12 });
const field = fc.oneof(
  value.map((v) => `data: ${v}`),
  value.map((v) => `data:${v}`),
  value.map((v) => `id: ${v}`),
  fc.constantFrom('event: ping', 'event: message', 'retry: 20', ': comment', 'data', 'id'),
  // Past what the narrow span columns hold (an id's offset and length: 1 byte each).
  fc.constantFrom(`: ${'c'.repeat(260)}`, `id: ${'k'.repeat(254)}`, `id: ${'k'.repeat(255)}`, `id: ${'k'.repeat(300)}`),
);
const block = fc.tuple(fc.array(field, { minLength: 1, maxLength: 4 }), line).map(([fs, eol]) => fs.join(eol) + eol + eol);
const stream = fc.tuple(fc.boolean(), fc.array(block, { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 6 }));

function chunks(text: string, cuts: number[]): string[] {
  const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let prev = 0;
  for (const c of [...at, text.length]) {
    out.push(text.slice(prev, c));
    prev = c;
  }
  return out;
}

/** The events the store keeps for the blocks a parser gives, built as events.ts builds them. */
function keep(texts: string[], resyncAfter = -1): { blocks: SseBlock[]; store: EventStore } {
  const p = createSseConnectionParser();
  const store = new EventStore();
  const blocks: SseBlock[] = [];
  texts.forEach((text, k) => {
    const spans: number[] = [];
    const dataAts: number[] = [];
    const bs = p.feed(text, spans, dataAts);
    expect(spans.length).toBe(bs.length);
    expect(dataAts.length).toBe(bs.length);
    const x = p.extended;
    if (x && blocks.at(-1) === x) store.setRaw(store.length - 1, x.raw);
    bs.forEach((b, j) => {
      if (spans[j]! >= 0) expect(text.slice(spans[j], spans[j]! + b.raw.length)).toBe(b.raw);
      // The parser's data offset: the data is that span of the raw text, to its line's end.
      if (dataAts[j]! >= 0) {
        expect(b.raw.slice(dataAts[j], dataAts[j]! + b.data!.length)).toBe(b.data);
        expect('\r\n'.includes(b.raw[dataAts[j]! + b.data!.length]!)).toBe(true);
      }
      const ev: SseEvent = { index: store.length, event: b.event ?? 'message', data: b.data ?? '', t: k, raw: b.raw, messages: [], findings: [] };
      if (b.id !== undefined && b.id !== '') ev.id = b.id;
      store.begin(ev, text, spans[j], dataAts[j]);
      store.end(ev);
      blocks.push(b);
    });
    if (k === resyncAfter) p.resync();
  });
  for (const b of p.end()) {
    const ev: SseEvent = { index: store.length, event: b.event ?? 'message', data: b.data ?? '', t: -1, raw: b.raw, messages: [], findings: [] };
    if (b.id !== undefined && b.id !== '') ev.id = b.id;
    store.begin(ev);
    store.end(ev);
    blocks.push(b);
  }
  return { blocks, store };
}

describe('event text as spans of what the parser was fed', () => {
  it('gives back each block’s raw text, id and data, for any chunking, line ends, BOM and loss', () => {
    fc.assert(
      fc.property(stream, fc.integer({ min: -1, max: 6 }), ([bom, bs, cuts], resyncAfter) => {
        const text = (bom ? '\uFEFF' : '') + bs.join('');
        const { blocks, store } = keep(chunks(text, cuts), resyncAfter);
        expect(store.length).toBe(blocks.length);
        blocks.forEach((b, i) => {
          const ev = store.at(i)!;
          expect(ev.raw).toBe(b.raw);
          expect(ev.data).toBe(b.data ?? '');
          expect(ev.id).toBe(b.id === '' ? undefined : b.id);
          expect(store.id(i)).toBe(ev.id);
          expect(store.data(i)).toBe(ev.data);
        });
      }),
      { numRuns: 400 },
    );
  });

  it('keeps spans of every text fed, read back in any order', () => {
    const texts = ['id: 1\ndata: a\n\nid: 2\ndata: b\n\nid: 3\nda', 'ta: c\n\n', 'id: 4\ndata: d\n\n', 'id: 5\ndata: e\n\nid: 6\ndata: f\n\n'];
    const { store } = keep(texts);
    const want = ['a', 'b', 'c', 'd', 'e', 'f'];
    for (const i of [5, 0, 3, 1, 4, 2, 5, 0]) {
      expect(store.id(i)).toBe(String(i + 1));
      expect(store.data(i)).toBe(want[i]);
    }
    expect(store.at(2)!.raw).toBe('id: 3\ndata: c\n\n');
    // Snapshots are structured-cloned (to the panel, to workers): nothing in a store is a function.
    expect(() => structuredClone(store)).not.toThrow();
  });

  it('data or an id starting past what a span column holds is kept whole', () => {
    const pad = `: ${'p'.repeat(70_000)}\n`;
    const texts = [`${pad}id: 1\ndata: far\n\n`, `id: ${'i'.repeat(254)}\ndata: x\n\n`, `${pad}data: far too\nid: 3\n\n`, 'id: 4\ndata: near\n\n'];
    const { store } = keep(texts);
    expect([0, 1, 2, 3].map((i) => store.data(i))).toEqual(['far', 'x', 'far too', 'near']);
    expect([0, 1, 2, 3].map((i) => store.id(i))).toEqual(['1', 'i'.repeat(254), '3', '4']);
    expect(store.at(2)!.raw).toBe(texts[2]);
  });

  it('an id the stages set that the raw text does not hold is kept whole', () => {
    const store = new EventStore();
    const ev: SseEvent = { index: 0, event: 'message', data: 'x', t: 0, raw: 'data: x\n\n', messages: [], findings: [] };
    store.begin(ev, 'data: x\n\n', 0);
    ev.id = 'not-in-raw';
    store.end(ev);
    expect(store.id(0)).toBe('not-in-raw');
    expect(Object.keys(store.at(0)!)).toContain('id');
  });
});

/** The first object reached twice on one path from `v`, by own properties (what CDP's returnByValue walks). */
function cycle(v: unknown, path = new Set<object>()): string | undefined {
  if (typeof v !== 'object' || v === null || ArrayBuffer.isView(v)) return undefined;
  if (path.has(v)) return v.constructor?.name ?? 'object';
  path.add(v);
  for (const x of v instanceof Map ? [...v.values()] : Object.values(v)) {
    const c = cycle(x, path);
    if (c) return c;
  }
  path.delete(v);
  return undefined;
}

describe('snapshots hold no reference cycle', () => {
  it('a snapshot is walked to its end by value (DevTools evaluate, test harnesses)', () => {
    const url = 'http://127.0.0.1:9/mcp';
    const a = createAnalyzer();
    a.push({ kind: 'request', seq: 1, src: 's', t: 1, conn: 'c', transport: 'fetch', method: 'POST', url, headers: [['accept', 'application/json, text/event-stream']], body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{"progressToken":"p"}}}' });
    a.push({ kind: 'response', seq: 2, src: 's', t: 2, conn: 'c', status: 200, statusText: 'OK', headers: [['content-type', 'text/event-stream']], url, redirected: false, type: 'basic', capture: 'sse' });
    const progress = (i: number) => `id: ${i}\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":${i}}}\n\n`;
    a.push({ kind: 'chunk', seq: 3, src: 's', t: 3, conn: 'c', text: progress(1) + progress(2), bytes: 1 });
    const first = a.snapshot();
    a.push({ kind: 'chunk', seq: 4, src: 's', t: 4, conn: 'c', text: progress(3), bytes: 1 });
    a.push({ kind: 'end', seq: 5, src: 's', t: 5, conn: 'c', how: 'complete' });
    const second = a.snapshot();
    expect(Object.values(second.requests)[0]![0]!.notifications.length).toBe(3);
    expect(cycle(first)).toBeUndefined();
    expect(cycle(second)).toBeUndefined();
  });
});

describe('a stream naming any number of event types, methods, progress values', () => {
  const url = 'http://127.0.0.1:9/mcp';
  function sseRecords(body: string): CaptureRecord[] {
    return [
      { kind: 'request', seq: 1, src: 's', t: 1, conn: 'c', transport: 'fetch', method: 'GET', url, headers: [['accept', 'text/event-stream']], body: null },
      { kind: 'response', seq: 2, src: 's', t: 2, conn: 'c', status: 200, statusText: 'OK', headers: [['content-type', 'text/event-stream']], url, redirected: false, type: 'basic', capture: 'sse' },
      { kind: 'chunk', seq: 3, src: 's', t: 3, conn: 'c', text: body, bytes: body.length },
      { kind: 'end', seq: 4, src: 's', t: 4, conn: 'c', how: 'complete' },
    ];
  }

  it('past 65,535 distinct event types and methods, every event keeps its own', () => {
    const n = 70_000;
    const parts: string[] = [];
    for (let i = 0; i < n; i++) parts.push(`id: ${i}\nevent: e${i}\ndata: {"jsonrpc":"2.0","method":"m${i}"}\n\n`, `id: ${i}b\ndata: {"jsonrpc":"2.0","method":"m${i}"}\n\n`);
    const snap = analyzeRecords(sseRecords(parts.join('')));
    const events = Object.values(snap.streams)[0]!.events;
    expect(events.length).toBe(2 * n);
    for (const i of [0, 65_533, 65_534, 65_535, 65_536, n - 1]) {
      expect(events.type(2 * i)).toBe(`e${i}`);
      expect(events.messages(2 * i + 1)).toEqual([{ kind: 'notification', method: `m${i}` }]);
    }
  });

  it('progress and total keep their exact values (fractions, negatives, -0, huge)', () => {
    const values = [0, 1, 2.5, -1, -0, 4294967294, 4294967295, 1e300, 0.1];
    const lit = (v: number) => (Object.is(v, -0) ? '-0' : String(v));
    const body = values.map((v, i) => `id: ${i}\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":${lit(v)},"total":${lit(v)}}}\n\n`).join('');
    const events = Object.values(analyzeRecords(sseRecords(body)).streams)[0]!.events;
    values.forEach((v, i) => {
      const m = events.messages(i)[0]!;
      expect(Object.is(m.progress, v)).toBe(true);
      expect(Object.is(m.total, v)).toBe(true);
    });
  });
});

import { describe, expect, it } from 'vitest';
import type { CaptureRecord } from '../../core/record';
import { analyzeRecords } from '../../core/analyzer';
import { decodeBatch, decodeRecords } from '../wire/decode';
import { orderedInbox, MAX_HELD, skippedText } from '../wire/ordered-inbox';
import { CHANNEL, PROTOCOL_VERSION } from '../wire/protocol';
import { createRelayCore as create, type RelayBatch, type RelayOptions } from './relay-core';
import { PACE_MS, PACE_SLACK_MS } from './delivery';

// Chunk bytes inline (never in a Blob) unless a test says otherwise, so the fake sink can decode
// synchronously, as the panel does for inline batches.
const createRelayCore = (src: string, opts: Partial<RelayOptions> = {}, now?: () => number) => create(src, { blobMinBytes: Infinity, ...opts }, now);
const batch = (records: unknown[]) => ({ ch: CHANNEL, v: PROTOCOL_VERSION, type: 'hook-batch', records });
const request = (conn = 'c1') => ({ kind: 'request', conn, t: 0, transport: 'fetch', method: 'GET', url: 'http://x/', headers: [], body: null });
const chunk = (i: number, conn = 'c1') => ({ kind: 'chunk', conn, t: i, text: `data: ${i}\n\n`, bytes: 10 });

/** What the panel makes of what the relay sends (wire/decode.ts). */
function sink() {
  const sent: { records: CaptureRecord[]; backfill: boolean }[] = [];
  return {
    sent,
    send: (b: RelayBatch) => {
      if (b.blobs) throw new Error('unexpected blob in a synchronous test');
      sent.push({ records: decodeRecords(b.records), backfill: b.backfill });
    },
    all: () => sent.flatMap((s) => s.records),
  };
}

describe('relay core', () => {
  it('buffers while detached, backfills from the cursor on attach, then streams live', () => {
    const core = createRelayCore('S', {}, () => 0);
    core.onHookMessage(batch([request(), chunk(2), chunk(3)]));
    const s = sink();
    core.attach(s, { S: 1 });
    expect(s.sent).toEqual([{ records: expect.any(Array), backfill: true }]);
    expect(s.all().map((r) => r.seq)).toEqual([2, 3]);
    core.onHookMessage(batch([chunk(4)]));
    expect(s.sent[1]).toMatchObject({ backfill: false });
    expect(s.all().map((r) => r.seq)).toEqual([2, 3, 4]);
    core.detach();
    core.onHookMessage(batch([chunk(5)]));
    expect(s.all().length).toBe(3);
    const s2 = sink();
    core.attach(s2, { S: 4, other: 99 });
    expect(s2.all().map((r) => r.seq)).toEqual([5]);
  });

  it('drops malformed hook records, numbers the rest densely and reports the drop once', () => {
    const core = createRelayCore('S', {}, () => 7);
    const n = core.onHookMessage(batch([request(), chunk(1), { kind: 'chunk', conn: 'c1' }, { ...chunk(2), seq: 40, src: 'evil' }, chunk(3)]));
    expect(n).toBe(4); // request + 2 chunks + 1 notice
    const s = sink();
    core.attach(s, {});
    const recs = s.all();
    expect(recs.map((r) => r.seq)).toEqual([1, 2, 3, 4]);
    expect(recs.map((r) => r.kind)).toEqual(['request', 'chunk', 'chunk', 'notice']);
    expect(recs.every((r) => r.src === 'S')).toBe(true);
    core.onHookMessage(batch([{ bogus: true }]));
    expect(s.all().filter((r) => r.kind === 'notice').length).toBe(1);
    expect(core.onHookMessage({ type: 'hook-batch' })).toBe(0); // not even an envelope
    expect(core.stats()).toMatchObject({ accepted: 3, rejected: 3 });
  });

  it('drops records of a connection the hook never started, and a second request for a started one', () => {
    const core = createRelayCore('S', {}, () => 7);
    core.onHookMessage(batch([request('c1'), chunk(1, 'c1')]));
    // forged: a chunk into an unknown conn, a restart of c1, an end of an unknown conn
    core.onHookMessage(batch([chunk(2, 'c9'), request('c1'), { kind: 'end', conn: 'zz', t: 1, how: 'complete' }, chunk(3, 'c1')]));
    const s = sink();
    core.attach(s, {});
    const recs = s.all();
    expect(recs.map((r) => r.kind)).toEqual(['request', 'chunk', 'chunk', 'notice']);
    expect(recs.filter((r) => r.kind === 'request').length).toBe(1);
    expect(recs.at(-1)).toMatchObject({ kind: 'notice', code: 'inconsistent-hook-record' });
    expect(recs.map((r) => r.seq)).toEqual([1, 2, 3, 4]);
  });

  it('cuts records over the size cap with explicit markers: droppedBytes on chunks, an event-size-cap gap before an es-event', () => {
    const core = createRelayCore('S', { recordMaxChars: 300 }, () => 7);
    const big = 'é'.repeat(500); // 2 bytes each in UTF-8
    core.onHookMessage(
      batch([
        request(),
        { kind: 'chunk', conn: 'c1', t: 1, text: big, bytes: 1000 },
        { kind: 'es-event', conn: 'c1', t: 2, type: 'message', data: 'x'.repeat(400), lastEventId: '7' },
        chunk(3),
      ]),
    );
    const s = sink();
    core.attach(s, {});
    const [, c, gap, ev, small] = s.all() as any[];
    expect(c).toMatchObject({ kind: 'chunk', bytes: 1000, droppedBytes: 400 });
    expect(c.text.length).toBe(300);
    expect(gap).toMatchObject({ kind: 'capture-gap', reason: 'event-size-cap', conns: ['c1'], lost: 0 });
    expect(ev).toMatchObject({ kind: 'es-event', lastEventId: '7' });
    expect(ev.data.length).toBe(300);
    expect(small.droppedBytes).toBeUndefined();
    expect(core.stats().cut).toBe(1); // the es-event; the chunk is cut where it is decoded
  });

  it('splits a large backfill into several messages', () => {
    const core = createRelayCore('S');
    core.onHookMessage(batch([request(), ...Array.from({ length: 2499 }, (_, i) => chunk(i))]));
    const s = sink();
    core.attach(s, {});
    expect(s.sent.map((m) => m.records.length)).toEqual([1000, 1000, 500]);
  });

  it('after release (extension context gone) keeps at most one record and accepts nothing', () => {
    const core = createRelayCore('S');
    core.onHookMessage(batch([request(), chunk(1), chunk(2)]));
    core.release();
    expect(core.onHookMessage(batch([chunk(3)]))).toBe(0);
    expect(core.stats()).toMatchObject({ records: 1, released: true });
  });

  it('setOptions lowers the buffer caps at once and stats report them', () => {
    const core = createRelayCore('S');
    core.onHookMessage(batch([request(), ...Array.from({ length: 99 }, (_, i) => chunk(i))]));
    core.setOptions({ maxRecords: 10 });
    expect(core.stats()).toMatchObject({ records: 10, maxRecords: 10, evicted: 90, lastSeq: 100 });
  });
});

describe('relay core: fetch chunks sent as bytes', () => {
  const bytesChunk = (data: Uint8Array, conn = 'c1', t = 1) => ({ kind: 'chunk', conn, t, data });
  const enc = (s: string) => new TextEncoder().encode(s);

  it('decodes per connection with a streaming decoder: a character split across reads, BOM, tail at a complete end', () => {
    const core = createRelayCore('S', {}, () => 0);
    const all = enc('\uFEFFdata: é€😀\n\n');
    // split inside the BOM, inside é, inside 😀
    const cuts = [2, 11, 16, all.length - 1];
    const parts: Uint8Array[] = [];
    let o = 0;
    for (const c of cuts) {
      parts.push(all.slice(o, c));
      o = c;
    }
    core.onHookMessage(batch([request('c1'), request('c2'), ...parts.map((p) => bytesChunk(p, 'c1')), bytesChunk(new Uint8Array([0x41, 0xe2, 0x82]), 'c2')]));
    core.onHookMessage(batch([bytesChunk(all.slice(all.length - 1), 'c1'), { kind: 'end', conn: 'c1', t: 2, how: 'complete' }, { kind: 'end', conn: 'c2', t: 3, how: 'complete' }]));
    const s = sink();
    core.attach(s, {});
    const recs = s.all();
    const text = (conn: string) => recs.filter((r) => r.kind === 'chunk' && r.conn === conn).map((r) => (r as { text: string }).text).join('');
    expect(text('c1')).toBe(new TextDecoder().decode(all)); // BOM stripped once, every character whole
    expect(recs.filter((r) => r.kind === 'chunk' && r.conn === 'c1').map((r) => (r as { bytes: number }).bytes)).toEqual([2, 9, 5, all.length - 17, 1]);
    // c2 ended complete with an incomplete sequence pending: the tail chunk (bytes 0) before its end
    const c2 = recs.filter((r) => 'conn' in r && r.conn === 'c2');
    expect(c2.map((r) => r.kind)).toEqual(['request', 'chunk', 'chunk', 'end']);
    expect(c2[2]).toMatchObject({ kind: 'chunk', text: '\uFFFD', bytes: 0 });
    expect(text('c2')).toBe('A\uFFFD');
    expect(recs.map((r) => r.seq)).toEqual(recs.map((_, i) => i + 1));
  });

  it('no tail for an end other than complete; malformed byte chunks are dropped and reported; unknown conns are inconsistent', () => {
    const core = createRelayCore('S', {}, () => 0);
    core.onHookMessage(
      batch([
        request('c1'),
        bytesChunk(new Uint8Array([0xe2]), 'c1'),
        { kind: 'end', conn: 'c1', t: 2, how: 'network-error', reason: 'x' },
        { kind: 'chunk', conn: 'c1', t: 1, data: 'not bytes' },
        { kind: 'chunk', conn: 'c1', t: 1, data: new Uint8Array(1), seq: 5 },
        { kind: 'chunk', conn: 'c1', t: 'x', data: new Uint8Array(1) },
        bytesChunk(new Uint8Array([0x41]), 'c9'),
      ]),
    );
    const s = sink();
    core.attach(s, {});
    const recs = s.all();
    expect(recs.map((r) => r.kind)).toEqual(['request', 'chunk', 'end', 'notice', 'notice']);
    expect(recs[1]).toMatchObject({ text: '', bytes: 1 });
    expect(recs.filter((r) => r.kind === 'notice').map((r) => (r as { code: string }).code).sort()).toEqual(['inconsistent-hook-record', 'malformed-hook-record']);
  });

  it('applies the record size cap to decoded byte chunks', () => {
    const core = createRelayCore('S', { recordMaxChars: 256 }, () => 0);
    core.onHookMessage(batch([request('c1'), bytesChunk(enc('x'.repeat(300)), 'c1')]));
    const s = sink();
    core.attach(s, {});
    expect(s.all()[1]).toMatchObject({ kind: 'chunk', bytes: 300, droppedBytes: 44 });
    expect((s.all()[1] as { text: string }).text.length).toBe(256);
  });
});

describe('relay core: byte chunks decoded lazily, exactly', () => {
  const bytesChunk = (data: Uint8Array, conn = 'c1', t = 1) => ({ kind: 'chunk', conn, t, data });
  /** The reference: one streaming decoder per connection, its tail at EOF (what the hook did). */
  const reference = (parts: Uint8Array[]) => {
    const d = new TextDecoder();
    return parts.map((p) => d.decode(p, { stream: true })).join('') + d.decode();
  };
  const interesting = [0x41, 0x0a, 0xef, 0xbb, 0xbf, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0xe0, 0xed, 0xf4, 0x90, 0x8f, 0xa0, 0xc0, 0xff, 0x80, 0xbf, 0xf5];

  it('equals one streaming TextDecoder for any bytes split anywhere, attached or not (property)', async () => {
    const fc = (await import('fast-check')).default;
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...interesting), fc.integer({ min: 0, max: 255 })), { maxLength: 40 }),
        fc.array(fc.nat(40), { maxLength: 8 }),
        fc.boolean(),
        (arr, cutsRaw, attachedFirst) => {
          const all = new Uint8Array(arr);
          const cuts = [...new Set(cutsRaw.map((c) => Math.min(c, all.length)))].sort((a, b) => a - b);
          const parts: Uint8Array[] = [];
          let o = 0;
          for (const c of [...cuts, all.length]) {
            parts.push(all.slice(o, c));
            o = c;
          }
          const core = createRelayCore('S', {}, () => 0);
          const s = sink();
          if (attachedFirst) core.attach(s, {});
          core.onHookMessage(batch([request('c1'), ...parts.filter((p) => p.length > 0).map((p) => bytesChunk(p))]));
          core.onHookMessage(batch([{ kind: 'end', conn: 'c1', t: 9, how: 'complete' }]));
          if (!attachedFirst) core.attach(s, {});
          const text = s.all().filter((r) => r.kind === 'chunk').map((r) => (r as { text: string }).text).join('');
          const nonEmpty = parts.filter((p) => p.length > 0);
          expect(text).toBe(reference(nonEmpty));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('decodes nothing at all, attached or not: the panel decodes (wire/decode.ts)', () => {
    const proto = TextDecoder.prototype;
    const orig = proto.decode;
    let calls = 0;
    proto.decode = function (this: TextDecoder, ...a: Parameters<typeof orig>) {
      calls++;
      return orig.apply(this, a);
    };
    try {
      const core = createRelayCore('S', {}, () => 0);
      const enc = new TextEncoder();
      const recs: unknown[] = [request('c1')];
      for (let i = 0; i < 100; i++) recs.push(bytesChunk(enc.encode(`data: ${i} é\n\n`)));
      core.onHookMessage(batch(recs));
      const got: RelayBatch[] = [];
      core.attach({ send: (b) => got.push(b) }, {});
      core.detach();
      core.attach({ send: (b) => got.push(b) }, {}); // a second backfill
      expect(calls).toBe(0);
      const texts = got.map((b) => decodeRecords(b.records).filter((r) => r.kind === 'chunk').map((r) => (r as { text: string }).text));
      expect(texts).toEqual([0, 1].map(() => Array.from({ length: 100 }, (_, i) => `data: ${i} é\n\n`)));
    } finally {
      proto.decode = orig;
    }
  });
});

describe('relay core: memory of byte chunks', () => {
  it('releases the bytes of evicted chunks (undecoded, no panel attached)', async () => {
    const v8 = await import('node:v8');
    const vm = await import('node:vm');
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const core = createRelayCore('S', { maxBytes: 8 * 1024 * 1024 }, () => 0);
    core.onHookMessage(batch([request('c1')]));
    const refs: WeakRef<Uint8Array>[] = [];
    for (let i = 0; i < 40; i++) {
      const data = new Uint8Array(1_000_000).fill(0x41);
      refs.push(new WeakRef(data));
      core.onHookMessage(batch([{ kind: 'chunk', conn: 'c1', t: i, data }]));
    }
    const kept = core.stats().records;
    expect(kept).toBeLessThan(6);
    await new Promise((r) => setTimeout(r, 0));
    gc();
    await new Promise((r) => setTimeout(r, 0));
    gc();
    // the newest chunks are held (as bytes); every evicted one is unreachable
    expect(refs.filter((r) => r.deref() !== undefined).length).toBeLessThanOrEqual(kept);
    const s = sink();
    core.attach(s, {});
    expect(s.all().filter((r) => r.kind === 'chunk').every((r) => (r as { text: string }).text.length === 1_000_000)).toBe(true);
  });
});

describe('relay core: chunk bytes in a Blob', () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  it('sends a message whose chunks hold enough bytes as one Blob, keeps the reference, and backfills it with no new Blob', async () => {
    const core = create('S', { blobMinBytes: 64 }, () => 0);
    const texts = ['data: é', 'tè\n\n', 'x'.repeat(100), 'y'];
    core.onHookMessage(batch([request('c1'), ...texts.map((t, i) => ({ kind: 'chunk', conn: 'c1', t: i, data: enc(t) }))]));
    const got: RelayBatch[] = [];
    core.attach({ send: (b) => got.push(b) }, {});
    expect(got).toHaveLength(1);
    expect(got[0]!.blobs).toHaveLength(1);
    const wire = got[0]!.records.filter((r) => r.kind === 'chunk') as { data?: unknown; part?: number; at?: number; len?: number }[];
    expect(wire.every((w) => w.data === undefined && w.part === 0)).toBe(true);
    expect(wire.map((w) => [w.at, w.len])).toEqual([[0, 8], [8, 5], [13, 100], [113, 1]]);
    const decoded = await decodeBatch(got[0]!.records, got[0]!.blobs);
    expect(decoded.filter((r) => r.kind === 'chunk').map((r) => (r as { text: string }).text)).toEqual(texts);
    expect(core.stats().blobs).toBe(1);
    core.detach();
    core.attach({ send: (b) => got.push(b) }, {});
    expect(got[1]!.blobs![0]).toBe(got[0]!.blobs![0]); // the same Blob: no copy on the page's thread
    expect(core.stats().blobs).toBe(1);
    // live records below the threshold travel inline
    core.onHookMessage(batch([{ kind: 'chunk', conn: 'c1', t: 9, data: enc('z') }]));
    expect(got[2]!.blobs).toBeUndefined();
    expect(decodeRecords(got[2]!.records)[0]).toMatchObject({ kind: 'chunk', text: 'z', bytes: 1 });
  });
});

describe('relay core: large reads the hook sent as Blobs', () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  const tail = (b: Uint8Array) => b.slice(Math.max(0, b.length - 3));
  const blobChunk = (b: Uint8Array, t: number, conn = 'c1') => ({ kind: 'chunk', conn, t, blob: new Blob([b as Uint8Array<ArrayBuffer>]), n: b.length, tail: tail(b) });

  it('tells the hook when a panel takes the records, and no more after a detach or a release', () => {
    const core = createRelayCore('S', {}, () => 0);
    const told: boolean[] = [];
    core.connectHook(() => {}, (on) => told.push(on));
    expect(told).toEqual([]); // no panel yet: the hook starts without one
    core.attach(sink(), {});
    core.attach(sink(), {}); // a second attach changes nothing
    core.detach();
    core.attach(sink(), {});
    core.release();
    expect(told).toEqual([true, false, true, false]);
  });

  it('keeps a Blob read as a reference, sends it as a part and decodes it with the carry of the bytes around it, attached or not', async () => {
    // "é" (C3 A9) and "€" (E2 82 AC) cut between reads of both kinds.
    const all = enc('data: aé€b\n\ndata: €é\n\n');
    const cuts = [8, 12, 20, all.length];
    const parts: Uint8Array[] = [];
    let o = 0;
    for (const c of cuts) (parts.push(all.slice(o, c)), (o = c));
    for (const attachedFirst of [true, false]) {
      const core = create('S', { blobMinBytes: 1 << 30 }, () => 0);
      const got: RelayBatch[] = [];
      const take = { send: (b: RelayBatch) => void got.push(b) };
      if (attachedFirst) core.attach(take, {});
      const recs = parts.map((p, i) => (i % 2 === 0 ? blobChunk(p, i) : { kind: 'chunk', conn: 'c1', t: i, data: p }));
      core.onHookMessage(batch([request('c1'), ...recs, { kind: 'end', conn: 'c1', t: 9, how: 'complete' }]));
      if (!attachedFirst) core.attach(take, {});
      expect(core.stats().rejected).toBe(0);
      const decoded = (await Promise.all(got.map((b) => decodeBatch(b.records, b.blobs)))).flat();
      const chunks = decoded.filter((r) => r.kind === 'chunk') as { text: string; bytes: number }[];
      expect(chunks.map((c) => c.text).join('')).toBe(new TextDecoder().decode(all));
      expect(chunks.reduce((n, c) => n + c.bytes, 0)).toBe(all.length);
      // The hook's Blobs go on as they are: the relay made none for them.
      expect(core.stats().blobs).toBe(0);
      expect(core.stats().hookBlobs).toBe(2);
      const sentBlobs = got.flatMap((b) => b.blobs ?? []);
      expect(sentBlobs.map((b) => b.size)).toEqual([parts[0]!.length, parts[2]!.length]);
      // A backfill sends the same Blobs again.
      core.detach();
      const again: RelayBatch[] = [];
      core.attach({ send: (b) => void again.push(b) }, {});
      expect(again.flatMap((b) => b.blobs ?? [])).toEqual(sentBlobs);
    }
  });

  it('a Blob read made while not recording is not kept but moves the carry: the next kept read decodes as the page did', () => {
    const core = createRelayCore('S', { recording: false }, () => 0);
    // The Blob read ends with the lead byte of "é" (C3); the first read kept starts with A9.
    core.onHookMessage(batch([request('c1'), blobChunk(new Uint8Array([0x64, 0x61, 0x3a, 0xc3]), 1)]));
    core.setRecording(true);
    core.onHookMessage(batch([{ kind: 'chunk', conn: 'c1', t: 2, data: new Uint8Array([0xa9, 0x0a, 0x0a]) }, { kind: 'end', conn: 'c1', t: 3, how: 'complete' }]));
    const s = sink();
    core.attach(s, {});
    expect(core.stats().rejected).toBe(0);
    const chunks = s.all().filter((r) => r.kind === 'chunk') as { text: string }[];
    expect(chunks.map((c) => c.text)).toEqual(['é\n\n']);
    const gap = s.all().find((r) => r.kind === 'capture-gap') as { lost: number } | undefined;
    expect(gap?.lost).toBe(1);
  });
});

describe('relay core: the hook copies only while the relay records', () => {
  const bytes = (text: string, t = 1) => ({ kind: 'chunk', conn: 'c1', t, data: new TextEncoder().encode(text) });
  const skip = (last: number[], n: number, t = 1) => ({ kind: 'skip', conn: 'c1', t, n, tail: new Uint8Array(last) });
  it('tells the hook to stop copying, waits for its ack to record again, and counts the skipped reads in the gap', () => {
    const modes: boolean[] = [];
    const core = createRelayCore('S', {}, () => 5);
    core.connectHook((copy) => modes.push(copy));
    expect(modes).toEqual([]); // recording from the start: nothing to say
    core.onHookMessage(batch([request('c1'), bytes('data: 1\n\n')]));
    core.setRecording(false);
    expect(modes).toEqual([false]);
    core.onModeAck(false);
    // reads while not recording: only their length and last bytes (é split: 0xc3 carried)
    core.onHookMessage(batch([skip([0x0a, 0x0a, 0xc3], 9)]));
    core.setRecording(true);
    expect(modes).toEqual([false, true]);
    expect(core.recording()).toBe(false); // until the hook says it copies
    core.onHookMessage(batch([skip([0x41], 1)]));
    core.onModeAck(true);
    expect(core.recording()).toBe(true);
    core.onHookMessage(batch([{ kind: 'chunk', conn: 'c1', t: 3, data: new Uint8Array([0xa9, 0x42]) }]));
    const s = sink();
    core.attach(s, {});
    expect(summary(s.all())).toEqual(['request c1', 'chunk c1', 'capture-gap c1 2', 'notice', 'chunk c1']);
    // The page's decoder held 0xc3 after the first skipped read, then read "A" (not a
    // continuation): nothing is carried into the kept read, whose lone 0xa9 is U+FFFD, as the
    // page's decoder made it.
    const kept = s.all().filter((r) => r.kind === 'chunk').map((r) => (r as { text: string }).text);
    expect(kept).toEqual(['data: 1\n\n', '\uFFFDB']);
    expect(core.stats()).toMatchObject({ hookCopies: true, notRecorded: 2 });
  });

  it('starts anyway when the hook does not answer, and a late skip gets a gap of its own', () => {
    const timers: (() => void)[] = [];
    const core = createRelayCore('S', { recording: false, setTimer: (fn) => timers.push(fn) }, () => 5);
    const modes: boolean[] = [];
    core.connectHook((copy) => modes.push(copy));
    expect(modes).toEqual([false]);
    core.onModeAck(false);
    core.onHookMessage(batch([request('c1')]));
    core.setRecording(true);
    expect(core.recording()).toBe(false);
    timers.shift()!();
    expect(core.recording()).toBe(true);
    core.onHookMessage(batch([skip([0x41], 1)]));
    const s = sink();
    core.attach(s, {});
    expect(summary(s.all())).toEqual(['request c1', 'capture-gap c1 1']);
  });

  it('recording again before the hook acknowledged the stop still asks it to copy, and waits', () => {
    const modes: boolean[] = [];
    const core = createRelayCore('S', {}, () => 5);
    core.connectHook((copy) => modes.push(copy));
    core.setRecording(false);
    core.setRecording(true); // the hook's ack of `false` is still on its way
    expect(modes).toEqual([false, true]);
    core.onModeAck(false);
    expect(core.recording()).toBe(false);
    core.onModeAck(true);
    expect(core.recording()).toBe(true);
  });

  it('release tells the hook to stop copying', () => {
    const modes: boolean[] = [];
    const core = createRelayCore('S', {}, () => 5);
    core.connectHook((copy) => modes.push(copy));
    core.release();
    expect(modes).toEqual([false]);
  });
});

describe('relay core: not recording (no DevTools on the tab, capture while closed off)', () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  const bytesChunk = (text: string, conn = 'c1', t = 1) => ({ kind: 'chunk', conn, t, data: enc(text) });
  const response = (conn = 'c1') => ({ kind: 'response', conn, t: 1, status: 200, statusText: 'OK', headers: [['content-type', 'text/event-stream']], url: 'http://x/', redirected: false, type: 'basic', capture: 'sse' });
  const end = (conn = 'c1', how = 'complete') => ({ kind: 'end', conn, t: 9, how });
  const esEvent = (i: number, conn = 'c2') => ({ kind: 'es-event', conn, t: i, type: 'message', data: `{"i":${i}}`, lastEventId: String(i) });
  const nav = { kind: 'navigation', t: 0, url: 'http://x/', top: true } as const;
  type Gap = Extract<CaptureRecord, { kind: 'capture-gap' }>;
  type Notice = Extract<CaptureRecord, { kind: 'notice' }>;

  it('numbers nothing of a connection and decodes nothing; keeps the navigation record; attaches to an empty backfill', () => {
    const proto = TextDecoder.prototype;
    const orig = proto.decode;
    let calls = 0;
    proto.decode = function (this: TextDecoder, ...a: Parameters<typeof orig>) {
      calls++;
      return orig.apply(this, a);
    };
    try {
      const core = createRelayCore('S', { recording: false }, () => 5);
      core.add(nav);
      const n = core.onHookMessage(batch([request('c1'), response('c1'), ...Array.from({ length: 50 }, (_, i) => bytesChunk(`data: ${i}\n\n`)), request('c2'), esEvent(1), esEvent(2)]));
      expect(n).toBe(0);
      expect(calls).toBe(0);
      expect(core.stats()).toMatchObject({ lastSeq: 1, records: 1, recording: false, held: 2, notRecorded: 52, rejected: 0 });
      const s = sink();
      core.attach(s, {});
      expect(s.all().map((r) => r.kind)).toEqual(['navigation']);
    } finally {
      proto.decode = orig;
    }
  });

  it('on start: request, response, a not-recording gap per open connection (dense seq), then live records; ended connections only counted in one notice', () => {
    const core = createRelayCore('S', { recording: false }, () => 5);
    core.add(nav);
    const s = sink();
    core.onHookMessage(
      batch([
        request('a'), response('a'), bytesChunk('data: a1\n\n', 'a'), bytesChunk('data: a2\n\n', 'a'),
        request('done'), response('done'), bytesChunk('data: d\n\n', 'done'), end('done'),
        request('b'), esEvent(1, 'b'), esEvent(2, 'b'), esEvent(3, 'b'),
        request('quiet'), // started, nothing read yet: nothing lost, no gap
        request('gone'), end('gone', 'page-aborted'),
      ]),
    );
    core.attach(s, {}); // a panel attached while not recording gets what the buffer holds: the navigation
    expect(s.all().map((r) => r.kind)).toEqual(['navigation']);
    core.setRecording(true);
    core.onHookMessage(batch([bytesChunk('data: a3\n\n', 'a'), esEvent(4, 'b'), end('a')]));
    const recs = s.all();
    expect(recs.map((r) => r.seq)).toEqual(recs.map((_, i) => i + 1));
    expect(summary(recs)).toEqual([
      'navigation',
      'request a', 'response a', 'capture-gap a 2',
      'request b', 'capture-gap b 3',
      'request quiet',
      'notice',
      'chunk a', 'es-event b', 'end a',
    ]);
    const gaps = recs.filter((r): r is Gap => r.kind === 'capture-gap');
    expect(gaps.every((g) => g.reason === 'not-recording' && g.fromSeq === undefined)).toBe(true);
    const notice = recs.find((r): r is Notice => r.kind === 'notice')!;
    expect(notice).toMatchObject({ level: 'info', code: 'not-recording' });
    expect(notice.message).toMatch(/\b2 connection\(s\) that ended before recording began were not kept/);
    expect(notice.message).toMatch(/\b2 connection\(s\) still open lost/);
    expect(notice.message).toContain('Capture while DevTools is closed');
    expect(recs.some((r) => 'conn' in r && (r.conn === 'done' || r.conn === 'gone'))).toBe(false);
    expect((recs.find((r) => r.kind === 'chunk') as { text: string }).text).toBe('data: a3\n\n');
    expect(core.stats()).toMatchObject({ recording: true, held: 0, heldBytes: 0 });
  });

  it('no notice and no gap when nothing was lost', () => {
    const core = createRelayCore('S', { recording: false }, () => 5);
    core.onHookMessage(batch([request('a'), response('a')]));
    core.setRecording(true);
    const s = sink();
    core.attach(s, {});
    expect(summary(s.all())).toEqual(['request a', 'response a']);
  });

  it('stop keeps the buffer; a connection open across the stop gets its gap and its end, kept while stopped, on restart', () => {
    const core = createRelayCore('S', {}, () => 5);
    core.add(nav);
    core.onHookMessage(batch([request('a'), response('a'), bytesChunk('data: 1\n\n', 'a'), request('b'), bytesChunk('data: b\n\n', 'b')]));
    core.setRecording(false);
    core.onHookMessage(batch([bytesChunk('data: 2\n\n', 'a'), bytesChunk('data: 3\n\n', 'a'), end('a'), bytesChunk('data: b2\n\n', 'b')]));
    expect(core.stats()).toMatchObject({ lastSeq: 6, records: 6, notRecorded: 3 });
    const s = sink();
    core.attach(s, {}); // DevTools reopened: the buffer as it was
    expect(summary(s.all())).toEqual(['navigation', 'request a', 'response a', 'chunk a', 'request b', 'chunk b']);
    core.setRecording(true);
    core.onHookMessage(batch([bytesChunk('data: b3\n\n', 'b')]));
    expect(summary(s.all()).slice(6)).toEqual(['capture-gap a 2', 'end a', 'capture-gap b 1', 'notice', 'chunk b']);
    const recs = s.all();
    expect(recs.map((r) => r.seq)).toEqual(recs.map((_, i) => i + 1));
  });

  it('decodes the first chunk after the start exactly as the page decoder did at that point (property)', async () => {
    const fc = (await import('fast-check')).default;
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(0x41, 0x0a, 0xef, 0xbb, 0xbf, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0xff), fc.integer({ min: 0, max: 255 })), { maxLength: 40 }),
        fc.array(fc.nat(40), { maxLength: 8 }),
        fc.nat(8),
        (arr, cutsRaw, startAt) => {
          const all = new Uint8Array(arr);
          const cuts = [...new Set(cutsRaw.map((c) => Math.min(c, all.length)))].sort((a, b) => a - b);
          const parts: Uint8Array[] = [];
          let o = 0;
          for (const c of [...cuts, all.length]) {
            if (c > o) parts.push(all.slice(o, c));
            o = c;
          }
          const k = Math.min(startAt, parts.length);
          const core = createRelayCore('S', { recording: false }, () => 0);
          core.onHookMessage(batch([request('c1'), ...parts.slice(0, k).map((p) => ({ kind: 'chunk', conn: 'c1', t: 1, data: p }))]));
          core.setRecording(true);
          core.onHookMessage(batch([...parts.slice(k).map((p) => ({ kind: 'chunk', conn: 'c1', t: 2, data: p })), end('c1')]));
          const s = sink();
          core.attach(s, {});
          const kept = s.all().filter((r) => r.kind === 'chunk').map((r) => (r as { text: string }).text).join('');
          const d = new TextDecoder();
          const before = parts.slice(0, k).map((p) => d.decode(p, { stream: true })).join('');
          const whole = new TextDecoder().decode(all);
          expect(before + kept).toBe(whole);
          const gap = s.all().find((r) => r.kind === 'capture-gap') as Gap | undefined;
          expect(gap?.lost ?? 0).toBe(k);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('a BOM after dropped characters is text, not a BOM to strip (the decoder had already started)', () => {
    const core = createRelayCore('S', { recording: false }, () => 0);
    core.onHookMessage(batch([request('c1'), { kind: 'chunk', conn: 'c1', t: 1, data: new Uint8Array([0x41]) }]));
    core.setRecording(true);
    core.onHookMessage(batch([{ kind: 'chunk', conn: 'c1', t: 2, data: new Uint8Array([0xef, 0xbb, 0xbf, 0x42]) }]));
    const s = sink();
    core.attach(s, {});
    expect((s.all().find((r) => r.kind === 'chunk') as { text: string }).text).toBe('\uFEFFB');
  });

  it('holds a bounded number of connections: the oldest ones started while not recording are given up, counted, and stay out', async () => {
    const { MAX_HELD_CONNS } = await import('./relay-core');
    const core = createRelayCore('S', { recording: false }, () => 5);
    const n = MAX_HELD_CONNS + 10;
    core.onHookMessage(batch(Array.from({ length: n }, (_, i) => request(`c${i}`))));
    expect(core.stats().held).toBe(MAX_HELD_CONNS);
    core.setRecording(true);
    // a given-up connection keeps being dropped (its request was never kept), quietly
    core.onHookMessage(batch([bytesChunk('data: x\n\n', 'c0'), end('c0'), bytesChunk('data: y\n\n', `c${n - 1}`)]));
    const s = sink();
    core.attach(s, {});
    const recs = s.all();
    expect(recs.filter((r) => r.kind === 'request').length).toBe(MAX_HELD_CONNS);
    expect(recs.some((r) => 'conn' in r && r.conn === 'c0')).toBe(false);
    const notice = recs.find((r): r is Notice => r.kind === 'notice')!;
    expect(notice.message).toMatch(/\b10 connection\(s\) started meanwhile were too many to hold/);
    expect(notice.message).not.toMatch(/ended before recording/);
    expect(recs.at(-1)).toMatchObject({ kind: 'chunk', conn: `c${n - 1}` });
    expect(core.stats().rejected).toBe(0); // not reported as the page's interference
  });

  it('holds a bounded number of bytes: large request bodies push the oldest held connection out', async () => {
    const { MAX_HELD_BYTES } = await import('./relay-core');
    const core = createRelayCore('S', { recording: false }, () => 5);
    const body = 'x'.repeat(512 * 1024); // ~1 MiB estimated each
    const count = Math.ceil(MAX_HELD_BYTES / (body.length * 2)) + 3;
    for (let i = 0; i < count; i++) core.onHookMessage(batch([{ ...request(`r${i}`), method: 'POST', body }]));
    expect(core.stats().heldBytes).toBeLessThanOrEqual(MAX_HELD_BYTES);
    expect(core.stats().held).toBeLessThan(count);
  });

  it('checks the lifecycle while not recording (forged records still reported)', () => {
    const core = createRelayCore('S', { recording: false }, () => 5);
    core.onHookMessage(batch([request('a'), request('a'), bytesChunk('data: z\n\n', 'nope')]));
    const s = sink();
    core.attach(s, {});
    expect(s.all().map((r) => (r.kind === 'notice' ? r.code : r.kind))).toEqual(['inconsistent-hook-record']);
    expect(core.stats().rejected).toBe(2);
  });
});

function summary(recs: CaptureRecord[]): string[] {
  return recs.map((r) => {
    if (r.kind === 'capture-gap') return `capture-gap ${r.conns.join(',')} ${r.lost}`;
    if ('conn' in r) return `${r.kind} ${r.conn}`;
    return r.kind;
  });
}

describe('relay core: live records paced to the panel', () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  const read = (i: number) => ({ kind: 'chunk', conn: 'c1', t: i, data: enc(`data: ${i}\n\n`) });
  function paced() {
    let clock = 1000;
    const timers: { at: number; fn: () => void }[] = [];
    const core = createRelayCore('S', { pace: { now: () => clock }, setTimer: (fn, ms) => timers.push({ at: clock + ms, fn }) }, () => 0);
    const s = sink();
    core.attach(s, {});
    /** Moves the clock, running the timers due by then. */
    const advance = (ms: number) => {
      clock += ms;
      for (const t of timers.splice(0).sort((a, b) => a.at - b.at)) if (t.at <= clock) t.fn(); else timers.push(t);
    };
    /** Moves the clock only (a thread that runs no timer). */
    const tick = (ms: number) => {
      clock += ms;
    };
    return { core, s, advance, tick, timers };
  }

  it('sends the first record after a quiet spell at once, and a burst in one message at most every 16 ms', () => {
    const { core, s, advance, timers } = paced();
    core.onHookMessage(batch([request()]));
    expect(s.sent).toHaveLength(1); // at once
    for (let i = 1; i <= 5; i++) {
      advance(2);
      core.onHookMessage(batch([read(i)]));
    }
    expect(s.sent).toHaveLength(1); // waiting: the last message went 10 ms ago
    expect(timers).toHaveLength(1);
    advance(6); // 16 ms after the first message
    expect(s.sent).toHaveLength(2);
    expect(s.sent[1]!.records.map((r) => r.seq)).toEqual([2, 3, 4, 5, 6]);
    expect(s.all().map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6]); // nothing lost, in order
  });

  it('a hook batch that comes less than 1 ms before its turn is sent at once, without a timer (the hook sends when under 1 ms of its 16 is left)', () => {
    const { core, s, tick, timers } = paced();
    core.onHookMessage(batch([request()]));
    tick(15.4);
    core.onHookMessage(batch([read(1)]));
    expect(s.sent).toHaveLength(2);
    expect(timers).toHaveLength(0);
    tick(14.6); // 14.6 ms after: its turn has not come
    core.onHookMessage(batch([read(2)]));
    expect(s.sent).toHaveLength(2);
    expect(timers).toHaveLength(1);
  });

  it('a starved timer does not hold records back: the next message sends them once they are 16 ms old', () => {
    const { core, s, tick, timers } = paced();
    core.onHookMessage(batch([request()]));
    core.onHookMessage(batch([read(1)]));
    expect(s.sent).toHaveLength(1);
    tick(20); // the page's read keeps the thread: the timer due at 16 ms has not run
    expect(timers).toHaveLength(1);
    core.onHookMessage(batch([read(2)]));
    expect(s.sent).toHaveLength(2);
    expect(s.sent[1]!.records.map((r) => r.seq)).toEqual([2, 3]);
    timers.splice(0).forEach((t) => t.fn()); // when it runs at last, nothing waits
    expect(s.sent).toHaveLength(2);
  });

  it('loses nothing, reorders nothing, and sends live messages at least 15 ms apart, whatever the timing (property)', async () => {
    const fc = (await import('fast-check')).default;
    type Op = { msg: number } | { tick: number } | { timers: true };
    const op = fc.oneof(fc.record({ msg: fc.integer({ min: 1, max: 3 }) }), fc.record({ tick: fc.integer({ min: 0, max: 40 }) }), fc.constant({ timers: true as const }));
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops: Op[]) => {
        let clock = 0;
        const timers: { at: number; fn: () => void }[] = [];
        const core = createRelayCore('S', { pace: { now: () => clock }, setTimer: (fn, ms) => timers.push({ at: clock + ms, fn }) }, () => 0);
        const sentAt: number[] = [];
        const seqs: number[] = [];
        core.attach({ send: (b) => { sentAt.push(clock); seqs.push(...decodeRecords(b.records).map((r) => r.seq)); } }, {});
        const runDue = () => {
          for (const t of timers.splice(0).sort((a, b) => a.at - b.at)) if (t.at <= clock) t.fn(); else timers.push(t);
        };
        core.onHookMessage(batch([request()]));
        let n = 1;
        for (const o of ops) {
          if ('msg' in o) {
            core.onHookMessage(batch(Array.from({ length: o.msg }, () => read(n))));
            n += o.msg;
          } else if ('tick' in o) clock += o.tick;
          else runDue();
        }
        clock += 1000;
        runDue();
        expect(seqs).toEqual(Array.from({ length: n }, (_, i) => i + 1));
        for (let i = 1; i < sentAt.length; i++) expect(sentAt[i]! - sentAt[i - 1]!).toBeGreaterThanOrEqual(PACE_MS - PACE_SLACK_MS);
      }),
      { numRuns: 500 },
    );
  });

  it('a timer set for an earlier turn does not send early when a message sent meanwhile', () => {
    const { core, s, advance, tick, timers } = paced();
    core.onHookMessage(batch([request()])); // at 1000
    core.onHookMessage(batch([read(1)])); // waits; timer due at 1016
    tick(20);
    core.onHookMessage(batch([read(2)])); // 20 ms since: sent at 1020 with read 1
    core.onHookMessage(batch([read(3)])); // waits for 1036
    expect(s.sent).toHaveLength(2);
    advance(0); // the old timer (due at 1016) runs now: read 3's turn has not come
    expect(s.sent).toHaveLength(2);
    expect(timers).toHaveLength(1);
    advance(16);
    expect(s.sent).toHaveLength(3);
    expect(s.all().map((r) => r.seq)).toEqual([1, 2, 3, 4]);
  });

  it('a backfill, a detach and the document going away settle what waits, in order', () => {
    const { core, s, advance } = paced();
    core.onHookMessage(batch([request()]));
    core.onHookMessage(batch([read(1)]));
    core.unpaced(true); // pagehide
    expect(s.all().map((r) => r.seq)).toEqual([1, 2]);
    core.onHookMessage(batch([read(2)]));
    expect(s.all().map((r) => r.seq)).toEqual([1, 2, 3]); // at once while the document goes
    core.unpaced(false); // back from the back/forward cache
    advance(100);
    core.onHookMessage(batch([read(3)]));
    core.onHookMessage(batch([read(4)]));
    expect(s.all().map((r) => r.seq)).toEqual([1, 2, 3, 4]); // paced again: 5 waits
    core.detach();
    advance(100);
    expect(s.sent.length).toBe(4); // nothing for a sink that is gone (the buffer holds it)
    const s2 = sink();
    core.attach(s2, { S: 4 });
    expect(s2.all().map((r) => r.seq)).toEqual([5]);
  });
});

describe('hook messages that never reach the relay', () => {
  const sse = (text: string, conn = 'c1') => ({ kind: 'chunk', conn, t: 1, text, bytes: text.length });
  const ev = (id: number) => `id: ${id}\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"n":${id}}}\n\n`;
  const get = { ...request('c1'), headers: [['mcp-session-id', 's1'], ['accept', 'text/event-stream']] };
  const head = [get, { kind: 'response', conn: 'c1', t: 0, status: 200, statusText: '', headers: [['content-type', 'text/event-stream']], url: 'http://x/', redirected: false, type: 'basic', capture: 'sse' }];
  /** A hook port whose messages the test delivers itself (`deliver`). */
  const quietPort = () => {
    const port = { deliver: (_m: unknown) => {}, post: () => true, onClose: () => () => {}, close: () => {}, listen: (fn: (m: unknown) => void) => ((port.deliver = fn), () => {}) };
    return port;
  };

  it('a message given up mid-stream is a capture gap over the open connections, not a server drop', async () => {
    const core = createRelayCore('S', { maxRecords: 100_000 }, () => 5);
    const port = quietPort();
    const inbox = orderedInbox(port, (n, why) => core.hookLost(skippedText(n, why), why === 'gap'), () => core.hookLost(null, true));
    inbox.listen((m) => core.onHookMessage(m));
    const msg = (seq: number, records: unknown[]) => ({ ...batch(records), seq });
    inbox.fromSync(0, () => msg(0, [...head, request('c2'), { kind: 'end', conn: 'c2', t: 1, how: 'complete' }, sse(ev(1) + 'id: 2\ndata: {"jsonrpc":"2.0","method":"notif')]));
    // Message 1 (the rest of event 2, event 3, a request) waits on the port while more than
    // MAX_HELD later ones come by the synchronous channel (ids 4…): given up, then late.
    for (let s = 2; s <= MAX_HELD + 2; s++) inbox.fromSync(s, () => msg(s, [sse(ev(s + 2))]));
    port.deliver(msg(1, [sse('x"}\n\n' + ev(3)), request('c3')]));
    await Promise.resolve();
    const s = sink();
    core.attach(s, {});
    const recs = s.all();
    // before: two notices and no gap; the analysis joined the text across the hole and blamed the server
    expect(recs.filter((r) => r.kind === 'capture-gap')).toEqual([expect.objectContaining({ conns: ['c1'], reason: 'other', lost: 0 })]);
    expect(recs.filter((r) => r.kind === 'notice').map((r) => (r as { code: string }).code)).toEqual(['hook-messages-lost', 'hook-messages-lost']);
    const a = analyzeRecords(recs);
    expect(a.findings.filter((f) => f.severity === 'error').map((f) => f.code)).toEqual(['capture-gap']);
    expect(a.findings.some((f) => f.code === 'live-gap')).toBe(false);
    // a connection whose request was in the lost message: its later records are kept (a stream
    // without its request), not dropped as the page's forgery
    core.onHookMessage(batch([sse(ev(99), 'c4')]));
    expect(s.all().filter((r) => 'conn' in r && r.conn === 'c4').length).toBe(1);
  });

  it('while not recording, a loss is a notice, not a capture gap (nothing of it would have been kept)', () => {
    const core = createRelayCore('S', { recording: false }, () => 5);
    core.onHookMessage(batch([...head]));
    core.hookLost('lost', true);
    const s = sink();
    core.attach(s, {});
    expect(s.all().filter((r) => r.kind === 'capture-gap')).toEqual([]);
    expect(s.all().filter((r) => r.kind === 'notice').map((r) => (r as { code: string }).code)).toEqual(['hook-messages-lost']);
  });

  it('an unreadable message is said where it was in the order, after the messages before it', () => {
    const core = createRelayCore('S', {}, () => 5);
    const inbox = orderedInbox(quietPort(), (n, why) => core.hookLost(skippedText(n, why), why === 'gap'), () => core.hookLost(null, true));
    inbox.listen((m) => core.onHookMessage(m));
    inbox.fromSync(1, () => {
      throw new Error('DataCloneError');
    });
    inbox.fromSync(0, () => ({ ...batch([...head, { kind: 'end', conn: 'c1', t: 1, how: 'complete' }, request('c2')]), seq: 0 }));
    const s = sink();
    core.attach(s, {});
    // said at once (the notice), and marked in its place: c1 ended before it, only c2 was open
    expect(s.all().map((r) => r.kind)).toEqual(['notice', 'request', 'response', 'end', 'request', 'capture-gap']);
    expect(s.all().at(-1)).toMatchObject({ conns: ['c2'] });
  });
});

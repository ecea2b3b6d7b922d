// The capture pipeline end to end in Node, over in-memory adapters (test/support/pipeline.ts):
// hook batches → relay → background router → panel link → store → analyzer, with service-worker
// restarts as "drop the router, make a new one". After everything settled: the store holds
// exactly what the relay's buffer holds (decoded as a fresh panel would), and the analysis the
// panel built incrementally from the store equals a fresh analysis of those records.
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeRecords, createAnalyzer } from '../../../src/core/analyzer';
import { importText } from '../../../src/core/import/index';
import type { AnalysisSnapshot } from '../../../src/core/model';
import type { CaptureRecord } from '../../../src/core/record';
import { createPipeline, type PageRead, type Pipeline } from '../../support/pipeline';

const enc = new TextEncoder();

/** The page's reads of a capture of one src: its records unnumbered, chunk text as bytes split at `cuts`. */
function pageReads(records: readonly CaptureRecord[], cut: (bytes: Uint8Array) => number[] = () => []): PageRead[] {
  const out: PageRead[] = [];
  for (const r of records) {
    const { seq: _s, src: _r, ...rest } = r as CaptureRecord & Record<string, unknown>;
    if (r.kind === 'navigation' || r.kind === 'capture-gap') continue; // the relay's own
    if (r.kind === 'chunk') {
      const b = enc.encode(r.text);
      let o = 0;
      for (const c of [...cut(b), b.length]) {
        if (c > o) out.push({ kind: 'chunk', conn: r.conn, t: r.t, data: b.slice(o, c) });
        o = Math.max(o, c);
      }
      continue;
    }
    out.push(rest as PageRead);
  }
  return out;
}

/** The panel's analysis, fed from the store as the UI feeds it: appended records by index, from scratch when the array changes. */
function followStore(p: Pipeline) {
  let analyzer = createAnalyzer();
  let fed = 0;
  let array: readonly CaptureRecord[] | null = null;
  const feed = () => {
    const s = p.store.getSnapshot();
    if (s.records !== array) {
      analyzer = createAnalyzer();
      fed = 0;
      array = s.records;
    }
    analyzer.pushAll(s.records.slice(fed, s.count));
    fed = s.count;
  };
  p.store.subscribe(feed);
  return () => {
    feed();
    return analyzer.snapshot();
  };
}

const essence = (s: AnalysisSnapshot) => JSON.parse(JSON.stringify({ findings: s.findings, sessions: s.sessions, requests: s.requests, streams: s.streams }));

async function expectStoreIsBuffer(p: Pipeline, snapshot: () => AnalysisSnapshot) {
  await p.settle();
  const stored = p.store.getSnapshot().records;
  const buffered: CaptureRecord[] = [];
  p.panel?.close();
  p.panel = null;
  await p.settle();
  for (const r of p.relays) {
    r.core.detach();
    buffered.push(...(await r.bufferRecords()));
  }
  const bySrc = (rs: readonly CaptureRecord[]) => [...rs].sort((a, b) => (a.src === b.src ? a.seq - b.seq : a.src < b.src ? -1 : 1));
  expect(bySrc(stored)).toEqual(bySrc(buffered));
  expect(essence(snapshot())).toEqual(essence(analyzeRecords(stored)));
  return stored;
}

const fixtures = readdirSync('test/fixtures/captures/').filter((f) => f.endsWith('.capture.json')).sort();

/** A stream whose text is not ASCII (a BOM, 2-, 3- and 4-byte characters): reads split inside them. */
function wideStream(): CaptureRecord[] {
  const src = 'wide';
  const url = 'http://127.0.0.1:9/mcp';
  const events = ['\uFEFFid: 1\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"data":"é€😀"}}\n\n', 'id: 2\ndata: {"jsonrpc":"2.0","id":1,"result":{"t":"ü😀\uFEFF"}}\n\n'];
  return [
    { kind: 'request', seq: 1, src, t: 1, conn: 'c1', transport: 'fetch', method: 'POST', url, headers: [['content-type', 'application/json'], ['accept', 'text/event-stream']], body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}' },
    { kind: 'response', seq: 2, src, t: 2, conn: 'c1', status: 200, statusText: 'OK', headers: [['content-type', 'text/event-stream']], url, redirected: false, type: 'basic', capture: 'sse' },
    ...events.map((text, i): CaptureRecord => ({ kind: 'chunk', seq: 3 + i, src, t: 3 + i, conn: 'c1', text, bytes: enc.encode(text).length })),
    { kind: 'end', seq: 5, src, t: 5, conn: 'c1', how: 'complete' },
  ];
}
const connTexts = (rs: readonly CaptureRecord[], src: string) => {
  const m = new Map<string, string>();
  for (const r of rs) if (r.src === src && r.kind === 'chunk') m.set(r.conn, (m.get(r.conn) ?? '') + r.text);
  return m;
};
/** What the page's streaming decoder made of a source's bytes (a leading BOM is stripped). */
const readTexts = (rs: readonly CaptureRecord[], src: string) => new Map([...connTexts(rs, src)].map(([c, t]) => [c, new TextDecoder().decode(enc.encode(t))]));

describe('capture pipeline over in-memory adapters', () => {
  it('every fixture capture, read by the page and recorded with a panel open: the panel holds what the page read, across two worker restarts', async () => {
    for (const f of [...fixtures, 'wide']) {
      const records = f === 'wide' ? wideStream() : importText(readFileSync('test/fixtures/captures/' + f, 'utf8')).records;
      const srcs = [...new Set(records.map((r) => r.src))];
      const p = createPipeline();
      const snapshot = followStore(p);
      p.openPanel();
      const relays = srcs.map((src, i) => p.addRelay(`relay-${i}`, { frameId: i, relay: { blobMinBytes: 256 } }));
      await p.settle();
      const reads = srcs.map((src) => pageReads(records.filter((r) => r.src === src), (b) => (b.length > 4 ? [1, b.length >> 1] : [])));
      for (let i = 0; i < relays.length; i++) {
        const all = reads[i]!;
        const third = Math.ceil(all.length / 3);
        relays[i]!.hook.send(all.slice(0, third));
        p.restartWorker();
        relays[i]!.hook.send(all.slice(third, 2 * third));
        await p.settle();
        p.restartWorker();
        relays[i]!.hook.send(all.slice(2 * third));
      }
      await p.settle();
      expect(p.panel!.connects(), f).toBe(3); // two restarts: the panel's port re-created itself twice
      const stored = await expectStoreIsBuffer(p, snapshot);
      // Nothing lost, nothing invented: per connection, the text the page read, whole.
      for (let i = 0; i < srcs.length; i++) {
        expect(connTexts(stored, `relay-${i}`), f).toEqual(readTexts(records, srcs[i]!));
        const kinds = stored.filter((r) => r.src === `relay-${i}` && r.kind !== 'chunk').map((r) => r.kind);
        expect(kinds, f).toEqual(['navigation', ...records.filter((r) => r.src === srcs[i] && r.kind !== 'chunk').map((r) => r.kind)]);
      }
    }
  });

  it('random reads, batches, Blob thresholds, DevTools opened late, worker restarts anywhere (property)', async () => {
    const sources = [wideStream(), ...fixtures.slice(0, 8).map((f) => importText(readFileSync('test/fixtures/captures/' + f, 'utf8')).records)];
    await fc.assert(
      fc.asyncProperty(
        fc.nat(sources.length - 1),
        fc.array(fc.nat(60), { minLength: 1, maxLength: 6 }),
        fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 6 }),
        fc.constantFrom(0, 64, 4096, Infinity),
        fc.nat(40),
        fc.array(fc.nat(40), { maxLength: 3 }),
        fc.boolean(),
        async (which, cuts, sizes, blobMinBytes, openAt, restarts, captureWhileClosed) => {
          const records = sources[which]!;
          const src0 = records[0]!.src;
          const p = createPipeline();
          const snapshot = followStore(p);
          const relay = p.addRelay('S', { relay: { blobMinBytes }, captureWhileClosed });
          await p.settle();
          const reads = pageReads(records.filter((r) => r.src === src0), (b) => cuts.map((c) => c % (b.length + 1)).sort((x, y) => x - y));
          let i = 0;
          for (let k = 0; i < reads.length; k++) {
            if (!p.panel && i >= Math.min(openAt, reads.length - 1)) {
              p.openPanel();
              await p.settle();
            }
            if (restarts.includes(k)) p.restartWorker();
            const n = sizes[k % sizes.length]!;
            relay.hook.send(reads.slice(i, i + n));
            i += n;
            if (k % 2) await p.settle();
          }
          if (!p.panel) p.openPanel();
          await expectStoreIsBuffer(p, snapshot);
          const stored = p.store.getSnapshot().records;
          const s = relay.core.stats();
          expect(s.rejected).toBe(0);
          // Recorded from the start: the text the page read, whole (the decoder checked against the source).
          if (captureWhileClosed || openAt === 0) {
            expect(s.notRecorded).toBe(0);
            expect(connTexts(stored, 'S')).toEqual(readTexts(records, src0));
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

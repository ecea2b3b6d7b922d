// Shared helpers of the hostile-input tests: bytes decoded as the page hook decodes them, records
// around a body, and the part of a snapshot that must not depend on chunking.
import { readdirSync, readFileSync } from 'node:fs';
import { createAnalyzer } from '../../../src/core/analyzer';
import { importText } from '../../../src/core/import/index';
import type { AnalysisSnapshot } from '../../../src/core/model';
import type { CaptureRecord, ChunkRecord } from '../../../src/core/record';

export const CAPTURES = 'test/fixtures/captures/';

/**
 * What the relay (src/extension/relay/relay-core.ts) does per connection: one streaming TextDecoder (BOM stripped
 * at the start, invalid sequences → U+FFFD), a chunk record per read, and at EOF the decoder's
 * tail as a last chunk of 0 bytes when it is not empty.
 */
export function decodeLikeHook(chunks: Uint8Array[]): { text: string; bytes: number }[] {
  const d = new TextDecoder('utf-8');
  const out: { text: string; bytes: number }[] = [];
  for (const c of chunks) out.push({ text: d.decode(c, { stream: true }), bytes: c.byteLength });
  const tail = d.decode();
  if (tail) out.push({ text: tail, bytes: 0 });
  return out;
}

/** Split bytes at the given (sorted or not, possibly repeated) offsets. */
export function splitAt(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => Math.max(0, Math.min(bytes.length, c))))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const p of [...points, bytes.length]) {
    if (p > prev || (p === bytes.length && out.length === 0)) out.push(bytes.subarray(prev, p));
    prev = Math.max(prev, p);
  }
  return out;
}

/** A tools/call POST answered by an event stream made of `chunks`, then EOF. */
export function streamRecords(chunks: Uint8Array[], opts: { how?: 'complete' | 'network-error'; get?: boolean } = {}): CaptureRecord[] {
  const src = 'h';
  let seq = 0;
  let t = 1000;
  const url = 'http://127.0.0.1:9/mcp';
  const recs: CaptureRecord[] = [];
  const body = opts.get ? null : '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{"progressToken":1}}}';
  recs.push({ kind: 'request', seq: ++seq, src, t: ++t, conn: 'c1', transport: 'fetch', method: opts.get ? 'GET' : 'POST', url, headers: [['mcp-session-id', 'S'], ['accept', 'text/event-stream']], body });
  recs.push({ kind: 'response', seq: ++seq, src, t: ++t, conn: 'c1', status: 200, statusText: 'OK', headers: [['content-type', 'text/event-stream']], url, redirected: false, type: 'basic', capture: 'sse' });
  for (const c of decodeLikeHook(chunks)) recs.push({ kind: 'chunk', seq: ++seq, src, t: ++t, conn: 'c1', text: c.text, bytes: c.bytes });
  recs.push({ kind: 'end', seq: ++seq, src, t: ++t, conn: 'c1', how: opts.how ?? 'complete' });
  return recs;
}

export function analyze(records: CaptureRecord[], snapshotEvery = 0): AnalysisSnapshot {
  const a = createAnalyzer();
  records.forEach((r, i) => {
    a.push(r);
    if (snapshotEvery > 0 && i % snapshotEvery === 0) a.snapshot();
  });
  a.finish();
  return a.snapshot();
}

/**
 * What must not depend on chunking: findings, verdicts, sessions, and every event (id, type,
 * data, retry, raw text, cursor, codes). Times are left out (a chunk's time is when it was read).
 */
export function essence(s: AnalysisSnapshot) {
  return {
    findings: s.findings,
    sessions: s.sessions.map((x) => ({ key: x.key, scheme: x.idScheme.kind, lossless: x.lossless, reasons: x.losslessReasons, chains: x.chains })),
    verdicts: Object.fromEntries(Object.entries(s.requests).map(([k, v]) => [k, v.map((r) => [r.id, r.verdict, r.findings, r.cumulativeCount, r.notifications.length])])),
    streams: Object.fromEntries(
      Object.values(s.streams).map((st) => [
        st.id,
        {
          state: st.state,
          comments: st.comments,
          retry: st.retry,
          lastCursor: st.lastCursor,
          events: st.events.map((e) => [e.id, e.event, e.data, e.retry, e.raw, e.cursor, e.findings, e.truncated ?? false, e.idOnly ?? false, e.jsonError === undefined]),
        },
      ]),
    ),
  };
}

export function fixtureCaptures(): { name: string; records: CaptureRecord[] }[] {
  return readdirSync(CAPTURES)
    .filter((f) => f.endsWith('.capture.json'))
    .sort()
    .map((f) => ({ name: f, records: importText(readFileSync(CAPTURES + f, 'utf8')).records }));
}

/** Per connection: the body bytes of a capture (its chunks' text, UTF-8). */
export function bodies(records: CaptureRecord[]): Map<string, Uint8Array> {
  const texts = new Map<string, string>();
  for (const r of records) if (r.kind === 'chunk') texts.set(r.src + '\u0000' + r.conn, (texts.get(r.src + '\u0000' + r.conn) ?? '') + r.text);
  const out = new Map<string, Uint8Array>();
  for (const [k, v] of texts) out.set(k, new TextEncoder().encode(v));
  return out;
}

/**
 * The capture with each connection's body replaced by `chunksFor(bytes)` decoded like the hook:
 * the chunk records of a connection are put where its first chunk was.
 */
export function rechunkCapture(records: CaptureRecord[], chunksFor: (key: string, body: Uint8Array) => Uint8Array[]): CaptureRecord[] {
  const b = bodies(records);
  const out: CaptureRecord[] = [];
  const done = new Set<string>();
  for (const r of records) {
    if (r.kind !== 'chunk') {
      out.push(r);
      continue;
    }
    const key = r.src + '\u0000' + r.conn;
    if (done.has(key)) continue;
    done.add(key);
    for (const c of decodeLikeHook(chunksFor(key, b.get(key)!))) out.push({ ...(r as ChunkRecord), text: c.text, bytes: c.bytes });
  }
  return out.map((r, i) => ({ ...r, seq: i + 1 }));
}

// get_events' fromId / toId on a session whose ids the analysis reads otherwise than by their
// trailing decimal digits: in hexadecimal (Cloudflare's McpAgent writes `<stream>:<seq as 16 hex
// digits>`), or by a user's id-scheme override: the range compares the counters as the analysis does.
import { describe, expect, it } from 'vitest';
import { analyzeRecords } from '../../../src/core/analyzer';
import { CaptureSet } from '../../../src/cli/mcp/captures';
import { Capture as Records, call, ev, initSession, message, result } from '../core/helpers';
import { connectInProcess, type InProcess } from '../../support/mcp-inprocess';

const hexId = (n: number) => `0c1f5d2e-8a4b-4c3d-9e6f-112233445566:${n.toString(16).padStart(16, '0')}`;

/** tools/call 2 whose stream carries ids 9, a, b, c, then 10 (16): the server skipped d–f. */
async function withHexCapture(fn: (mcp: InProcess, stream: string) => Promise<void>): Promise<void> {
  const r = new Records();
  initSession(r);
  const p = r.request({ sessionId: 'sess-1', body: call(2) });
  r.response(p);
  r.chunk(p, [9, 10, 11, 12].map((n) => ev(hexId(n), message(`m${n}`))).join('') + ev(hexId(16), result(2)));
  r.end(p);
  const recs = r.records;
  const snap = analyzeRecords(recs);
  const captures = new CaptureSet({ root: '/nonexistent', maxBytes: 1e6, maxFiles: 10 });
  captures.add({ id: 'c1', kind: 'file', label: 'hand-built', format: 'records', records: () => recs, snapshot: () => snap });
  const mcp = await connectInProcess({ captures, root: '/nonexistent', inlineMaxBytes: 1e6 });
  try {
    const t = await mcp.call('get_timeline', { session: 's1' });
    expect(['contiguous', 'sparse']).toContain(t.idScheme.kind);
    expect(t.idScheme.evidence).toMatch(/hexadecimal counters/);
    await fn(mcp, t.streams.find((x: { requestIds: string[] }) => x.requestIds.includes('2')).stream);
  } finally {
    await mcp.close();
  }
}

const ids = (e: Record<string, any>) => (e.events as { id: string | null }[]).map((x) => x.id);

describe('get_events on a session read in hexadecimal', () => {
  it('a range compares the hexadecimal counters: 0009 to 0010 holds 000a–000c', async () => {
    await withHexCapture(async (mcp, stream) => {
      // before: read as decimal, 0009 to 0010 was 9 to 10, and the ids holding a–f no counter (left out)
      expect(ids(await mcp.call('get_events', { stream, fromId: hexId(9), toId: hexId(16) }))).toEqual([9, 10, 11, 12, 16].map(hexId));
      expect(ids(await mcp.call('get_events', { stream, fromId: hexId(11), toId: hexId(16) }))).toEqual([11, 12, 16].map(hexId));
    });
  });

  it('a bound the stream never carried is a place among the counters (before: refused as an unknown id)', async () => {
    await withHexCapture(async (mcp, stream) => {
      expect(ids(await mcp.call('get_events', { stream, fromId: hexId(8), toId: hexId(11) }))).toEqual([9, 10, 11].map(hexId));
      expect(ids(await mcp.call('get_events', { stream, fromId: hexId(13), toId: hexId(15) }))).toEqual([]);
    });
  });
});

// A user's id-scheme override (Settings → id schemes: a pattern with a `counter` group) is how the
// analysis reads that origin's ids: a range compares those counters, not the trailing digits.
const PATTERN = '^k\\d+-(?<counter>\\d+)$';
/** `k<shard>-<counter>`: the shard changes from event to event, the counter counts. */
const kId = (i: number) => `k${(i * 37) % 11}-${i}`;

async function withOverrideCapture(fn: (mcp: InProcess, stream: string) => Promise<void>): Promise<void> {
  const r = new Records();
  initSession(r);
  const p = r.request({ sessionId: 'sess-1', body: call(2) });
  r.response(p);
  r.chunk(p, [1, 2, 3, 4, 5].map((i) => ev(kId(i), message(`m${i}`))).join('') + ev(kId(6), result(2)));
  r.end(p);
  const recs = r.records;
  const snap = analyzeRecords(recs, { idSchemeOverrides: [{ origin: 'http://127.0.0.1:3939', pattern: PATTERN }] });
  const captures = new CaptureSet({ root: '/nonexistent', maxBytes: 1e6, maxFiles: 10 });
  captures.add({ id: 'c1', kind: 'file', label: 'hand-built', format: 'records', records: () => recs, snapshot: () => snap });
  const mcp = await connectInProcess({ captures, root: '/nonexistent', inlineMaxBytes: 1e6 });
  try {
    const t = await mcp.call('get_timeline', { session: 's1' });
    expect(t.idScheme).toMatchObject({ kind: 'contiguous', evidence: expect.stringMatching(/set by the user/) });
    await fn(mcp, t.streams.find((x: { requestIds: string[] }) => x.requestIds.includes('2')).stream);
  } finally {
    await mcp.close();
  }
}

describe('get_events on a session whose ids are read by the user\'s override', () => {
  it('a range compares the counters the pattern reads: k0-2 to k0-4 holds counters 2 to 4 whatever their shard', async () => {
    await withOverrideCapture(async (mcp, stream) => {
      // before: read as a prefix and trailing digits, only ids of prefix k0- counted: an empty list
      expect(ids(await mcp.call('get_events', { stream, fromId: 'k0-2', toId: 'k0-4' }))).toEqual([2, 3, 4].map(kId));
    });
  });

  it('a bound the stream never carried is a place among those counters (before: refused as an unknown id)', async () => {
    await withOverrideCapture(async (mcp, stream) => {
      expect(ids(await mcp.call('get_events', { stream, fromId: kId(4), toId: 'k0-5' }))).toEqual([4, 5].map(kId));
    });
  });
});

// Request handles (rq1…): a JSON-RPC id is the page's text, shown cut to the 200 characters
// get_request takes; a longer one is named by its handle, as a stream's is by st1….
import { describe, expect, it } from 'vitest';
import { analyzeRecords } from '../../../src/core/analyzer';
import { CaptureSet } from '../../../src/cli/mcp/captures';
import { REQUEST_ID_MAX } from '../../../src/cli/mcp/text';
import { Capture as Records, call, ev, initSession, message, result } from '../core/helpers';
import { connectInProcess, type InProcess } from '../../support/mcp-inprocess';

const LONG = 'L'.repeat(300);

/** tools/call with an id of 300 characters cut after event 3 and resumed from 5 (lossy), then calls "rq1" and 5 twice. */
function records() {
  const r = new Records();
  initSession(r);
  const post = r.request({ sessionId: 'sess-1', body: call(LONG) });
  r.response(post);
  r.chunk(post, ev('1', message('a')) + ev('2', message('b')) + ev('3', message('c')));
  r.end(post, 'network-error');
  const get = r.request({ sessionId: 'sess-1', lastEventId: '3' });
  r.response(get);
  r.chunk(get, ev('5', message('e')) + ev('6', result(LONG)));
  r.end(get);
  for (const id of ['rq1', 5, 5]) {
    const p = r.request({ sessionId: 'sess-1', body: call(id) });
    r.response(p);
    r.chunk(p, ev(undefined, result(id)));
    r.end(p);
  }
  return r.records;
}

async function withCapture(fn: (mcp: InProcess) => Promise<void>): Promise<void> {
  const captures = new CaptureSet({ root: '/nonexistent', maxBytes: 1e6, maxFiles: 10 });
  const recs = records();
  const snap = analyzeRecords(recs);
  captures.add({ id: 'c1', kind: 'file', label: 'hand-built', format: 'records', records: () => recs, snapshot: () => snap });
  const mcp = await connectInProcess({ captures, root: '/nonexistent', inlineMaxBytes: 1e6 });
  try {
    await fn(mcp);
  } finally {
    await mcp.close();
  }
}

type Stream = { stream: string; requestIds: string[]; requests: (string | null)[] };

describe('a request id over 200 characters', () => {
  it('is shown cut beside its handle, which get_request and list_findings take', async () => {
    await withCapture(async (mcp) => {
      const t = await mcp.call('get_timeline', { session: 's1' });
      const post = (t.streams as Stream[]).find((x) => x.requestIds[0]?.startsWith('"LLL'))!;
      expect(post.requestIds[0]).toBe(`${JSON.stringify(LONG).slice(0, REQUEST_ID_MAX)}… (${LONG.length + 2 - REQUEST_ID_MAX} more characters)`);
      // The id as shown names no request (its first 200 characters are not its id)...
      expect(await mcp.refusal('get_request', { request: post.requestIds[0]!.slice(0, REQUEST_ID_MAX) })).toMatch(/^no request with id/);
      // ...its handle does (before: none was given, and the request had no name)
      const handle = post.requests[0]!;
      expect(handle).toMatch(/^rq\d+$/);
      const r = await mcp.call('get_request', { request: handle });
      expect(r.request).toBe(handle);
      expect(r.requestId).toBe(post.requestIds[0]);
      expect(r.verdict).toBe('lossy');
      expect(r.stream).toBe(post.stream);
      const fs = (await mcp.call('list_findings', { request: handle })).findings as { code: string; request: string | null }[];
      expect(fs.map((f) => f.code)).toContain('lossy-result-accepted');
      expect(fs.every((f) => f.request === handle)).toBe(true);
      expect(r.findings.map((f: { request: string | null }) => f.request)).toContain(handle);
      expect(await mcp.refusal('get_request', { request: handle, session: 's2' })).toMatch(/no session "s2"/);
    });
  });

  it('a handle is read first, a string id written as its JSON text never is; ids used twice are refused with their handles', async () => {
    await withCapture(async (mcp) => {
      const t = await mcp.call('get_timeline', { session: 's1' });
      const handles = new Map((t.streams as Stream[]).flatMap((x) => x.requestIds.map((id, i) => [id, x.requests[i]!] as const)));
      expect(handles.get('"rq1"')).not.toBe('rq1');
      expect((await mcp.call('get_request', { request: 'rq1' })).request).toBe('rq1');
      const quoted = await mcp.call('get_request', { request: '"rq1"' });
      expect(quoted.requestId).toBe('"rq1"');
      expect(quoted.request).toBe(handles.get('"rq1"'));
      const both = (t.streams as Stream[]).filter((x) => x.requestIds[0] === '5').map((x) => x.requests[0]!);
      expect(both).toHaveLength(2);
      expect(await mcp.refusal('get_request', { request: '5' })).toContain(`or pass one's handle as request: ${both.join(', ')}`);
      const streams = await Promise.all(both.map(async (h) => (await mcp.call('get_request', { request: h })).stream));
      expect(new Set(streams).size).toBe(2);
    });
  });
});

// The columns of analysis/event-table.ts hold what the analysis keeps of each event of every
// pinned input (pinned-cases.ts): times, raw texts, types, ids, cursors, retries, flags, and the
// JSON-RPC facts of the first message. The step before the analysis keeps its events there.
import { describe, expect, it } from 'vitest';
import { analyzeRecords } from '../../../src/core/analyzer';
import { importText } from '../../../src/core/import/index';
import { EventTable, EvFlag, RpcKind, rowOf } from '../../../src/core/analysis/event-table';
import type { CaptureRecord } from '../../../src/core/record';
import { pinnedCases } from './pinned-cases';

/** One SSE stream with what the pinned inputs lack: cursors apart from ids, id-only blocks, a batch, multi-line data, CRLF, a truncated end. */
function edges(): CaptureRecord[] {
  const src = 's';
  const url = 'http://127.0.0.1:9/mcp';
  let seq = 0;
  const chunk = (text: string): CaptureRecord => ({ kind: 'chunk', seq: ++seq, src, t: 10 + seq, conn: 'c1', text, bytes: text.length });
  return [
    { kind: 'request', seq: ++seq, src, t: 1, conn: 'c1', transport: 'fetch', method: 'POST', url, headers: [['mcp-session-id', 's'], ['accept', 'text/event-stream']], body: '[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{"progressToken":"p"}}},{"jsonrpc":"2.0","id":2,"method":"ping"}]' },
    { kind: 'response', seq: ++seq, src, t: 2, conn: 'c1', status: 200, statusText: 'OK', headers: [['content-type', 'text/event-stream']], url, redirected: false, type: 'basic', capture: 'sse' },
    chunk('id: 1\nretry: 500\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":1}}\n\n'),
    chunk('data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":2}}\n\nid: 3\n\n'),
    chunk('event: custom\r\ndata: line one\r\ndata: line two\r\n\r\n'),
    chunk('id: 4\ndata: [{"jsonrpc":"2.0","id":2,"result":{}},{"jsonrpc":"2.0","method":"notifications/message","params":{}}]\n\nid\ndata: not json\n\n'),
    chunk('id: 6\ndata: {"jsonrpc":"2.0","id":1,"res'),
    { kind: 'end', seq: ++seq, src, t: 50, conn: 'c1', how: 'complete' },
  ] as CaptureRecord[];
}

const KIND = ['', 'request', 'notification', 'result', 'error', 'invalid'];

describe('EventTable on the pinned inputs', () => {
  it('gives back every fact the analysis keeps of each event', () => {
    let events = 0;
    let spans = 0;
    const seen = { cursorApart: false, idOnly: false, truncated: false, batch: false, noSpan: false, retry: false };
    for (const [name, recs] of [...pinnedCases(importText), ['edges', edges()] as [string, CaptureRecord[]]]) {
      const snap = analyzeRecords(recs);
      for (const s of Object.values(snap.streams)) {
        const tab = new EventTable(1);
        for (const ev of s.events) tab.push(rowOf(ev, tab.text));
        expect(tab.length, name).toBe(s.events.length);
        s.events.forEach((ev, i) => {
          const where = `${name} ${s.id} #${i}`;
          expect([tab.time(i), tab.raw(i), tab.size(i), tab.type(i), tab.id(i), tab.cursor(i), tab.retry(i)], where).toEqual([ev.t, ev.raw, ev.raw.length, ev.event, ev.id, ev.cursor, ev.retry]);
          expect([tab.has(i, EvFlag.IdOnly), tab.has(i, EvFlag.Truncated), tab.has(i, EvFlag.Duplicate), tab.has(i, EvFlag.Synthetic), tab.has(i, EvFlag.JsonError)], where).toEqual([!!ev.idOnly, !!ev.truncated, !!ev.duplicate, !!ev.synthetic, ev.jsonError !== undefined]);
          const d = tab.dataSpan(i);
          if (d !== undefined) {
            spans++;
            expect(d, where).toBe(ev.data);
          }
          const m = ev.messages[0];
          expect([KIND[tab.kind(i)], tab.method(i), tab.requestId(i), tab.progress(i)], where).toEqual(m ? [m.kind, m.method, m.id ?? m.progressToken, m.progress] : ['', undefined, undefined, undefined]);
          if (tab.kind(i) === RpcKind.None) expect(ev.messages, where).toEqual([]);
          if (name === 'edges') {
            if (ev.cursor !== ev.id) seen.cursorApart = true;
            if (ev.idOnly) seen.idOnly = true;
            if (ev.truncated) seen.truncated = true;
            if (ev.messages.length > 1) seen.batch = tab.has(i, EvFlag.Batch);
            if (ev.data !== '' && d === undefined) seen.noSpan = true;
            if (ev.retry !== undefined) seen.retry = true;
          }
          events++;
        });
      }
    }
    expect(seen).toEqual({ cursorApart: true, idOnly: true, truncated: true, batch: true, noSpan: true, retry: true });
    // The inputs do hold events, most of them with their data a span of their raw text.
    expect(events).toBeGreaterThan(1000);
    expect(spans).toBeGreaterThan(events / 2);
  });
});

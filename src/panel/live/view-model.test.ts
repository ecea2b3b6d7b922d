import { describe, expect, it } from 'vitest';
import type { CaptureRecord } from '../../core/record';
import { buildRows } from './view-model';

describe('minimal panel rows', () => {
  it('splits SSE chunks into events across chunk boundaries and shows markers', () => {
    const base = { src: 'S', conn: 'c1' };
    const records: CaptureRecord[] = [
      { ...base, seq: 1, t: 1, kind: 'request', transport: 'fetch', method: 'POST', url: 'http://x/mcp', headers: [], body: null },
      { ...base, seq: 2, t: 2, kind: 'response', status: 200, statusText: 'OK', headers: [], url: 'http://x/mcp', redirected: false, type: 'basic', capture: 'sse' },
      { ...base, seq: 3, t: 3, kind: 'chunk', text: 'id: 1\nevent: message\ndata: {"a"', bytes: 30 },
      { ...base, seq: 4, t: 4, kind: 'chunk', text: ':1}\n\nid: 2\ndata: x\n\n', bytes: 20 },
      { src: 'S', seq: 5, t: 5, kind: 'capture-gap', lost: 3, fromSeq: 1, toSeq: 3, conns: ['c1'], reason: 'buffer-cap' },
    ];
    const rows = buildRows(records);
    expect(rows.length).toBe(2);
    const conn = rows[0]!.type === 'conn' ? rows[0]!.conn : null;
    expect(conn!.events).toEqual([
      { id: '1', type: 'message', data: '{"a":1}', t: 4 },
      { id: '2', type: 'message', data: 'x', t: 4 },
    ]);
    expect(rows[1]).toMatchObject({ type: 'marker', marker: { kind: 'capture-gap' } });
  });
});

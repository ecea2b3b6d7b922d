import { describe, expect, it } from 'vitest';
import { createSseConnectionParser, type SseBlock } from './sse';

function parseAll(chunks: string[]): { blocks: SseBlock[]; truncated: SseBlock[]; cursor: string | undefined; comments: number; retry: number | undefined } {
  const p = createSseConnectionParser();
  const blocks: SseBlock[] = [];
  for (const c of chunks) blocks.push(...p.feed(c));
  const cursor = p.cursor;
  const truncated = p.end();
  return { blocks, truncated, cursor, comments: p.comments, retry: p.retry };
}

const strip = (b: SseBlock) => ({ id: b.id, event: b.event, data: b.data });

describe('SSE connection parser', () => {
  it('parses events with id, event, data and keeps the cursor', () => {
    const r = parseAll(['id: 1\nevent: message\ndata: {"a":1}\n\nid: 2\ndata: x\ndata: y\n\n']);
    expect(r.blocks.map(strip)).toEqual([
      { id: '1', event: 'message', data: '{"a":1}' },
      { id: '2', event: undefined, data: 'x\ny' },
    ]);
    expect(r.cursor).toBe('2');
    expect(r.blocks[0]!.raw).toBe('id: 1\nevent: message\ndata: {"a":1}\n\n');
    expect(r.truncated).toEqual([]);
  });

  it('reports priming events (id + empty data) and id-only blocks', () => {
    const r = parseAll(['id: 5\nretry: 100\ndata: \n\nid: 6\n\n']);
    expect(r.blocks.map(strip)).toEqual([
      { id: '5', event: undefined, data: '' },
      { id: '6', event: undefined, data: undefined },
    ]);
    expect(r.blocks[0]!.retry).toBe(100);
    expect(r.retry).toBe(100);
    expect(r.cursor).toBe('6');
  });

  it('counts comments and ignores comment-only blocks', () => {
    const r = parseAll([': keepalive\n\n: another\ndata: a\n\n']);
    expect(r.blocks.map(strip)).toEqual([{ id: undefined, event: undefined, data: 'a' }]);
    expect(r.comments).toBe(2);
  });

  it('handles CRLF and bare CR line endings', () => {
    const crlf = parseAll(['id: 1\r\ndata: a\r\n\r\nid: 2\r\ndata: b\r\n\r\n']);
    expect(crlf.blocks.map(strip)).toEqual([
      { id: '1', event: undefined, data: 'a' },
      { id: '2', event: undefined, data: 'b' },
    ]);
    const cr = parseAll(['id: 1\rdata: a\r\rid: 2\rdata: b\r\r']);
    expect(cr.blocks.map(strip)).toEqual(crlf.blocks.map(strip));
  });

  it('gives the same events for every split point (CRLF split, multi-byte characters)', () => {
    const text = '\uFEFFid: 1\r\ndata: héllo 😀\r\n\r\n: c\nid: 2\nevent: resync\ndata: {}\n\nid: 3\rdata: z\r\r';
    const whole = parseAll([text]);
    expect(whole.blocks).toHaveLength(3);
    for (let i = 0; i <= text.length; i++) {
      for (let j = i; j <= text.length; j += 7) {
        const r = parseAll([text.slice(0, i), text.slice(i, j), text.slice(j)]);
        expect(r.blocks.map(strip), `split ${i},${j}`).toEqual(whole.blocks.map(strip));
        expect(r.cursor).toBe('3');
        expect(r.truncated).toEqual([]);
      }
    }
  });

  it('reports a last event without its closing blank line as truncated', () => {
    const r = parseAll(['id: 1\ndata: a\n\nid: 2\ndata: {"partial":']);
    expect(r.blocks.map(strip)).toEqual([{ id: '1', event: undefined, data: 'a' }]);
    expect(r.cursor).toBe('1');
    expect(r.truncated).toHaveLength(1);
    expect(r.truncated[0]).toMatchObject({ id: '2', data: '{"partial":', truncated: true });
  });

  it('reports a last event that ended with one newline as truncated', () => {
    const r = parseAll(['id: 7\ndata: done\n']);
    expect(r.blocks).toEqual([]);
    expect(r.truncated[0]).toMatchObject({ id: '7', data: 'done', truncated: true });
  });

  it('does not report a trailing comment or whitespace as an event', () => {
    expect(parseAll(['data: a\n\n: keepalive']).truncated).toEqual([]);
    expect(parseAll(['data: a\n\n\n']).truncated).toEqual([]);
  });

  it('ignores ids with NUL and resets the cursor on an empty id', () => {
    const r = parseAll(['id: 1\ndata: a\n\nid: x\u0000y\ndata: b\n\n']);
    expect(r.cursor).toBe('1');
    const e = parseAll(['id: 1\ndata: a\n\nid\ndata: b\n\n']);
    expect(e.blocks[1]!.id).toBe('');
    expect(e.cursor).toBeUndefined();
  });

  it('offers a run reader each block that starts in LF text, after the blocks before it, and takes its cursor', () => {
    const p = createSseConnectionParser();
    const offered: number[] = [];
    const handled: string[] = [];
    // reads one event "id: 2…" when offered it, as a run reader of the analysis would
    const run = {
      cursor: '',
      read(text: string, at: number, base: number, pending: SseBlock[]) {
        offered.push(base + at);
        handled.push(...pending.map((b) => b.id!));
        if (!text.startsWith('id: 2\n', at)) return at;
        this.cursor = '2';
        return text.indexOf('\n\n', at) + 2;
      },
    };
    const text = 'id: 1\ndata: a\n\nid: 2\ndata: b\n\nid: 3\ndata: c\n\n';
    const spans: number[] = [];
    const blocks = p.feed(text, spans, [], run);
    expect(handled).toEqual(['1']); // handed the block before the run, which it handles first
    expect(blocks.map((b) => b.id)).toEqual(['3']); // the rest is returned (no offer at the text's end)
    expect(spans).toEqual([text.indexOf('id: 3')]);
    // offered 2 (the stream's first block is the reader's: it looks for a leading BOM), not again
    // 3, where its run stopped (that block is the reader's)
    expect(offered).toEqual([text.indexOf('id: 2')]);
    expect(p.cursor).toBe('3');
    const q = createSseConnectionParser();
    q.feed('id: 1\ndata: a\n\nid: 2\ndata: b\n\n', [], [], run);
    expect(q.cursor).toBe('2');
  });
});

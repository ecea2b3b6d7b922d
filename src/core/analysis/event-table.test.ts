import { describe, expect, it } from 'vitest';
import { EventTable, EvFlag, RpcKind, TextStore } from './event-table';

describe('TextStore', () => {
  it('gives back any span of what was appended, within and across parts', () => {
    const parts = ['id: 1\nda', 'ta: {"a"', ':1}\n\n', '', 'id: 2\ndata: x\n\n'];
    const ts = new TextStore();
    const whole = parts.join('');
    for (const p of parts) ts.append(p);
    expect(ts.length).toBe(whole.length);
    for (let a = 0; a <= whole.length; a++) for (let b = a; b <= whole.length; b++) expect(ts.slice(a, b)).toBe(whole.slice(a, b));
  });

  it('refuses a span outside the text', () => {
    const ts = new TextStore();
    ts.append('abc');
    expect(() => ts.slice(1, 4)).toThrow(RangeError);
  });
});

describe('EventTable', () => {
  it('keeps every column of many events through its growth', () => {
    const tab = new EventTable(2);
    const n = 1000;
    const raws: string[] = [];
    for (let i = 0; i < n; i++) {
      const data = i % 3 === 0 ? `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":${i}}}` : `{"jsonrpc":"2.0","id":${i},"result":{}}`;
      const raw = `id: e${i}\n${i % 5 === 0 ? 'event: custom\n' : ''}data: ${data}\n\n`;
      raws.push(raw);
      const start = tab.text.append(raw);
      const dataStart = start + raw.indexOf('data: ') + 6;
      tab.push({
        t: 1_700_000_000_000 + i * 0.5,
        rawStart: start,
        rawEnd: start + raw.length,
        dataStart,
        dataEnd: dataStart + data.length,
        type: i % 5 === 0 ? 'custom' : 'message',
        id: `e${i}`,
        ...(i % 7 === 0 ? { cursor: `c${i}` } : { cursor: `e${i}` }),
        ...(i % 11 === 0 ? { retry: i } : {}),
        kind: i % 3 === 0 ? RpcKind.Notification : RpcKind.Result,
        ...(i % 3 === 0 ? { method: 'notifications/progress', requestId: '"p"', progress: i } : { requestId: String(i) }),
        flags: i % 13 === 0 ? EvFlag.Duplicate : 0,
      });
    }
    expect(tab.length).toBe(n);
    for (let i = 0; i < n; i++) {
      expect(tab.time(i)).toBe(1_700_000_000_000 + i * 0.5);
      expect(tab.raw(i)).toBe(raws[i]);
      expect(tab.size(i)).toBe(raws[i]!.length);
      expect(JSON.parse(tab.dataSpan(i)!)).toEqual(JSON.parse(raws[i]!.slice(raws[i]!.indexOf('data: ') + 6, -2)));
      expect(tab.type(i)).toBe(i % 5 === 0 ? 'custom' : 'message');
      expect(tab.id(i)).toBe(`e${i}`);
      expect(tab.cursor(i)).toBe(i % 7 === 0 ? `c${i}` : `e${i}`);
      expect(tab.retry(i)).toBe(i % 11 === 0 ? i : undefined);
      expect(tab.kind(i)).toBe(i % 3 === 0 ? RpcKind.Notification : RpcKind.Result);
      expect(tab.method(i)).toBe(i % 3 === 0 ? 'notifications/progress' : undefined);
      expect(tab.requestId(i)).toBe(i % 3 === 0 ? '"p"' : String(i));
      expect(tab.progress(i)).toBe(i % 3 === 0 ? i : undefined);
      expect(tab.has(i, EvFlag.Duplicate)).toBe(i % 13 === 0);
    }
  });

  it('says what an event without id, cursor, data or message is, and flags it later', () => {
    const tab = new EventTable();
    const s = tab.text.append('id\n\n');
    const i = tab.push({ t: 5, rawStart: s, rawEnd: s + 4, flags: EvFlag.IdOnly });
    expect([tab.id(i), tab.cursor(i), tab.dataSpan(i), tab.type(i), tab.method(i), tab.progress(i), tab.kind(i)]).toEqual([undefined, undefined, undefined, undefined, undefined, undefined, RpcKind.None]);
    expect(tab.has(i, EvFlag.Duplicate)).toBe(false);
    tab.setFlag(i, EvFlag.Duplicate);
    expect(tab.has(i, EvFlag.Duplicate) && tab.has(i, EvFlag.IdOnly)).toBe(true);
    expect(() => tab.time(1)).toThrow(RangeError);
  });

  it('keeps a cursor cleared by an empty id apart from the id', () => {
    const tab = new EventTable();
    const i = tab.push({ t: 1, rawStart: 0, rawEnd: 0, id: 'a', cursor: undefined });
    expect([tab.id(i), tab.cursor(i)]).toEqual(['a', undefined]);
  });
});

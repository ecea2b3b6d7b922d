// The columns give back each event as the push stages built it: every field, in the same key order
// (JSON text equal), for the shapes events.ts makes; a snapshot's view keeps its length and codes.
import { describe, expect, it } from 'vitest';
import type { FindingCode, JsonRpcSummary, SseEvent } from '../model';
import { EventStore, type EventLiteral } from './event-store';

function kept(evs: [SseEvent, EventLiteral][]): EventStore {
  const st = new EventStore();
  // As events.ts does: each event begun, then ended once its stages gave it messages and codes.
  for (const [ev, literal] of evs) {
    st.begin({ ...ev, messages: [], findings: [] });
    st.end(ev, literal);
  }
  return st;
}

const base = (index: number, raw: string, data: string): SseEvent => ({ index, event: 'message', data, t: 1000 + index, raw, messages: [], findings: [] });
const progress: JsonRpcSummary = { kind: 'notification', method: 'notifications/progress', progressToken: '"p"', progress: 3, total: 10 };

describe('event store', () => {
  it('gives back every field in the key order the push stages gave it', () => {
    const withId: SseEvent = { index: 0, event: 'message', data: '{"a":1}', t: 5, raw: 'id: 7\ndata: {"a":1}\n\n', messages: [progress], findings: [], id: '7', cursor: '7' };
    const dup = { ...withId, index: 1, duplicate: true, findings: ['replay-duplicate' as FindingCode] };
    const jsonErr: SseEvent = { ...base(2, 'data: x\n\n', 'x'), jsonError: 'not JSON' };
    jsonErr.duplicate = true;
    const multi: SseEvent = { ...base(3, 'data: a\ndata: b\n\n', 'a\nb') };
    const idOnly: SseEvent = { ...base(4, 'id: 9\n\n', ''), id: '9' };
    idOnly.idOnly = true;
    idOnly.cursor = '9';
    const cursorOnly: SseEvent = { ...base(5, 'event: ping\ndata: {}\n\n', '{}'), event: 'ping', cursor: '9' };
    const trunc: SseEvent = { ...base(6, 'retry: 50\ndata: {"jsonrpc"', '{"jsonrpc"'), retry: 50, truncated: true, cursor: '9', messages: [] };
    const batch: SseEvent = { ...base(7, 'data: [..]\n\n', '[..]'), messages: [{ kind: 'result', id: '1' }, { kind: 'error', id: '2' }] };
    const body: SseEvent = { index: 8, event: 'message', data: '{"id":1}', t: 9, raw: '{"id":1}', messages: [{ kind: 'result', id: '1' }], findings: [], synthetic: 'json-body' };
    const request: SseEvent = { ...base(9, 'data: {}\n\n', '{}'), messages: [{ kind: 'request', method: 'sampling/createMessage', id: '"s1"' }] };
    const tokened: SseEvent = { ...base(10, 'data: {}\n\n', '{}'), messages: [{ kind: 'request', method: 'x', id: '3', progressToken: '4' }] };
    const all: [SseEvent, EventLiteral][] = [
      [withId, 'with-id'],
      [dup, 'with-id'],
      [jsonErr, 'plain'],
      [multi, 'plain'],
      [idOnly, 'plain'],
      [cursorOnly, 'plain'],
      [trunc, 'plain'],
      [batch, 'plain'],
      [body, 'other'],
      [request, 'plain'],
      [tokened, 'plain'],
    ];
    const st = kept(all);
    expect(st.length).toBe(all.length);
    all.forEach(([ev], i) => expect(JSON.stringify(st.at(i))).toBe(JSON.stringify(ev)));
    expect(JSON.stringify(st)).toBe(JSON.stringify(all.map(([e]) => e)));
    // One-fact readers agree with the events they come from.
    all.forEach(([ev], i) => {
      expect(st.time(i)).toBe(ev.t);
      expect(st.id(i)).toBe(ev.id);
      expect(st.data(i)).toBe(ev.data);
      expect(st.type(i)).toBe(ev.event);
      expect(st.duplicate(i)).toBe(ev.duplicate === true);
      expect(st.messages(i)).toEqual(ev.messages);
      expect(st.answers(i)).toBe(ev.messages.some((m) => m.kind === 'result' || m.kind === 'error'));
      expect(st.synthetic(i)).toBe(ev.synthetic !== undefined);
    });
    expect(st.at(all.length)).toBeUndefined();
    expect(st.at(-1)).toBeUndefined();
  });

  it('a view keeps its length and the derived codes it was handed out with', () => {
    const st = kept([0, 1, 2].map((i) => [base(i, `data: ${i}\n\n`, String(i)), 'plain']));
    st.setOverlay(new Map([[1, ['live-gap' as FindingCode]]]));
    const v1 = st.view();
    const before = JSON.stringify(v1);
    st.addOverlayCode(2, 'replay-gap');
    st.setOverlay(new Map([[0, ['replay-gap' as FindingCode]]]));
    st.begin(base(3, 'data: 3\n\n', '3'));
    st.end(base(3, 'data: 3\n\n', '3'), 'plain');
    expect(JSON.stringify(v1)).toBe(before);
    expect(v1.length).toBe(3);
    expect(v1.findings(1)).toEqual(['live-gap']);
    const v2 = st.view();
    expect(v2.length).toBe(4);
    expect(v2.findings(0)).toEqual(['replay-gap']);
    expect(v2.findings(1)).toEqual([]);
    expect(v2.origin).toBe(v1.origin);
  });

  it('codes added one by one after a view was handed out do not reach it', () => {
    const st = kept([0, 1].map((i) => [base(i, `data: ${i}\n\n`, String(i)), 'plain']));
    st.addOverlayCode(0, 'live-gap');
    const v1 = st.view();
    st.addOverlayCode(0, 'replay-gap');
    st.addOverlayCode(1, 'replay-gap');
    expect(v1.findings(0)).toEqual(['live-gap']);
    expect(v1.findings(1)).toEqual([]);
    expect(st.view().findings(0)).toEqual(['live-gap', 'replay-gap']);
  });

  it('a raw text that gains its LF later keeps its data', () => {
    const ev = base(0, 'data: {"a":1}\r\n\r', '{"a":1}');
    const st = kept([[ev, 'plain']]);
    st.setRaw(0, ev.raw + '\n');
    expect(st.at(0)!.raw).toBe('data: {"a":1}\r\n\r\n');
    expect(st.data(0)).toBe('{"a":1}');
  });
});

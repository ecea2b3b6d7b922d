// The relay's fault injector (issue 14) over the core's fault model: what the page gets of each
// read, and the fault records (with what the page did not get).
import { describe, expect, it } from 'vitest';
import type { FaultSpec } from '../../core/faults/spec';
import { CHANNEL, PROTOCOL_VERSION, type FaultOut, type FaultQuery } from '../wire/protocol';
import { createFaultInjector, type FaultRecordBody } from './faults';

const env = { ch: CHANNEL, v: PROTOCOL_VERSION } as const;
const enc = new TextEncoder();
const dec = new TextDecoder();
const call = (id: number, name = 'long_task') => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } });
const progress = (n: number) => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: n } });
const result = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, result: { content: [] } });
const ev = (id: string, data: string) => `id: ${id}\ndata: ${data}\n\n`;
const PRIMING = 'id: 0\nretry: 100\ndata:\n\n';

function setup(faults: FaultSpec[]) {
  const recs: FaultRecordBody[] = [];
  const inj = createFaultInjector((r) => recs.push(r), () => 1);
  inj.set(faults.map((spec, i) => ({ id: `f${i}`, spec, text: `fault ${i}` })));
  const post = (conn: string, body: string, ct = 'text/event-stream'): ReturnType<typeof inj.query> =>
    inj.query({ ...env, type: 'fault-query', conn, method: 'POST', url: 'http://x/mcp', headers: [['content-type', 'application/json']], body, status: 200, contentType: ct } as FaultQuery);
  const get = (conn: string, lastEventId?: string) =>
    inj.query({ ...env, type: 'fault-query', conn, method: 'GET', url: 'http://x/mcp', headers: lastEventId ? [['Last-Event-ID', lastEventId]] : [], body: null, status: 200, contentType: 'text/event-stream' } as FaultQuery);
  const read = (conn: string, text: string | null): Omit<FaultOut, 'ch' | 'v' | 'type'> =>
    inj.read({ ...env, type: 'fault-read', conn, ...(text === null ? { done: true } : { data: enc.encode(text) }) });
  const text = (o: Omit<FaultOut, 'ch' | 'v' | 'type'>) => o.parts.map((p) => dec.decode(p.data)).join('');
  return { inj, recs, post, get, read, text };
}

describe('relay fault injector', () => {
  it('cut: the page gets the events up to the cut, then a reset; the record says where and keeps the rest', () => {
    const t = setup([{ action: { kind: 'cut', afterEvents: 2 }, match: { method: 'tools/call' } }]);
    expect(t.post('c1', call(1))).toMatchObject({ plan: 'stream' });
    const out = t.read('c1', PRIMING + ev('1', progress(1)) + ev('2', progress(2)) + ev('3', progress(3)));
    expect(t.text(out)).toBe(PRIMING + ev('1', progress(1)) + ev('2', progress(2)));
    expect(out.end).toBe('reset');
    expect(t.recs).toEqual([
      expect.objectContaining({ kind: 'fault', conn: 'c1', fault: 'cut', origin: 'panel', armed: 'f0', afterEvents: 2, cursor: '2', how: 'reset', requestIds: ['1'], withheld: [{ text: ev('3', progress(3)) }] }),
    ]);
    expect(t.inj.armed()).toBe(true); // the list stays until the panel disarms it…
    expect(t.post('c2', call(2))).toEqual({ conn: 'c2', plan: 'pass' }); // …but it was spent
  });

  it('withhold on the resume: the resume is matched by the cut request (Last-Event-ID), the selected events are kept out and recorded', () => {
    const t = setup([
      { action: { kind: 'cut', afterEvents: 1 }, match: { method: 'tools/call' } },
      { action: { kind: 'withhold', events: { from: 1, to: 2 } }, match: { method: 'tools/call', tool: 'long_task', on: 'resume' } },
    ]);
    t.post('c1', call(5));
    expect(t.read('c1', ev('1', progress(1)) + ev('2', progress(2))).end).toBe('reset');
    expect(t.get('c2', '9')).toEqual({ conn: 'c2', plan: 'pass' }); // a cursor no faulted stream gave
    expect(t.get('c3', '1')).toMatchObject({ plan: 'stream' });
    // Event boundaries across reads: nothing of an event reaches the page before it is decided.
    const a = t.read('c3', ev('2', progress(2)) + 'id: 3\nda');
    expect(t.text(a)).toBe('');
    const b = t.read('c3', `ta: ${progress(3)}\n\n` + ev('4', result(5)));
    expect(t.text(b)).toBe(ev('4', result(5)));
    expect(t.read('c3', null)).toEqual({ conn: 'c3', parts: [] });
    const w = t.recs.filter((r) => r.fault === 'withhold');
    expect(w.flatMap((r) => r.eventIds)).toEqual(['2', '3']);
    expect(w.flatMap((r) => r.withheld!.map((x) => x.text))).toEqual([ev('2', progress(2)), ev('3', progress(3))]);
    expect(w.every((r) => r.requestIds?.[0] === '5')).toBe(true);
  });

  it('delay, drop-result, and comments pass through', () => {
    const t = setup([
      { action: { kind: 'delay', ms: 50, events: { from: 2, to: 2 } } },
      { action: { kind: 'drop-result' } },
    ]);
    t.post('c1', call(3));
    const out = t.read('c1', ': keep-alive\n\n' + ev('1', progress(1)) + ev('2', progress(2)) + ev('3', result(3)) + ev('4', progress(4)));
    expect(out.parts.map((p) => [dec.decode(p.data), p.delayMs])).toEqual([
      [': keep-alive\n\n' + ev('1', progress(1)), 0],
      [ev('2', progress(2)), 50],
    ]);
    expect(out.end).toBe('close');
    expect(t.recs.map((r) => [r.fault, r.eventIds])).toEqual([
      ['delay', ['2']],
      ['drop-result', ['3']],
    ]);
    expect(t.recs[1]).toMatchObject({ how: 'close', withheld: [{ id: '3', text: ev('3', result(3)) }] });
  });

  it('answer-resume / expire-session replace the answer; a JSON answer leaves a stream fault armed', () => {
    const t = setup([
      { action: { kind: 'answer-resume', answer: 404 } },
      { action: { kind: 'cut', afterEvents: 1 } },
    ]);
    expect(t.post('c1', call(1), 'application/json')).toEqual({ conn: 'c1', plan: 'pass' });
    expect(t.recs).toEqual([]);
    expect(t.post('c2', call(2))).toMatchObject({ plan: 'stream' }); // the cut was refunded, not spent
    expect(t.get('c3', '1')).toMatchObject({ plan: 'replace', status: 404, contentType: 'application/json', body: expect.stringContaining('Session not found') });
    expect(t.recs.at(-1)).toMatchObject({ fault: 'answer-resume', conn: 'c3', status: 404, serverStatus: 200 });
  });

  it('a cut after more events than the stream had is refunded for the next one', () => {
    const t = setup([{ action: { kind: 'cut', afterEvents: 5 } }]);
    t.post('c1', call(1));
    t.read('c1', ev('1', result(1)));
    expect(t.read('c1', null).end).toBeUndefined();
    expect(t.recs).toEqual([]);
    expect(t.post('c2', call(2))).toMatchObject({ plan: 'stream' });
  });

  it('disarmed: every response passes; a re-sent list keeps the counts of the faults it keeps', () => {
    const spec: FaultSpec = { action: { kind: 'cut', afterEvents: 0 }, times: 2 };
    const t = setup([spec]);
    expect(t.post('c1', call(1))).toMatchObject({ plan: 'stream', end: 'reset' });
    t.inj.set([{ id: 'f0', spec, text: 'x' }]);
    expect(t.post('c2', call(2))).toMatchObject({ plan: 'stream', end: 'reset' });
    expect(t.post('c3', call(3))).toMatchObject({ plan: 'pass' });
    t.inj.set([]);
    expect(t.inj.armed()).toBe(false);
  });
});

// The pure fault model (src/core/faults): validation of specs, the short text form, matching,
// arming, per-stream decisions, and the presets' readings of real fixture captures.
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeRecords } from '../../../src/core/analyzer';
import {
  createFaultArming,
  createStreamFaults,
  describeFault,
  evaluatePreset,
  FaultSpecError,
  matchFault,
  parseFaultText,
  PRESETS,
  responseOverride,
  SESSION_NOT_FOUND_BODY,
  validateFaults,
  type FaultSpec,
  type RequestFacts,
  type StreamEventInfo,
} from '../../../src/core/faults/index';
import { importText } from '../../../src/core/import/index';
import type { CaptureRecord } from '../../../src/core/record';

const capture = (name: string) => importText(readFileSync(`test/fixtures/captures/${name}.capture.json`, 'utf8')).records;
const snap = (name: string) => analyzeRecords(capture(name));

const msg = (n: number): StreamEventInfo => ({ id: String(n), dispatched: true, messages: [{ kind: 'notification', method: 'notifications/message' }] });
const priming = (n: number): StreamEventInfo => ({ id: String(n), dispatched: false, messages: [] });
const result = (n: number, id = '2'): StreamEventInfo => ({ id: String(n), dispatched: true, messages: [{ kind: 'result', id }] });
const facts = (o: Partial<RequestFacts> = {}): RequestFacts => ({ url: 'http://h/mcp', httpMethod: 'POST', on: 'request', method: 'tools/call', tool: 'long_task', requestId: '2', ...o });

describe('validateFaults', () => {
  it('accepts every action kind, a list, and keeps the data as given', () => {
    const all: FaultSpec[] = [
      { action: { kind: 'cut', afterEvents: 0 } },
      { action: { kind: 'cut', afterEvents: 3, how: 'close' }, match: { method: 'tools/call', era: 'legacy' }, times: 'always', label: 'x' },
      { action: { kind: 'withhold', events: { from: 1, to: 2, ids: ['9'], methods: ['notifications/progress'] } }, match: { on: 'resume' } },
      { action: { kind: 'delay', ms: 250 } },
      { action: { kind: 'drop-result', then: 'keep-open' }, match: { tool: 'long_task', requestId: '"a"', url: '/mcp' } },
      { action: { kind: 'answer-resume', answer: 'empty', then: 'keep-open' } },
      { action: { kind: 'answer-resume', answer: 409 } },
      { action: { kind: 'expire-session' }, times: 2 },
    ];
    expect(validateFaults(all)).toEqual(all);
    expect(validateFaults(all[0])).toEqual([all[0]]);
  });

  it.each([
    [{ action: { kind: 'explode' } }, 'fault: action.kind: must be one of cut, withhold, delay, drop-result, answer-resume, expire-session'],
    [{ action: { kind: 'cut', afterEvents: -1 } }, 'fault: action.afterEvents: '],
    [{ action: { kind: 'cut', afterEvents: 1.5 } }, 'fault: action.afterEvents: '],
    [{ action: { kind: 'withhold', events: { from: 3, to: 2 } } }, 'fault: action.events: "to" is before "from"'],
    [{ action: { kind: 'answer-resume', answer: 500 } }, 'fault: action.answer: '],
    [{ action: { kind: 'cut', afterEvents: 1 }, times: 0 }, 'fault: times: '],
    [{ action: { kind: 'cut', afterEvents: 1 }, match: { methd: 'x' } }, 'fault: match: unknown field "methd"'],
    [{ action: { kind: 'cut', afterEvents: 1 }, extra: true }, 'fault: unknown field "extra"'],
    ['cut', 'fault: expected an object with an "action"'],
    [[{ action: { kind: 'delay', ms: 1 } }, { action: { kind: 'delay' } }], 'fault 2: action.ms: '],
  ])('%j → %s', (v, msg) => {
    let err: unknown;
    try {
      validateFaults(v);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(FaultSpecError);
    expect((err as Error).message.startsWith(msg)).toBe(true);
    expect((err as Error).message).not.toContain('\n');
  });
});

describe('parseFaultText', () => {
  it.each([
    ['cut:3', [{ action: { kind: 'cut', afterEvents: 3 } }]],
    ['cut:0:close,method=tools/call', [{ action: { kind: 'cut', afterEvents: 0, how: 'close' }, match: { method: 'tools/call' } }]],
    ['withhold:1-2,on=resume,tool=long_task', [{ action: { kind: 'withhold', events: { from: 1, to: 2 } }, match: { on: 'resume', tool: 'long_task' } }]],
    ['withhold:5-', [{ action: { kind: 'withhold', events: { from: 5 } } }]],
    ['delay:500:4', [{ action: { kind: 'delay', ms: 500, events: { from: 4, to: 4 } } }]],
    ['drop-result:keep-open,id=2,times=always', [{ action: { kind: 'drop-result', then: 'keep-open' }, match: { requestId: '2' }, times: 'always' }]],
    ['answer-resume:404', [{ action: { kind: 'answer-resume', answer: 404 } }]],
    ['answer-resume:empty:keep-open,url=/mcp', [{ action: { kind: 'answer-resume', answer: 'empty', then: 'keep-open' }, match: { url: '/mcp' } }]],
    ['expire-session,era=modern; cut:1', [{ action: { kind: 'expire-session' }, match: { era: 'modern' } }, { action: { kind: 'cut', afterEvents: 1 } }]],
    ['{"action":{"kind":"cut","afterEvents":2}}', [{ action: { kind: 'cut', afterEvents: 2 } }]],
  ])('%s', (text, expected) => {
    expect(parseFaultText(text)).toEqual(expected);
  });

  it('a preset name gives its faults (copies: editing them does not change the preset)', () => {
    const f = parseFaultText('lossy-replay');
    expect(f).toEqual(PRESETS.find((p) => p.id === 'lossy-replay')!.faults);
    f[0]!.times = 9;
    expect(PRESETS.find((p) => p.id === 'lossy-replay')!.faults[0]!.times).toBeUndefined();
  });

  it.each([
    ['', 'fault: empty'],
    ['boom:1', 'fault: unknown fault "boom"'],
    ['cut', 'fault: the event count must be a whole number, not ""'],
    ['withhold:a-b', 'fault: "a-b" is not an event position or range'],
    ['cut:1,method', 'fault: "method" is not key=value'],
    ['cut:1,colour=red', 'fault: unknown key "colour"'],
    ['cut:1:reset:x', 'fault: too many ":" arguments'],
    ['cut:1:sideways', 'fault: action.how: '],
    ['cut:1; boom', 'fault 2: unknown fault "boom"'],
    ['{"action":', 'fault: not valid JSON'],
  ])('%j fails: %s', (text, msg) => {
    expect(() => parseFaultText(text)).toThrow(FaultSpecError);
    expect(() => parseFaultText(text)).toThrow(msg);
  });
});

describe('describeFault', () => {
  it.each([
    ['cut:3,method=tools/call', 'cut the stream after 3 events · tools/call · next 1'],
    ['cut:1:close', 'end the stream after 1 event (clean end, no result) · any request · next 1'],
    ['withhold:1-2,method=tools/call,on=resume', 'withhold events 1–2 · tools/call, on its resume · next 1'],
    ['delay:200,times=always', 'delay every event by 200 ms · any request · always'],
    ['answer-resume:409', 'answer the resume with 409 · any resume · next 1'],
    ['answer-resume:empty:keep-open,tool=long_task', 'answer the resume with an empty stream that stays open · tool long_task, its resume · next 1'],
    ['expire-session,era=modern,times=2', 'expire the session (404 from then on) · 2026-07-28 era · next 2'],
  ])('%s', (text, line) => {
    expect(describeFault(parseFaultText(text)[0]!)).toBe(line);
  });
});

describe('matching and arming', () => {
  it('every criterion must hold; resumes by default only for answer-resume', () => {
    const [cut] = parseFaultText('cut:1,method=tools/call,tool=long_task,id=2,url=/mcp');
    expect(matchFault(cut!, facts())).toBe(true);
    expect(matchFault(cut!, facts({ tool: 'echo' }))).toBe(false);
    expect(matchFault(cut!, facts({ requestId: '"2"' }))).toBe(false);
    expect(matchFault(cut!, facts({ url: 'http://h/other' }))).toBe(false);
    expect(matchFault(cut!, facts({ on: 'resume' }))).toBe(false);
    const [resume] = parseFaultText('answer-resume:404,method=tools/call');
    expect(matchFault(resume!, facts({ on: 'resume', httpMethod: 'GET' }))).toBe(true);
    expect(matchFault(resume!, facts())).toBe(false);
    const [any] = parseFaultText('delay:1,on=any');
    for (const on of ['request', 'resume', 'standalone', 'other'] as const) expect(matchFault(any!, facts({ on }))).toBe(true);
  });

  it('era: modern from 2026-07-28; no version is the legacy 2025-03-26', () => {
    const [modern] = parseFaultText('cut:1,era=modern');
    const [legacy] = parseFaultText('cut:1,era=legacy');
    expect(matchFault(modern!, facts({ protocolVersion: '2026-07-28' }))).toBe(true);
    expect(matchFault(modern!, facts({ protocolVersion: '2025-11-25' }))).toBe(false);
    expect(matchFault(legacy!, facts())).toBe(true);
    expect(matchFault(modern!, facts())).toBe(false);
  });

  it('times: the next one by default, N, always; refund gives an unused one back', () => {
    const a = createFaultArming(parseFaultText('cut:1; delay:5,times=2; withhold:1,times=always'));
    expect(a.take(facts()).map((f) => f.index)).toEqual([0, 1, 2]);
    expect(a.take(facts()).map((f) => f.index)).toEqual([1, 2]);
    const third = a.take(facts());
    expect(third.map((f) => f.index)).toEqual([2]);
    expect(a.remaining()).toEqual([0, 0, Infinity]);
    a.refund({ index: 0, spec: a.faults[0]! });
    expect(a.take(facts()).map((f) => f.index)).toEqual([0, 2]);
  });

  it('expire-session: every later request of that session gets it again, without spending; other sessions do not', () => {
    const a = createFaultArming(parseFaultText('expire-session,method=tools/call'));
    expect(a.take(facts({ sessionId: 'A', method: 'tools/list' }))).toEqual([]);
    expect(a.take(facts({ sessionId: 'A' }))).toHaveLength(1);
    expect(a.take(facts({ sessionId: 'A', method: 'tools/list' }))).toHaveLength(1);
    expect(a.take(facts({ sessionId: 'A', on: 'resume', httpMethod: 'GET' }))).toHaveLength(1);
    expect(a.take(facts({ sessionId: 'B' }))).toEqual([]);
    expect([...a.expiredSessions]).toEqual(['A']);
  });

  it('responseOverride: the SDK server bodies for 404 and 409, an empty stream for empty', () => {
    const take = (t: string) => responseOverride(createFaultArming(parseFaultText(t)).take(facts({ on: 'resume', sessionId: 's' })));
    expect(take('answer-resume:404')).toMatchObject({ status: 404, contentType: 'application/json', body: SESSION_NOT_FOUND_BODY, hold: false });
    expect(take('answer-resume:409')).toMatchObject({ status: 409, body: '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Conflict: Stream already has an active connection"},"id":null}' });
    expect(take('answer-resume:empty:keep-open')).toMatchObject({ status: 200, contentType: 'text/event-stream', body: '', hold: true });
    expect(take('expire-session,on=resume')).toMatchObject({ status: 404, body: SESSION_NOT_FOUND_BODY });
    expect(take('cut:1,on=resume')).toBeUndefined();
  });
});

describe('createStreamFaults', () => {
  const run = (text: string, events: StreamEventInfo[], ids = ['2']) => {
    const arming = createFaultArming(parseFaultText(text));
    const sf = createStreamFaults(arming.take(facts()), ids);
    const start = sf.start();
    const out: { id?: string; deliver: boolean; delayMs: number; end?: string; lost?: boolean }[] = [];
    if (!start.end) for (const e of events) out.push({ id: e.id, ...sf.event(e) });
    return { start, out, effects: sf.effects(), hold: sf.finish().hold };
  };
  const stream = [priming(5), msg(6), msg(7), msg(8), msg(9), result(10)];

  it('cut after N counts the events a client dispatches (not the priming event) and stops there', () => {
    const r = run('cut:2', stream);
    expect(r.out.map((d) => [d.id, d.deliver, d.end])).toEqual([
      ['5', true, undefined],
      ['6', true, undefined],
      ['7', true, 'reset'],
      ['8', false, undefined],
      ['9', false, undefined],
      ['10', false, undefined],
    ]);
    expect(r.effects).toEqual([{ index: 0, kind: 'cut', eventIds: [], events: 0, afterEvents: 2, cursor: '7' }]);
  });

  it('cut after 0: right after the headers; a cut past the end takes no effect', () => {
    expect(run('cut:0:close', stream).start).toEqual({ end: 'close' });
    const past = run('cut:9', stream);
    expect(past.out.every((d) => d.deliver && !d.end)).toBe(true);
    expect(past.effects).toEqual([]);
  });

  it('withhold by position, by id (a priming event too) and by method; a withheld event does not count toward a cut', () => {
    expect(run('withhold:2-3', stream).out.filter((d) => !d.deliver).map((d) => d.id)).toEqual(['7', '8']);
    expect(run('{"action":{"kind":"withhold","events":{"ids":["5","9"]}}}', stream).out.filter((d) => !d.deliver).map((d) => d.id)).toEqual(['5', '9']);
    expect(run('{"action":{"kind":"withhold","events":{"methods":["notifications/message"],"from":3}}}', stream).out.filter((d) => !d.deliver).map((d) => d.id)).toEqual(['8', '9']);
    const both = run('withhold:1; cut:2', stream);
    expect(both.out.map((d) => `${d.id}${d.deliver ? '' : '-'}${d.end ? '!' : ''}`)).toEqual(['5', '6-', '7', '8!', '9-', '10-']);
  });

  it('drop-result: the result to this request is lost; the stream ends there, or is held open', () => {
    const end = run('drop-result', stream);
    expect(end.out.at(-1)).toEqual({ id: '10', deliver: false, delayMs: 0, end: 'close', lost: true });
    expect(end.hold).toBe(false);
    const held = run('drop-result:keep-open', stream);
    expect(held.out.at(-1)).toEqual({ id: '10', deliver: false, delayMs: 0, lost: true });
    expect(held.hold).toBe(true);
    // Another request's result (a cross-stream replay) is not this request's.
    expect(run('drop-result', [result(10, '7')]).out[0]).toEqual({ id: '10', deliver: true, delayMs: 0 });
  });

  it('delay adds up over the faults and selected events only', () => {
    const r = run('delay:100:2-3; delay:5', stream);
    expect(r.out.map((d) => d.delayMs)).toEqual([0, 5, 105, 105, 5, 5]);
    expect(r.effects.map((e) => [e.kind, e.events])).toEqual([
      ['delay', 2],
      ['delay', 5],
    ]);
  });

  it('property: withhold A-B and cut N deliver exactly the dispatched events the rules say, in order', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { maxLength: 40 }), fc.integer({ min: 1, max: 45 }), fc.integer({ min: 0, max: 10 }), fc.integer({ min: 0, max: 45 }), (kinds, from, len, cut) => {
        const events = kinds.map((dispatched, i) => (dispatched ? msg(i + 1) : priming(i + 1)));
        const r = run(`withhold:${from}-${from + len}; cut:${cut}`, events);
        if (cut === 0) {
          expect(r.start.end).toBe('reset');
          return true;
        }
        let pos = 0;
        let delivered = 0;
        const expected: string[] = [];
        for (const e of events) {
          if (delivered >= cut) break;
          if (e.dispatched) pos++;
          const withheld = e.dispatched && pos >= from && pos <= from + len;
          if (withheld) continue;
          expected.push(e.id!);
          if (e.dispatched) delivered++;
        }
        expect(r.out.filter((d) => d.deliver).map((d) => d.id)).toEqual(expected);
        expect(r.out.filter((d) => d.end).length).toBe(delivered === cut ? 1 : 0);
        return true;
      }),
    );
  });
});

describe('presets', () => {
  it('each preset is valid data, asks a question and says what a correct client does', () => {
    expect(PRESETS.map((p) => p.id)).toEqual(['resume-after-cut', 'lossy-replay', 'reissue-after-break', 'session-404']);
    expect(PRESETS.map((p) => p.question)).toEqual([
      'Does my client resume after a cut?',
      'Does it notice a lossy replay?',
      'Does it re-issue after a broken stream (2026-07-28)?',
      'Does it survive a 404 session?',
    ]);
    for (const p of PRESETS) {
      expect(validateFaults(p.faults)).toEqual(p.faults);
      expect(p.correct.length).toBeGreaterThan(80);
      expect(JSON.parse(JSON.stringify(p.faults))).toEqual(p.faults);
    }
  });

  it('a capture without the situation: not seen, for every preset', () => {
    const s = snap('baseline');
    for (const p of PRESETS) expect(evaluatePreset(p, s).outcome).toBe('not-seen');
    expect(() => evaluatePreset('nope', s)).toThrow('no fault preset "nope"');
  });

  it('resume-after-cut on the SDK client\'s real captures: it resumes with the last id (lossless, opaque, polling), even after a clean end without result (dropped-result)', () => {
    expect(evaluatePreset('resume-after-cut', snap('lossless'))).toMatchObject({ outcome: 'pass', requestIds: ['2'] });
    expect(evaluatePreset('resume-after-cut', snap('lossless')).observed).toMatch(/^It resumed with GET \+ Last-Event-ID 11 \d+ ms after the cut\. The call completed \(verdict complete\)\.$/);
    expect(evaluatePreset('resume-after-cut', snap('opaque')).outcome).toBe('pass');
    expect(evaluatePreset('resume-after-cut', snap('polling')).outcome).toBe('pass');
    const dropped = evaluatePreset('resume-after-cut', snap('dropped-result'));
    expect(dropped.outcome).toBe('pass');
    expect(dropped.observed).toContain('The call never got its result (verdict incomplete)');
    expect(evaluatePreset('resume-after-cut', snap('stateless')).outcome).toBe('not-seen');
  });

  it('lossy-replay: the SDK client accepts (lossy, gapless-lossy, live-drop); a client that re-issues passes', () => {
    for (const name of ['lossy', 'gapless-lossy', 'live-drop']) {
      const r = evaluatePreset('lossy-replay', snap(name));
      expect(r.outcome, name).toBe('fail');
      expect(r.observed).toContain('(ids 12–13 missing)');
    }
    // The same capture, then the agent re-issues the call (id 3) and reads it whole.
    const records = capture('lossy');
    const post = records.find((r) => r.kind === 'request' && (r.body ?? '').includes('"tools/call"'))!;
    const conn = post.kind === 'request' ? post.conn : '';
    const last = records.at(-1)!;
    let seq = last.seq;
    const again = records
      .filter((r) => 'conn' in r && r.conn === conn)
      .map((r) => {
        const shifted = { ...r, seq: ++seq, t: r.t + 1000, conn: 'again' } as CaptureRecord;
        if (shifted.kind === 'request') shifted.body = shifted.body!.replace('"id":2', '"id":3').replace('"progressToken":2', '"progressToken":3');
        return shifted;
      });
    const r = evaluatePreset('lossy-replay', analyzeRecords([...records, ...again]));
    expect(r).toMatchObject({ outcome: 'pass', requestIds: ['2'] });
    expect(r.observed).toBe('It noticed the lossy replay (ids 12–13 missing): it re-issued tools/call as 3.');
  });

  it('session-404 on the SDK client\'s capture: it keeps the dead session', () => {
    const r = evaluatePreset('session-404', snap('session-404'));
    expect(r.outcome).toBe('fail');
    expect(r.observed).toMatch(/^It kept using the dead session: \d+ more requests? answered 404, and no new initialize\.$/);
  });

  it('reissue-after-break is about the 2026-07-28 revision only: legacy captures are not seen', () => {
    for (const name of ['lossless', 'lossy', 'session-404', 'v2/legacy-lossless']) expect(evaluatePreset('reissue-after-break', snap(name)).outcome).toBe('not-seen');
  });

  it('reissue-after-break on the SDK v2 client\'s 2026-07-28 captures: the SDK waits; an application that re-issues or re-listens passes', () => {
    expect(evaluatePreset('reissue-after-break', snap('v2/modern-abandoned'))).toMatchObject({
      outcome: 'fail',
      observed: 'It did not re-issue tools/call 1 after the break; the call never got its result (verdict incomplete).',
    });
    const reissue = evaluatePreset('reissue-after-break', snap('v2/modern-reissue'));
    expect(reissue).toMatchObject({ outcome: 'pass', requestIds: ['1', '2'] });
    expect(reissue.observed).toMatch(/^It re-issued the request \(tools\/call 1 → 2\) \d+ ms after the break\.$/);
    expect(evaluatePreset('reissue-after-break', snap('v2/modern-listen-drop')).observed).toMatch(/^It re-listened \(subscriptions\/listen "listen:0" → "listen:1"\) \d+ ms after the break\.$/);
    expect(evaluatePreset('reissue-after-break', snap('v2/modern-baseline')).outcome).toBe('not-seen');
  });

  it('the legacy presets read the SDK v2 client\'s legacy-era captures as the v1 ones', () => {
    expect(evaluatePreset('resume-after-cut', snap('v2/legacy-lossless')).outcome).toBe('pass');
    expect(evaluatePreset('lossy-replay', snap('v2/legacy-lossy')).outcome).toBe('fail');
    expect(evaluatePreset('session-404', snap('v2/legacy-session-404')).outcome).toBe('fail');
  });
});

import { describe, expect, it } from 'vitest';
import type { CaptureRecord } from '../../core/record';
import { createRelayCore } from './relay-core';

const batch = (records: unknown[]) => ({ ch: 'mcp-stream-inspector', v: 1, type: 'hook-batch', records });
const chunk = (i: number) => ({ kind: 'chunk', conn: 'c1', t: i, text: `data: ${i}\n\n`, bytes: 10 });

function sink() {
  const sent: { records: CaptureRecord[]; backfill: boolean }[] = [];
  return { sent, send: (records: CaptureRecord[], backfill: boolean) => sent.push({ records, backfill }), all: () => sent.flatMap((s) => s.records) };
}

describe('relay core', () => {
  it('buffers while detached, backfills from the cursor on attach, then streams live', () => {
    const core = createRelayCore('S', {}, () => 0);
    core.onHookMessage(batch([chunk(1), chunk(2), chunk(3)]));
    const s = sink();
    core.attach(s, { S: 1 });
    expect(s.sent).toEqual([{ records: expect.any(Array), backfill: true }]);
    expect(s.all().map((r) => r.seq)).toEqual([2, 3]);
    core.onHookMessage(batch([chunk(4)]));
    expect(s.sent[1]).toMatchObject({ backfill: false });
    expect(s.all().map((r) => r.seq)).toEqual([2, 3, 4]);
    core.detach();
    core.onHookMessage(batch([chunk(5)]));
    expect(s.all().length).toBe(3);
    const s2 = sink();
    core.attach(s2, { S: 4, other: 99 });
    expect(s2.all().map((r) => r.seq)).toEqual([5]);
  });

  it('drops malformed hook records, numbers the rest densely and reports the drop once', () => {
    const core = createRelayCore('S', {}, () => 7);
    const n = core.onHookMessage(batch([chunk(1), { kind: 'chunk', conn: 'c1' }, { ...chunk(2), seq: 40, src: 'evil' }, chunk(3)]));
    expect(n).toBe(3); // 2 chunks + 1 notice
    const s = sink();
    core.attach(s, {});
    const recs = s.all();
    expect(recs.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(recs.map((r) => r.kind)).toEqual(['chunk', 'chunk', 'notice']);
    expect(recs.every((r) => r.src === 'S')).toBe(true);
    core.onHookMessage(batch([{ bogus: true }]));
    expect(s.all().filter((r) => r.kind === 'notice').length).toBe(1);
    expect(core.onHookMessage({ type: 'hook-batch' })).toBe(0); // not even an envelope
  });

  it('splits a large backfill into several messages', () => {
    const core = createRelayCore('S');
    core.onHookMessage(batch(Array.from({ length: 2500 }, (_, i) => chunk(i))));
    const s = sink();
    core.attach(s, {});
    expect(s.sent.map((m) => m.records.length)).toEqual([1000, 1000, 500]);
  });
});

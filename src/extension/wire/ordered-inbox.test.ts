import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { memoryPair } from './adapter';
import { MAX_HELD, orderedInbox, skippedText } from './ordered-inbox';

/** A microtask turn: memoryPair delivers a post in a later microtask, as a real port does later. */
const tick = () => new Promise<void>((r) => setTimeout(r, 0));

function setup() {
  const [hook, relay] = memoryPair();
  const skipped: [number, string][] = [];
  const inbox = orderedInbox(relay, (n, why) => skipped.push([n, why]));
  const got: unknown[] = [];
  inbox.listen((m) => got.push(m));
  return { hook, inbox, got, skipped };
}

describe('orderedInbox: the hook port and its synchronous channel, in the hook order', () => {
  it('holds a synchronous message until the port message numbered before it arrives', async () => {
    const { hook, inbox, got } = setup();
    hook.post({ seq: 0, n: 'a' });
    // Dispatched at once, while the port's message is still on its way (a fast read starves it).
    inbox.fromSync(1, () => ({ seq: 1, n: 'b' }));
    inbox.fromSync(2, () => ({ seq: 2, n: 'c' }));
    expect(got).toEqual([]);
    expect(inbox.held()).toBe(2);
    await tick();
    expect(got.map((m) => (m as { n: string }).n)).toEqual(['a', 'b', 'c']);
    expect(inbox.held()).toBe(0);
  });

  it('delivers an unnumbered port message as it comes (the endpoint judges it)', async () => {
    const { hook, got } = setup();
    hook.post({ type: 'x' });
    await tick();
    expect(got).toEqual([{ type: 'x' }]);
  });

  it('counts an unreadable message as lost and goes on, saying so', async () => {
    const { inbox, got, skipped } = setup();
    inbox.fromSync(0, () => {
      throw new Error('DataCloneError');
    });
    inbox.fromSync(1, () => ({ seq: 1 }));
    expect(got).toEqual([{ seq: 1 }]);
    expect(skipped).toEqual([[1, 'unreadable']]);
  });

  it('never delivers a message twice', () => {
    const { inbox, got } = setup();
    inbox.fromSync(0, () => 'a');
    inbox.fromSync(0, () => 'again');
    inbox.fromSync(2, () => 'c');
    inbox.fromSync(2, () => 'c again');
    inbox.fromSync(1, () => 'b');
    expect(got).toEqual(['a', 'b', 'c']);
  });

  it('gives up a gap that holds more than MAX_HELD messages, and says how many had not come', () => {
    const { inbox, got, skipped } = setup();
    for (let s = 3; s <= MAX_HELD + 3; s++) inbox.fromSync(s, () => s);
    expect(skipped).toEqual([[3, 'gap']]);
    expect(got.length).toBe(MAX_HELD + 1);
    expect(got[0]).toBe(3);
    expect(inbox.held()).toBe(0);
  });

  it('messages of a given-up gap that come after all are left out and reported as late, together and once each', async () => {
    const { hook, inbox, got, skipped } = setup();
    inbox.fromSync(0, () => 0);
    for (let s = 4; s <= MAX_HELD + 4; s++) inbox.fromSync(s, () => s);
    expect(skipped).toEqual([[3, 'gap']]);
    const delivered = got.length;
    inbox.fromSync(2, () => 2); // late, by the synchronous channel
    inbox.fromSync(3, () => {
      throw new Error('DataCloneError'); // late and unreadable: late, not counted missing again
    });
    inbox.fromSync(2, () => 2); // the same late message again: counted once
    inbox.fromSync(0, () => 'dup'); // a duplicate of a delivered message: not late
    await tick();
    expect(skipped).toEqual([[3, 'gap'], [2, 'late']]);
    hook.post({ seq: 1 }); // late, by the port, later on: a notice of its own
    await tick();
    expect(got.length).toBe(delivered);
    expect(skipped).toEqual([[3, 'gap'], [2, 'late'], [1, 'late']]);
    expect(skippedText(3, 'gap')).toMatch(/had not reached the relay when more than 4096 later ones had/);
    expect(skippedText(2, 'late')).toMatch(/^2 message\(s\) .* came later: their records are left out/);
    expect(skippedText(2, 'late')).not.toMatch(/never/);
  });

  it('whatever the channel and arrival order of each message, delivers them in seq order (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { minLength: 1, maxLength: 40 }), fc.array(fc.nat(), { maxLength: 40 }), async (viaPort, swaps) => {
        const { hook, inbox, got } = setup();
        // Synchronous messages arrive when dispatched; port ones a turn later, in their order.
        const sync: number[] = [];
        viaPort.forEach((p, seq) => (p ? hook.post({ seq }) : sync.push(seq)));
        // The synchronous ones in any order among themselves (their dispatch order may differ
        // from seq only across a channel switch; the inbox must not care).
        for (const k of swaps) {
          if (sync.length < 2) break;
          const i = k % sync.length;
          const j = (k >> 3) % sync.length;
          [sync[i], sync[j]] = [sync[j]!, sync[i]!];
        }
        for (const seq of sync) inbox.fromSync(seq, () => ({ seq }));
        await tick();
        expect(got.map((m) => (m as { seq: number }).seq)).toEqual(viaPort.map((_, i) => i));
      }),
    );
  });
});

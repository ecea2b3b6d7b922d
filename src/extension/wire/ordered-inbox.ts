// The relay's side of the hook's two channels, merged back into the order the hook sent in.
//
// Why two: the hook's private MessagePort delivers each message as a task of its own, and a page
// that reads a fast stream starves such tasks (the network's win: docs/benchmarks.md, "What a
// fast read starves"), so a 50 MB read reached the panel only after it ended (row 1c). While a
// panel takes the records, the hook also dispatches a batch as a synchronous event on a private
// EventTarget (emitter.ts): the relay reads it at once, inside the page's read. Only messages that
// transfer nothing go that way (a Blob crosses as a handle; a read of 4 KiB or more is the page's
// chunk, uncopied, and the relay's clone of the event is its one copy; a smaller one is copied
// into the batch, cloned with it).
//
// Every message the hook sends carries `seq` (0, 1, 2, … in sending order, whatever the channel);
// a message that arrives early is held until those before it came. The hook counts a message only
// once it is sent, so a gap is never expected; if one ever holds up more than MAX_HELD messages,
// the held ones are let through in order and `onSkipped` says how many had not come (a silent
// stall would lose every later record). One of those that comes after all is not passed on (its
// records would land behind later ones of the same stream) and `onSkipped` says so: the notice
// must not go on saying it never came.
//
// Pure: no chrome.*, no DOM.

import { listeners, type MessageAdapter } from './adapter';

/** Messages held behind a gap before it is given up on. */
export const MAX_HELD = 4096;

/** Given-up ranges remembered to tell a late message from a duplicate (a gap is never expected). */
const MAX_GIVEN_UP = 64;

export interface OrderedInbox extends MessageAdapter {
  /** A message from the synchronous channel, numbered `seq`; `read` gives its data (it may throw: then it is lost). */
  fromSync(seq: number, read: () => unknown): void;
  /** Messages held now, behind a gap. */
  held(): number;
}

/** The relay's `hook-messages-lost` notice for `onSkipped(n, why)`. */
export function skippedText(n: number, why: 'unreadable' | 'gap' | 'late'): string {
  if (why === 'unreadable') return 'A message of the capture hook could not be read: its records are missing.';
  if (why === 'gap') return `${n} message(s) of the capture hook had not reached the relay when more than ${MAX_HELD} later ones had: the relay went on without them, and their records are missing.`;
  return `${n} message(s) of the capture hook that the relay had gone on without came later: their records are left out (they would be out of order) and stay missing.`;
}

const seqOf = (m: unknown): number => {
  const s = typeof m === 'object' && m !== null ? (m as { seq?: unknown }).seq : undefined;
  return typeof s === 'number' && Number.isInteger(s) && s >= 0 ? s : -1;
};

/**
 * `port`: the hook's MessagePort (what the relay posts to the hook goes there too).
 * `onSkipped(n, why)`: n numbered messages are not delivered: unreadable, not come when their gap
 * was given up ('gap'), or one of those come after all ('late'). `onLostHere()`: an unreadable
 * one's place in the order is reached (what came before it has been delivered).
 */
export function orderedInbox(port: MessageAdapter, onSkipped: (n: number, why: 'unreadable' | 'gap' | 'late') => void, onLostHere: () => void = () => {}): OrderedInbox {
  const out = listeners<[unknown]>();
  const held = new Map<number, unknown>();
  const LOST = {};
  let next = 0;
  /**
   * Gaps given up, [from, to), with the late messages of each already counted (each once, however
   * often it comes): a message in one that comes later is late, not a duplicate.
   */
  const givenUp: { from: number; to: number; late: Set<number> }[] = [];
  /** Late messages not yet reported: those that come together are reported in one notice. */
  let lateCount = 0;

  /** Counts `seq` as late, once, when it belongs to a given-up gap (else it is a duplicate). */
  function lateOne(seq: number): void {
    const gap = givenUp.find((g) => seq >= g.from && seq < g.to);
    if (!gap || gap.late.has(seq)) return;
    gap.late.add(seq);
    if (lateCount++ === 0)
      queueMicrotask(() => {
        const n = lateCount;
        lateCount = 0;
        onSkipped(n, 'late');
      });
  }

  function release(): void {
    while (held.has(next)) {
      const m = held.get(next);
      held.delete(next);
      next++;
      // Its place in the order: what the relay records for the loss (a capture gap naming the
      // connections open then) goes between the records before and after it.
      if (m === LOST) onLostHere();
      else out.emit(m);
    }
  }

  function take(seq: number, m: unknown): void {
    if (seq < next) {
      lateOne(seq);
      return; // already delivered (a message seen twice is not delivered twice), or given up
    }
    if (held.has(seq)) return;
    held.set(seq, m);
    release();
    if (held.size > MAX_HELD) {
      const first = Math.min(...held.keys());
      onSkipped(first - next, 'gap');
      givenUp.push({ from: next, to: first, late: new Set() });
      if (givenUp.length > MAX_GIVEN_UP) givenUp.shift();
      next = first;
      release();
    }
  }

  port.listen((m) => {
    const seq = seqOf(m);
    // (unnumbered: not the hook's; the endpoint rejects it as it did before)
    if (seq === -1) out.emit(m);
    else take(seq, m);
  });

  return {
    post: (m, transfer) => port.post(m, transfer),
    listen: (fn) => out.add(fn),
    onClose: (fn) => port.onClose(fn),
    close: () => port.close(),
    fromSync(seq, read) {
      if (!(Number.isInteger(seq) && seq >= 0)) return;
      let m: unknown;
      try {
        m = read();
      } catch {
        // (one of a given-up gap is late, already counted missing by the gap's notice)
        if (seq < next) lateOne(seq);
        else {
          // Said at once (a gap before it may never fill), and marked in its place when released.
          onSkipped(1, 'unreadable');
          take(seq, LOST);
        }
        return;
      }
      take(seq, m);
    },
    held: () => held.size,
  };
}

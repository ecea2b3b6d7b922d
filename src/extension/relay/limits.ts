// The per-record size cap (settings key `recordMaxChars`, chrome.storage.local), so one huge
// event cannot take the whole buffer budget. A cut is never silent:
//  - a chunk keeps its first `max` characters and says in `droppedBytes` how many bytes it lost
//    (the analysis marks its stream as not fully captured). Chunk text exists only once the
//    panel decoded it, so the panel cuts it (wire/decode.ts), with the cap the relay had when it
//    numbered the chunk (carried in the record);
//  - an es-event keeps its first `max` characters of data and is preceded by a `capture-gap`
//    record with reason `event-size-cap` naming its connection. The marker needs a seq of its
//    own, which only the relay gives, and the test is a length comparison and the cut a slice
//    (no per-byte work): here.
// Pure: no chrome.*, no DOM.

import type { HookRecord } from '../../core/record';

import { HOOK_MAX_TEXT } from '../hook/limits';
import { utf8Length } from '../../core/utf8';

export { HOOK_MAX_TEXT, utf8Length };
export const DEFAULT_RECORD_MAX_CHARS = 4 * 1024 * 1024;
export const MIN_RECORD_MAX_CHARS = 256;

/** A usable cap from a setting: an integer in [MIN_RECORD_MAX_CHARS, HOOK_MAX_TEXT - 1], else null. */
export function recordMaxChars(x: unknown): number | null {
  if (typeof x !== 'number' || !Number.isInteger(x) || x <= 0) return null;
  // Below the hook's bound, so that a record the hook had to cut is always over the relay's cap
  // and gets its marker.
  return Math.min(Math.max(x, MIN_RECORD_MAX_CHARS), HOOK_MAX_TEXT - 1);
}

/** Records to buffer in place of an es-event (usually `[r]`), and whether a cut happened. */
export function capEsEvent(r: Extract<HookRecord, { kind: 'es-event' }>, max: number, t: number): { out: HookRecord[]; cut: boolean } {
  if (r.data.length <= max) return { out: [r], cut: false };
  return {
    out: [
      { kind: 'capture-gap', t, lost: 0, conns: [r.conn], reason: 'event-size-cap' },
      { ...r, data: r.data.slice(0, max) },
    ],
    cut: true,
  };
}

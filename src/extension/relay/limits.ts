// The relay's per-record size cap (settings key `recordMaxChars`, chrome.storage.local). Applied to
// every record the hook sends before it is numbered and buffered, so one huge event cannot take
// the whole buffer budget. A cut is never silent:
//  - a chunk keeps its first `max` characters and says in `droppedBytes` how many bytes it lost
//    (the analysis marks its stream as not fully captured);
//  - an es-event keeps its first `max` characters of data and is preceded by a `capture-gap`
//    record with reason `event-size-cap` naming its connection.
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
  // and gets its marker here.
  return Math.min(Math.max(x, MIN_RECORD_MAX_CHARS), HOOK_MAX_TEXT - 1);
}


/** Records to buffer in place of `r` (usually `[r]`), and whether a cut happened. */
export function applySizeCap(r: HookRecord, max: number, t: number): { out: HookRecord[]; cut: boolean } {
  if (r.kind === 'chunk' && r.text.length > max) {
    const kept = r.text.slice(0, max);
    const dropped = utf8Length(r.text.slice(max));
    return { out: [{ ...r, text: kept, droppedBytes: (r.droppedBytes ?? 0) + Math.max(1, dropped) }], cut: true };
  }
  if (r.kind === 'es-event' && r.data.length > max) {
    return {
      out: [
        { kind: 'capture-gap', t, lost: 0, conns: [r.conn], reason: 'event-size-cap' },
        { ...r, data: r.data.slice(0, max) },
      ],
      cut: true,
    };
  }
  return { out: [r], cut: false };
}

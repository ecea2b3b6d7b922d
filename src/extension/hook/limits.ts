// Size limits the hook applies before a record leaves the page (a hard bound on what one record
// can cost to clone and to keep). The relay applies its own, configurable, lower cap on top
// (src/extension/relay/limits.ts, settings key `recordMaxChars`). Pure (unit-tested in Node).

import type { HookRecord } from '../../core/record';
import { utf8Length } from '../../core/utf8';

export { utf8Length };

/** Most characters of text one record carries from the hook (chunk text, es-event data). */
export const HOOK_MAX_TEXT = 8 * 1024 * 1024;


/** A chunk record, cut to `max` characters with `droppedBytes` saying how much was left out. */
export function chunkRecord(conn: string, t: number, text: string, bytes: number, max = HOOK_MAX_TEXT): HookRecord {
  if (text.length <= max) return { kind: 'chunk', conn, t, text, bytes };
  const kept = text.slice(0, max);
  return { kind: 'chunk', conn, t, text: kept, bytes, droppedBytes: Math.max(1, bytes - utf8Length(kept)) };
}

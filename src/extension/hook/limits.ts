// Size limits the hook applies before a record leaves the page (a hard bound on what one record
// can cost to clone and to keep). The relay applies its own, configurable, lower cap on top
// (src/extension/relay/limits.ts, settings key `recordMaxChars`). Pure (unit-tested in Node).

import { utf8Length } from '../../core/utf8';
import type { HookTextChunk } from '../wire/records';

export { utf8Length };

/** Most characters of text one record carries from the hook (chunk text, es-event data). */
export const HOOK_MAX_TEXT = 8 * 1024 * 1024;


/**
 * A text chunk (XHR), cut to `max` characters with `droppedBytes` saying how much was left out.
 * Its UTF-8 byte count is counted by the panel (wire/decode.ts), off the page's thread, except
 * when the hook cuts it (then only the hook still has the whole text).
 */
export function textChunk(conn: string, t: number, text: string, max = HOOK_MAX_TEXT): HookTextChunk {
  if (text.length <= max) return { kind: 'chunk', conn, t, text };
  const bytes = utf8Length(text);
  const kept = text.slice(0, max);
  return { kind: 'chunk', conn, t, text: kept, bytes, droppedBytes: Math.max(1, bytes - utf8Length(kept)) };
}

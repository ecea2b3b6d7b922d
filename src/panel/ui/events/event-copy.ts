// What "Copy" gives for an event: its raw SSE text as received, or its data as JSON.

import type { SseEvent } from '../../../core/model';

export const rawText = (e: SseEvent): string => e.raw;

/** The data pretty-printed when it is JSON, else as it is. */
export function jsonText(e: SseEvent): string {
  if (e.data.length > 50_000_000) return e.data;
  try {
    return JSON.stringify(JSON.parse(e.data), null, 2);
  } catch {
    return e.data;
  }
}

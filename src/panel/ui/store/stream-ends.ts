// Which new records of a live source end a long event stream (issue 22, row 1c: the panel's
// catch-up after a page read a large stream). New records are published once the source has been
// quiet for a while (analysis.ts quietMs), since nothing says a burst is over; the end of a stream
// that carried LONG_STREAM_BYTES or more does, so its last records are published without that wait.
// Short streams do not count: an agent's tool calls answered as event streams end one every few
// milliseconds, and publishing at each end would undo the adaptive interval (rows 2b, 2c).

import type { CaptureRecord } from '../../../core/record';

/** Body bytes from which an event stream's end is published without the quiet wait. */
export const LONG_STREAM_BYTES = 64 * 1024;
/** Event streams followed at once, at most (the oldest is forgotten: its end then waits as before). */
const MAX_OPEN = 4096;

export interface StreamEnds {
  /** True when the records after the last scan hold the end of a long event stream. */
  scan(records: readonly CaptureRecord[]): boolean;
  /** The source was cleared or replaced: start again from its first record. */
  reset(): void;
}

export function createStreamEnds(): StreamEnds {
  let scanned = 0;
  /** Body bytes so far of the event streams whose end has not come, by `src conn`. */
  const open = new Map<string, number>();
  return {
    scan(records) {
      // Records inserted before the last scan (a backfill) are not looked at: missing an end only
      // means waiting for the quiet, as before.
      if (records.length < scanned) scanned = 0;
      let ended = false;
      for (let i = scanned; i < records.length; i++) {
        const r = records[i]!;
        if (r.kind === 'chunk' || r.kind === 'es-event') {
          const key = `${r.src} ${r.conn}`;
          const n = open.get(key);
          if (n !== undefined) open.set(key, n + (r.kind === 'chunk' ? r.bytes : r.data.length));
        } else if (r.kind === 'response' && r.capture === 'sse') {
          if (open.size >= MAX_OPEN) open.delete(open.keys().next().value!);
          open.set(`${r.src} ${r.conn}`, 0);
        } else if (r.kind === 'end') {
          const key = `${r.src} ${r.conn}`;
          const n = open.get(key);
          if (n === undefined) continue;
          open.delete(key);
          if (n >= LONG_STREAM_BYTES) ended = true;
        }
      }
      scanned = records.length;
      return ended;
    },
    reset() {
      scanned = 0;
      open.clear();
    },
  };
}

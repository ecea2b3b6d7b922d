// The relay's logic without chrome.* or DOM: accept hook batches (validated record by record),
// number them into the buffer, and deliver to a sink when attached (backfill from a cursor, then
// live). Unit-tested with a fake sink.

import type { CaptureRecord, HookRecord } from '../../core/record';
import { isHookBatch, isHookRecord, type Cursors } from '../shared/messages';
import { createRelayBuffer, type RelayBuffer, type RelayBufferOptions } from './buffer';

/** Records per message to the background (backfill of a full buffer is split). */
export const SEND_CHUNK = 1000;

export interface RelaySink {
  send(records: CaptureRecord[], backfill: boolean): void;
}

export interface RelayCore {
  readonly src: string;
  readonly buffer: RelayBuffer;
  /** A hook message arrived on the private port. Returns how many records were accepted. */
  onHookMessage(msg: unknown): number;
  /** A record made by the relay itself (navigation, notice). */
  add(rec: HookRecord): void;
  /** A panel wants records after its cursor for this src, then live ones, through `sink`. */
  attach(sink: RelaySink, cursors: Cursors): void;
  detach(): void;
  attached(): boolean;
}

export function createRelayCore(src: string, opts: Partial<RelayBufferOptions> = {}, now = () => Date.now()): RelayCore {
  const buffer = createRelayBuffer(src, opts);
  let sink: RelaySink | null = null;
  let rejected = 0;

  function push(rec: HookRecord): CaptureRecord {
    const numbered = buffer.push(rec);
    return numbered;
  }

  function sendAll(records: CaptureRecord[], backfill: boolean) {
    if (!sink || records.length === 0) return;
    for (let i = 0; i < records.length; i += SEND_CHUNK) sink.send(records.slice(i, i + SEND_CHUNK), backfill);
  }

  return {
    src,
    buffer,
    onHookMessage(msg) {
      if (!isHookBatch(msg)) return 0;
      const out: CaptureRecord[] = [];
      let bad = 0;
      for (const r of msg.records) {
        if (isHookRecord(r)) out.push(push(r));
        else bad++;
      }
      if (bad > 0 && rejected === 0) {
        // Report malformed data once per document: it means the page interfered with the hook.
        out.push(
          push({ kind: 'notice', t: now(), level: 'warning', code: 'malformed-hook-record', message: `${bad} malformed record(s) from the page hook were dropped` }),
        );
      }
      rejected += bad;
      sendAll(out, false);
      return out.length;
    },
    add(rec) {
      const n = push(rec);
      sendAll([n], false);
    },
    attach(s, cursors) {
      sink = s;
      sendAll(buffer.since(cursors[src] ?? 0), true);
    },
    detach() {
      sink = null;
    },
    attached: () => sink !== null,
  };
}

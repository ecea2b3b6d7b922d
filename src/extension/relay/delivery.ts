// Delivery: numbered records to the attached sink (the relay port to the background), in
// messages of at most SEND_CHUNK records and MAX_MESSAGE_BYTES of chunk bytes.
//
// The bytes of fetch chunks are the bulk of what crosses, and how they cross is most of what the
// page's thread pays with a panel open (the relay runs on it). Measured on Chromium 156 in a
// content script (docs/capture.md "Cost to the page"): a chrome.runtime Port's postMessage costs
// the sender ~2.5–6 ns per byte, strings and bytes alike, with structured clone; `new Blob(parts)`
// costs ~0.5–2.5 ns per byte plus one synchronous IPC (~0.1–0.15 ms) to register it, and a Blob
// then crosses a Port as a handle (its bytes go to the browser process off the page's thread).
// So a message whose chunks hold BLOB_MIN_BYTES or more sends them as one Blob (records name their
// range in it), and smaller ones inline. A chunk sent in a Blob keeps a reference to it in the
// buffer instead of its bytes: a later backfill sends the same Blob again, with no copy at all.
//
// Pacing (the relay's, with `pace`): live records go to the sink at most once per PACE_MS, the
// first after a quiet spell at once. The hook sends a read of 4 KiB or more the moment it happens
// (emitter.ts sendRead: its bytes are the page's chunk, cloned as the relay reads it), so a page
// keeping up with a fast stream hands the relay one message per read; sent on one by one, each
// would be a runtime message through the background to the panel, and from 32 KiB a Blob with its
// IPC, where the hook's 16 ms batches made one. Records wait at most PACE_MS (a timer; while a fast
// read starves timers, the next message sends them once they are that old). A backfill, an attach
// or a detach first settles what waits; `unpaced` (pagehide) sends everything at once from then on.
// (A live message over SEND_CHUNK records or MAX_MESSAGE_BYTES is split, its parts sent together.)
//
// Pure: no chrome.*, no DOM (Blob exists in Node and in every extension context).

import type { WireChunk, WireRecord } from '../wire/records';
import type { StoredRecord } from './buffer';

/** Records per message to the background (backfill of a full buffer is split). */
export const SEND_CHUNK = 1000;
/** Chunk bytes per message above which they travel in a Blob. */
export const BLOB_MIN_BYTES = 32 * 1024;
/** Chunk bytes per message at most (a large backfill is split). */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** Live records go to the sink at most this often (ms), with `pace`, less PACE_SLACK_MS. */
export const PACE_MS = 16;
/**
 * A message due in less than this (ms) goes now. The hook sends its batch when less than 1 ms of
 * its 16 ms is left (a browser timer's delay is whole milliseconds: emitter.ts due), and it stamps
 * that send after the relay has posted it; so without the slack about a third of the hook's
 * batches of a page's JSON-RPC POSTs reached the relay 15.x ms after its last message and waited
 * for a timer of 1 ms: one more task and one more timer on the page's thread, and a millisecond or
 * more of latency, per batch (issue 22, row 2c's page profile).
 */
export const PACE_SLACK_MS = 1;

export interface RelayBatch {
  records: WireRecord[];
  backfill: boolean;
  blobs?: Blob[];
}
export interface RelaySink {
  send(batch: RelayBatch): void;
}

export interface Delivery {
  attach(sink: RelaySink): void;
  detach(): void;
  attached(): boolean;
  /** Send to the sink, if any; no-op otherwise. Live records (not backfill) are paced, with `pace`. */
  send(records: readonly StoredRecord[], backfill: boolean): void;
  /** Send what waits, and every later record at once (the document is going away); `on` again: paced again. */
  unpaced(on: boolean): void;
  /** Blobs made so far (diagnostics: the synchronous IPCs the page's thread paid). */
  blobs(): number;
}

export interface DeliveryOptions {
  blobMinBytes?: number;
  makeBlob?: (parts: Uint8Array[]) => Blob;
  /** Pace live records (see the header): the clock (ms) and a timer. Without it, each goes at once. */
  pace?: { now: () => number; setTimer: (fn: () => void, ms: number) => unknown };
}

type Stored = StoredRecord & Partial<WireChunk> & { blob?: Blob };

const chunkBytes = (r: Stored) => (r.kind === 'chunk' ? (r.data?.length ?? r.len ?? 0) : 0);

export function createDelivery(opts: DeliveryOptions = {}): Delivery {
  const blobMin = opts.blobMinBytes ?? BLOB_MIN_BYTES;
  const makeBlob = opts.makeBlob ?? ((parts: Uint8Array[]) => new Blob(parts as BlobPart[]));
  let sink: RelaySink | null = null;
  let made = 0;

  function message(list: Stored[], backfill: boolean): RelayBatch {
    let inline = 0;
    for (const r of list) if (r.kind === 'chunk' && r.data) inline += r.data.length;
    if (inline >= blobMin) {
      // One Blob for the inline bytes of this message; the buffer keeps the reference.
      const parts: Uint8Array[] = [];
      for (const r of list) if (r.kind === 'chunk' && r.data) parts.push(r.data);
      const blob = makeBlob(parts);
      made++;
      let at = 0;
      for (const r of list) {
        if (r.kind !== 'chunk' || !r.data) continue;
        const len = r.data.length;
        r.blob = blob;
        r.at = at;
        r.len = len;
        delete r.data;
        at += len;
      }
    }
    const blobs: Blob[] = [];
    const out: WireRecord[] = new Array(list.length);
    for (let i = 0; i < list.length; i++) {
      const r = list[i]!;
      if (r.kind !== 'chunk' || !r.blob) {
        out[i] = r as WireRecord;
        continue;
      }
      let part = blobs.indexOf(r.blob);
      if (part < 0) part = blobs.push(r.blob) - 1;
      const { blob: _b, data: _d, ...rest } = r;
      out[i] = { ...(rest as WireChunk), part };
    }
    return blobs.length ? { records: out, backfill, blobs } : { records: out, backfill };
  }

  const pace = opts.pace;
  let paced = !!pace;
  /** Live records waiting for their turn (pacing), in order. */
  let waiting: StoredRecord[] = [];
  let lastSent = -Infinity;
  let timerSet = false;

  function settle(): void {
    if (waiting.length === 0) return;
    const list = waiting;
    waiting = [];
    post(list, false);
  }
  /** Sends what waits if its turn came, else sets the timer for its turn (one at a time). */
  function turn(): void {
    if (waiting.length === 0) return;
    const since = pace!.now() - lastSent;
    if (since >= PACE_MS - PACE_SLACK_MS) settle();
    else if (!timerSet) {
      timerSet = true;
      // (rounded up: a browser timer's delay is whole milliseconds)
      pace!.setTimer(onTimer, Math.ceil(PACE_MS - since));
    }
  }
  // A timer set for an earlier turn finds a later message may have sent meanwhile: it asks again.
  const onTimer = () => {
    timerSet = false;
    turn();
  };

  function post(records: readonly StoredRecord[], backfill: boolean): void {
    // The sink of this call: a failed post may detach it meanwhile (the rest is backfilled later).
    const s = sink;
    if (!s || records.length === 0) return;
    if (!backfill && pace) lastSent = pace.now();
    let start = 0;
    let bytes = 0;
    for (let i = 0; i < records.length; i++) {
      const n = chunkBytes(records[i] as Stored);
      if (i > start && (i - start >= SEND_CHUNK || bytes + n > MAX_MESSAGE_BYTES)) {
        s.send(message(records.slice(start, i) as Stored[], backfill));
        start = i;
        bytes = 0;
      }
      bytes += n;
    }
    s.send(message(records.slice(start) as Stored[], backfill));
  }

  return {
    attach(s) {
      // (what waited for an earlier sink is in the buffer: the attach's backfill sends it)
      waiting = [];
      sink = s;
    },
    detach() {
      waiting = [];
      sink = null;
    },
    attached: () => sink !== null,
    send(records, backfill) {
      if (!sink || records.length === 0) return;
      if (backfill || !paced) {
        settle();
        post(records, backfill);
        return;
      }
      for (let i = 0; i < records.length; i++) waiting.push(records[i]!);
      turn();
    },
    unpaced(on) {
      paced = !!pace && !on;
      if (on) settle();
    },
    blobs: () => made,
  };
}

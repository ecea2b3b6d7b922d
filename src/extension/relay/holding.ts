// Holding while not recording (no DevTools on the tab, capture while closed off). The relay keeps
// no body then: chunk and es-event records (and the hook's skips) are dropped and counted per
// connection. Of a connection still open it holds only its `request` and `response` (and `end`),
// un-numbered, outside the buffer, within a bound. When recording starts, each connection still
// held is numbered in order: request, response, one `capture-gap` (reason `not-recording`)
// counting what was dropped, its end; a connection that ended entirely while not recording is
// forgotten and only counted, in one `notice`. See docs/capture.md "Capture while DevTools is
// closed".
//
// Pure: no chrome.*, no DOM.

import type { HookRecord } from '../../core/record';
import type { WireRecord } from '../wire/records';
import { estimateSize } from './buffer';
import type { DecodingCarry } from './carry';
import type { ConnectionTable } from './connections';

/**
 * Bounds on what is held for connections that started while not recording (their request and
 * response, un-numbered): beyond them the oldest such connection is given up (counted as not
 * kept, its later records dropped), so a page opening connections forever with DevTools closed
 * costs at most this much.
 */
export const MAX_HELD_CONNS = 1000;
export const MAX_HELD_BYTES = 4 * 1024 * 1024;
/** Notice code said when recording starts after records were not kept. */
export const NOT_RECORDING_CODE = 'not-recording';

type ConnRecord = Extract<HookRecord, { conn: string }>;

/**
 * What is held for a connection. `numbered`: its request was kept (in the buffer) before
 * recording stopped; otherwise `request` is held here, un-numbered.
 */
interface Held {
  numbered: boolean;
  request?: HookRecord;
  response?: HookRecord;
  end?: HookRecord;
  dropped: number;
  size: number;
}

export interface Holding {
  /** A lifecycle record (request, response, end) of a connection while not recording. */
  lifecycle(r: ConnRecord): void;
  /** A body record (chunk, es-event, skip) of a connection while not recording: dropped, counted. */
  body(conn: string): void;
  /** A body record dropped outside holding (a connection given up, a late skip): counted only. */
  count(): void;
  /** Recording starts: number what is held (through `push`), then say what was not kept. */
  release(push: (r: HookRecord) => WireRecord, now: number): WireRecord[];
  /** Body records dropped while not recording, in total. */
  notRecorded(): number;
  size(): { held: number; heldBytes: number };
  clear(): void;
}

export function createHolding(conns: ConnectionTable, carry: DecodingCarry): Holding {
  const held = new Map<string, Held>();
  let heldBytes = 0;
  let heldUnnumbered = 0;
  /** Bytes of the entries the bound applies to (numbered ones hold no request: small, never given up). */
  let unnumberedBytes = 0;
  /** Connections started and ended while not recording (not kept), and those given up by the bound. */
  let unkept = 0;
  let givenUp = 0;
  let notRecorded = 0;

  const heldOf = (conn: string): Held => {
    let e = held.get(conn);
    // No entry: the connection's request was kept before recording stopped (or it is unknown
    // after the lifecycle table overflowed).
    if (!e) held.set(conn, (e = { numbered: true, dropped: 0, size: 0 }));
    return e;
  };
  const hold = (e: Held, r: HookRecord) => {
    const n = estimateSize(r);
    e.size += n;
    heldBytes += n;
    if (!e.numbered) unnumberedBytes += n;
  };
  function forget(conn: string, e: Held) {
    held.delete(conn);
    heldBytes -= e.size;
    if (!e.numbered) {
      heldUnnumbered--;
      unnumberedBytes -= e.size;
    }
  }
  /** Give up the oldest connections held without a kept request until within the bounds. */
  function bound() {
    if (heldUnnumbered <= MAX_HELD_CONNS && unnumberedBytes <= MAX_HELD_BYTES) return;
    for (const [conn, e] of held) {
      if (heldUnnumbered <= MAX_HELD_CONNS && unnumberedBytes <= MAX_HELD_BYTES) break;
      if (e.numbered) continue; // small (no request), bounded by the lifecycle table
      forget(conn, e);
      conns.giveUp(conn);
      carry.forget(conn);
      givenUp++;
    }
  }
  const clear = () => {
    held.clear();
    heldBytes = 0;
    heldUnnumbered = 0;
    unnumberedBytes = 0;
    unkept = 0;
    givenUp = 0;
  };

  return {
    lifecycle(r) {
      switch (r.kind) {
        case 'request': {
          const e: Held = { numbered: false, request: r, dropped: 0, size: 0 };
          held.set(r.conn, e);
          heldUnnumbered++;
          hold(e, r);
          bound();
          return;
        }
        case 'response': {
          const e = heldOf(r.conn);
          if (e.response) e.dropped++;
          else hold(e, (e.response = r));
          bound();
          return;
        }
        case 'end': {
          const tail = carry.end(r.conn);
          const e = heldOf(r.conn);
          // The decoder's tail chunk at a complete end is a body record too.
          if (r.how === 'complete' && tail) {
            e.dropped++;
            notRecorded++;
          }
          if (!e.numbered) {
            // Started and ended while not recording: nothing of it is kept.
            forget(r.conn, e);
            unkept++;
          } else hold(e, (e.end = r));
          return;
        }
        default:
          heldOf(r.conn).dropped++;
          notRecorded++;
      }
    },
    body(conn) {
      heldOf(conn).dropped++;
      notRecorded++;
    },
    count() {
      notRecorded++;
    },
    release(push, now) {
      const out: WireRecord[] = [];
      let gaps = 0;
      for (const [conn, e] of held) {
        if (e.request) out.push(push(e.request));
        if (e.response) out.push(push(e.response));
        if (e.dropped > 0) {
          gaps++;
          out.push(push({ kind: 'capture-gap', t: now, lost: e.dropped, conns: [conn], reason: 'not-recording' }));
        }
        if (e.end) out.push(push(e.end));
      }
      if (unkept > 0 || givenUp > 0 || gaps > 0) {
        const parts: string[] = [];
        if (unkept > 0) parts.push(`${unkept} connection(s) that ended before recording began were not kept and are not shown`);
        if (givenUp > 0) parts.push(`${givenUp} connection(s) started meanwhile were too many to hold and are not shown`);
        if (gaps > 0) parts.push(`${gaps} connection(s) still open lost the records read meanwhile (marked as capture gaps)`);
        out.push(
          push({
            kind: 'notice',
            t: now,
            level: 'info',
            code: NOT_RECORDING_CODE,
            message: `This page was not recorded while no DevTools window inspected its tab: ${parts.join('; ')}. Turn on "Capture while DevTools is closed" in the MCP Streams settings to keep them.`,
          }),
        );
      }
      clear();
      return out;
    },
    notRecorded: () => notRecorded,
    size: () => ({ held: held.size, heldBytes }),
    clear,
  };
}

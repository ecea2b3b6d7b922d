// Ids the capture may not hold. Event-id counters are often shared by the streams of a session, so
// ids missing between two events of one connection may have been carried by another stream in
// records the capture does not hold: lost by the inspector (buffer cap, size cap, reload), not kept
// while recording was off, or a body a HAR file does not hold. Such a gap cannot be told from a
// server's drop, so it must not be reported as the server's fault (principle: say what cannot be
// known). This file keeps each stretch of lost records (a "lost part": of one connection, or of
// connections the capture cannot name) with what bounds the ids it could have carried, and decides
// which missing ids of a gap fall within those bounds.
//
// The bounds, each sound under the assumption stated; a bound that is not known stays open:
// - ids: along one connection ids increase (a decrease is reported as `replay-reordered`), so a
//   lost stretch carried ids between the last id kept before it and the first id kept after it;
// - read time: the lost records, and the text the SSE parser drops after them until the next event
//   boundary, were read no later than the body record of that connection at which its text is
//   whole again (or its end). Without such a record: no later than the gap record's time where the
//   relay writes it after the records it reports (buffer-cap: the last evicted record's time;
//   not-recording: when recording began; event-size-cap: when the event was cut); other reasons
//   (reload, other, import): unknown;
// - make time: a connection opened without Last-Event-ID carries only events the server made after
//   it received the request, so not before the request's time. A resume replays old events: none.
// A missing id m of a jump from p to q on connection X was made before q was read on X, and after
// p was made; when X was opened without Last-Event-ID and the jump is not in a replay, p (hence m)
// was made after X's request. Read times bound nothing more: a connection may lag far behind the
// server (the seed's slow consumer under backpressure), and a replay delivers old ids late.
import type { ParsedId } from '../ids';
import { LOST } from './texts';
import type { Candidate, LostIds, LostPart, SessionState, StreamS } from './state';
import { eventTime } from '../event-access';

export type { LostIds, LostPart } from './state';

export function createLostIds(touchAll: () => void): LostIds {
  const global: LostPart[] = [];
  let globalRev = 0;

  function changed(st: StreamS | undefined, part: LostPart) {
    if (st) st.lostRev = (st.lostRev ?? 0) + 1;
    if (part.global) {
      globalRev++;
      touchAll();
    } else if (st?.session) st.session.dirty = true;
  }

  function add(st: StreamS | undefined, what: string, tHi: number, isGlobal = false) {
    if (!st) {
      // Several records of one loss (e.g. one per connection at the start of recording) say the
      // same about unnamed connections: once is enough.
      const last = global[global.length - 1];
      if (last && !last.stream && last.what === what && last.tHi === tHi) return;
      const part: LostPart = { global: true, what, tHi, genLo: -Infinity };
      global.push(part);
      changed(undefined, part);
      return;
    }
    const open = st.lostAwaitId;
    const prev = open?.[open.length - 1];
    if (prev && prev.stream === st) {
      // No id kept since the previous stretch: one stretch, read until the later bound.
      prev.tHi = Math.max(prev.tHi, tHi);
      if (!prev.what.includes(what)) prev.what += `; ${what}`;
      if (!st.lostAwaitT?.includes(prev)) (st.lostAwaitT ??= []).push(prev);
      if (isGlobal && !prev.global) {
        prev.global = true;
        global.push(prev);
      }
      changed(st, prev);
      return;
    }
    const part: LostPart = { stream: st, global: isGlobal, what, tHi, genLo: st.fresh ? st.start : -Infinity };
    if (st.lastKept) part.lo = st.lastKept;
    (st.lost ??= []).push(part);
    (st.lostAwaitT ??= []).push(part);
    (st.lostAwaitId ??= []).push(part);
    if (isGlobal) global.push(part);
    changed(st, part);
  }

  function bodyRecord(st: StreamS, t: number) {
    const l = st.lostAwaitT;
    if (!l) return;
    st.lostAwaitT = undefined;
    for (const part of l) {
      // Not the smaller of the two: text dropped by the resync was read after the gap record.
      if (part.tHi !== t) {
        part.tHi = t;
        changed(st, part);
      }
    }
  }

  function keptId(st: StreamS, p: ParsedId) {
    st.lastKept = p;
    const l = st.lostAwaitId;
    if (!l) return;
    st.lostAwaitId = undefined;
    for (const part of l) {
      part.hi = p;
      changed(st, part);
    }
  }

  function unknownSession(st: StreamS) {
    if (st.lost?.some((p) => p.untilEnd)) return;
    const part: LostPart = { stream: st, global: true, what: LOST.unknownSession(st.id), tHi: Infinity, genLo: -Infinity, untilEnd: true };
    (st.lost ??= []).push(part);
    global.push(part);
    changed(st, part);
  }

  function ended(st: StreamS, t: number) {
    if (!st.lost) return;
    for (const part of st.lost) {
      if (part.untilEnd && t < part.tHi) {
        part.tHi = t;
        changed(st, part);
      }
    }
  }

  function resumedFrom(st: StreamS, cursor: string) {
    // Ids increase along a connection, and the client read none after the cursor: every stretch
    // of it the capture does not hold ended there.
    for (const part of st.lost ?? []) {
      if (part.upTo === cursor) continue;
      part.upTo = cursor;
      changed(st, part);
    }
  }

  function rev(s: SessionState): number {
    let n = globalRev;
    for (const x of s.streams) n += x.lostRev ?? 0;
    return n;
  }

  return { global, add, bodyRecord, keptId, unknownSession, ended, resumedFrom, rev };
}

/** The parts a session's gaps are checked against: its streams' and those of any session. */
export function sessionParts(s: SessionState, lost: LostIds): LostPart[] {
  const out: LostPart[] = [];
  for (const x of s.streams) if (x.lost) for (const p of x.lost) if (!p.global) out.push(p);
  for (const p of lost.global) out.push(p);
  return out;
}

/** Whether `part` could hold ids of candidate `c`'s counter at all, and when. */
function mayHold(part: LostPart, c: Candidate, perStream: boolean): boolean {
  const y = part.stream;
  const x = c.stream;
  if (perStream && c.kind === 'live') {
    // Each stream counts on its own and a live connection is its stream's only one: the ids
    // between two of its events can only have been on it.
    if (y !== x) return false;
  } else if (perStream && y && y.root !== x.root) {
    // Only a segment of X's chain carries X's ids, and a stream whose chain is unknown (no
    // request in the capture, or a resume linked to nothing) may be one, unless the ids it did
    // deliver show another stream's prefix.
    const r = y.root;
    const unlinked = r.orphan === true || (r.isResume && !r.resumes);
    if (!unlinked) return false;
    if (r.chainIds.size > 0 && !r.chainIds.has(c.prefix)) return false;
  }
  // Time: the missing ids were made after X's request when X was opened without Last-Event-ID
  // and the jump is not in a replay, and before the event after the jump was read.
  const genLo = c.kind === 'live' && x.fresh ? x.start : -Infinity;
  const readHi = eventTime(x, c.eventIndex) ?? Infinity;
  return part.tHi >= genLo && part.genLo <= readHi;
}

export interface Cover {
  /** Missing ids that may be in lost records, and the ids certainly delivered by no one. */
  covered: [number, number][];
  rest: [number, number][];
  /** The parts that may hold them. */
  by: LostPart[];
}

/**
 * Splits the missing ids of candidate `c` into those that records the capture does not hold may
 * have carried and the rest (certainly never delivered, if the bounds above hold).
 */
export function coverMissing(
  missing: [number, number][],
  c: Candidate,
  parts: readonly LostPart[],
  perStream: boolean,
  parse: (id: string) => ParsedId | null,
  reread?: (p: ParsedId) => ParsedId | null,
): Cover {
  const spans: [number, number][] = [];
  const by: LostPart[] = [];
  for (const part of parts) {
    if (!mayHold(part, c, perStream)) continue;
    // The ids kept around the stretch, in the reading of the candidate (`reread`: base 16).
    const plo = part.lo && reread ? reread(part.lo) : part.lo;
    const phi = part.hi && reread ? reread(part.hi) : part.hi;
    // Ids of another counter say nothing about this one.
    const lo = plo && plo.prefix === c.prefix ? plo.counter + 1 : -Infinity;
    let hi = phi && phi.prefix === c.prefix ? phi.counter - 1 : Infinity;
    const up = part.upTo !== undefined ? parse(part.upTo) : null;
    if (up && up.prefix === c.prefix) hi = Math.min(hi, up.counter);
    let used = false;
    for (const [a, b] of missing) {
      const from = Math.max(a, lo);
      const to = Math.min(b, hi);
      if (from <= to) {
        spans.push([from, to]);
        used = true;
      }
    }
    if (used) by.push(part);
  }
  if (spans.length === 0) return { covered: [], rest: missing, by };
  spans.sort((p, q) => p[0] - q[0]);
  const covered: [number, number][] = [];
  for (const [a, b] of spans) {
    const last = covered[covered.length - 1];
    if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b);
    else covered.push([a, b]);
  }
  const rest: [number, number][] = [];
  for (const [a, b] of missing) {
    let next = a;
    for (const [ca, cb] of covered) {
      if (cb < next || ca > b) continue;
      if (ca > next) rest.push([next, ca - 1]);
      next = Math.max(next, cb + 1);
    }
    if (next <= b) rest.push([next, b]);
  }
  return { covered, rest, by };
}

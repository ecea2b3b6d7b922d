// Event ids: the session's index of who delivered each id first (a second delivery is a duplicate,
// or a cross-stream replay on a resume), the id statistics the scheme is inferred from, the
// chain's delivered counters, and the gap / reorder / cross-prefix candidates that derivation
// decides at snapshot time (derive/gaps.ts). Ids of another session of the endpoint are noted
// for the cross-session rules.
import type { SseEvent } from '../model';
import { IntervalSet, formatId, hexFieldStart, hexLetters, newIdStats, parseIdHex, recordId, recordStep, type ParsedId } from '../ids';
import { addCode, runFinding } from './findings-log';
import { duplicateRun, otherStreamRun, primingAgain } from './texts';
import type { Candidate, IdTrack, IdView, SessionState, StreamS } from './state';
import type { AnalyzerState } from './analyzer-state';
import { lastIndexOfId } from '../event-access';

function addCandidate(v: IdView, st: StreamS, tr: IdTrack, eventIndex: number, at: number, p: ParsedId, id: string, kind: Candidate['kind'], from: number, to: number, prevId?: string): void {
  const prevOrd = st.isResume && !tr.lastParsed ? st.ord : tr.lastIdOrd ?? st.ord;
  const c: Candidate = { kind, stream: st, eventIndex, ord: at, prefix: p.prefix, width: p.width, from, to, id, prevOrd };
  if (p.hex) c.hex = true;
  if (prevId !== undefined) c.prevId = prevId;
  if (st.isResume && !tr.lastParsed) c.atResume = true;
  v.candidates.push(c);
}

/** The hexadecimal reading's track of a stream (created on first use). */
function hexTrack(v: IdView, st: StreamS): IdTrack {
  let tr = v.tracks!.get(st);
  if (!tr) {
    tr = { chainIds: new Map() };
    if (st.isResume) tr.resumeBase = st.lastEventIdSent ? parseIdHex(st.lastEventIdSent) : null;
    v.tracks!.set(st, tr);
  }
  return tr;
}

/**
 * The id checks of one reading of the session (IdView) for an id new to the session: statistics,
 * the chain's delivered counters, the steps between ids of a connection and the gap / reorder /
 * cross-prefix candidates they show. `tr` is the stream's track in that reading.
 */
function trackId(A: AnalyzerState, v: IdView, tr: IdTrack, rootTr: IdTrack, st: StreamS, ev: SseEvent, id: string, p: ParsedId | null, at: number, priming: boolean): void {
  recordId(v.stats, id, p, st.id);
  if (p) {
    let set = rootTr.chainLast !== undefined && rootTr.chainLast.prefix === p.prefix ? rootTr.chainLast.set : rootTr.chainIds.get(p.prefix);
    if (!set) rootTr.chainIds.set(p.prefix, (set = new IntervalSet(v.stats)));
    if (rootTr.chainLast === undefined) rootTr.chainLast = { prefix: p.prefix, set };
    else if (rootTr.chainLast.set !== set) {
      rootTr.chainLast.prefix = p.prefix;
      rootTr.chainLast.set = set;
    }
    set.add(p.counter);
  }
  // A priming event (id, empty data) only moves the cursor. Some servers send one with a fresh
  // id at the start of every stream, a resumed one too: it is no step in the sequence.
  if (!p || priming) return;
  // The first id after lost records: ids in between may have been in them, so a jump is no gap
  // (and no step of the scheme); going backwards still is.
  let acrossGap: boolean;
  if (tr === st) {
    A.lost.keptId(st, p);
    acrossGap = st.afterGap === true;
    st.afterGap = false;
  } else {
    acrossGap = (st.gaps ?? 0) !== (tr.gaps ?? 0);
    tr.gaps = st.gaps;
  }
  const base = st.isResume ? tr.resumeBase : undefined;
  const lp = tr.lastParsed;
  if (base && p.prefix !== base.prefix) {
    // Under a per-stream prefix scheme, another stream's events (decided at snapshot).
    addCandidate(v, st, tr, ev.index, at, p, id, 'cross-prefix', 0, 0, st.lastEventIdSent);
  } else if (base && !lp) {
    // First event of the replay: compare with the cursor the client sent.
    if (p.counter > base.counter + 1) {
      if (!acrossGap) addCandidate(v, st, tr, ev.index, at, p, id, 'replay', base.counter + 1, p.counter - 1, st.lastEventIdSent);
    } else if (p.counter <= base.counter) addCandidate(v, st, tr, ev.index, at, p, id, 'reorder', p.counter, p.counter, st.lastEventIdSent);
  } else if (lp && lp.prefix === p.prefix) {
    const delta = p.counter - lp.counter;
    if (!acrossGap) recordStep(v.stats, delta);
    if (delta > 1) {
      if (!acrossGap) addCandidate(v, st, tr, ev.index, at, p, id, st.isResume ? 'replay' : 'live', lp.counter + 1, p.counter - 1, formatId(lp.prefix, lp.counter, lp.width, lp.hex));
    } else if (delta <= 0) addCandidate(v, st, tr, ev.index, at, p, id, 'reorder', p.counter, p.counter, formatId(lp.prefix, lp.counter, lp.width, lp.hex));
  }
  if (!base || p.prefix === base.prefix) {
    if (!lp || lp.prefix !== p.prefix || p.counter > lp.counter) tr.lastParsed = p;
  }
  tr.lastIdOrd = at;
}

/**
 * An id new to session `s` that another session of its endpoint delivered too. On a resumed
 * stream of one and a stream of the other that is no resume, the resume replayed the other
 * session's event (a store shared by the sessions); on two streams that are no resume, the
 * server numbers each session on its own and ids say nothing across sessions (decided at
 * snapshot time, so the order in which the two deliveries arrive does not matter).
 */
function crossSession(s: SessionState, st: StreamS, ev: SseEvent, id: string, p: ParsedId | null, at: number): void {
  const ep = s.ep!;
  for (const t of ep.sessions) {
    if (t === s) continue;
    const hit = t.idIndex.get(id, p);
    if (!hit) continue;
    if (st.isResume && !hit.isResume) {
      (s.crossIn ??= []).push({ stream: st, index: ev.index, ord: at, other: hit });
      s.dirty = true;
    } else if (!st.isResume && hit.isResume) {
      const i = lastIndexOfId(hit, id);
      if (i !== -1) {
        (t.crossIn ??= []).push({ stream: hit, index: i, ord: hit.ord, other: st });
        t.dirty = true;
      }
    } else if (!st.isResume && !hit.isResume && ep.reuse++ === 0) {
      for (const x of ep.sessions) x.dirty = true;
    }
    return;
  }
}

/** A delivered id `prev` already delivered by another stream: a duplicate, or another stream's event on a resume. */
function delivered(A: AnalyzerState, st: StreamS, s: SessionState, ev: SseEvent, prev: StreamS, at: number, priming: boolean): void {
  ev.duplicate = true;
  const req = st.root.requests[0];
  if (!(st.isResume && prev.root !== st.root) || st.linkGuessed) {
    addCode(ev, 'replay-duplicate');
    st.dupEv = ev;
    st.dupRun = runFinding(A, s, st, ev, at, 'replay-duplicate', priming ? `${prev.id}\u0000priming` : prev.id, priming ? primingAgain(prev.id) : duplicateRun(prev.id), {
      streamId: st.id,
      relatedStreamIds: prev.id !== st.id ? [prev.id] : [],
      eventIndex: ev.index,
      ...(req ? { requestId: req.id } : {}),
    });
  } else {
    addCode(ev, 'replay-cross-stream');
    st.root.crossOrds.push(at);
    runFinding(A, s, st, ev, at, 'replay-cross-stream', prev.id, otherStreamRun(prev.id), {
      streamId: st.id,
      relatedStreamIds: [prev.id],
      eventIndex: ev.index,
      ...(req ? { requestId: req.id } : {}),
    });
    // The client received this id before (on the other stream): it repeats, whatever else the
    // replay did (issue 19). Its own run, beside the cross-stream one.
    addCode(ev, 'replay-duplicate');
    runFinding(A, s, st, ev, at, 'replay-duplicate', prev.id, duplicateRun(prev.id), {
      streamId: st.id,
      relatedStreamIds: [prev.id],
      eventIndex: ev.index,
      ...(req ? { requestId: req.id } : {}),
    }, 'dupRun');
  }
}

export function onId(A: AnalyzerState, st: StreamS, s: SessionState, ev: SseEvent, id: string, at: number, priming: boolean): void {
  const p = s.parse(id);
  let prev = s.idIndex.get(id, p);
  if (prev && prev.root !== st.root && (!st.isResume || s.sessionId === null || s.idReuse > 0)) {
    // The same id on an unrelated, fresh stream is not a replay: the server numbers each
    // stream on its own (stateless servers, or ids not unique in the session). A priming event's
    // id says nothing of how the server numbers its events: some servers prime every stream with
    // the same one ("0": rust-sdk #791), and counting it would keep ids another stream carried
    // from filling a chain's gaps (derive/gaps.ts).
    if (!priming) s.idReuse++;
    // It still names more than one stream as a Last-Event-ID (sessions.ts resumeTarget).
    else (s.primingReused ??= new Set()).add(id);
    prev = undefined;
  }
  if (prev) return delivered(A, st, s, ev, prev, at, priming);
  s.idIndex.set(id, p, st);
  if (st.firstId === undefined) {
    st.firstId = id;
    s.stats.streamsWithIds++;
    if (s.hex) s.hex.stats.streamsWithIds++;
  }
  st.lastId = id;
  if (s.ep !== undefined && s.ep.sessions.length > 1 && !priming) crossSession(s, st, ev, id, p, at);
  // Ids ending in a fixed-width field are read both ways (decimal and hexadecimal) from the
  // first one on; the snapshot picks the reading on the whole session (see IdView).
  if (s.hex === undefined && s.override === undefined && (p ? p.width >= 4 && String(p.counter).length * 2 <= p.width : hexFieldStart(id) >= 0)) {
    s.hex = { stats: newIdStats(), candidates: [], parse: parseIdHex, hex: true, tracks: new Map() };
    s.hex.stats.streamsWithIds = 1;
  }
  trackId(A, s.main, st, st.root, st, ev, id, p, at, priming);
  if (s.hex) {
    const hp = parseIdHex(id);
    if (hp?.hex) {
      if (s.hexSeen === undefined && hexLetters(id, id.length - hp.width)) s.hexSeen = id;
      else if (s.radixDiffers === undefined && p && p.counter !== hp.counter) s.radixDiffers = id;
    }
    trackId(A, s.hex, hexTrack(s.hex, st), hexTrack(s.hex, st.root), st, ev, id, hp, at, priming);
  }
  st.sawId = true;
}

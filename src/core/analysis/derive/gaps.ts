// Gap candidates decided at snapshot time: a live or replay jump is a gap when the session's scheme
// is a contiguous counter and no stream of the session (nor another session of the server) delivered
// the missing ids; ids that records the capture does not hold may have carried make it a warning
// (lost-ids.ts). Reorders under an ordered scheme and cross-prefix replays under per-stream counters
// are decided here too. Candidates already decided are not redone while what they read is unchanged.
import type { FindingCode } from '../../model';
import type { FindingInput } from '../../findings';
import { countRanges, describeRanges, expandRanges, formatId, parseIdHex, type ParsedId } from '../../ids';
import { frozen } from '../findings-log';
import { coverMissing, sessionParts } from '../lost-ids';
import { crossPrefix, DEPENDS, describeParts, gap, LOST, reordered } from '../texts';
import type { Candidate, LostPart, SessionState, StreamS } from '../state';
import type { GapLoss } from './cache';
import { add, overlay, trackOf, type Derivation } from './context';
import { idView, minusSet } from './scheme';

function gapText(D: Derivation, text: string, unverifiable: boolean): void {
  const I = D.I;
  if (unverifiable) {
    I.unvCount++;
    if (I.unvTexts.length < 20) I.unvTexts.push(text);
    return;
  }
  I.gapCount++;
  if (I.gapTexts.length < 20) I.gapTexts.push(text);
}

function addLoss(D: Derivation, root: StreamS, loss: GapLoss): void {
  const l = D.I.gapOrds.get(root);
  if (l) l.push(loss);
  else D.I.gapOrds.set(root, [loss]);
}

/** A gap whose missing ids may be on streams the file holds no body for: those streams' findings name it. */
function absentDep(D: Derivation, by: readonly StreamS[], text: string, st: StreamS): void {
  for (const x of by) {
    const l = D.I.absentDeps.get(x);
    const what = DEPENDS.gap(text, st.id);
    if (!l) D.I.absentDeps.set(x, [what]);
    else if (l.length < 5 && !l.includes(what)) l.push(what);
  }
}

/** A live or replay candidate under a contiguous scheme. */
function decideGap(D: Derivation, c: Candidate, parts: () => LostPart[], reread: ((p: ParsedId) => ParsedId | null) | undefined): void {
  const { s, peers } = D;
  const st = c.stream;
  const req = st.root.requests[0];
  // Ids reused by different streams (each stream counts on its own): only the chain's own
  // deliveries can fill its gaps.
  const set = s.idReuse > 0 ? trackOf(D, st.root).chainIds.get(c.prefix) : D.v.stats.groups.get(c.prefix)?.set;
  if (!set) return;
  const sig = `${D.anyOpen ? 1 : 0}${st.captureIncomplete ? 1 : 0}${st.resumes ? st.resumes.id : ''}|${D.lossRev}|${D.peerRev}|${D.abandonedSig}`;
  const memo = D.cache.memos.get(c);
  if (memo && memo.set === set && memo.fills === set.fills && memo.sig === sig) {
    if (!memo.gap) return;
    const { f, text, code, unverifiable, absent } = memo.gap;
    gapText(D, text, unverifiable);
    addLoss(D, st.root, [c.prevOrd, c.ord, text, unverifiable]);
    overlay(D, st, c.eventIndex, code);
    absentDep(D, absent, text, st);
    D.findings.push(f);
    return;
  }
  const m: NonNullable<typeof memo> = { set, fills: set.fills, sig };
  D.cache.memos.set(c, m);
  let missing = set.missingIn(c.from, c.to);
  if (peers && missing.length > 0) {
    for (const t of peers) {
      const tg = idView(t).stats.groups.get(c.prefix);
      if (tg && !tg.hex === !c.hex) missing = minusSet(missing, tg.set);
    }
  }
  if (missing.length === 0) return;
  // Ids that records the capture does not hold may have carried are no proof of a drop: the
  // finding stays (no stream in the capture delivered them) but as a warning, unless some of
  // the ids cannot be in any of those records.
  const cover = coverMissing(missing, c, parts(), D.scheme.scope === 'stream', D.v.parse, reread);
  const unverifiable = cover.rest.length === 0;
  const shown = unverifiable ? missing : cover.rest;
  const text = describeRanges(shown, c.prefix, c.width, c.hex);
  const absent: StreamS[] = [];
  for (const part of cover.by) if (part.stream?.bodyAbsent && !absent.includes(part.stream)) absent.push(part.stream);
  absentDep(D, absent, describeRanges(cover.covered, c.prefix, c.width, c.hex), st);
  const code: FindingCode = c.kind === 'replay' ? 'replay-gap' : 'live-gap';
  gapText(D, text, unverifiable);
  addLoss(D, st.root, [c.prevOrd, c.ord, text, unverifiable]);
  overlay(D, st, c.eventIndex, code);
  const message = gap({
    kind: c.kind as 'live' | 'replay',
    atResume: c.atResume === true,
    prevId: c.prevId,
    id: c.id,
    text,
    n: countRanges(shown),
    unverifiable,
    parts: describeParts(cover.by.map((p) => p.what)),
    ...(cover.covered.length > 0 ? { covered: { text: describeRanges(cover.covered, c.prefix, c.width, c.hex), n: countRanges(cover.covered) } } : {}),
  });
  const f: FindingInput = {
    streamId: st.id,
    eventIds: expandRanges(missing, c.prefix, c.width, c.hex),
    missing: describeRanges(missing, c.prefix, c.width, c.hex),
    eventIndex: c.eventIndex,
    ...(req ? { requestId: req.id } : {}),
    message,
  };
  if (unverifiable) f.severity = 'warning';
  if (st.resumes) f.relatedStreamIds = [st.resumes.id];
  if (D.anyOpen) f.pending = true;
  m.gap = { f: add(D, c.ord, code, f), text, code, unverifiable, absent };
}

/** Contiguous events of the same foreign prefix: one finding for the run (a new value when it grows). */
function decideCrossPrefix(D: Derivation, c: Candidate): void {
  const st = c.stream;
  const req = st.root.requests[0];
  overlay(D, st, c.eventIndex, 'replay-cross-stream');
  addLoss(D, st.root, [c.prevOrd, c.ord, '', false]);
  const run = D.I.crossRun;
  if (run && run.st === st && run.idx === c.eventIndex - 1 && run.prefix === c.prefix) {
    run.idx = c.eventIndex;
    run.ids.push(c.id);
    run.cursor = c.prevId;
    run.grew = true;
    return;
  }
  settleCrossRun(D);
  const entry = add(D, c.ord, 'replay-cross-stream', {
    streamId: st.id,
    relatedStreamIds: st.resumes ? [st.resumes.id] : [],
    eventIds: [c.id],
    eventIndex: c.eventIndex,
    ...(req ? { requestId: req.id } : {}),
    message: crossPrefix([c.id], c.prevId),
  });
  D.I.crossRun = { st, idx: c.eventIndex, prefix: c.prefix, entry, ids: [c.id], cursor: c.prevId, grew: false };
}

/** The open cross-prefix run gets its value for what it holds now. */
function settleCrossRun(D: Derivation): void {
  const run = D.I.crossRun;
  if (!run || !run.grew) return;
  run.grew = false;
  const ids = run.ids.slice();
  run.entry.f = frozen({ ...run.entry.f, eventIds: ids, message: crossPrefix(ids, run.cursor) });
}

const ABANDONED_HOW: Partial<Record<StreamS['state'], string>> = { aborted: 'was closed by the page', unread: 'was dropped by the page unread', error: 'broke and was not resumed' };

/** The chains of `s` that ended without their requests' results and were not resumed: abandoned. */
export function abandonedChains(s: SessionState): StreamS[] {
  const out: StreamS[] = [];
  for (const x of s.streams) {
    if (x.root !== x || x.requests.length === 0 || x.requests.some((q) => q.response !== undefined)) continue;
    const last = x.segments[x.segments.length - 1]!;
    if (ABANDONED_HOW[last.state] !== undefined) out.push(x);
  }
  return out;
}

/**
 * Under a counter the session's streams share, a request whose stream the page closed (or that
 * broke and was never resumed) before its result may have gone on making events on the server,
 * taking ids no stream of the capture delivered: a jump another stream reads after that is no
 * proof of a drop (lost-ids' "may be in records the capture does not hold").
 */
function abandonedParts(D: Derivation): LostPart[] {
  if (D.scheme.scope === 'stream') return [];
  const out: LostPart[] = [];
  for (const root of D.abandoned) {
    const last = root.segments[root.segments.length - 1]!;
    let lastId: string | undefined;
    for (const seg of root.segments) if (seg.lastId !== undefined) lastId = seg.lastId;
    const lo = lastId !== undefined ? D.v.parse(lastId) ?? undefined : undefined;
    out.push({ stream: last, global: false, what: LOST.abandoned(last.id, ABANDONED_HOW[last.state]!, root.requests[0]!.id), ...(lo ? { lo } : {}), tHi: Infinity, genLo: last.end ?? last.start });
  }
  return out;
}

/**
 * The EventSource streams the page hook watched: the browser parses those streams and dispatches
 * only events of the types the page listens to (and none for a block with an id but no data), so
 * ids between two events the hook saw may have come on events it could not see. (An imported
 * EventSource, from DevTools' EventStream view of a HAR, lists every event: not these.)
 */
export function undispatchedStreams(s: SessionState): StreamS[] {
  return s.streams.filter((x) => x.transport === 'eventsource');
}

function undispatchedParts(D: Derivation): LostPart[] {
  return D.undispatched.map((x) => ({ stream: x, global: false, what: LOST.undispatched(x.id), tHi: Infinity, genLo: x.fresh ? x.start : -Infinity }));
}

/** Decides the candidates added since the last derivation (all of them when the key changed). */
export function decideCandidates(D: Derivation): void {
  const { s, v } = D;
  let parts: LostPart[] | undefined;
  const lazyParts = () => (parts ??= [...sessionParts(s, D.lost), ...abandonedParts(D), ...undispatchedParts(D)]);
  // The hexadecimal reading compares the ids kept around lost records in base 16 too.
  const reread = v.hex ? (p: ParsedId) => parseIdHex(formatId(p.prefix, p.counter, p.width, p.hex)) : undefined;
  for (let ci = D.I.nCand; ci < v.candidates.length; ci++) {
    const c = v.candidates[ci]!;
    if ((c.kind === 'live' || c.kind === 'replay') && D.contiguous) decideGap(D, c, lazyParts, reread);
    else if (c.kind === 'reorder' && D.ordered) {
      const req = c.stream.root.requests[0];
      overlay(D, c.stream, c.eventIndex, 'replay-reordered');
      add(D, c.ord, 'replay-reordered', {
        streamId: c.stream.id,
        eventIds: [c.id],
        eventIndex: c.eventIndex,
        ...(req ? { requestId: req.id } : {}),
        message: reordered(c.id, c.prevId),
      });
    } else if (c.kind === 'cross-prefix' && D.ordered && D.scheme.scope === 'stream') decideCrossPrefix(D, c);
  }
  settleCrossRun(D);
  D.I.nCand = v.candidates.length;
}

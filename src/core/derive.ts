// Snapshot-time derivation for one session: the id scheme, which gap candidates are real gaps
// (ids no stream of the session delivered), unverifiable reconnects, verdicts, the lossless flag
// and the reconnect chains. Runs only for sessions that changed since the last snapshot; its cost
// is in the number of candidates, requests, streams and resumes, not in the number of events.
import type { Finding, FindingCode, IdScheme, ReconnectChain, RequestInfo, Session, Stream, Verdict } from './model';
import { countRanges, describeRanges, expandRanges, formatId, inferScheme, parseIdHex, type IntervalSet, type ParsedId } from './ids';
import { SEVERITY, worstOf, type FindingInput } from './findings';
import { CROSS_SESSION, NO_SESSION, type GapLoss, type IdTrack, type IdView, type OrdFinding, type ReqState, type SessionState, type StreamS } from './state';
import type { ResolvedOptions } from './options';
import { coverMissing, describeParts, sessionParts, type LostIds, type LostPart } from './lost-ids';

/** The reading of a session's ids the analysis uses: hexadecimal once an id holds a–f in its fixed-width field. */
export function idView(s: SessionState): IdView {
  return s.hexSeen !== undefined && s.hex ? s.hex : s.main;
}

const NO_TRACK: IdTrack = { chainIds: new Map() };

/** `ranges` without the members of `set`. */
function minusSet(ranges: [number, number][], set: IntervalSet): [number, number][] {
  const out: [number, number][] = [];
  for (const [a, b] of ranges) {
    let next = a;
    for (const [l, h] of set.intervalsIn(a, b)) {
      if (l > next) out.push([next, l - 1]);
      next = h + 1;
    }
    if (next <= b) out.push([next, b]);
  }
  return out;
}

/**
 * A counter shared by several sessions of the endpoint: an id inside this session's range of a
 * counter that this session never received, delivered in another session. Decided on the sets of
 * delivered ids only (no threshold), so every run of the same situation gives the same answer; the
 * witness named is the smallest such id (first group, first session on a tie), so the evidence does
 * not depend on the order the records came in.
 */
function sharedWitness(s: SessionState, v: IdView, peers: SessionState[]): SessionState['sharedWitness'] {
  let best: SessionState['sharedWitness'];
  for (const g of v.stats.groups.values()) {
    const lo = g.set.min;
    const hi = g.set.max;
    if (!g.counterLike || lo === undefined || hi === undefined || hi - lo < 2) continue;
    for (const t of peers) {
      const tg = idView(t).stats.groups.get(g.prefix);
      if (!tg || !tg.hex !== !g.hex) continue;
      for (const [a, b] of tg.set.intervalsIn(lo + 1, Math.min(hi - 1, best && best.prefix === g.prefix ? best.x - 1 : Infinity))) {
        const x = g.set.firstMissing(a, b);
        if (x === undefined) continue;
        best = { other: t, prefix: g.prefix, x };
        break;
      }
    }
    if (best) break;
  }
  s.sharedWitness = best;
  return best;
}

/** How the session's fixed-width fields were read, added to the scheme's evidence. */
function radixNote(s: SessionState, v: IdView): string {
  if (v.hex && s.hexSeen !== undefined) return `; fixed-width fields are hexadecimal counters, read in base 16: ids of the session hold a digit a–f there (e.g. "${s.hexSeen}")`;
  if (s.radixDiffers !== undefined) {
    const p = s.main.parse(s.radixDiffers);
    return `; zero-padded fields are read as decimal numbers ("${s.radixDiffers}" as ${p ? p.counter : '?'}): no id of the session holds a digit a–f there`;
  }
  return '';
}

function idRun(ids: readonly string[], cap = 10): string {
  if (ids.length <= cap) return ids.join(', ');
  return `${ids.slice(0, cap - 1).join(', ')} … ${ids[ids.length - 1]} (${ids.length} in all)`;
}

function lossText(losses: GapLoss[]): string {
  const ids = losses.map((l) => l[2]).filter((x) => x && x !== CROSS_SESSION);
  const cross = losses.some((l) => !l[2]);
  const parts: string[] = [];
  if (ids.length) parts.push(`ids ${ids.join('; ')} never delivered`);
  if (cross) parts.push("another stream's events mixed in");
  if (losses.some((l) => l[2] === CROSS_SESSION)) parts.push("another session's events mixed in");
  return parts.join('; ');
}

/** Params without `_meta` (progress tokens differ between a request and its re-issue). */
function paramsKey(r: ReqState): string {
  try {
    if (typeof r.params !== 'object' || r.params === null) return JSON.stringify(r.params ?? null);
    const { _meta: _ignored, ...rest } = r.params as Record<string, unknown>;
    return JSON.stringify(rest);
  } catch {
    return `\u0000unkeyable ${r.id}`; // never equal to another request's key
  }
}

function sameCodes(a: readonly FindingCode[] | undefined, b: readonly FindingCode[]): boolean {
  if (!a || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Put the codes derived at snapshot time onto the stream's shared event array, in place: an event
 * that gains codes is replaced by a copy carrying them, one that loses them gets its pushed
 * version back. Cost: the size of the old and new overlays, never the number of events.
 * Returns whether an event changed.
 */
export function applyOverlay(st: StreamS, overlay: Map<number, FindingCode[]> | undefined): boolean {
  const old = st.overlay;
  let changed = false;
  if (old && st.base) {
    for (const i of old.keys()) {
      if (overlay?.has(i)) continue;
      const b = st.base.get(i);
      if (b) st.events[i] = b;
      st.base.delete(i);
      changed = true;
    }
  }
  if (overlay) {
    for (const [i, add] of overlay) {
      if (sameCodes(old?.get(i), add)) continue;
      st.base ??= new Map();
      let b = st.base.get(i);
      if (!b) {
        b = st.events[i];
        if (!b) continue;
        st.base.set(i, b);
      }
      const codes = b.findings.slice();
      for (const c of add) if (!codes.includes(c)) codes.push(c);
      st.events[i] = { ...b, findings: codes };
      changed = true;
    }
  }
  st.overlay = overlay;
  return changed;
}

/**
 * The stream's model for a snapshot. O(1) in the number of events: `events` is the stream's own
 * append-only array, shared by every snapshot (a new Stream object per change, so identity still
 * says "changed"); `eventCount` is its length at this snapshot.
 */
export function streamModel(st: StreamS): Stream {
  if (!st.dirty && st.cached) return st.cached;
  const events = st.events;
  const m: Stream = {
    id: st.id,
    sessionKey: st.session?.key ?? NO_SESSION,
    kind: st.kind,
    method: st.method,
    url: st.url,
    requestHeaders: st.requestHeaders.map(([k, v]) => [k, v] as [string, string]),
    responseHeaders: st.responseHeaders.map(([k, v]) => [k, v] as [string, string]),
    requestIds: st.requestIds.slice(),
    resumedBy: st.resumedBy.slice(),
    start: st.start,
    state: st.state,
    events,
    eventCount: events.length,
    comments: st.comments,
    bytes: st.bytes,
    transport: st.transport,
    chainRoot: st.root.id,
  };
  if (st.status !== undefined) m.status = st.status;
  if (st.contentType !== undefined) m.contentType = st.contentType;
  if (st.lastEventIdSent !== undefined) m.lastEventIdSent = st.lastEventIdSent;
  if (st.resumes) m.resumes = st.resumes.id;
  if (st.end !== undefined) m.end = st.end;
  if (st.endReason !== undefined) m.endReason = st.endReason;
  if (st.captureIncomplete) m.captureIncomplete = true;
  if (st.cursor !== undefined) m.lastCursor = st.cursor;
  if (st.retry !== undefined) m.retry = st.retry;
  st.cached = m;
  st.dirty = false;
  return m;
}

/**
 * Whether more can still arrive on a stream. A response the capture does not follow
 * (`capture: 'none'`, e.g. the 202 to a notification) gets no chunk and no end record by the
 * record contract, so once its response is in, it is done even though no end will come.
 */
/** Incomplete only because records were not kept while recording was off (the user's setting). */
function notRecordedOnly(x: StreamS): boolean {
  return x.notRecorded === true && !x.inspectorLost && !x.bodyAbsent;
}

/** `last` ended after the client sent DELETE for its session (the server closes streams then). */
function endedByDelete(s: SessionState, last: StreamS): boolean {
  if (last.end === undefined) return false;
  return s.streams.some((x) => x.method === 'DELETE' && x !== last && x.start <= last.end!);
}

export function stillOpen(x: StreamS): boolean {
  return x.state === 'open' && !(x.status !== undefined && x.capture === 'none');
}

export function chainOpen(root: StreamS): boolean {
  return root.segments.some(stillOpen);
}

export interface Derived {
  session: Session;
  requests: RequestInfo[];
  /** All findings of the session in ord order (kept between derivations; see `appended`). */
  findings: OrdFinding[];
  /** The findings appended to `findings` by this derivation, or null when it was rebuilt. */
  appended: OrdFinding[] | null;
  /** Derived codes per stream and event index, all of them; null when only `overlayAdds` changed. */
  overlays: Map<StreamS, Map<number, FindingCode[]>> | null;
  /** With `overlays` null: codes to add (candidates decided since the last derivation). */
  overlayAdds: [StreamS, number, FindingCode][];
}

function sameOverlay(a: [StreamS, number, FindingCode][], b: [StreamS, number, FindingCode][]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]![0] !== b[i]![0] || a[i]![1] !== b[i]![1] || a[i]![2] !== b[i]![2]) return false;
  return true;
}

function codeFor(m: Map<string, FindingCode[]>, f: Finding): void {
  if (f.requestId === undefined) return;
  const l = m.get(f.requestId);
  if (!l) m.set(f.requestId, [f.code]);
  else if (!l.includes(f.code)) l.push(f.code);
}

/** Add one derived code to an event of the shared array (see applyOverlay). */
export function addOverlayCode(st: StreamS, idx: number, code: FindingCode): boolean {
  st.overlay ??= new Map();
  const l = st.overlay.get(idx);
  if (l) l.push(code);
  else st.overlay.set(idx, [code]);
  st.base ??= new Map();
  let b = st.base.get(idx);
  if (!b) {
    b = st.events[idx];
    if (!b) return false;
    st.base.set(idx, b);
  }
  const shown = st.events[idx]!;
  if (shown.findings.includes(code)) return false;
  st.events[idx] = { ...b, findings: [...shown.findings, code] };
  return true;
}

export function deriveSession(s: SessionState, finished: boolean, opts: ResolvedOptions, lost: LostIds): Derived {
  const v = idView(s);
  const trackOf = (st: StreamS): IdTrack => (v.tracks ? v.tracks.get(st) ?? NO_TRACK : st);
  const counted = (k: IdScheme['kind']) => k === 'contiguous' || k === 'sparse';
  let inferred = inferScheme(v.stats, s.override);
  if (counted(inferred.kind) && !inferred.override) inferred = { ...inferred, evidence: inferred.evidence + radixNote(s, v) };
  let scheme: IdScheme =
    s.idReuse > 0 && counted(inferred.kind) && !inferred.override
      ? { ...inferred, scope: 'stream' as const, evidence: `${inferred.evidence}; each stream counts on its own (${s.idReuse} id(s) repeated on other streams)` }
      : inferred;
  // Other sessions of the endpoint whose ids are the same events as this session's: none when the
  // server numbers each session on its own (the same ids delivered afresh in two sessions).
  const peers = s.ep && s.ep.reuse === 0 && s.ep.sessions.length > 1 ? s.ep.sessions.filter((x) => x !== s) : undefined;
  const eligible = peers !== undefined && counted(scheme.kind) && scheme.scope === 'session' && !scheme.override;
  const witness = eligible ? sharedWitness(s, v, peers) : undefined;
  // Re-derived when another session of the endpoint changes (see the snapshot): its shared-counter
  // test, and the ids they delivered that are no gap here.
  s.sharedCheck = eligible || (peers !== undefined && scheme.kind === 'contiguous');
  if (witness) {
    const g = v.stats.groups.get(witness.prefix)!;
    const eg = v.stats.examples.map((e) => `"${e}"`).join(', ');
    scheme = {
      kind: 'sparse',
      scope: 'server',
      evidence: `increasing, but one counter shared by several sessions of this server: id ${formatId(witness.prefix, witness.x, g.width, g.hex)}, inside this session's range, was delivered in session ${witness.other.sessionId ?? witness.other.key}, so ids missing here may be another session's: order can be checked, gaps cannot (ids ${eg})${radixNote(s, v)}`,
    };
  }
  const contiguous = scheme.kind === 'contiguous';
  const ordered = contiguous || scheme.kind === 'sparse';
  const anyOpen = !finished && s.streams.some(stillOpen);
  let incomplete = 0;
  for (const x of s.streams) if (x.captureIncomplete) incomplete++;
  // Records the capture does not hold (lost-ids.ts): missing ids they may have carried are no
  // proof of a server's drop.
  const lossRev = lost.rev(s);
  let parts: LostPart[] | undefined;
  const perStream = scheme.scope === 'stream';
  // Gap candidates are decided again only when something they depend on changed; otherwise only
  // the candidates added since the last derivation are (see IncState).
  // Ids another session of the endpoint delivered are never a gap here (they are that session's).
  let peerRev = -1;
  if (peers && contiguous) {
    peerRev = 0;
    for (const t of peers) peerRev += idView(t).stats.ids;
  }
  const key = `${v.hex ? 'h' : 'm'}|${scheme.kind}|${scheme.scope ?? ''}|${anyOpen ? 1 : 0}|${s.idReuse > 0 ? 1 : 0}|${v.stats.fills}|${incomplete}|${lossRev}|${peerRev}`;
  let inc = s.inc;
  const fullCand = !inc || inc.key !== key;
  if (!inc || fullCand) {
    inc = s.inc = {
      key,
      nCand: 0,
      candFindings: [],
      candOverlay: [],
      gapOrds: new Map(),
      gapCount: 0,
      gapTexts: [],
      unvTexts: [],
      unvCount: 0,
      nPush: 0,
      other: undefined,
      otherText: '',
      reqOv: [],
      out: [],
      reqCodes: new Map(),
      absentDeps: new Map(),
    };
  }
  const I = inc;
  // chain root -> confirmed losses: [prevOrd, ord, missing ids text ('' for cross-stream)]
  const gapOrds = I.gapOrds;
  /** Findings and overlay entries of the candidates decided now. */
  const newCand: OrdFinding[] = [];
  const newOv: [StreamS, number, FindingCode][] = [];
  let findings: OrdFinding[] = newCand;
  let ovList: [StreamS, number, FindingCode][] = newOv;
  const overlay = (st: StreamS, idx: number, code: FindingCode) => {
    ovList.push([st, idx, code]);
  };
  const gapText = (text: string, unverifiable: boolean) => {
    if (unverifiable) {
      I.unvCount++;
      if (I.unvTexts.length < 20) I.unvTexts.push(text);
      return;
    }
    I.gapCount++;
    if (I.gapTexts.length < 20) I.gapTexts.push(text);
  };
  const addLoss = (root: StreamS, loss: GapLoss) => {
    const l = gapOrds.get(root);
    if (l) l.push(loss);
    else gapOrds.set(root, [loss]);
  };
  const add = (at: number, code: FindingCode, { severity, ...f }: FindingInput) => {
    findings.push({ ord: at, f: { code, severity: severity ?? SEVERITY[code], sessionKey: s.key, sessionId: s.sessionId, ...f } });
  };
  /** A gap whose missing ids may be on streams the file holds no body for: those streams' findings name it. */
  const absentDep = (by: readonly StreamS[], text: string, st: StreamS) => {
    for (const x of by) {
      const l = I.absentDeps.get(x);
      const what = `ids ${text} missing on ${st.id}, which may be on it`;
      if (!l) I.absentDeps.set(x, [what]);
      else if (l.length < 5 && !l.includes(what)) l.push(what);
    }
  };
  // The hexadecimal reading compares the ids kept around lost records in base 16 too.
  const reread = v.hex ? (p: ParsedId) => parseIdHex(formatId(p.prefix, p.counter, p.width, p.hex)) : undefined;

  for (let ci = I.nCand; ci < v.candidates.length; ci++) {
    const c = v.candidates[ci]!;
    const st = c.stream;
    const req = st.root.requests[0];
    if ((c.kind === 'live' || c.kind === 'replay') && contiguous) {
      // Ids reused by different streams (each stream counts on its own): only the chain's own
      // deliveries can fill its gaps.
      const set = s.idReuse > 0 ? trackOf(st.root).chainIds.get(c.prefix) : v.stats.groups.get(c.prefix)?.set;
      if (!set) continue;
      const sig = `${anyOpen ? 1 : 0}${st.captureIncomplete ? 1 : 0}${st.resumes ? st.resumes.id : ''}|${lossRev}|${peerRev}`;
      const memo = c.memo;
      if (memo && memo.set === set && memo.fills === set.fills && memo.sig === sig) {
        if (!memo.gap) continue;
        const { f, text, code, unverifiable, absent } = memo.gap;
        gapText(text, unverifiable);
        addLoss(st.root, [c.prevOrd, c.ord, text, unverifiable]);
        overlay(st, c.eventIndex, code);
        absentDep(absent, text, st);
        findings.push(f);
        continue;
      }
      c.memo = { set, fills: set.fills, sig };
      let missing = set.missingIn(c.from, c.to);
      if (peers && missing.length > 0) {
        for (const t of peers) {
          const tg = idView(t).stats.groups.get(c.prefix);
          if (tg && !tg.hex === !c.hex) missing = minusSet(missing, tg.set);
        }
      }
      if (missing.length === 0) continue;
      // Ids that records the capture does not hold may have carried are no proof of a drop: the
      // finding stays (no stream in the capture delivered them) but as a warning, unless some of
      // the ids cannot be in any of those records.
      const cover = coverMissing(missing, c, (parts ??= sessionParts(s, lost)), perStream, v.parse, reread);
      const unverifiable = cover.rest.length === 0;
      const shown = unverifiable ? missing : cover.rest;
      const n = countRanges(shown);
      const text = describeRanges(shown, c.prefix, c.width, c.hex);
      const absent: StreamS[] = [];
      for (const part of cover.by) if (part.stream?.bodyAbsent && !absent.includes(part.stream)) absent.push(part.stream);
      absentDep(absent, describeRanges(cover.covered, c.prefix, c.width, c.hex), st);
      const code: FindingCode = c.kind === 'replay' ? 'replay-gap' : 'live-gap';
      gapText(text, unverifiable);
      addLoss(st.root, [c.prevOrd, c.ord, text, unverifiable]);
      overlay(st, c.eventIndex, code);
      const how =
        c.kind === 'replay'
          ? c.atResume
            ? `the client resumed from ${c.prevId ?? '?'} and the replay continued at ${c.id}`
            : `the resumed stream went from ${c.prevId ?? '?'} to ${c.id}`
          : `the connection went from ${c.prevId ?? '?'} to ${c.id} without a reconnect`;
      const Ids = (k: number) => (k === 1 ? 'Id' : 'Ids');
      let message: string;
      if (unverifiable)
        message = `${Ids(n)} ${text} ${n === 1 ? 'was' : 'were'} delivered by no stream in the capture (${how}), but ${n === 1 ? 'it' : 'they'} may be in records the capture does not hold: ${describeParts(cover.by)}. Whether the server dropped ${n === 1 ? 'it' : 'them'} cannot be known.`;
      else {
        message = `${Ids(n)} ${text} never delivered: ${how}${c.kind === 'live' ? `, and no other stream of the session carried ${n === 1 ? 'it' : 'them'}` : ''}.`;
        if (cover.covered.length > 0) {
          const k = countRanges(cover.covered);
          message += ` (${Ids(k)} ${describeRanges(cover.covered, c.prefix, c.width, c.hex)} may be in records the capture does not hold: ${describeParts(cover.by)}; ${n === 1 ? 'this one cannot' : 'these cannot'}.)`;
        }
      }
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
      if (anyOpen) f.pending = true;
      add(c.ord, code, f);
      c.memo.gap = { f: findings[findings.length - 1]!, text, code, unverifiable, absent };
    } else if (c.kind === 'reorder' && ordered) {
      overlay(st, c.eventIndex, 'replay-reordered');
      add(c.ord, 'replay-reordered', {
        streamId: st.id,
        eventIds: [c.id],
        eventIndex: c.eventIndex,
        ...(req ? { requestId: req.id } : {}),
        message: `Event ${c.id} arrived after ${c.prevId ?? 'a later id'} on the same connection: the ids went backwards.`,
      });
    } else if (c.kind === 'cross-prefix' && ordered && scheme.scope === 'stream') {
      overlay(st, c.eventIndex, 'replay-cross-stream');
      addLoss(st.root, [c.prevOrd, c.ord, '', false]);
      const run = I.crossRun;
      if (run && run.st === st && run.idx === c.eventIndex - 1 && run.prefix === c.prefix) {
        // Contiguous events of the same foreign prefix: one finding for the run.
        run.idx = c.eventIndex;
        run.f.eventIds.push(c.id);
        const ids = run.f.eventIds;
        run.f.message = `The resumed stream delivered ${ids.length} events (ids ${idRun(ids)}) whose ids belong to another stream than the one resumed from ${c.prevId ?? 'its cursor'}.`;
        continue;
      }
      add(c.ord, 'replay-cross-stream', {
        streamId: st.id,
        relatedStreamIds: st.resumes ? [st.resumes.id] : [],
        eventIds: [c.id],
        eventIndex: c.eventIndex,
        ...(req ? { requestId: req.id } : {}),
        message: `The resumed stream delivered event ${c.id}, whose id belongs to another stream than the one resumed from ${c.prevId ?? 'its cursor'}.`,
      });
      I.crossRun = { st, idx: c.eventIndex, prefix: c.prefix, f: findings[findings.length - 1]!.f };
    }
  }

  I.nCand = v.candidates.length;
  for (const f of newCand) I.candFindings.push(f);
  for (const o of newOv) I.candOverlay.push(o);

  // Everything below is recomputed at each derivation: its size is in resumes and requests.
  const other: OrdFinding[] = [];
  const reqOv: [StreamS, number, FindingCode][] = [];
  findings = other;
  ovList = reqOv;

  // Reconnects that cannot be verified.
  const unverifiedRoots = new Map<StreamS, number[]>();
  if (!contiguous && !s.gaplessDeclared) {
    for (const r of s.resumes) {
      // A refused resume replayed nothing: resume-rejected says it.
      if ((r.status !== undefined && r.status >= 400) || (r.state !== 'open' && r.events.length === 0 && r.status === undefined)) continue;
      const l = unverifiedRoots.get(r.root);
      if (l) l.push(r.ord);
      else unverifiedRoots.set(r.root, [r.ord]);
      const req = r.root.requests[0];
      add(r.ord, 'replay-unverifiable', {
        streamId: r.id,
        relatedStreamIds: r.resumes ? [r.resumes.id] : [],
        eventIds: r.lastEventIdSent !== undefined ? [r.lastEventIdSent] : [],
        ...(req ? { requestId: req.id } : {}),
        message: `The client resumed${r.lastEventIdSent !== undefined ? ` from ${r.lastEventIdSent}` : ''}, but ${scheme.kind === 'none' ? 'the event ids are absent' : scheme.kind === 'undetermined' ? 'too few event ids were seen to tell whether they count' : scheme.scope === 'server' ? 'the event ids come from a counter shared with other sessions' : `the event ids are ${scheme.kind}`} and the server did not declare gapless retention: whether the replay left events out cannot be checked.`,
      });
    }
  }

  // Another session's events replayed on a resumed stream of this one (ids that session received
  // afresh): one finding per run of contiguous events from the same session.
  const crossLoss = new Map<StreamS, GapLoss[]>();
  const foreign = new Set<string>();
  if (s.crossIn && s.ep && s.ep.reuse === 0) {
    const hits = s.crossIn.slice().sort((a, b) => a.stream.ord - b.stream.ord || a.index - b.index);
    let run: { st: StreamS; idx: number; from: SessionState | undefined; others: string[]; responses: string[]; f: Finding } | undefined;
    const render = (r: NonNullable<typeof run>) => {
      const ids = r.f.eventIds;
      const n = ids.length;
      const them = r.from?.sessionId ?? '(unknown)';
      r.f.message =
        `The stream resuming ${r.st.root.id} in session ${s.sessionId ?? s.key} delivered ${n === 1 ? `event ${ids[0]}` : `${n} events (ids ${idRun(ids)})`}, which session ${them} had received on its own stream ${r.others.join(', ')}: the server replayed another session's events into this one (a store shared by the sessions whose streams collide, e.g. keyed by JSON-RPC request id).` +
        (r.responses.length ? ` ${r.responses.join(' ')}` : '');
    };
    for (const h of hits) {
      const ev = h.stream.events[h.index];
      if (!ev || ev.id === undefined) continue;
      overlay(h.stream, h.index, 'replay-cross-stream');
      const l = crossLoss.get(h.stream.root);
      const loss: GapLoss = [h.ord - 1, h.ord, CROSS_SESSION, false];
      if (l) l.push(loss);
      else crossLoss.set(h.stream.root, [loss]);
      foreign.add(`${h.stream.id}\u0000${h.index}`);
      const from = h.other.session;
      const resp = ev.messages.filter((m) => (m.kind === 'result' || m.kind === 'error') && m.id !== undefined);
      const respText = resp.map((m) => `Event ${ev.id} carries the ${m.kind} of session ${from?.sessionId ?? '(unknown)'}'s request ${m.id}, which this session's request ${m.id} took as its own.`);
      if (run && run.st === h.stream && run.idx === h.index - 1 && run.from === from) {
        run.idx = h.index;
        run.f.eventIds.push(ev.id);
        if (!run.others.includes(h.other.id)) run.others.push(h.other.id);
        for (const t of respText) run.responses.push(t);
        render(run);
        continue;
      }
      const req = h.stream.root.requests[0];
      add(h.ord, 'replay-cross-stream', {
        streamId: h.stream.id,
        relatedStreamIds: [h.stream.root.id, h.other.id].filter((x, i, a) => x !== h.stream.id && a.indexOf(x) === i),
        eventIds: [ev.id],
        eventIndex: h.index,
        ...(req ? { requestId: req.id } : {}),
        message: '',
      });
      run = { st: h.stream, idx: h.index, from, others: [h.other.id], responses: respText, f: findings[findings.length - 1]!.f };
      render(run);
    }
  }

  // Streams the file holds no body for: a warning naming what depends on them, info otherwise.
  for (const x of s.streams) {
    if (!x.bodyAbsent || x.absentOrd === undefined) continue;
    const deps: string[] = [];
    const waiting = s.legacyStream === x ? s.requests : x.root.requests;
    for (const r of waiting) {
      if (r.response === undefined) deps.push(`request ${r.id} (${r.method}), whose result may be on it`);
      else if (x.root === r.stream.root) deps.push(`request ${r.id} (${r.method}), whose notifications on it cannot be checked`);
    }
    for (const t of I.absentDeps.get(x) ?? []) deps.push(t);
    if (x.capture !== 'json') {
      for (const r of s.resumes) {
        const c = r.lastEventIdSent;
        if (r === x || !c || r.start < x.start || s.idIndex.get(c, s.parse(c))) continue;
        deps.push(`the Last-Event-ID ${c} of ${r.id}, which may have been delivered on it`);
      }
    }
    const req = x.root.requests.find((q) => q.response === undefined) ?? x.root.requests[0];
    const sse = x.capture !== 'json';
    add(x.absentOrd, 'capture-gap', {
      severity: deps.length > 0 ? 'warning' : 'info',
      streamId: x.id,
      eventIds: x.lastEventIdSent !== undefined ? [x.lastEventIdSent] : [],
      ...(req ? { requestId: req.id } : {}),
      ...(x.resumes ? { relatedStreamIds: [x.resumes.id] } : {}),
      message:
        `The file holds no body for this response (${x.method} ${x.url}${x.status !== undefined ? `, HTTP ${x.status}` : ''}${x.kind === 'resume' ? `, resume with Last-Event-ID ${x.lastEventIdSent ?? ''}` : ''}): HAR writers omit the bodies of aborted or cut ${sse ? 'event streams' : 'responses'}, so ${sse ? 'the events on it' : 'what it carried'} cannot be checked — not an empty ${sse ? 'stream' : 'answer'}.` +
        (deps.length > 0
          ? ` What depends on it: ${deps.slice(0, 6).join('; ')}${deps.length > 6 ? `; … (${deps.length - 6} more)` : ''}.`
          : ' Nothing in the analysis depends on it: no request\'s result, no missing id and no resume cursor can be on it.'),
    });
  }

  // Requests and verdicts.
  const requests: RequestInfo[] = [];
  const reqFindings = new Map<string, FindingCode[]>();
  for (const r of s.requests) {
    const root = r.stream.root;
    let verdict: Verdict;
    if (r.response !== undefined) {
      const respOrd = r.responseOrd!;
      const resyncs = root.resyncOrds.concat(s.resyncOrds);
      // A resync after the loss and before the result: the client was told to discard.
      const discounted = (prevOrd: number) => resyncs.some((x) => x > prevOrd && x < respOrd);
      const losses: GapLoss[] = (gapOrds.get(root) ?? []).concat(root.crossOrds.map((o) => [o - 1, o, '', false] as GapLoss), crossLoss.get(root) ?? []);
      const lossesBefore = losses.filter(([, o]) => o >= r.ord && o <= respOrd);
      // Gaps whose ids may be in records the capture does not hold make the result unverifiable,
      // not lossy: whether events were lost cannot be known.
      const certain = lossesBefore.filter((l) => !l[3]);
      const affected = certain.some(([p]) => !discounted(p));
      const maybe = lossesBefore.filter((l) => l[3] && !discounted(l[0]));
      const unverified = (unverifiedRoots.get(root) ?? []).some((o) => o >= r.ord && o < respOrd);
      const incomplete = root.segments.some((x) => x.captureIncomplete);
      // Another session's result taken as this request's own: wrong whatever it accumulated.
      const foreignResult = r.responseStream !== undefined && r.responseIndex !== undefined && foreign.has(`${r.responseStream.id}\u0000${r.responseIndex}`);
      if ((affected && r.cumulative > 0) || foreignResult) {
        verdict = 'lossy';
        if (r.responseIndex !== undefined) overlay(r.responseStream!, r.responseIndex, 'lossy-result-accepted');
        add(respOrd, 'lossy-result-accepted', {
          streamId: r.responseStream!.id,
          relatedStreamIds: root.segments.map((x) => x.id).filter((x) => x !== r.responseStream!.id),
          requestId: r.id,
          eventIds: [],
          ...(r.responseIndex !== undefined ? { eventIndex: r.responseIndex } : {}),
          // decided on gaps that another open stream could still fill
          ...(anyOpen && !certain.some((l) => l[2] === '' || l[2] === CROSS_SESSION) ? { pending: true } : {}),
          message: foreignResult
            ? `The client accepted the ${r.response} of request ${r.id} (${r.method}) from an event another session had received (${lossText(certain)}): the result is that session's, not this request's. Discard it and re-issue the call.`
            : `The client accepted the ${r.response} of request ${r.id} (${r.method}) although the stream it was built from lost events (${lossText(certain)}) and it had received ${r.cumulative} cumulative notification(s): the result looks complete but the accumulated output is not. Discard it and re-issue the call or read the state explicitly.`,
        });
      } else if ((unverified || maybe.length > 0) && r.cumulative > 0) {
        verdict = 'complete-unverified';
        if (r.responseIndex !== undefined) overlay(r.responseStream!, r.responseIndex, 'unverified-result-accepted');
        const why = [
          ...(unverified ? ['after a reconnect whose replay cannot be checked'] : []),
          ...(maybe.length > 0 ? [`after ids ${maybe.map((l) => l[2]).join('; ')} that no stream in the capture delivered and that may be in records the capture does not hold`] : []),
        ].join(', and ');
        add(respOrd, 'unverified-result-accepted', {
          streamId: r.responseStream!.id,
          requestId: r.id,
          eventIds: [],
          ...(r.responseIndex !== undefined ? { eventIndex: r.responseIndex } : {}),
          ...(anyOpen && maybe.length > 0 && !unverified ? { pending: true } : {}),
          message: `The client accepted the ${r.response} of request ${r.id} (${r.method}) ${why}, with ${r.cumulative} cumulative notification(s) received: if ${maybe.length > 0 ? 'events were left out' : 'the replay left events out'}, the accumulated output is incomplete. Read the state explicitly before trusting it.`,
        });
      } else if (lossesBefore.length > 0 || unverified || incomplete || (r.dupCumulative ?? 0) > 0) verdict = 'complete-unverified';
      else verdict = 'complete';
    } else {
      const post = r.stream;
      const httpError = post.status !== undefined && post.status >= 400;
      const last = root.segments[root.segments.length - 1]!;
      // The client may still resume a broken stream, unless it gave up: it cancelled the request,
      // or the page itself aborted the last stream of the chain.
      const mayResume = !finished && last.state === 'error' && root.chainCursor !== undefined && !r.cancelled;
      const unknownBody = root.segments.filter((x) => x.bodyAbsent || x.captureIncomplete);
      // Legacy HTTP+SSE: results arrive on the GET stream that announced the endpoint.
      const legacyWait = s.legacyStream !== undefined && s.legacyStream.state === 'open';
      const longLived = opts.longLivedMethods.includes(r.method);
      if (chainOpen(root) || post.deferSession || mayResume || legacyWait) verdict = 'pending';
      else if (longLived) verdict = last.state === 'aborted' || last.state === 'unread' ? 'complete' : 'incomplete';
      else {
        verdict = 'incomplete';
        if (!httpError && unknownBody.length > 0) {
          // No result seen, but a stream that could hold it was not (fully) captured: unknown.
          add(last.endOrd ?? last.ord, 'capture-gap', {
            // Only bodies the file did not keep, or records not kept while recording was off:
            // unknowable, a warning; records the inspector lost: an error.
            severity: unknownBody.every((x) => x.bodyAbsent || notRecordedOnly(x)) ? 'warning' : 'error',
            streamId: unknownBody[unknownBody.length - 1]!.id,
            relatedStreamIds: root.segments.filter((x) => x !== unknownBody[unknownBody.length - 1]).map((x) => x.id),
            requestId: r.id,
            eventIds: root.chainCursor !== undefined ? [root.chainCursor] : last.lastEventIdSent !== undefined ? [last.lastEventIdSent] : [],
            message:
              `No result was seen for request ${r.id} (${r.method}), but whether one arrived cannot be known: ` +
              (unknownBody.some((x) => x.bodyAbsent)
                ? `the file holds no body for ${unknownBody.map((x) => x.id).join(', ')} (HAR writers omit the bodies of aborted or cut event streams)`
                : unknownBody.every(notRecordedOnly)
                  ? `records of ${unknownBody.map((x) => x.id).join(', ')} from before recording began were not kept ("capture while DevTools is closed" is off)`
                  : `the inspector lost records of ${unknownBody.map((x) => x.id).join(', ')}`) +
              `${root.segments.length > 1 ? `; the chain has ${root.segments.length} streams, the last resumed from ${last.lastEventIdSent ?? '?'}` : ''}. Not reported as result-missing.`,
          });
        } else if (!httpError) {
          const idx = s.requests.indexOf(r);
          const key = paramsKey(r);
          const reissue = s.requests.find((q, i) => i > idx && q.method === r.method && paramsKey(q) === key);
          add(last.endOrd ?? last.ord, 'result-missing', {
            streamId: last.id,
            relatedStreamIds: root.segments.filter((x) => x !== last).map((x) => x.id),
            requestId: r.id,
            eventIds: root.chainCursor !== undefined ? [root.chainCursor] : [],
            message:
              `Request ${r.id} (${r.method}) never received a result: ` +
              (root.segments.length > 1 ? `all ${root.segments.length} streams of its chain ended` : last.state === 'error' ? 'its stream broke and was not resumed' : last.state === 'aborted' ? 'the client closed its stream' : 'its stream ended') +
              `${root.chainCursor !== undefined ? ` (last event id ${root.chainCursor})` : ''} without one.` +
              (endedByDelete(s, last)
                ? ' The stream stayed open without it until the client ended the session (DELETE).'
                : last.state === 'complete' || last.state === 'unknown'
                  ? ' The server closed the stream without it: a client waits until its timeout.'
                  : '') +
              (r.cancelled ? ' The client gave up and cancelled it (notifications/cancelled).' : '') +
              (reissue ? ` It was re-issued as request ${reissue.id}.` : ''),
          });
        }
      }
    }
    const info: RequestInfo = {
      id: r.id,
      method: r.method,
      streamId: r.stream.id,
      verdict,
      notifications: r.notifications,
      notificationCount: r.notifications.length,
      cumulativeCount: r.cumulative,
      findings: [],
      start: r.start,
    };
    if (r.params !== undefined) info.params = r.params;
    if (r.progressToken !== undefined) info.progressToken = r.progressToken;
    if (r.responseStream) info.responseStreamId = r.responseStream.id;
    if (r.response) info.response = r.response;
    if (r.end !== undefined) info.end = r.end;
    if (r.stream.status === 404 && r.stream.sessionHeader !== undefined) info.findings.push('session-expired');
    requests.push(info);
  }

  // The session's findings in ord order (I.out). While the recomputed part is what it was and
  // everything new comes after everything listed, the new findings are appended; else rebuilt.
  const otherText = JSON.stringify(other.map((x) => [x.ord, x.f]));
  const sameOther = !fullCand && I.other !== undefined && I.otherText === otherText && sameOverlay(I.reqOv, reqOv);
  let appended: OrdFinding[] | null = null;
  if (sameOther) {
    const fresh = s.findings.slice(I.nPush).concat(newCand);
    fresh.sort((a: OrdFinding, b: OrdFinding) => a.ord - b.ord);
    const last = I.out.length ? I.out[I.out.length - 1]!.ord : -Infinity;
    if (fresh.length === 0 || fresh[0]!.ord > last) {
      for (const x of fresh) {
        I.out.push(x);
        I.worst = worstOf(I.worst, x.f.severity);
        codeFor(I.reqCodes, x.f);
      }
      appended = fresh;
    }
  }
  if (!appended) {
    I.other = other;
    I.otherText = otherText;
    I.out = s.findings.concat(I.candFindings, other);
    I.out.sort((a, b) => a.ord - b.ord);
    I.worst = undefined;
    I.reqCodes = new Map();
    for (const { f } of I.out) {
      I.worst = worstOf(I.worst, f.severity);
      codeFor(I.reqCodes, f);
    }
  }
  I.nPush = s.findings.length;
  for (const info of requests) {
    const codes = I.reqCodes.get(info.id);
    if (codes) for (const c of codes) if (!info.findings.includes(c)) info.findings.push(c);
  }
  const worst = I.worst;
  const gapCount = I.gapCount;
  const gapTexts = I.gapTexts;

  const reasons: string[] = [];
  if (!s.gaplessDeclared) reasons.push('the server did not declare gapless event retention');
  if (s.resumes.length > 0) reasons.push(`${s.resumes.length} reconnect(s) with Last-Event-ID`);
  if (gapCount > 0) reasons.push(`ids ${gapTexts.join('; ')}${gapCount > gapTexts.length ? `; … (${gapCount - gapTexts.length} more gaps)` : ''} never delivered`);
  if (I.unvCount > 0)
    reasons.push(`ids ${I.unvTexts.join('; ')}${I.unvCount > I.unvTexts.length ? `; … (${I.unvCount - I.unvTexts.length} more gaps)` : ''} delivered by no stream in the capture (they may be in records the capture does not hold)`);
  if (s.resyncOrds.length > 0 || s.streams.some((x) => x.resyncOrds.length > 0)) reasons.push('the server sent a resync');
  // A body an imported file does not hold was not lost by the inspector: the file says so.
  if (s.captureGap || s.streams.some((x) => x.captureIncomplete && !notRecordedOnly(x) && !(x.bodyAbsent && !x.inspectorLost))) reasons.push('the inspector lost records of this session');
  const absent = s.streams.filter((x) => x.bodyAbsent);
  if (absent.length > 0)
    reasons.push(`the file does not hold the body of ${absent.length} response(s) (${absent.slice(0, 5).map((x) => `${x.id}, ${x.method}${x.kind === 'resume' ? ' resume' : ''}`).join('; ')}${absent.length > 5 ? '; …' : ''}): what they carried is unknown`);
  if (foreign.size > 0) reasons.push(`${foreign.size} event(s) of another session replayed into this one`);
  if (s.notRecorded || s.streams.some(notRecordedOnly))
    reasons.push('recording began only when DevTools opened ("capture while DevTools is closed" is off): earlier events of streams open then are unknown');
  if (s.idReuse > 0) reasons.push(`${s.idReuse} event id(s) reused by different streams: Last-Event-ID is ambiguous`);

  const chains: ReconnectChain[] = [];
  for (const st of s.streams) {
    if (st.root !== st || st.segments.length < 2) continue;
    chains.push({
      rootStreamId: st.id,
      requestIds: st.requests.map((r) => r.id),
      segments: st.segments.map((x) => {
        const seg: ReconnectChain['segments'][number] = { streamId: x.id, events: x.events.length, state: x.state };
        if (x !== st && x.lastEventIdSent !== undefined) seg.resumedFrom = x.lastEventIdSent;
        if (x.firstId !== undefined) seg.firstId = x.firstId;
        if (x.lastId !== undefined) seg.lastId = x.lastId;
        if (x.status !== undefined) seg.status = x.status;
        return seg;
      }),
    });
  }

  const session: Session = {
    key: s.key,
    sessionId: s.sessionId,
    endpoint: s.endpoint,
    origin: s.origin,
    idScheme: scheme,
    gaplessDeclared: s.gaplessDeclared,
    lossless: reasons.length === 0,
    losslessReasons: reasons,
    streamIds: s.streams.map((x) => x.id),
    requestIds: s.requests.map((r) => r.id),
    chains,
  };
  if (s.protocolVersion !== undefined) {
    session.protocolVersion = s.protocolVersion;
    session.protocolVersionSource = s.pvRank === 3 ? 'initialize-result' : s.pvRank === 2 ? 'header' : 'initialize-request';
  }
  if (worst !== undefined) session.worst = worst;
  // Derived finding codes on events: all of them when rebuilt, else only the new candidates'.
  let overlays: Derived['overlays'] = null;
  if (!appended || !sameOther) {
    overlays = new Map();
    I.reqOv = reqOv;
    for (const [st, idx, code] of I.candOverlay.concat(reqOv)) {
      let m = overlays.get(st);
      if (!m) overlays.set(st, (m = new Map()));
      const l = m.get(idx);
      if (l) l.push(code);
      else m.set(idx, [code]);
    }
  }
  return { session, requests, findings: I.out, appended, overlays, overlayAdds: overlays ? [] : newOv };
}

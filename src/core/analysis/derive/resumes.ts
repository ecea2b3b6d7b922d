// Recomputed at each derivation (their cost is in resumes and streams, not events): reconnects that
// cannot be verified, another session's events replayed into this one, and the streams an imported
// file holds no body for (a warning naming what depends on each, info when nothing does).
import { frozen } from '../findings-log';
import { absentBody, crossSession, crossSessionResponse, DEPENDS, unverifiableResume } from '../texts';
import type { OrdFinding, SessionState, StreamS } from '../state';
import { CROSS_SESSION, type GapLoss } from './cache';
import { add, overlay, type Derivation } from './context';
import { eventCount, eventId, eventMessages } from '../../event-access';

/** Resumes whose replay cannot be checked; returns their ords per chain root. */
export function unverifiedResumes(D: Derivation): Map<StreamS, number[]> {
  const roots = new Map<StreamS, number[]>();
  if (D.contiguous || D.s.gaplessDeclared) return roots;
  for (const r of D.s.resumes) {
    // A refused resume replayed nothing: resume-rejected says it. One with no response (still
    // waiting for it: the hook records a request when it is sent, or never answered) has
    // replayed nothing to judge either.
    if ((r.status !== undefined && r.status >= 400) || (r.status === undefined && eventCount(r) === 0)) continue;
    const l = roots.get(r.root);
    if (l) l.push(r.ord);
    else roots.set(r.root, [r.ord]);
    const req = r.root.requests[0];
    add(D, r.ord, 'replay-unverifiable', {
      streamId: r.id,
      relatedStreamIds: r.resumes ? [r.resumes.id] : [],
      eventIds: r.lastEventIdSent !== undefined ? [r.lastEventIdSent] : [],
      ...(req ? { requestId: req.id } : {}),
      message: unverifiableResume(r.lastEventIdSent, D.scheme),
    });
  }
  return roots;
}

export interface CrossSessionLoss {
  /** Per chain root, the losses the replayed events are. */
  losses: Map<StreamS, GapLoss[]>;
  /** `${stream id}\0${index}` of every replayed event. */
  foreign: Set<string>;
}

/**
 * Another session's events replayed on a resumed stream of this one (ids that session received
 * afresh): one finding per run of contiguous events from the same session.
 */
export function crossSessionReplays(D: Derivation): CrossSessionLoss {
  const { s } = D;
  const out: CrossSessionLoss = { losses: new Map(), foreign: new Set() };
  if (!s.crossIn || !s.ep || s.ep.reuse !== 0) return out;
  const hits = s.crossIn.slice().sort((a, b) => a.stream.ord - b.stream.ord || a.index - b.index);
  interface Run {
    st: StreamS;
    idx: number;
    from: SessionState | undefined;
    ids: string[];
    others: string[];
    responses: string[];
    entry: OrdFinding;
  }
  let run: Run | undefined;
  const close = (r: Run | undefined) => {
    if (!r) return;
    const message = crossSession(r.st.root.id, s.sessionId ?? s.key, r.ids, r.from?.sessionId ?? '(unknown)', r.others, r.responses);
    r.entry.f = frozen({ ...r.entry.f, eventIds: r.ids.slice(), message });
  };
  for (const h of hits) {
    const id = eventId(h.stream, h.index);
    if (id === undefined) continue;
    overlay(D, h.stream, h.index, 'replay-cross-stream');
    const l = out.losses.get(h.stream.root);
    const loss: GapLoss = [h.ord - 1, h.ord, CROSS_SESSION, false];
    if (l) l.push(loss);
    else out.losses.set(h.stream.root, [loss]);
    out.foreign.add(`${h.stream.id}\u0000${h.index}`);
    const from = h.other.session;
    const resp = eventMessages(h.stream, h.index).filter((m) => (m.kind === 'result' || m.kind === 'error') && m.id !== undefined);
    const respText = resp.map((m) => crossSessionResponse(id, m.kind, from?.sessionId ?? '(unknown)', m.id!));
    if (run && run.st === h.stream && run.idx === h.index - 1 && run.from === from) {
      run.idx = h.index;
      run.ids.push(id);
      if (!run.others.includes(h.other.id)) run.others.push(h.other.id);
      for (const t of respText) run.responses.push(t);
      continue;
    }
    close(run);
    const req = h.stream.root.requests[0];
    const entry = add(D, h.ord, 'replay-cross-stream', {
      streamId: h.stream.id,
      relatedStreamIds: [h.stream.root.id, h.other.id].filter((x, i, a) => x !== h.stream.id && a.indexOf(x) === i),
      eventIds: [id],
      eventIndex: h.index,
      ...(req ? { requestId: req.id } : {}),
      message: '',
    });
    run = { st: h.stream, idx: h.index, from, ids: [id], others: [h.other.id], responses: respText, entry };
  }
  close(run);
  return out;
}

/** Streams the file holds no body for: a warning naming what depends on them, info otherwise. */
export function absentBodies(D: Derivation): void {
  const { s } = D;
  for (const x of s.streams) {
    if (!x.bodyAbsent || x.absentOrd === undefined) continue;
    const deps: string[] = [];
    const waiting = s.legacyStream === x ? s.requests : x.root.requests;
    for (const r of waiting) {
      if (r.response === undefined) deps.push(DEPENDS.result(r.id, r.method));
      else if (x.root === r.stream.root) deps.push(DEPENDS.notifications(r.id, r.method));
    }
    for (const t of D.I.absentDeps.get(x) ?? []) deps.push(t);
    if (x.capture !== 'json') {
      for (const r of s.resumes) {
        const c = r.lastEventIdSent;
        if (r === x || !c || r.start < x.start || s.idIndex.get(c, s.parse(c))) continue;
        deps.push(DEPENDS.cursor(c, r.id));
      }
    }
    const req = x.root.requests.find((q) => q.response === undefined) ?? x.root.requests[0];
    add(D, x.absentOrd, 'capture-gap', {
      severity: deps.length > 0 ? 'warning' : 'info',
      streamId: x.id,
      eventIds: x.lastEventIdSent !== undefined ? [x.lastEventIdSent] : [],
      ...(req ? { requestId: req.id } : {}),
      ...(x.resumes ? { relatedStreamIds: [x.resumes.id] } : {}),
      message: absentBody(x, deps),
    });
  }
}

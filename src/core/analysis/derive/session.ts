// Snapshot-time derivation for one session: the id scheme, which gap candidates are real gaps,
// unverifiable reconnects, verdicts, the lossless flag and the reconnect chains. Runs only for
// sessions that changed since the last snapshot; its cost is in the number of candidates,
// requests, streams and resumes, not in the number of events. It reads the state and writes only
// its own cache (cache.ts); the derived event codes it returns are applied by the snapshot.
import type { Finding, FindingCode, RequestInfo, Session } from '../../model';
import type { ResolvedOptions } from '../../options';
import { worstOf } from '../../findings';
import type { LostIds } from '../lost-ids';
import { stillOpen } from '../streams';
import type { OrdFinding, SessionState, StreamS } from '../state';
import { newIncState, type DeriveCache, type Overlay } from './cache';
import type { Derivation } from './context';
import { abandonedChains, decideCandidates, undispatchedStreams } from './gaps';
import { absentBodies, crossSessionReplays, unverifiedResumes } from './resumes';
import { requestVerdicts } from './verdicts';
import { sessionModel } from './lossless';
import { idView, sessionScheme } from './scheme';
import { modernView } from './modern';
import { modernFindings } from './modern-findings';
import { eraMismatch } from './era-mismatch';
import { toolReruns } from './client-reruns';
import { clientUse } from './client-use';

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
  overlayAdds: Overlay[];
}

function sameOverlay(a: Overlay[], b: Overlay[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]![0] !== b[i]![0] || a[i]![1] !== b[i]![1] || a[i]![2] !== b[i]![2]) return false;
  return true;
}

/** A finding's code on the requests it names (a re-issue's finding on both requests). */
function codeFor(m: Map<string, FindingCode[]>, f: Finding): void {
  if (f.requestId === undefined) return;
  for (const id of f.relatedRequestIds ? [f.requestId, ...f.relatedRequestIds] : [f.requestId]) {
    const l = m.get(id);
    if (!l) m.set(id, [f.code]);
    else if (!l.includes(f.code)) l.push(f.code);
  }
}

export function newDeriveCache(): DeriveCache {
  return { memos: new Map(), sharedCheck: false };
}

export function deriveSession(s: SessionState, cache: DeriveCache, finished: boolean, opts: ResolvedOptions, lost: LostIds): Derived {
  const v = idView(s);
  const { scheme, peers } = sessionScheme(s, v, cache);
  const contiguous = scheme.kind === 'contiguous';
  const anyOpen = !finished && s.streams.some(stillOpen);
  let incomplete = 0;
  for (const x of s.streams) if (x.captureIncomplete) incomplete++;
  // Records the capture does not hold (lost-ids.ts): missing ids they may have carried are no
  // proof of a server's drop. Ids another session of the endpoint delivered are never a gap here.
  const lossRev = lost.rev(s);
  let peerRev = -1;
  if (peers && contiguous) {
    peerRev = 0;
    for (const t of peers) peerRev += idView(t).stats.ids;
  }
  // Gap candidates are decided again only when something they depend on changed; otherwise only
  // the candidates added since the last derivation are (see IncState).
  // (abandoned chains: ids they may have taken excuse a jump another stream read, derive/gaps.ts;
  // which ones, not how many: one can leave the set as another joins it)
  const abandoned = contiguous ? abandonedChains(s) : [];
  // (EventSource streams: ids may have come on events the browser did not dispatch)
  const undispatched = contiguous ? undispatchedStreams(s) : [];
  const abandonedSig = `${abandoned.map((x) => x.id).join(',')}/${undispatched.map((x) => x.id).join(',')}`;
  const key = `${v.hex ? 'h' : 'm'}|${scheme.kind}|${scheme.scope ?? ''}|${anyOpen ? 1 : 0}|${s.idReuse > 0 ? 1 : 0}|${v.stats.fills}|${incomplete}|${lossRev}|${peerRev}|${abandonedSig}`;
  const fullCand = !cache.inc || cache.inc.key !== key;
  if (fullCand) cache.inc = newIncState(key);
  const I = cache.inc!;
  const newCand: OrdFinding[] = [];
  const newOv: Overlay[] = [];
  const D: Derivation = { s, cache, I, v, scheme, contiguous, ordered: contiguous || scheme.kind === 'sparse', anyOpen, finished, opts, lost, peers, lossRev, peerRev, abandoned, undispatched, abandonedSig, findings: newCand, overlays: newOv };
  decideCandidates(D);
  for (const f of newCand) I.candFindings.push(f);
  for (const o of newOv) I.candOverlay.push(o);

  // Everything below is recomputed at each derivation: its size is in resumes and requests.
  const other: OrdFinding[] = [];
  const reqOv: Overlay[] = [];
  D.findings = other;
  D.overlays = reqOv;
  const unverifiedRoots = unverifiedResumes(D);
  const cross = crossSessionReplays(D);
  absentBodies(D);
  // 2026-07-28 conversations: re-issues, MRTR retries and subscriptions before the verdicts.
  if (s.era === 'modern') D.mv = modernView(D);
  const requests = requestVerdicts(D, unverifiedRoots, cross);
  modernFindings(D);
  eraMismatch(D);
  toolReruns(D);
  clientUse(D, requests);

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
  const session = sessionModel(D, cross.foreign.size, I.worst);
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

// One derivation of one session: what it reads (the session, its reading of ids, its scheme, the
// options) and the lists it writes (findings and derived event codes), shared by the derive steps.
import type { FindingCode, IdScheme, RequestLink } from '../../model';
import type { FindingInput } from '../../findings';
import type { ResolvedOptions } from '../../options';
import { frozen, makeFinding } from '../findings-log';
import type { LostIds } from '../lost-ids';
import type { IdTrack, IdView, OrdFinding, ReqState, SessionState, StreamS } from '../state';
import type { DeriveCache, IncState, Overlay } from './cache';
import type { ModernView } from './modern-view';

export interface Derivation {
  s: SessionState;
  cache: DeriveCache;
  I: IncState;
  v: IdView;
  scheme: IdScheme;
  contiguous: boolean;
  ordered: boolean;
  /** Before finish(), some stream of the session is still open: gaps it could fill are pending. */
  anyOpen: boolean;
  finished: boolean;
  opts: ResolvedOptions;
  lost: LostIds;
  peers: SessionState[] | undefined;
  /** Change counters of what the gap decisions read: lost parts, other sessions' ids. */
  lossRev: number;
  peerRev: number;
  /** The session's abandoned chains (derive/gaps.ts; none unless the scheme is contiguous). */
  abandoned: StreamS[];
  /** The session's EventSource streams seen through the page hook (derive/gaps.ts, undispatchedStreams). */
  undispatched: StreamS[];
  /** The stream ids of both: a gap decided under other ones is decided again. */
  abandonedSig: string;
  /** A 2026-07-28 conversation: its re-issues, MRTR retries and subscriptions (derive/modern.ts). */
  mv?: ModernView;
  /** Issue 19: links of text carried from lossy or partial output into later requests (derive/client-carried.ts). */
  carried?: RequestLink[];
  /** Requests by method and params, for finding a request sent again (derive/client-results.ts); built when first asked. */
  sameCalls?: Map<ReqState, { list: ReqState[]; at: number }>;
  /** Where the current step writes. */
  findings: OrdFinding[];
  overlays: Overlay[];
}

const NO_TRACK: IdTrack = { chainIds: new Map() };

/** A stream's track in the derivation's reading of ids. */
export function trackOf(D: Derivation, st: StreamS): IdTrack {
  return D.v.tracks ? D.v.tracks.get(st) ?? NO_TRACK : st;
}

/** Lists a finding of the session (a frozen value) at `at`. */
export function add(D: Derivation, at: number, code: FindingCode, f: FindingInput): OrdFinding {
  const entry: OrdFinding = { ord: at, f: frozen(makeFinding(D.s, code, f)) };
  D.findings.push(entry);
  return entry;
}

/** A derived finding code on event `idx` of `st`. */
export function overlay(D: Derivation, st: StreamS, idx: number, code: FindingCode): void {
  D.overlays.push([st, idx, code]);
}

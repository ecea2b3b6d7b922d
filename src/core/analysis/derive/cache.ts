// What derivation keeps between snapshots, per session: the only thing derivation writes. It reads
// the state (SessionState and what it links to) and the options, never changes them.
import type { FindingCode, RequestInfo, Session, Severity } from '../../model';
import type { IntervalSet } from '../../ids';
import type { Candidate, OrdFinding, ReqState, SessionState, StreamS } from '../state';

/**
 * A loss on a chain: [ord before, ord after, missing ids ('' for another stream's events,
 * CROSS_SESSION for another session's), unverifiable].
 */
export type GapLoss = [number, number, string, boolean];
export const CROSS_SESSION = '\u0001session';

/** A derived finding code on an event: [stream, event index, code]. */
export type Overlay = [StreamS, number, FindingCode];

/**
 * The last decision on a gap candidate (live / replay under a contiguous scheme), kept while
 * nothing it depends on changed: the set it was checked against and that set's `fills`, and the
 * session-level inputs. Saves redoing every old candidate at each snapshot of a live capture.
 */
export interface Memo {
  set: IntervalSet;
  fills: number;
  sig: string;
  gap?: { f: OrdFinding; text: string; code: FindingCode; unverifiable: boolean; absent: StreamS[] };
}

/** Contiguous cross-prefix events reported by one finding (remade as a new value when it grows). */
export interface CrossRun {
  st: StreamS;
  idx: number;
  prefix: string;
  entry: OrdFinding;
  ids: string[];
  cursor: string | undefined;
  grew: boolean;
}

/**
 * What deriveSession keeps between derivations so that a snapshot of a live capture costs what
 * changed: gap candidates are decided once while `key` (scheme, open streams, id reuse, id sets'
 * hole fills, incomplete streams) stays the same; the session's sorted findings are appended to
 * while the part recomputed each time (resumes, requests) is unchanged.
 */
export interface IncState {
  key: string;
  /** Candidates decided. */
  nCand: number;
  candFindings: OrdFinding[];
  candOverlay: Overlay[];
  /** Per chain root: [ord before the missing ids, ord after, their text, whether they may be in records the capture does not hold]. */
  gapOrds: Map<StreamS, GapLoss[]>;
  gapCount: number;
  /** The first 20 gaps, for the lossless reason (ids certainly never delivered / ids that may be in lost records). */
  gapTexts: string[];
  unvTexts: string[];
  unvCount: number;
  /** Push-time findings (SessionState.findings) already in `out`. */
  nPush: number;
  /** Findings recomputed at each derivation (unverifiable resumes, request verdicts), as in `out`. */
  other: OrdFinding[] | undefined;
  otherText: string;
  reqOv: Overlay[];
  /** All findings of the session in ord order. */
  out: OrdFinding[];
  /** Finding codes per request id, in ord order. */
  reqCodes: Map<string, FindingCode[]>;
  worst?: Severity;
  /** The last cross-prefix finding, extended while the next candidate is the next event. */
  crossRun?: CrossRun;
  /** Streams the file holds no body for, and the gaps decided so far whose missing ids may be on them. */
  absentDeps: Map<StreamS, string[]>;
}

/** The derivation cache of one session. */
export interface DeriveCache {
  inc?: IncState;
  memos: Map<Candidate, Memo>;
  /** An id of another session of the endpoint inside this session's range that it lacks (see scheme.ts). */
  sharedWitness?: { other: SessionState; prefix: string; x: number };
  /** Its analysis reads other sessions' ids (a possibly shared counter, ids they delivered): re-derive when they change. */
  sharedCheck: boolean;
  /** The last derivation's output. */
  out?: { session: Session; requests: RequestInfo[]; findings: OrdFinding[] };
  /** Issue 19: each legacy request's params key (method + params without `_meta`), made once (derive/client-loops.ts). */
  reqKeys?: WeakMap<ReqState, string>;
  /** The session's requests grouped by method and params as far as `n` (derive/client-results.ts: extended, not rebuilt). */
  sameCalls?: SameCalls;
}

/** Requests with the same method and params, in order: each request's list and its place in it. */
export interface SameCalls {
  requests: readonly ReqState[];
  /** How many of `requests` are grouped, and the last of them (a list that changed otherwise is grouped again). */
  n: number;
  last: ReqState | undefined;
  lists: Map<string, ReqState[]>;
  out: Map<ReqState, { list: ReqState[]; at: number }>;
}

export function newIncState(key: string): IncState {
  return {
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

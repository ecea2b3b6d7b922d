// Handles (s1 a session, st2 a stream, rq3 a request, f0 a finding): short names an agent reads in one answer and
// passes back in a later call. A live tab's snapshot changes between those calls (a stream whose
// initialize was answered late is listed among earlier ones, a finding decided later sorts before
// others, a navigation starts the analysis anew), so a handle is the number its object got when
// the capture first showed it, kept for the capture's life: a handle given out names the same
// object or none. A file's one snapshot numbers its objects in its own order, as always.
import type { AnalysisSnapshot, Finding, RequestInfo, Session } from '../../core/model';
import type { Capture } from './captures';
import { FindingNumbering } from './finding-numbers';

/** Numbers given to keys in the order first seen, never given again. */
class Numbering {
  private readonly keys: string[] = [];
  private readonly at = new Map<string, number>();

  /** The number of `key`, given now when it has none. */
  see(key: string): number {
    let n = this.at.get(key);
    if (n === undefined) {
      n = this.keys.length;
      this.keys.push(key);
      this.at.set(key, n);
    }
    return n;
  }

  numberOf(key: string): number | undefined {
    return this.at.get(key);
  }

  keyAt(n: number): string | undefined {
    return Number.isSafeInteger(n) && n >= 0 ? this.keys[n] : undefined;
  }
}

/** The numbering of one capture, for its life. */
class CaptureNumbering {
  readonly sessions = new Numbering();
  readonly streams = new Numbering();
  readonly findings = new FindingNumbering();
  readonly requests = new Numbering();
  /**
   * Page texts (session keys, stream ids, request ids: 60,000 characters seen) as small numbers,
   * so what a finding is about stays a short key.
   */
  private readonly texts = new Numbering();

  private text(s: string | undefined): string {
    return s === undefined ? '' : String(this.texts.see(s));
  }

  /** What a finding is about (see FindingNumbering): code, session, stream, request, the event it is anchored at. */
  private about(f: Finding): string {
    return `${f.code}|${this.text(f.sessionKey)}|${this.text(f.streamId)}|${this.text(f.requestId)}|${f.eventIndex ?? ''}`;
  }

  /**
   * A request is its session's, sent on one stream with one id; a client that sends an id again
   * on the same stream (a batch) makes the occurrence part of it.
   */
  private seeRequests(snap: AnalysisSnapshot, h: SnapshotHandles): void {
    for (const s of snap.sessions) {
      const seen = new Map<string, number>();
      for (const r of snap.requests[s.key] ?? []) {
        const about = `${this.text(s.key)}|${this.text(r.streamId)}|${this.text(r.id)}`;
        const k = (seen.get(about) ?? 0) + 1;
        seen.set(about, k);
        const n = this.requests.see(`${about}#${k}`);
        h.requests.set(r, n);
        h.requestAt.set(n, { session: s, request: r });
      }
    }
  }

  /** Numbers the objects of `snap` not seen before, in the snapshot's order. */
  see(snap: AnalysisSnapshot): SnapshotHandles {
    for (const s of snap.sessions) this.sessions.see(s.key);
    for (const id of Object.keys(snap.streams)) this.streams.see(id);
    const h: SnapshotHandles = { of: this, findings: new Map(), requests: new Map(), requestAt: new Map() };
    const numbers = this.findings.see(snap.findings, (f) => this.about(f));
    snap.findings.forEach((f, i) => h.findings.set(f, numbers[i]!));
    this.seeRequests(snap, h);
    return h;
  }
}

/** The numbering a snapshot's answers use, with the numbers of its findings and requests (known by their objects). */
export interface SnapshotHandles {
  of: CaptureNumbering;
  findings: Map<Finding, number>;
  requests: Map<RequestInfo, number>;
  requestAt: Map<number, { session: Session; request: RequestInfo }>;
}

const ofCapture = new WeakMap<Capture, CaptureNumbering>();
const ofSnapshot = new WeakMap<AnalysisSnapshot, SnapshotHandles>();

/**
 * The capture's current snapshot, its objects numbered in the capture's numbering. Every tool
 * reads a capture through this (captureFor, captureView), so a snapshot a live capture took since
 * the last call is numbered before any answer names its objects.
 */
export function keepHandles(c: Capture): AnalysisSnapshot {
  const snap = c.snapshot();
  let n = ofCapture.get(c);
  if (!n) ofCapture.set(c, (n = new CaptureNumbering()));
  if (ofSnapshot.get(snap)?.of !== n) ofSnapshot.set(snap, n.see(snap));
  return snap;
}

/** The handles of a snapshot: its capture's, or (a snapshot no capture gave) its own order. */
export function handlesOf(snap: AnalysisSnapshot): SnapshotHandles {
  let h = ofSnapshot.get(snap);
  if (!h) ofSnapshot.set(snap, (h = new CaptureNumbering().see(snap)));
  return h;
}

// Findings as values. A stage adds a finding once, as a frozen object; a finding that grows after
// it was listed (a run of events reported together, a capture gap whose note grows) is a Growing
// whose value is remade as a new object before the next snapshot. A snapshot therefore never
// holds an object that changes later (test/unit/core/values.test.ts), and identity tells a UI
// what changed.
import type { Finding, FindingCode, SseEvent } from '../model';
import { SEVERITY, type FindingInput } from '../findings';
import { NO_SESSION, type FindingRun, type Growing, type OrdFinding, type SessionState, type StreamS } from './state';
import { type AnalyzerState } from './analyzer-state';

/** Shared by every event without finding codes (copy on write: never mutated). */
export const NO_CODES = Object.freeze([]) as unknown as FindingCode[];

/** Adds a finding code to the event being built (events already in a snapshot are never changed here). */
export function addCode(ev: SseEvent, code: FindingCode): void {
  if (ev.findings === NO_CODES) ev.findings = [code];
  else ev.findings.push(code);
}

/** Freezes a finding and its arrays: it is a value from here on. */
export function frozen(f: Finding): Finding {
  Object.freeze(f.eventIds);
  if (f.relatedStreamIds) Object.freeze(f.relatedStreamIds);
  if (f.relatedRequestIds) Object.freeze(f.relatedRequestIds);
  return Object.freeze(f);
}

/** A finding of `code` in session `s` (or of no session), at capture position `at`. */
export function makeFinding(s: SessionState | undefined, code: FindingCode, { severity, ...f }: FindingInput): Finding {
  return { code, severity: severity ?? SEVERITY[code], sessionKey: s ? s.key : NO_SESSION, sessionId: s ? s.sessionId : null, ...f };
}

/** Lists a finding at `at`; returns its slot. */
export function addFinding(A: AnalyzerState, s: SessionState | undefined, at: number, code: FindingCode, f: FindingInput): OrdFinding {
  const entry: OrdFinding = { ord: at, f: frozen(makeFinding(s, code, f)) };
  (s ? s.findings : A.globalFindings).push(entry);
  if (s) s.dirty = true;
  return entry;
}

/** `g` changed: its value is remade before the next snapshot. */
export function touch(A: AnalyzerState, g: Growing, s: SessionState | undefined): void {
  if (!g.stale) {
    g.stale = true;
    A.stale.push(g);
  }
  if (s) s.dirty = true;
}

/** Remakes the values of the findings that changed since the last snapshot. */
export function settle(A: AnalyzerState): void {
  for (const g of A.stale) {
    g.entry.f = frozen(g.make());
    g.stale = false;
  }
  A.stale.length = 0;
}

/** The value of a run: its ids so far and the message they give. */
function runValue(run: FindingRun): Finding {
  const ids = run.ids.slice();
  return { ...run.entry.f, eventIds: ids, message: run.render(ids, ids.length) + (run.note ?? '') };
}

/**
 * One finding per run of contiguous events of a connection with the same code and the same other
 * stream (a replay of thousands of another stream's events is one finding, not thousands):
 * extends the open run when `ev` directly follows it, else starts one. `eventIds` lists every id;
 * the message names the first few and the count.
 */
export function runFinding(
  A: AnalyzerState,
  s: SessionState,
  st: StreamS,
  ev: SseEvent,
  at: number,
  code: FindingCode,
  rel: string,
  render: (ids: string[], n: number) => string,
  f: Omit<Finding, 'code' | 'severity' | 'sessionKey' | 'sessionId' | 'message' | 'eventIds'>,
  /** The stream's slot of the open run: `dupRun` for a second code on the same events. */
  slot: 'run' | 'dupRun' = 'run',
): FindingRun {
  const run = st[slot];
  if (run && run.code === code && run.rel === rel && run.lastIndex === ev.index - 1 && run.requestId === f.requestId) {
    run.lastIndex = ev.index;
    if (ev.id !== undefined) run.ids.push(ev.id);
    touch(A, run, s);
    return run;
  }
  const ids = ev.id !== undefined ? [ev.id] : [];
  const entry = addFinding(A, s, at, code, { ...f, eventIds: ids.slice(), message: render(ids, ids.length) });
  const r: FindingRun = {
    entry,
    stale: false,
    code,
    rel,
    lastIndex: ev.index,
    ids,
    render,
    make: () => runValue(r),
  };
  if (f.requestId !== undefined) r.requestId = f.requestId;
  st[slot] = r;
  return r;
}

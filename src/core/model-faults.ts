// Faults injected on purpose (from the panel, or serve --fault) as the analysis model shows them
// (src/core/faults/attribution.ts). Part of the analysis model (model.ts re-exports it).
import type { FindingCode } from './model-codes';

/** Which injected fault a finding is attributed to. */
export interface InjectedBy {
  /** Id of the armed fault (FaultRecord.armed). */
  armed: string;
  fault: FaultKindName;
  origin: 'panel' | 'serve';
  /** The fault in words. */
  text: string;
}

export type FaultKindName = 'cut' | 'withhold' | 'delay' | 'drop-result' | 'answer-resume' | 'expire-session';

/** A fault injected on purpose, as the analysis read its record (AnalysisSnapshot.faults). */
export interface InjectedFault {
  armed: string;
  fault: FaultKindName;
  origin: 'panel' | 'serve';
  text: string;
  label?: string;
  t: number;
  /** The stream it changed (src:conn) and that stream's session, when the analysis has it. */
  streamId: string;
  sessionKey?: string;
  requestIds: string[];
  eventIds: string[];
  events: number;
  afterEvents?: number;
  cursor?: string;
  how?: 'reset' | 'close' | 'hold';
  status?: number;
  serverStatus?: number;
  delayMs?: number;
  /** Events (or stream tails) the page did not get, kept in the capture. */
  withheld: { id?: string; text: string }[];
  /** Findings attributed to it (their codes). */
  findings: FindingCode[];
}

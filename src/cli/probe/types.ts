// What the probe's experiments find, and the report card built from it.

import type { CaptureRecord } from '../../core/record';
import type { Finding } from '../../core/model';

export type Verdict = 'pass' | 'fail' | 'unknown';

/** The seed's conditions of sound Last-Event-ID resumption (docs/probe.md). */
export const CONDITIONS = ['gapless-retention', 'drops-only-idempotent', 'terminal-pinned', 'gap-signalled', 'session-scoping'] as const;
export type ConditionKey = (typeof CONDITIONS)[number];
/** Checks of the wire the conditions rest on. */
export const CHECKS = ['priming', 'ids-unique', 'resume-prompt'] as const;
export type CheckKey = (typeof CHECKS)[number];

export const TITLES: Record<ConditionKey | CheckKey, string> = {
  'gapless-retention': 'gapless retention',
  'drops-only-idempotent': 'drops only idempotent',
  'terminal-pinned': 'terminal pinned',
  'gap-signalled': 'gap signalled',
  'session-scoping': 'session scoping',
  priming: 'priming events present',
  'ids-unique': 'ids unique across streams',
  'resume-prompt': 'resumes answered promptly',
};

/** One observation of an experiment that bears on a condition or check. */
export interface Evidence {
  on: ConditionKey | CheckKey;
  verdict: Verdict;
  /** What was seen, in words, with the events (ids, notifications) that show it. */
  text: string;
  events?: string[];
}

export interface SecurityFinding {
  code: 'cross-session-replay';
  message: string;
  sessions: [string, string];
  events: string[];
}

export interface ExperimentResult {
  name: string;
  status: 'ran' | 'skipped';
  /** Why it was skipped, or what it did. */
  summary: string;
  evidence: Evidence[];
  /** The core's findings on the experiment's requests. */
  findings?: Pick<Finding, 'code' | 'severity' | 'message' | 'eventIds'>[];
  security?: SecurityFinding[];
  /** JSON-RPC ids (JSON text) of the calls it made in session A: the core's findings on them are its own. */
  requestIds?: string[];
  /** Its core findings were provoked on purpose (a chosen cursor, a cut before any id): listed in JSON, counted in text. */
  provoked?: boolean;
  /** The capture (saved with --out as probe-<capture>.msi.json) that holds its exchanges. */
  capture?: string;
  /** The probe itself made the call fail (a cut before any id): the core's findings on it are expected. */
  causedByProbe?: boolean;
  /** The probe gave up on its call (--timeout) with the stream still open: its missing result is the probe's. */
  timedOut?: boolean;
}

export interface ConditionGrade {
  key: ConditionKey | CheckKey;
  title: string;
  verdict: Verdict;
  /** The evidence that decided it (its experiment named). */
  because: { experiment: string; text: string; events?: string[] }[];
}

export type Overall = 'yes' | 'no' | 'not shown';

export interface ReportCard {
  url: string;
  era: 'legacy' | 'modern';
  protocolVersion?: string;
  sessions: string[];
  tool?: string;
  gaplessDeclared?: boolean;
  conditions: ConditionGrade[];
  checks: ConditionGrade[];
  overall: Overall;
  experiments: ExperimentResult[];
  security: SecurityFinding[];
  notes: string[];
}

/** A capture the probe made, to save with --out. */
export interface ProbeCapture {
  name: string;
  records: CaptureRecord[];
}

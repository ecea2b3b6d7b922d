// The network witness's interface (witness.ts): what it reads from chrome.devtools.network, what
// it tells the panel, and how it is configured.

import type { CorsProblem, NetEntry, UnseenReason } from '../../core/witness';

/** A chrome.devtools.network request (a HAR entry with getContent). */
export interface WitnessEntry extends NetEntry {
  response: NetEntry['response'] & { statusText?: string; bodySize?: number };
  getContent?(cb: (content: string | null, encoding: string) => void): void;
  /**
   * Chrome: the events DevTools' own EventStream view parsed from a text/event-stream response
   * (time in seconds since the epoch; eventId is the stream's last event id at that event).
   */
  _eventSourceMessages?: { time: number; eventName: string; eventId: string; data: string }[];
}

export interface MissingRequest {
  method: string;
  url: string;
  markers: string[];
  reason: UnseenReason;
  reasonText: string;
  /** When the network saw it start. */
  t: number;
  /**
   * Its body as the network kept it: added to the capture; waiting for the request to finish;
   * rebuilt from DevTools' EventStream messages (Chrome kept no body); not kept by the network
   * view; none (not an event stream or JSON, or failed before an answer).
   */
  body: 'added' | 'rebuilt' | 'pending' | 'not-kept' | 'none';
}

export interface WitnessSnapshot {
  readonly revision: number;
  /** MCP requests the network view showed (current page, or all with Preserve log). */
  readonly seen: number;
  /** Of those, held by the capture. */
  readonly captured: number;
  /** Not held by the capture (each has a capture-gap record). */
  readonly missing: readonly MissingRequest[];
  /** Seen, not judged yet (grace period). */
  readonly checking: number;
  readonly problems: readonly CorsProblem[];
}

export interface WitnessEnv {
  onRequestFinished(cb: (e: WitnessEntry) => void): void;
  getHar(): Promise<WitnessEntry[]>;
  /** What the background said about the tab's relays (null until it answered). */
  tabStatus(): { relays: boolean | null; installReason?: string };
  now?(): number;
  setTimer?(fn: () => void, ms: number): unknown;
  /** Whether the panel is visible (polling pauses while it is not). */
  visible?(): boolean;
  /**
   * This extension's URL (chrome.runtime.getURL('')): a request whose call stack holds it was made
   * through the page hook, in a document, never a worker (core/witness.ts isWorkerEntry).
   */
  extensionUrl?: string;
}

export interface WitnessOptions {
  /** ms after a request was first seen before it is judged (default 1500; 3000 for the first getHAR). */
  graceMs?: number;
  /** getHAR poll interval while the capture holds no hook request (default 2000). */
  pollEmptyMs?: number;
}

export interface Witness {
  snapshot(): WitnessSnapshot;
  subscribe(fn: () => void): () => void;
  /** Read getHAR now (tests, and the panel's first screen). */
  poll(): Promise<void>;
  stop(): void;
}

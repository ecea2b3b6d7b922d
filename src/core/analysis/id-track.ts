import type { IntervalSet, ParsedId } from '../ids';

/**
 * The per-connection state of the id checks (lastParsed and the resume cursor's parse, the chain's
 * delivered counters). A StreamS is its own track for the session's main reading; the hexadecimal
 * reading (IdView) keeps one per stream in a Map.
 */
export interface IdTrack {
  lastParsed?: ParsedId;
  resumeBase?: ParsedId | null;
  lastIdOrd?: number;
  /** On a chain root: counters delivered on the chain, per prefix (for servers that reuse ids). */
  chainIds: Map<string, IntervalSet>;
  chainLast?: { prefix: string; set: IntervalSet };
  /** StreamS.gaps when this track last read an id (the main track uses StreamS.afterGap). */
  gaps?: number;
}

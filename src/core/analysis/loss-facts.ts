// What a few judgements need to know of where a session or a stream lost something, or could be
// taken for another: kept apart from state.ts, which holds the rest of the analyzer's state.

export interface StreamLossFacts {
  /** Records of this connection were lost by the inspector (buffer cap, size cap, reload...). */
  inspectorLost?: boolean;
  /**
   * Where records of it were lost or not kept, as ords between those of the records around the
   * loss (capture-gaps.ts lostAt): which requests' spans a loss falls in, on a stream many
   * requests share (the 2024-11-05 transport's GET stream, derive/verdicts.ts sharedStreamLoss).
   */
  lossOrds?: number[];
}

export interface SessionLossFacts {
  /**
   * URLs a `cors-preflight-rejected` notice names (the witness, or a HAR DevTools saved): a POST to
   * one that got no answer at all was refused by the browser before it was sent (derive/cors.ts).
   */
  corsRefused?: Set<string>;
  /**
   * Priming ids more than one unrelated stream carried (not counted in idReuse, event-ids.ts onId):
   * as a Last-Event-ID such an id still names more than one stream (sessions.ts resumeTarget).
   */
  primingReused?: Set<string>;
}

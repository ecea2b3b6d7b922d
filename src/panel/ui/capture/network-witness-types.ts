// What the live panel knows about its own capture, for the toolbar's health indicator and the
// witness banner (src/panel/live/health.ts builds it; the viewer has none). Plain data, so the UI
// does not depend on the live layer.

export type CaptureHealthState = 'recording' | 'connecting' | 'not-recording' | 'blind';

/** An MCP request the browser's network view saw and the capture does not hold. */
export interface UnseenRequest {
  method: string;
  url: string;
  /** What marked it as MCP (text/event-stream, mcp-session-id, JSON-RPC body...). */
  markers: readonly string[];
  /** The likely reason, in words. */
  reasonText: string;
  t: number;
  /** Its body as the network kept it: added to the capture (observed after completion), not yet (still open), not kept by the network view, or none. */
  body: 'added' | 'rebuilt' | 'pending' | 'not-kept' | 'none';
}

export interface CaptureHealthSnapshot {
  state: CaptureHealthState;
  /** A few words for the toolbar. */
  label: string;
  /** One or two sentences: what is recorded, or why not. */
  detail: string;
  /** MCP requests the network view showed, and of those held by the capture. */
  seen: number;
  captured: number;
  /** Seen, not checked yet (the hook's records may still be on their way). */
  checking: number;
  unseen: readonly UnseenRequest[];
}

export interface CaptureHealthSource {
  subscribe(fn: () => void): () => void;
  getSnapshot(): CaptureHealthSnapshot;
}

// An SSE event as the model shows it, and the JSON-RPC facts of its messages (apart from model.ts:
// event-list.ts reads them, and model.ts holds an EventList).
import type { FindingCode } from './model-codes';

export interface JsonRpcSummary {
  kind: 'request' | 'notification' | 'result' | 'error' | 'invalid';
  /** JSON text of the id (`1` or `"1"`). */
  id?: string;
  method?: string;
  progressToken?: string;
  progress?: number;
  total?: number;
}

export interface SseEvent {
  /** Index within the stream. */
  index: number;
  /** The id field of this event (undefined when the event carried none). */
  id?: string;
  /** The last-event-id cursor after this event (what a client would resume from). */
  cursor?: string;
  event: string;
  data: string;
  retry?: number;
  /** Time the chunk completing this event was read by the page. */
  t: number;
  /** Raw SSE text of the event block as received. */
  raw: string;
  /** Decoded JSON-RPC messages (batches give several). */
  messages: JsonRpcSummary[];
  /** data was present but not JSON. */
  jsonError?: string;
  /** Finding codes anchored at this event. */
  findings: FindingCode[];
  /** Set for an event whose id was received before in the session. */
  duplicate?: boolean;
  /** The stream ended inside this event (no closing blank line): a client never dispatches it. */
  truncated?: boolean;
  /** A block with an id but no data line (only moves the cursor). */
  idOnly?: boolean;
  /** Not an SSE event: the JSON body of a plain JSON response, shown as one event. */
  synthetic?: 'json-body';
}

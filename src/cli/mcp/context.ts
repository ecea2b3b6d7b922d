// What every tool of one server instance shares: the open captures, the live bridge (when
// --browser-url was given), the limits. Over --http each request gets a fresh McpServer (the SDK's
// per-request handler) around this one context, so captures opened by one call stay open.
import type { CaptureSet } from './captures';
import type { LiveAccess } from './live/access';

export interface McpContext {
  captures: CaptureSet;
  root: string;
  /** Largest export returned inline (bytes of text). */
  inlineMaxBytes: number;
  live?: LiveAccess;
}

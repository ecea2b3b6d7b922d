// What derive/modern.ts finds in a 2026-07-28 conversation, read by the verdicts and the
// findings of the modern era (types only; apart so that context.ts can name it without a cycle).
import type { RequestLink, SubscriptionInfo } from '../../model';
import type { ReqState } from '../state';

export interface ModernView {
  /** re-issue -> the broken request it re-issues, and back. */
  reissueOf: Map<ReqState, ReqState>;
  reissuedAs: Map<ReqState, ReqState>;
  /** MRTR retry -> the input_required request it answers, and back. */
  retryOf: Map<ReqState, ReqState>;
  retriedAs: Map<ReqState, ReqState>;
  links: RequestLink[];
  subscriptions: SubscriptionInfo[];
  /** Per subscription (same order): its request. */
  listens: ReqState[];
  /** Requests whose response stream broke before their final response. */
  broken: ReqState[];
  /** Requests whose stream the server ended cleanly without a final response (result-missing). */
  ended: number;
}

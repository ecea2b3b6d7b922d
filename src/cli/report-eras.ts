// The two eras in `audit`'s human report and --json (issue 12): each session's title and era line
// with its evidence and its server's era, a request's re-issue / MRTR links, and the links and
// subscriptions of a 2026-07-28 conversation (the core's words: presentation-eras.ts).
import type { AnalysisSnapshot, RequestInfo, RequestLink, Session, SubscriptionInfo } from '../core/model';
import { ERA_LABEL, linkText, serverOf, sessionTitle, subscriptionText } from '../core/presentation-eras';

/** The session's first lines: title, endpoint and revision; era, evidence and the server's era. */
export function eraLines(snap: AnalysisSnapshot, s: Session): string[] {
  const srv = serverOf(snap, s);
  const server = srv ? `; server ${ERA_LABEL[srv.era]}${srv.evidence.length ? `: ${srv.evidence.join('; ')}` : ''}` : '';
  return [`  ${sessionTitle(s)}  ${s.endpoint}  revision ${s.protocolVersion ?? 'unknown'}`, `    era: ${ERA_LABEL[s.era]} — ${s.eraEvidence}${server}`];
}

type IdOf = (text: string | undefined) => string | number | null;

/** The links of a request, for --json (only those it has). */
export function requestLinks(r: RequestInfo, idOf: IdOf): { reissueOf?: string | number | null; reissuedAs?: string | number | null; retryOf?: string | number | null; retriedAs?: string | number | null; resultType?: string; carriesFrom?: string | number | null; carriedInto?: string | number | null } {
  return {
    ...(r.reissueOf !== undefined ? { reissueOf: idOf(r.reissueOf) } : {}),
    ...(r.reissuedAs !== undefined ? { reissuedAs: idOf(r.reissuedAs) } : {}),
    ...(r.retryOf !== undefined ? { retryOf: idOf(r.retryOf) } : {}),
    ...(r.retriedAs !== undefined ? { retriedAs: idOf(r.retriedAs) } : {}),
    ...(r.resultType !== undefined ? { resultType: r.resultType } : {}),
    ...(r.carriesFrom !== undefined ? { carriesFrom: idOf(r.carriesFrom) } : {}),
    ...(r.carriedInto !== undefined ? { carriedInto: idOf(r.carriedInto) } : {}),
  };
}

export const linkLine = (l: RequestLink): string => `${linkText(l)} [streams ${l.fromStreamId} → ${l.toStreamId}]`;
export const subLine = (x: SubscriptionInfo): string => `${subscriptionText(x)} [stream ${x.streamId}]`;

// The two eras in words, one voice for the panel, the CLI and the exports (issue 12): a session's
// title (a legacy session, a sessionless 2025 group, a 2026-07-28 conversation), the era labels,
// a re-issue / MRTR link and a subscription with its outage window.
import type { AnalysisSnapshot, RequestLink, ServerEra, ServerInfo, Session, SubscriptionInfo } from './model';

export const ERA_LABEL: Record<ServerEra, string> = {
  legacy: '2025 (legacy)',
  modern: '2026-07-28 (modern)',
  dual: 'dual (both eras)',
  unknown: 'era not shown',
};

/** Short badge text: `2025` / `2026-07-28` / `dual`. */
export const ERA_BADGE: Record<ServerEra, string> = { legacy: '2025', modern: '2026-07-28', dual: 'dual', unknown: '?' };

const pathOf = (u: string) => {
  try {
    return new URL(u).pathname || '/';
  } catch {
    return u;
  }
};

/** The client a conversation's requests name in `_meta`, as `name version`. */
export const clientText = (c: { name: string; version?: string } | undefined) => (c ? `${c.name}${c.version ? ` ${c.version}` : ''}` : '(client not named)');

/** "Session <id>", "Conversation <client> · /mcp" (2026-07-28), "(no session) /mcp" (sessionless 2025). */
export function sessionTitle(s: Pick<Session, 'sessionId' | 'endpoint' | 'era' | 'client'>): string {
  if (s.sessionId) return `Session ${s.sessionId}`;
  if (s.era === 'modern') return `Conversation ${clientText(s.client)} · ${pathOf(s.endpoint)}`;
  return `(no session) ${pathOf(s.endpoint)}`;
}

/** The server (origin + endpoint) a session belongs to. */
export function serverOf(snap: Pick<AnalysisSnapshot, 'servers'>, s: Pick<Session, 'key' | 'endpoint'>): ServerInfo | undefined {
  return (snap.servers ?? []).find((x) => x.sessionKeys.includes(s.key)) ?? (snap.servers ?? []).find((x) => x.endpoint === s.endpoint);
}

export const durationText = (d: number) => (d < 1000 ? `${Math.max(0, Math.round(d))} ms` : `${(d / 1000).toFixed(d < 10_000 ? 1 : 0)} s`);

/** "request 3 re-issues request 2 (its stream broke), 120 ms later" / "request 5 retries request 4's input_required (requestState unchanged)". */
export function linkText(l: RequestLink): string {
  if (l.kind === 'reissue') return `request ${l.to} re-issues request ${l.from} (its stream broke), ${durationText(l.t1 - l.t0)} later`;
  if (l.kind === 'carried') return `${l.label ?? `request ${l.to} carries output of request ${l.from}`}, sent ${durationText(l.t1 - l.t0)} later`;
  return `request ${l.to} retries request ${l.from}'s input_required (${l.stateAltered ? 'requestState ALTERED' : 'requestState unchanged'}), ${durationText(l.t1 - l.t0)} later`;
}

/** Short label drawn on a timeline link. */
export const linkLabel = (l: RequestLink) =>
  l.kind === 'reissue' ? `↳ re-issued as ${l.to}` : l.kind === 'carried' ? `↳ ${l.chars ?? 0} chars carried into ${l.to}` : `↳ MRTR retry ${l.to}${l.stateAltered ? ' (state altered)' : ''}`;

const SUB_STATE: Record<SubscriptionInfo['state'], string> = {
  open: 'listening',
  complete: 'ended with its complete result',
  closed: 'closed by the client',
  dropped: 'DROPPED without its complete result',
  refused: 'REFUSED by the server: the client is not listening',
  unknown: 'ended; whether with its complete result is unknown (the capture does not hold all of its stream)',
};

const refusalText = (r: SubscriptionInfo['refusal']) =>
  r === undefined ? '' : r.status !== undefined ? ` (HTTP ${r.status})` : r.code !== undefined || r.message !== undefined ? ` (error${r.code !== undefined ? ` ${r.code}` : ''}${r.message ? `: ${r.message}` : ''})` : '';

/** "listen 3 (tools/list): DROPPED …; outage 1.2 s until listen 7, 1 change notification(s) before" */
export function subscriptionText(s: SubscriptionInfo): string {
  const what = s.lists.length ? ` (${s.lists.join(', ')})` : '';
  const outage = s.outage
    ? s.outage.to !== undefined
      ? `; outage ${durationText(s.outage.to - s.outage.from)} until listen ${s.outage.relistenRequestId ?? '?'}: changes in it unknown`
      : '; outage to the end of the capture: changes unknown'
    : '';
  // An error after the acknowledgement (or after changes) ended a listen that was on: no refusal.
  const state =
    s.state === 'refused' && (s.acknowledged !== undefined || s.changes > 0)
      ? 'ENDED WITH AN ERROR from the server after listening'
      : s.coveredBy !== undefined
        ? `dropped without its complete result while listen ${s.coveredBy} for the same changes was open: nothing lost`
        : SUB_STATE[s.state];
  return `listen ${s.requestId}${what}: ${state}${refusalText(s.refusal)}, ${s.changes} change notification(s)${outage}`;
}

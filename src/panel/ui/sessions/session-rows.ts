// What the sessions list shows per session, computed by the store once per snapshot.

import type { AnalysisSnapshot, Finding, Session } from '../../../core/model';
import type { ServerInfo } from '../../../core/model-eras';

export interface SessionRow {
  key: string;
  session: Session;
  errors: number;
  warnings: number;
  worst: Finding | undefined;
  /** Streams that can still deliver something (see openStreams). */
  open: number;
  /** The client ended the session with a DELETE the server accepted. */
  terminated: boolean;
  /** The session's server (its era), for the list's badge. */
  server: ServerInfo | undefined;
}

const sameServer = (a: ServerInfo | undefined, b: ServerInfo | undefined) => a === b || (!!a && !!b && a.era === b.era && a.evidence.join('\n') === b.evidence.join('\n'));

/** What the sessions list shows of a session (SessionsList's SessionOption, its era badge and menu). */
const sameListed = (a: Session, b: Session) =>
  a === b ||
  (a.sessionId === b.sessionId &&
    a.endpoint === b.endpoint &&
    a.era === b.era &&
    a.eraEvidence === b.eraEvidence &&
    a.client?.name === b.client?.name &&
    a.client?.version === b.client?.version &&
    a.protocolVersion === b.protocolVersion &&
    a.lossless === b.lossless &&
    a.streamIds.length === b.streamIds.length &&
    a.requestIds.length === b.requestIds.length &&
    a.idScheme.kind === b.idScheme.kind);

/** Two rows that show the same in the sessions list: the list keeps the older one (and does not re-render). */
export function sameRow(a: SessionRow, b: SessionRow): boolean {
  return a.key === b.key && sameListed(a.session, b.session) && a.errors === b.errors && a.warnings === b.warnings && a.worst === b.worst && a.open === b.open && a.terminated === b.terminated && sameServer(a.server, b.server);
}

/**
 * Streams still open that can deliver something. Not counted: a 202/204 answer (no body to wait
 * for), the DELETE that ends a session (an empty answer, whatever its content type), and, once a
 * DELETE ended the session, every stream of it (the server ended them with the session: "● 1 open"
 * on a terminated session was the GET stream a client never closed).
 */
export function openStreams(snap: AnalysisSnapshot, s: Session): { open: number; terminated: boolean } {
  let open = 0;
  let terminated = false;
  for (const id of s.streamIds) {
    const st = snap.streams[id];
    if (!st) continue;
    if (st.method === 'DELETE') {
      if (st.status !== undefined && st.status >= 200 && st.status < 300) terminated = true;
      continue;
    }
    if (st.state === 'open' && st.status !== 202 && st.status !== 204) open++;
  }
  return { open: terminated ? 0 : open, terminated };
}

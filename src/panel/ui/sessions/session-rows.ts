// What the sessions list shows per session, computed by the store once per snapshot.

import type { AnalysisSnapshot, Finding, Session } from '../../../core/model';

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

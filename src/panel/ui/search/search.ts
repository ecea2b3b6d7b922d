// Search across every session: an event (by id, type or data), a request (by id, method or tool
// name), a finding (by code or explanation). `id:<x>` matches an event id or a request id exactly.
// Results in the sessions list's order; within a session findings, then requests, then events in
// time order. Pure and outside React; the search bar runs it on the text it was given.

import type { Finding } from '../../../core/model';
import { toolName } from '../common/labels';
import type { EventRef } from '../navigation/state';
import type { ViewModel } from '../store/view-model';

export type SearchHit =
  | { kind: 'finding'; sessionKey: string; finding: Finding }
  | { kind: 'request'; sessionKey: string; requestId: string }
  | { kind: 'event'; sessionKey: string; ref: EventRef };

export interface SearchResult {
  hits: SearchHit[];
  /** More matched than `limit`: the rest are not listed. */
  capped: boolean;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const unquote = (id: string) => id.replace(/^"|"$/g, '');

export function searchAll(vm: ViewModel, query: string, limit = 10_000): SearchResult {
  const q = query.trim();
  const hits: SearchHit[] = [];
  if (!q) return { hits, capped: false };
  const exact = /^id:(.+)$/i.exec(q)?.[1];
  // A case-insensitive test, not toLowerCase() of every event's data (no copy per event).
  const re = new RegExp(escape(q), 'i');
  const add = (h: SearchHit) => {
    hits.push(h);
    return hits.length > limit;
  };
  for (const row of vm.sessions) {
    const sv = vm.session(row.key)!;
    if (exact === undefined) for (const f of sv.findings) if ((re.test(f.code) || re.test(f.message)) && add({ kind: 'finding', sessionKey: row.key, finding: f })) return { hits: hits.slice(0, limit), capped: true };
    for (const r of sv.requests) {
      const match = exact !== undefined ? unquote(r.id) === unquote(exact) : re.test(unquote(r.id)) || re.test(r.method + toolName(r.params));
      if (match && add({ kind: 'request', sessionKey: row.key, requestId: r.id })) return { hits: hits.slice(0, limit), capped: true };
    }
    const rows = sv.rows;
    for (let i = 0; i < rows.count; i++) {
      const streamId = rows.streamAt(i);
      const index = rows.indexAt(i);
      // Fact by fact from the columns: no event is built for the scan.
      const ev = vm.snap.streams[streamId]!.events;
      const id = ev.id(index);
      const match = exact !== undefined ? id === exact : (id !== undefined && re.test(id)) || re.test(ev.type(index) ?? '') || re.test(ev.data(index) ?? '');
      if (match && add({ kind: 'event', sessionKey: row.key, ref: { streamId, index } })) return { hits: hits.slice(0, limit), capped: true };
    }
  }
  return { hits, capped: false };
}

/** One line naming a hit: what it is, where. */
export function hitLabel(vm: ViewModel, h: SearchHit): string {
  const sv = vm.session(h.sessionKey);
  const where = sv ? (sv.session.sessionId ? `session ${sv.session.sessionId.slice(0, 8)}…` : `${sv.session.endpoint}`) : '';
  if (h.kind === 'finding') return `finding ${h.finding.code}${h.finding.requestId !== undefined ? ` (request ${h.finding.requestId})` : ''} · ${where}`;
  if (h.kind === 'request') {
    const r = sv?.requestById.get(h.requestId);
    return `request ${h.requestId}${r ? ` ${r.method}${toolName(r.params)}` : ''} · ${where}`;
  }
  const e = vm.snap.streams[h.ref.streamId]?.events.at(h.ref.index);
  return `event ${e?.id ?? `#${h.ref.index + 1}`} on ${sv?.lanes.labels.get(h.ref.streamId) ?? 'a stream'} · ${where}`;
}

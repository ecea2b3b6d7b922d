// The toolbar filter: free text ("quoted phrases" allowed) plus DevTools-style `key:value` tokens.
//   method:tools/call  request:2  code:replay-gap  stream:<id>  event:<type>  -text (exclude)

import type { AnalysisSnapshot, SseEvent, Stream } from '../../../core/model';

export interface ParsedFilter {
  text: string[];
  exclude: string[];
  method: string[];
  request: string[];
  code: string[];
  stream: string[];
  event: string[];
  empty: boolean;
}

export function parseFilter(q: string): ParsedFilter {
  const f: ParsedFilter = { text: [], exclude: [], method: [], request: [], code: [], stream: [], event: [], empty: true };
  // Tokens: key:value, "quoted phrase", -exclude, words.
  for (const raw of q.match(/-?"[^"]*"?|\S+/g) ?? []) {
    const quoted = /^-?"/.test(raw);
    const tok = quoted ? raw.replace(/^(-?)"([^"]*)"?$/, '$1$2') : raw;
    if (!tok || tok === '-') continue;
    if (quoted) {
      f.empty = false;
      if (tok.startsWith('-')) f.exclude.push(tok.slice(1).toLowerCase());
      else f.text.push(tok.toLowerCase());
      continue;
    }
    const m = /^(method|request|req|code|stream|event|type):(.+)$/i.exec(tok);
    f.empty = false;
    if (m) {
      const k = m[1]!.toLowerCase();
      const v = m[2]!.toLowerCase();
      if (k === 'method') f.method.push(v);
      else if (k === 'request' || k === 'req') f.request.push(v.replace(/^"|"$/g, ''));
      else if (k === 'code') f.code.push(v);
      else if (k === 'stream') f.stream.push(v);
      else f.event.push(v);
    } else if (tok.startsWith('-') && tok.length > 1) f.exclude.push(tok.slice(1).toLowerCase());
    else f.text.push(tok.toLowerCase());
  }
  return f;
}

export interface EventRow {
  streamId: string;
  index: number;
}

/** A stream's events in a snapshot: an older snapshot's shared array may have grown since. */
export const eventCountOf = (s: Stream): number => Math.min(s.eventCount ?? s.events.length, s.events.length);

/** Events of a session's streams in time order (stable: stream order, then index). */
export function sessionEventRows(snap: AnalysisSnapshot, sessionKey: string | undefined): EventRow[] {
  const session = snap.sessions.find((s) => s.key === sessionKey);
  if (!session) return [];
  const streams = session.streamIds.map((id) => snap.streams[id]).filter((s): s is Stream => !!s);
  const rows: EventRow[] = [];
  mergeInto(rows, streams.map((s) => ({ s, i: 0, n: eventCountOf(s) })));
  return rows;
}

/** Work counters of the merges (tests count work with them, not time). */
export const mergeStats = { rowsEmitted: 0, fullMerges: 0, deltaMerges: 0 };

/** k-way merge by time of the events [i, n) of each stream; streams are individually time-ordered. */
function mergeInto(rows: EventRow[], heads: { s: Stream; i: number; n: number }[]): void {
  const lists = heads.filter((h) => h.i < h.n);
  while (lists.length) {
    let best = 0;
    if (lists.length > 1) {
      let bt = lists[0]!.s.events[lists[0]!.i]!.t;
      for (let k = 1; k < lists.length; k++) {
        const t = lists[k]!.s.events[lists[k]!.i]!.t;
        if (t < bt) {
          best = k;
          bt = t;
        }
      }
    }
    const cur = lists[best]!;
    rows.push({ streamId: cur.s.id, index: cur.i });
    mergeStats.rowsEmitted++;
    cur.i++;
    if (cur.i >= cur.n) lists.splice(best, 1);
  }
}

/**
 * `sessionEventRows` kept incrementally across snapshots. The analyzer only appends to a stream's
 * events (Stream.eventCount says how many belong to a snapshot), so a new snapshot usually adds a
 * tail: when every new event sorts after the last merged row, only the new events are merged and
 * appended to the same rows array (work in the new events, not the session's). Otherwise (another
 * session, a stream's array replaced or shrunk, streams reordered, an event that sorts earlier) the
 * merge is redone from scratch. The returned array is shared and grows: use its length too.
 */
export function createEventRowsMerger(): (snap: AnalysisSnapshot, sessionKey: string | undefined) => EventRow[] {
  let key: string | undefined;
  let streamIds: readonly string[] = [];
  let arrays: SseEvent[][] = [];
  let counts: number[] = [];
  let rows: EventRow[] = [];
  let lastT = -Infinity;
  let lastPos = -1;
  const pos = new Map<string, number>();

  function full(snap: AnalysisSnapshot, sessionKey: string | undefined, ids: readonly string[]): EventRow[] {
    mergeStats.fullMerges++;
    key = sessionKey;
    streamIds = ids.slice();
    pos.clear();
    streamIds.forEach((id, k) => pos.set(id, k));
    const streams = streamIds.map((id) => snap.streams[id]);
    arrays = streams.map((s) => s?.events ?? []);
    counts = streams.map((s) => (s ? eventCountOf(s) : 0));
    rows = [];
    mergeInto(
      rows,
      streams.flatMap((s, k) => (s ? [{ s, i: 0, n: counts[k]! }] : [])),
    );
    setLast(snap);
    return rows;
  }
  function setLast(snap: AnalysisSnapshot) {
    const r = rows[rows.length - 1];
    lastT = r ? snap.streams[r.streamId]!.events[r.index]!.t : -Infinity;
    lastPos = r ? pos.get(r.streamId)! : -1;
  }

  return (snap, sessionKey) => {
    const session = snap.sessions.find((s) => s.key === sessionKey);
    if (!session) {
      key = undefined;
      rows = [];
      streamIds = [];
      return rows;
    }
    const ids = session.streamIds;
    if (sessionKey !== key || ids.length < streamIds.length) return full(snap, sessionKey, ids);
    for (let k = 0; k < streamIds.length; k++) if (ids[k] !== streamIds[k]) return full(snap, sessionKey, ids);
    // New streams join at the end of the order.
    for (let k = streamIds.length; k < ids.length; k++) {
      pos.set(ids[k]!, k);
      arrays.push([]);
      counts.push(0);
    }
    if (ids.length !== streamIds.length) streamIds = ids.slice();
    const heads: { s: Stream; i: number; n: number }[] = [];
    for (let k = 0; k < ids.length; k++) {
      const s = snap.streams[ids[k]!];
      if (!s) {
        if (counts[k]! > 0) return full(snap, sessionKey, ids);
        continue;
      }
      const n = eventCountOf(s);
      if ((counts[k]! > 0 && s.events !== arrays[k]) || n < counts[k]!) return full(snap, sessionKey, ids);
      arrays[k] = s.events;
      if (n === counts[k]) continue;
      const first = s.events[counts[k]!]!;
      // The new events must sort after the last row (time, then stream order) to be appended.
      if (first.t < lastT || (first.t === lastT && k < lastPos)) return full(snap, sessionKey, ids);
      heads.push({ s, i: counts[k]!, n });
    }
    if (heads.length === 0) return rows;
    mergeStats.deltaMerges++;
    mergeInto(rows, heads);
    for (const h of heads) counts[pos.get(h.s.id)!] = h.n;
    setLast(snap);
    return rows;
  };
}

function has(hay: string | undefined, needles: string[]): boolean {
  if (!hay) return false;
  const h = hay.toLowerCase();
  return needles.some((n) => h.includes(n));
}

/** Events linked to the requests named by `request:` tokens (their notifications and response). */
export function requestLinkedEvents(snap: AnalysisSnapshot, sessionKey: string | undefined, f: ParsedFilter): Set<string> | undefined {
  if (!f.request.length || sessionKey === undefined) return undefined;
  const out = new Set<string>();
  for (const r of snap.requests[sessionKey] ?? []) {
    if (!f.request.includes(r.id.replace(/^"|"$/g, '').toLowerCase())) continue;
    for (const [sid, idx] of r.notifications) out.add(`${sid}\u0000${idx}`);
  }
  return out;
}

export function eventMatches(f: ParsedFilter, s: Stream, e: SseEvent, linked?: Set<string>): boolean {
  if (f.empty) return true;
  if (f.method.length && !e.messages.some((m) => has(m.method, f.method))) return false;
  if (
    f.request.length &&
    !e.messages.some((m) => m.id !== undefined && f.request.includes(m.id.replace(/^"|"$/g, '').toLowerCase())) &&
    !s.requestIds.some((id) => f.request.includes(id.replace(/^"|"$/g, '').toLowerCase())) &&
    !linked?.has(`${s.id}\u0000${e.index}`)
  )
    return false;
  if (f.code.length && !e.findings.some((c) => f.code.some((x) => c.includes(x)))) return false;
  if (f.stream.length && !has(s.id, f.stream)) return false;
  if (f.event.length && !has(e.event, f.event)) return false;
  if (f.text.length || f.exclude.length) {
    const hay = `${e.id ?? ''}\n${e.event}\n${e.data}\n${e.findings.join(' ')}`.toLowerCase();
    if (!f.text.every((t) => hay.includes(t))) return false;
    if (f.exclude.some((t) => hay.includes(t))) return false;
  }
  return true;
}

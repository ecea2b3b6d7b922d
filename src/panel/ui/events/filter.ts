// The toolbar filter: free text ("quoted phrases" allowed) plus DevTools-style `key:value` tokens.
//   method:tools/call  request:2  code:replay-gap  stream:<id>  event:<type>  -text (exclude)

import type { AnalysisSnapshot, Finding, Stream } from '../../../core/model';
import type { EventRows } from './event-rows';

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
    r.notifications.forEach((sid, idx) => out.add(`${sid}\u0000${idx}`));
  }
  return out;
}

/** Whether event `i` of stream `s` matches `f` (read fact by fact from the columns: no event is built). */
export function eventMatches(f: ParsedFilter, s: Stream, i: number, linked?: Set<string>): boolean {
  if (f.empty) return true;
  const ev = s.events;
  if (f.method.length && !ev.messages(i).some((m) => has(m.method, f.method))) return false;
  if (
    f.request.length &&
    !ev.messages(i).some((m) => m.id !== undefined && f.request.includes(m.id.replace(/^"|"$/g, '').toLowerCase())) &&
    !s.requestIds.some((id) => f.request.includes(id.replace(/^"|"$/g, '').toLowerCase())) &&
    !linked?.has(`${s.id}\u0000${i}`)
  )
    return false;
  if (f.code.length && !ev.findings(i).some((c) => f.code.some((x) => c.includes(x)))) return false;
  if (f.stream.length && !has(s.id, f.stream)) return false;
  if (f.event.length && !has(ev.type(i), f.event)) return false;
  return textMatches(f, () => `${ev.id(i) ?? ''}\n${ev.type(i) ?? ''}\n${ev.data(i) ?? ''}\n${ev.findings(i).join(' ')}`);
}

/** Free text and -exclusions of `f` over the text `hay` gives (built only when there are some). */
function textMatches(f: ParsedFilter, hay: () => string): boolean {
  if (!f.text.length && !f.exclude.length) return true;
  const h = hay().toLowerCase();
  return f.text.every((t) => h.includes(t)) && !f.exclude.some((t) => h.includes(t));
}

/** Positions (into `rows`) of the rows that match `f`: a new array, nothing cached or changed. */
export function filterRows(snap: AnalysisSnapshot, sessionKey: string | undefined, rows: EventRows, f: ParsedFilter): Int32Array {
  const linked = requestLinkedEvents(snap, sessionKey, f);
  const out = new Int32Array(rows.count);
  let n = 0;
  for (let i = 0; i < rows.count; i++) {
    const s = snap.streams[rows.streamAt(i)]!;
    if (eventMatches(f, s, rows.indexAt(i), linked)) out[n++] = i;
  }
  return out.slice(0, n);
}

/** Whether `f` has a token that narrows findings (findingMatches). */
export function findingTokens(f: ParsedFilter): boolean {
  return f.code.length + f.request.length + f.stream.length + f.text.length + f.exclude.length > 0;
}

/**
 * Whether a finding matches `f` (the Findings view): its code (`code:`), its request (`request:`),
 * its streams (`stream:`) and free text over its code, message, request and missing ids. `method:`
 * and `event:` say what events carry: findings have none of their own and are not narrowed by them.
 */
export function findingMatches(f: ParsedFilter, x: Finding, message: () => string): boolean {
  if (f.empty) return true;
  if (f.code.length && !f.code.some((c) => x.code.includes(c))) return false;
  if (f.request.length && (x.requestId === undefined || !f.request.includes(x.requestId.replace(/^"|"$/g, '').toLowerCase()))) return false;
  if (f.stream.length && !has(x.streamId, f.stream) && !(x.relatedStreamIds ?? []).some((id) => has(id, f.stream))) return false;
  return textMatches(f, () => `${x.code}\n${x.severity}\n${x.requestId ?? ''}\n${x.missing ?? ''}\n${message()}`);
}

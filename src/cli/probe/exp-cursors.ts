// Resumes with cursors the probe chooses (sent by hand: raw-get.ts), the second session, the
// standalone GET stream, and the ids of every stream of session A.

import { isEventStreamType } from '../../core/record';
import { connsOf, isNotification, isResponse, messagesOf, type ProbeConn, type ProbeEvent } from './conns';
import { messageKey, messageLabel } from './compare';
import { openSession, type ProbeSession } from './client';
import { createRecorder, type Recorder } from './record-fetch';
import { createHttpFetch } from './http-fetch';
import { rawGet } from './raw-get';
import type { ProbeSettings } from './settings';
import { shortId, type Baseline } from './exp-stream';
import type { Evidence, ExperimentResult } from './types';

const last = (r: Recorder): ProbeConn | undefined => connsOf(r.records).at(-1);

/** A well-formed cursor the server never issued, shaped like its ids. */
export function unknownCursor(ids: readonly string[]): string {
  const last = ids.at(-1) ?? '1';
  if (/^\d+$/.test(last)) return String(Number(last) + 100000);
  const m = /^(.*?)(\d+)$/.exec(last);
  return m ? `${m[1]}${Number(m[2]) + 100000}` : `${last}0`;
}

function answerText(c: ProbeConn | undefined, error?: string): string {
  if (!c || c.status === undefined) return `no answer (${error ?? 'request failed'})`;
  const data = c.events.filter((e) => e.data);
  const kind = c.contentType?.split(';')[0] ?? 'no body';
  return `${c.status} ${kind}${isEventStreamType(c.contentType) ? `, ${c.events.length} events (${data.length} with data)${c.end === 'complete' ? ', ended' : ', held open'}` : ''}`;
}

/** The spec lets a server answer a GET with an event stream or 405, nothing else: a 200 of another type opens no stream. */
const NOT_A_STREAM = 'not an event stream (the spec: text/event-stream, or 405)';

/** The messages a stream carried after `cursor` (the id of one of its events), up to `until` when given. */
function carriedAfter(events: readonly ProbeEvent[], cursor: string, until = Infinity): Record<string, unknown>[] {
  const at = events.find((e) => e.id === cursor)?.n ?? 0;
  return events.filter((e) => e.n > at && e.msg && e.t <= until).map((e) => e.msg!);
}

export async function cursorExperiment(a: ProbeSession, s: ProbeSettings, b: Baseline, which: 'unknown' | 'malformed' | 'evicted', src: string): Promise<{ result: ExperimentResult; recorder: Recorder }> {
  const http = createHttpFetch();
  const rec = createRecorder(src, http.fetch);
  const name = `resume with ${which === 'unknown' ? 'an unknown' : which === 'malformed' ? 'a malformed' : 'an evicted'} cursor`;
  let cursor: string;
  if (which === 'unknown') cursor = unknownCursor(b.ids);
  else if (which === 'malformed') cursor = 'probe/not an event id %00 ;';
  else {
    cursor = b.ids[0]!;
    await new Promise((r) => setTimeout(r, s.retentionMs));
  }
  const r = await rawGet(rec, s.url, { sessionId: a.sessionId, protocolVersion: a.protocolVersion, lastEventId: cursor, extra: s.headers }, s.listenMs);
  http.close();
  const c = last(rec);
  const ev: Evidence[] = [];
  const msgs = c ? messagesOf(c) : [];
  const resync = c?.events.some((e) => e.event === 'resync');
  const status = c?.status;
  const said = status !== undefined && status >= 400 ? `status ${status}` : resync ? 'a resync event' : msgs.some((m) => 'error' in m) ? 'a JSON-RPC error' : undefined;
  if (which === 'evicted') {
    // What the baseline's stream carried after that cursor (its first id: the priming event, or the first message).
    const baselineAfter = carriedAfter(b.post.events, cursor).map(messageKey);
    const got = new Set(msgs.map(messageKey));
    const all = baselineAfter.every((k) => got.has(k));
    if (said) ev.push({ on: 'gap-signalled', verdict: 'pass', text: `after ${s.retentionMs} ms the first cursor (${shortId(cursor)}) is answered ${answerText(c)}: the server says so (${said})` });
    else if (all && msgs.length) ev.push({ on: 'gapless-retention', verdict: 'pass', text: `after ${s.retentionMs} ms the first cursor (${shortId(cursor)}) still replays the whole call` });
    else ev.push({ on: 'gap-signalled', verdict: 'fail', text: `after ${s.retentionMs} ms the first cursor (${shortId(cursor)}) is answered ${answerText(c)}: the evicted events are gone and nothing says so`, events: [cursor] });
  } else if (said) ev.push({ on: 'gap-signalled', verdict: 'pass', text: `${which} cursor "${shortId(cursor)}" answered ${answerText(c)}: the server says so (${said})` });
  else {
    // Only the call's own messages are a replay: a server that ignores the cursor and opens a
    // fresh stream may greet it with messages of its own, which replay nothing.
    const own = new Set(b.messages.map(messageKey));
    const replayed = msgs.filter((m) => own.has(messageKey(m)));
    const fresh = msgs.filter((m) => !own.has(messageKey(m)));
    const freshText = fresh.length ? ` (${fresh.length} of its own: ${fresh.slice(0, 4).map(messageLabel).join(', ')})` : '';
    const ids = c?.events.flatMap((e) => (e.id && e.msg && own.has(messageKey(e.msg)) ? [e.id] : [])) ?? [];
    if (replayed.length) ev.push({ on: 'gap-signalled', verdict: 'fail', text: `${which} cursor "${shortId(cursor)}" answered ${answerText(c)}: it replayed ${replayed.length} of the call's message(s) (${replayed.slice(0, 4).map(messageLabel).join(', ')}) for a cursor it never issued`, events: ids.slice(0, 6) });
    else ev.push({ on: 'gap-signalled', verdict: 'unknown', text: `${which} cursor "${shortId(cursor)}" answered ${answerText(c)}${msgs.length ? `, none of the call's messages${freshText}` : ''}: silently (had a real cursor been lost, the client would not be told)` });
  }
  return { result: { name, status: 'ran', summary: `GET Last-Event-ID: ${shortId(cursor)} → ${answerText(c, r.error)}`, evidence: ev }, recorder: rec };
}

export async function crossSessionExperiment(a: ProbeSession, s: ProbeSettings, b: Baseline, src: string): Promise<{ result: ExperimentResult; recorders: Recorder[] }> {
  const name = 'resume from a second session with the first session\'s cursor';
  const cursor = b.ids[Math.max(0, Math.floor(b.ids.length / 2) - 1)]!;
  const bs = await openSession(s, `${src}-session-b`);
  const http = createHttpFetch();
  const rec = createRecorder(src, http.fetch);
  try {
    const r = await rawGet(rec, s.url, { sessionId: bs.sessionId, protocolVersion: bs.protocolVersion, lastEventId: cursor, extra: s.headers }, s.listenMs);
    const c = last(rec);
    const own = new Set(b.messages.map(messageKey));
    const leaked = (c ? messagesOf(c) : []).filter((m) => own.has(messageKey(m)));
    const ids = c?.events.filter((e) => e.msg && own.has(messageKey(e.msg))).map((e) => e.id ?? '(no id)') ?? [];
    const A = a.sessionId ?? '(none)';
    const B = bs.sessionId ?? '(none)';
    if (leaked.length) {
      const message = `session ${B} resumed with session ${A}'s cursor ${shortId(cursor)} and was sent ${leaked.length} of session ${A}'s messages (${leaked.slice(0, 4).map(messageLabel).join(', ')}${leaked.some(isResponse) ? ', its tool result included' : ''}): the event store is not scoped by session`;
      return {
        result: {
          name,
          status: 'ran',
          summary: `GET Last-Event-ID: ${shortId(cursor)} in session ${B} → ${answerText(c, r.error)}`,
          evidence: [{ on: 'session-scoping', verdict: 'fail', text: `SECURITY: ${message}`, events: ids.slice(0, 8) }],
          security: [{ code: 'cross-session-replay', message, sessions: [A, B], events: ids }],
        },
        recorders: [bs.recorder, rec],
      };
    }
    const other = c ? messagesOf(c).filter(isNotification) : [];
    return {
      result: { name, status: 'ran', summary: `GET Last-Event-ID: ${shortId(cursor)} in session ${B} → ${answerText(c, r.error)}`, evidence: [{ on: 'session-scoping', verdict: 'pass', text: `session ${B} got nothing of session ${A} for its cursor ${shortId(cursor)} (${answerText(c, r.error)}${other.length ? `; ${other.length} notification(s) of its own` : ''})` }] },
      recorders: [bs.recorder, rec],
    };
  } finally {
    http.close();
    await bs.close();
  }
}

/** The SDK's standalone GET stream of session A: cut right after its first event; the SDK resumes it. */
export async function standaloneExperiment(a: ProbeSession, s: ProbeSettings): Promise<ExperimentResult> {
  const name = 'standalone GET stream cut and resumed';
  const conns = connsOf(a.recorder.records);
  const get = conns.find((c) => c.method === 'GET' && c.lastEventId === undefined);
  if (!get) return { name, status: 'skipped', summary: 'the client opened no standalone GET stream', evidence: [] };
  if (get.status !== 200) return { name, status: 'skipped', summary: `the server does not offer a standalone GET stream (status ${get.status ?? 'none'})`, evidence: [] };
  if (!isEventStreamType(get.contentType)) return { name, status: 'skipped', summary: `the server answered the standalone GET ${answerText(get)}, ${NOT_A_STREAM}: no stream to resume`, evidence: [] };
  const id = get.events.find((e) => e.id)?.id;
  if (id === undefined) return { name, status: 'skipped', summary: `the standalone GET stream carried no id within the probe (${get.events.length} events): nothing to resume from`, evidence: [] };
  // On session A's own recorder: the resume belongs to its capture.
  const rec = a.recorder;
  const before = new Set(connsOf(rec.records).map((x) => x.conn));
  await rawGet(rec, s.url, { sessionId: a.sessionId, protocolVersion: a.protocolVersion, lastEventId: id, extra: s.headers }, s.listenMs);
  // This GET, not the last connection of the recorder: the server may close the SDK's standalone
  // stream when this one takes over, and the SDK reconnects it (its own cursor) on the same one.
  const c = connsOf(rec.records).find((x) => !before.has(x.conn) && x.method === 'GET' && x.lastEventId === id);
  return { name, status: 'ran', summary: `first standalone GET: ${answerText(get)}; GET Last-Event-ID: ${shortId(id)} → ${answerText(c)}`, evidence: [standaloneResumeEvidence(get, c, id, s.listenMs)] };
}

/**
 * The resume of the standalone stream from `id`, against what that stream carried after `id`
 * before the resume was sent (what came later may go to either stream). A 200 alone shows
 * nothing: the answer must be an event stream, and it shows retention only when it replays
 * what followed the cursor.
 */
function standaloneResumeEvidence(get: ProbeConn, c: ProbeConn | undefined, id: string, listenMs: number): Evidence {
  const of = (verdict: Evidence['verdict'], text: string): Evidence => ({ on: 'gapless-retention', verdict, text, events: [id] });
  if (c?.status === 409) return of('unknown', `the resume of the standalone stream from ${shortId(id)} was answered 409 (a standalone stream is still open)`);
  if (c?.status !== 200) return of('fail', `the standalone stream's own cursor ${shortId(id)} is refused: ${answerText(c)}`);
  if (!isEventStreamType(c.contentType)) return of('fail', `the resume of the standalone stream from ${shortId(id)} was answered ${answerText(c)}, ${NOT_A_STREAM}: nothing can be replayed on it`);
  const want = carriedAfter(get.events, id, c.t);
  if (!want.length) return of('unknown', `the resume from ${shortId(id)} was accepted (${answerText(c)}), but the stream carried nothing after it within the probe: nothing to check the replay against`);
  const got = new Set(messagesOf(c).map(messageKey));
  const missing = want.filter((m) => !got.has(messageKey(m)));
  if (missing.length) return of('fail', `the resume from ${shortId(id)} (${answerText(c)}) left out ${missing.length} message(s) the stream carried after it: ${missing.slice(0, 4).map(messageLabel).join(', ')} (read for ${listenMs} ms)`);
  return of('pass', `the resume from ${shortId(id)} (${answerText(c)}) replayed the ${want.length} message(s) the stream carried after it`);
}

/** Ids on the streams that are not replays: none may repeat. */
export function idsExperiment(a: ProbeSession): ExperimentResult {
  const conns = connsOf(a.recorder.records).filter((c) => c.lastEventId === undefined);
  const where = new Map<string, string[]>();
  for (const c of conns) for (const e of c.events) if (e.id) where.set(e.id, [...(where.get(e.id) ?? []), `${c.method} ${c.rpcMethod ?? ''}`.trim() + ` (${c.conn})`]);
  const dup = [...where].filter(([, w]) => w.length > 1);
  const total = where.size;
  if (total === 0) return { name: 'ids unique across streams', status: 'skipped', summary: 'no ids', evidence: [] };
  return {
    name: 'ids unique across streams',
    status: 'ran',
    summary: `${total} ids on ${conns.filter((c) => c.events.some((e) => e.id)).length} streams that are not replays`,
    evidence: dup.length
      ? [{ on: 'ids-unique', verdict: 'fail', text: `${dup.length} id(s) used more than once: ${dup.slice(0, 4).map(([id, w]) => `${shortId(id)} on ${w.join(' and ')}`).join('; ')}: a cursor names no single event`, events: dup.map(([id]) => id).slice(0, 8) }]
      : [{ on: 'ids-unique', verdict: 'pass', text: `${total} ids, none repeated across the session's streams` }],
  };
}

// One tools/call in session A, shaped (cut or paced) on its POST stream, and what it delivered:
// the POST stream and the chain of resumes (GET + Last-Event-ID) the SDK made for it.

import { callTool, type CallOutcome, type ProbeSession } from './client';
import { connsOf, messagesOf, type ProbeConn } from './conns';
import { paceBody, type PaceOptions } from './pacer';

export interface CallRun {
  outcome: CallOutcome;
  post?: ProbeConn;
  resumes: ProbeConn[];
  /** Messages delivered, in order, over the POST stream and its resumes. */
  messages: Record<string, unknown>[];
  /** Ids read before the cut (the last one is the cursor). */
  idsBeforeCut: string[];
  cutAfter?: number;
  /** The JSON-RPC id of the call (JSON text). */
  rpcId?: string;
}

function idOf(raw: string): string | undefined {
  let id: string | undefined;
  for (const l of raw.split(/\r\n|\r|\n/)) if (l.startsWith('id:')) id = l.slice(3).replace(/^ /, '');
  return id;
}

export async function runCall(p: ProbeSession, tool: string, args: Record<string, unknown>, timeoutMs: number, pace?: Omit<PaceOptions, 'onEvent' | 'onCut'>): Promise<CallRun> {
  const before = new Set(connsOf(p.recorder.records).map((c) => c.conn));
  const ids: string[] = [];
  const ac = new AbortController();
  let cutAfter: number | undefined;
  let shaped = false;
  p.recorder.shape = pace
    ? (body, ctx) => {
        if (shaped || ctx.method !== 'POST' || !ctx.body?.includes('"tools/call"')) return undefined;
        shaped = true;
        return paceBody(body, {
          ...pace,
          onEvent: (raw) => {
            const id = idOf(raw);
            if (id) ids.push(id);
          },
          onCut: (after) => {
            cutAfter = after;
            // Without an id the 2025 client has no cursor and does not reconnect (the call would
            // wait for its timeout): let it go now, the records show why.
            if (ids.length === 0) setTimeout(() => ac.abort(new Error(`probe: cut after ${after} events, before any id`)), 50);
          },
        });
      }
    : undefined;
  const outcome = await callTool(p, tool, args, timeoutMs, ac.signal);
  p.recorder.shape = undefined;
  const fresh = connsOf(p.recorder.records).filter((c) => !before.has(c.conn));
  const post = fresh.find((c) => c.method === 'POST' && c.rpcMethod === 'tools/call');
  const chainIds = new Set(post ? post.events.flatMap((e) => (e.id ? [e.id] : [])) : []);
  const resumes: ProbeConn[] = [];
  for (const c of fresh) {
    if (c.method !== 'GET' || c.lastEventId === undefined || !chainIds.has(c.lastEventId)) continue;
    resumes.push(c);
    for (const e of c.events) if (e.id) chainIds.add(e.id);
  }
  const messages = [...(post ? messagesOf(post) : []), ...resumes.flatMap(messagesOf)];
  return { outcome, ...(post ? { post } : {}), resumes, messages, idsBeforeCut: ids, ...(cutAfter !== undefined ? { cutAfter } : {}), ...(post?.rpcId ? { rpcId: post.rpcId } : {}) };
}

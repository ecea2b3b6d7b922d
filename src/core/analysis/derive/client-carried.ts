// Lost or partial output carried forward (issue 19, item 4): text of a result the client accepted
// over a lossy or unverifiable stream (what it received for that request: the result and the
// notifications before it), or of a broken attempt's partial output, that reappears in something
// the page sent later in the same session: a tool's arguments, an MRTR retry's answers, the page's
// answer to a sampling or elicitation request.
//
// The rule, so that it does not fire on coincidence: only WHOLE JSON string values of the source of
// at least MIN_CHARS characters that are text (they hold a space: an id, URI, token or requestState
// handed back is reuse by design) count, found inside a string value the page sent later; a value
// the page itself had sent before the source ended is not the source's text (an echo), nor is one
// carried no more often than requests answered over a whole stream (verdict complete) delivered
// it before: a re-issue's progress and result repeat its broken attempt's, and the page had them
// whole (an agent that keeps both carries them twice). Random or
// unrelated text of that length does not repeat by chance (test/unit/core/client-carried.test.ts
// proves it over generated traffic). Cost: only sessions with such a source, linear in their
// later POST bodies' strings.
import type { RequestInfo, RequestLink } from '../../model';
import * as C from '../texts-client-use';
import type { ReqState, StreamS } from '../state';
import { add, type Derivation } from './context';
import { named } from './modern-verdicts';
import { eventData, eventDuplicate } from '../../event-access';

export const MIN_CHARS = 32;
const MAX_STRINGS = 2000;

/** String values of `v` (recursively) of at least MIN_CHARS characters, with the first key of their path. */
function strings(v: unknown, out: [path: string, text: string][], path: string, depth = 0): void {
  if (out.length >= MAX_STRINGS || depth > 32) return;
  if (typeof v === 'string') {
    // Text, not an identifier: a uuid, URI, token or requestState handed back is reuse by design.
    if (v.length >= MIN_CHARS && /\s/.test(v.trim())) out.push([path, v]);
  } else if (Array.isArray(v)) for (const x of v) strings(x, out, path, depth + 1);
  else if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) strings(x, out, path === '' ? k : path, depth + 1);
}

/** Non-overlapping occurrences of `t` in `v`. */
function occurrences(v: string, t: string): number {
  let n = 0;
  for (let i = v.indexOf(t); i !== -1; i = v.indexOf(t, i + t.length)) n++;
  return n;
}

const parse = (data: string): unknown => {
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
};

/** Text of the events the request received: its result (if any) and its notifications. */
function received(D: Derivation, r: ReqState): string[] {
  const byId = new Map<string, StreamS>();
  for (const st of D.s.streams) byId.set(st.id, st);
  const out: [string, string][] = [];
  const at = (st: StreamS | undefined, i: number) => {
    if (!st || eventDuplicate(st, i)) return;
    const data = eventData(st, i);
    if (data !== undefined) strings(parse(data), out, '');
  };
  r.notifications.forEach((sid, i) => at(byId.get(sid), i));
  if (r.responseStream && r.responseIndex !== undefined) at(r.responseStream, r.responseIndex);
  return [...new Set(out.map(([, t]) => t))];
}

/**
 * The page sent text of `r`'s result again later (the same rule as carried output: a whole string
 * value of MIN_CHARS or more, with a space, that the page had not sent before): the client took
 * that result, whatever else it did (cancelled the request late, sent it again).
 */
export function resultUsedLater(D: Derivation, r: ReqState): boolean {
  const st = r.responseStream;
  if (!st || r.responseIndex === undefined || r.responseOrd === undefined) return false;
  const data = eventDuplicate(st, r.responseIndex) ? undefined : eventData(st, r.responseIndex);
  if (data === undefined) return false;
  const found: [string, string][] = [];
  strings(parse(data), found, '');
  if (found.length === 0) return false;
  const before: [string, string][] = [];
  const later: [string, string][] = [];
  for (const p of D.s.streams) {
    if (p.method !== 'POST' || p.bodyMessages.length === 0) continue;
    for (const m of p.bodyMessages) strings(m.msg, p.ord < r.responseOrd ? before : later, '');
  }
  const texts = found.map(([, t]) => t).filter((t) => !before.some(([, o]) => o.includes(t)));
  return texts.some((t) => later.some(([, v]) => v.includes(t)));
}

interface Source {
  r: ReqState;
  kind: C.CarriedKind;
  /** Ord and time after which what the page sends may carry it. */
  ord: number;
  t: number;
  texts: string[];
}

function sources(D: Derivation, infos: RequestInfo[]): Source[] {
  const out: Source[] = [];
  D.s.requests.forEach((r, i) => {
    const v = infos[i]?.verdict;
    let kind: C.CarriedKind | undefined;
    let ord: number | undefined;
    let t: number | undefined;
    if (r.response === 'result' && (v === 'lossy' || v === 'complete-unverified')) {
      kind = v === 'lossy' ? 'lossy' : 'unverified';
      ord = r.responseOrd;
      t = r.end;
    } else if (r.response === undefined && r.notifications.length > 0 && !D.opts.longLivedMethods.includes(r.method)) {
      const root = r.stream.root;
      const last = root.segments[root.segments.length - 1]!;
      if (last.endOrd !== undefined && (last.state === 'error' || last.state === 'aborted' || last.state === 'unread' || last.state === 'complete')) {
        kind = 'partial';
        ord = last.endOrd;
        t = last.end;
      }
    }
    if (kind === undefined || ord === undefined || t === undefined) return;
    const texts = received(D, r);
    if (texts.length > 0) out.push({ r, kind, ord, t, texts });
  });
  return out;
}

const WHERE: Record<string, string> = { arguments: 'arguments', inputResponses: 'MRTR answers (inputResponses)', messages: 'messages' };

export function carriedOutput(D: Derivation, infos: RequestInfo[]): void {
  const src = sources(D, infos);
  if (src.length === 0) return;
  const posts = D.s.streams.filter((x) => x.method === 'POST' && x.bodyMessages.length > 0).sort((a, b) => a.ord - b.ord);
  // What the page sent before each point: a value it sent itself is no carried output.
  const links: RequestLink[] = [];
  const byInfo = new Map(infos.map((x) => [x.id, x]));
  // What requests answered over a whole stream delivered (verdict complete), by when: text the page
  // also got that way is no lossy output when it carries it no more often than it got it whole (a
  // re-issue's progress and result repeat the broken attempt's; an agent that keeps both carries
  // the text twice). Read only once a POST carries something (rare).
  let whole: { ord: number; texts: string[] }[] | undefined;
  const timesWhole = (t: string, before: number): number => {
    whole ??= D.s.requests.flatMap((r, i) => (r.response === 'result' && r.responseOrd !== undefined && infos[i]?.verdict === 'complete' ? [{ ord: r.responseOrd, texts: received(D, r) }] : []));
    return whole.filter((w) => w.ord < before && w.texts.some((x) => x.includes(t))).length;
  };
  for (const s of src) {
    const own = new Set<string>();
    const sent: [string, string][] = [];
    for (const p of posts) if (p.ord < s.ord) for (const m of p.bodyMessages) strings(m.msg, sent, '');
    for (const [, t] of sent) own.add(t);
    const texts = s.texts.filter((t) => ![...own].some((o) => o.includes(t)));
    if (texts.length === 0) continue;
    for (const p of posts) {
      if (p.ord <= s.ord) continue;
      for (const m of p.bodyMessages) {
        const vals: [string, string][] = [];
        const msg = m.msg as { id?: unknown; method?: unknown; params?: unknown; result?: unknown } | null;
        if (!msg) continue;
        if (msg.params !== undefined) strings(msg.params, vals, '');
        if (msg.result !== undefined) strings(msg.result, vals, 'result');
        const hit = texts.filter((t) => {
          const n = vals.reduce((k, [, v]) => k + occurrences(v, t), 0);
          return n > 0 && n > timesWhole(t, p.ord);
        });
        if (hit.length === 0) continue;
        const path = vals.find(([, v]) => hit.some((t) => v.includes(t)))![0];
        const chars = hit.reduce((n, t) => n + t.length, 0);
        const target: ReqState | undefined = p.requests.find((q) => m.summary.id !== undefined && q.id === m.summary.id && m.summary.kind === 'request');
        const toName = target ? named(target) : `the page's answer to the server's request ${m.summary.id ?? '(no id)'}`;
        const where = target ? WHERE[path] ?? 'params' : null;
        const label = C.carriedLabel(target ? `request ${target.id}` : toName, where, chars, `request ${s.r.id}`, s.kind);
        add(D, p.ord, 'lossy-output-carried', {
          ...(s.kind === 'lossy' ? {} : { severity: 'warning' as const }),
          streamId: p.id,
          relatedStreamIds: s.r.responseStream ? [s.r.responseStream.id] : [s.r.stream.root.segments[s.r.stream.root.segments.length - 1]!.id],
          requestId: target ? target.id : s.r.id,
          ...(target ? { relatedRequestIds: [s.r.id] } : {}),
          eventIds: [],
          message: C.carried(target ? named(target) : toName, where, chars, hit.length, named(s.r), s.kind, hit[0]!.length > 60 ? `${hit[0]!.slice(0, 57)}…` : hit[0]!),
        });
        const fromStream = s.r.responseStream ?? s.r.stream.root.segments[s.r.stream.root.segments.length - 1]!;
        links.push({ kind: 'carried', from: s.r.id, fromStreamId: fromStream.id, to: target ? target.id : m.summary.id ?? 'null', toStreamId: p.id, t0: s.t, t1: p.start, chars, label });
        if (target) {
          const a = byInfo.get(target.id);
          const b = byInfo.get(s.r.id);
          if (a && a.carriesFrom === undefined) a.carriesFrom = s.r.id;
          if (b && b.carriedInto === undefined) b.carriedInto = target.id;
        }
      }
    }
  }
  if (links.length > 0) D.carried = links;
}

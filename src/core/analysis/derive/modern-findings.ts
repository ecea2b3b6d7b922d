// The findings of a 2026-07-28 conversation that depend on more than one record (issue 12):
// subscription drops and what the client fetched after listening again, MRTR retries whose
// requestState changed or never came, and the headers: what the capture shows disagreeing with
// the body, and the -32020 / -32021 / -32022 answers explained (a proxy's rewrite, the browser's
// missing Mcp-Param-* headers, a capability the client did not declare, a version the server
// does not support). Recomputed at each derivation: the cost is in requests, not events.
import { getPath } from '../../jsonrpc';
import { HEADER_MISMATCH, META_CAPABILITIES, MISSING_CAPABILITY, UNSUPPORTED_VERSION, headerText, metaVersionOf } from '../eras';
import { headerValue } from '../../record';
import * as E from '../texts-eras';
import type { ReqState } from '../state';
import { add, type Derivation } from './context';
import { requestStateOf } from './modern';
import { named } from './modern-verdicts';

const answerText = (r: ReqState) => (r.x.error?.code !== undefined ? `${r.x.error.code}${r.x.error.message ? ` (${r.x.error.message})` : ''}` : undefined);

/** Dropped subscriptions (their outage) and lists not fetched again after the re-listen. */
function subscriptions(D: Derivation): void {
  const mv = D.mv!;
  mv.subscriptions.forEach((sub, i) => {
    if (sub.state !== 'dropped') return;
    const r = mv.listens[i]!;
    const st = r.stream;
    const how = E.dropHow[st.state] ?? E.dropHow.unknown!;
    const cover = sub.coveredBy !== undefined ? D.s.requestById.get(sub.coveredBy) : undefined;
    if (cover) {
      // Nothing of its lists was lost: information, not something to act on.
      add(D, st.endOrd ?? st.ord, 'subscription-dropped', { severity: 'info', streamId: st.id, relatedStreamIds: [cover.stream.id], requestId: r.id, eventIds: [], message: E.droppedCovered(r.id, sub.lists, how, cover.id) });
      return;
    }
    const again = sub.outage?.relistenRequestId !== undefined ? D.s.requestById.get(sub.outage.relistenRequestId) : undefined;
    add(D, st.endOrd ?? st.ord, 'subscription-dropped', {
      streamId: st.id,
      ...(again ? { relatedStreamIds: [again.stream.id] } : {}),
      requestId: r.id,
      eventIds: [],
      message: E.dropped(r.id, sub.lists, how, again ? { id: again.id, after: again.start - (sub.outage?.from ?? again.start) } : undefined, D.finished),
    });
    if (!again || sub.lists.length === 0) return;
    const reqs = D.s.requests;
    const from = reqs.indexOf(again);
    const missing = sub.lists.filter((l) => {
      const [method, uri] = l.split(' ', 2) as [string, string | undefined];
      for (let k = from + 1; k < reqs.length; k++) {
        const q = reqs[k]!;
        if (q.method === method && (uri === undefined || getPath(q.params, ['uri']) === uri)) return false;
      }
      return true;
    });
    if (missing.length === 0) return;
    add(D, again.stream.ord, 'lists-not-refetched', {
      ...(D.finished ? {} : { pending: true }),
      streamId: again.stream.id,
      relatedStreamIds: [st.id],
      requestId: again.id,
      eventIds: [],
      message: E.notRefetched(again.id, missing, again.start - (sub.outage?.from ?? again.start), D.finished),
    });
  });
}

/** MRTR: retries whose requestState differs from the one returned, input_required results never retried. */
function mrtr(D: Derivation): void {
  const mv = D.mv!;
  for (const r of D.s.requests) {
    const of = mv.retryOf.get(r);
    if (of) {
      const sent = requestStateOf(r);
      if (sent === of.x.requestState) continue;
      add(D, r.stream.ord, 'request-state-altered', {
        streamId: r.stream.id,
        relatedStreamIds: [of.stream.id],
        requestId: r.id,
        eventIds: [],
        message: E.stateAltered(named(r), named(of), sent ?? '(none)', of.x.requestState ?? '(none)', answerText(r)),
      });
    } else if (r.x.resultType === 'input_required' && !mv.retriedAs.has(r)) {
      add(D, r.responseOrd ?? r.stream.ord, 'input-not-answered', {
        ...(D.finished ? {} : { pending: true }),
        streamId: r.responseStream?.id ?? r.stream.id,
        requestId: r.id,
        eventIds: [],
        ...(r.responseIndex !== undefined ? { eventIndex: r.responseIndex } : {}),
        message: E.inputNotAnswered(named(r), r.x.inputRequests ?? [], D.finished),
      });
    }
  }
}

/** The header a -32020 answer's data names, and the value the server saw. */
function mismatchOf(data: unknown): { header?: string; seen?: string } {
  const m = getPath(data, ['mismatch']);
  const header = getPath(m, ['header']);
  const body = getPath(m, ['body']);
  const text = typeof body === 'string' ? body : '';
  const named = /(Mcp-[A-Za-z0-9-]+|MCP-Protocol-Version) header (?:names|is) "?([^"]*)"?/.exec(text);
  const out: { header?: string; seen?: string } = {};
  if (named) {
    out.header = named[1]!;
    if (!/absent/.test(text)) out.seen = named[2]!;
  } else if (typeof header === 'string' && /^mcp-/i.test(header)) out.header = header;
  return out;
}

/** Why a -32020 came although the capture's headers agree with the body. */
function explainRefusal(D: Derivation, r: ReqState): string {
  const err = r.x.error!;
  const mm = mismatchOf(err.data);
  const headers = r.stream.requestHeaders;
  const h = mm.header;
  if (h && /^mcp-param-/i.test(h) && headerValue(headers, h) === undefined) {
    const tool = getPath(r.params, ['name']);
    const decl = typeof tool === 'string' ? D.s.conv?.paramHeaders?.get(tool)?.find(([, name]) => `mcp-param-${name}`.toLowerCase() === h.toLowerCase()) : undefined;
    const fromMessage = /carries ([A-Za-z0-9_.-]+)=/.exec(String(getPath(err.data, ['mismatch', 'body']) ?? err.message ?? ''))?.[1];
    return E.paramMissing(named(r), h, decl?.[0] ?? fromMessage ?? '(not named)', decl?.[1]);
  }
  if (h && mm.seen !== undefined) {
    const sent = headerValue(headers, h);
    if (sent !== undefined && headerText(sent) !== mm.seen) return E.headerRewritten(named(r), h, mm.seen, sent);
  }
  return E.headerRefused(named(r), err.message);
}

const capabilityText = (data: unknown): string => {
  const req = getPath(data, ['requiredCapabilities']);
  if (typeof req !== 'object' || req === null) return '';
  const paths: string[] = [];
  const walk = (v: unknown, at: string) => {
    if (typeof v !== 'object' || v === null || Object.keys(v).length === 0 || paths.length > 8) return void paths.push(at);
    for (const [k, x] of Object.entries(v)) walk(x, at ? `${at}.${k}` : k);
  };
  walk(req, '');
  return paths.join(', ');
};

/** Headers that disagree with the body, and the 2026-07-28 refusals explained. */
function headers(D: Derivation): void {
  const reqs = D.s.requests;
  reqs.forEach((r, i) => {
    const code = r.x.error?.code;
    const at = r.responseOrd ?? r.stream.endOrd ?? r.stream.ord;
    const base = { streamId: r.stream.id, requestId: r.id, eventIds: [] as string[], ...(r.responseIndex !== undefined && r.responseStream === r.stream ? { eventIndex: r.responseIndex } : {}) };
    if (r.x.headerIssues) {
      add(D, r.stream.ord, 'header-mismatch', { ...base, message: E.headerSeen(named(r), r.x.headerIssues, code === HEADER_MISMATCH ? answerText(r) : undefined) });
    } else if (code === HEADER_MISMATCH) {
      add(D, at, 'header-mismatch', { ...base, message: explainRefusal(D, r) });
    } else if (code === MISSING_CAPABILITY) {
      const declared = getPath(r.params, ['_meta', META_CAPABILITIES]);
      const req = capabilityText(r.x.error?.data);
      add(D, at, 'header-mismatch', { ...base, message: E.missingCapability(named(r), req, declared !== undefined ? JSON.stringify(declared).slice(0, 120) : undefined, r.x.error?.message) });
    } else if (code === UNSUPPORTED_VERSION) {
      const supported = getPath(r.x.error?.data, ['supported']);
      const list = Array.isArray(supported) ? supported.filter((x): x is string => typeof x === 'string').slice(0, 10) : [];
      const recovered = reqs.slice(i + 1).some((q) => q.method === r.method && q.response === 'result');
      add(D, at, 'header-mismatch', { ...base, ...(recovered ? { severity: 'info' as const } : {}), message: E.unsupportedVersion(named(r), metaVersionOf(r.params), list, recovered) });
    }
  });
}

/** The findings of a modern conversation that the verdicts do not give. */
export function modernFindings(D: Derivation): void {
  if (!D.mv) return;
  subscriptions(D);
  mrtr(D);
  headers(D);
}

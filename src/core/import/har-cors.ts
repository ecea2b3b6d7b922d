// The network witness's CORS checks on a HAR file DevTools saved. Such a file is the network view
// itself: it holds CORS preflights (Chrome: `_resourceType: "preflight"`) and every response
// header, including those CORS hides from the page. So the two problems the live panel finds by
// comparing its capture with chrome.devtools.network (`cors-preflight-rejected`,
// `session-id-not-exposed`, src/core/witness.ts) show in the file alone, and `audit` reports them
// as the panel does: a notice record per problem, which the analysis files as a finding.
//
// Not for the product's own HAR export: its entries carry the headers the page saw, and the
// witness's notices travel in `_msiRecords` already.

import type { CaptureNoticeRecord } from '../record';
import { failedBeforeAnswer, exposeProblem, isPreflight, preflightProblem, startedAt, type CorsProblem, type NetEntry, type NetHeader } from '../witness';
import { harStatus, headers, isObj } from './har-fields';

/** How far apart a preflight and the request it was made for may start (as the live witness). */
const PAIR_WINDOW_MS = 5000;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The importer's reading of a HAR header list (untrusted values made text), in the witness's shape. */
const netHeaders = (v: unknown): NetHeader[] => headers(v).map(([name, value]) => ({ name, value }));

/** The parts of an untrusted HAR entry the witness reads; undefined when it has no request URL. */
export function netEntryOf(raw: unknown): NetEntry | undefined {
  if (!isObj(raw) || !isObj(raw.request)) return undefined;
  const req = raw.request;
  const url = str(req.url);
  if (url === undefined) return undefined;
  const res = isObj(raw.response) ? raw.response : {};
  const content = isObj(res.content) ? res.content : undefined;
  const initiator = isObj(raw._initiator) ? raw._initiator : undefined;
  const postText = isObj(req.postData) ? str(req.postData.text) : undefined;
  return {
    startedDateTime: str(raw.startedDateTime) ?? '',
    time: typeof raw.time === 'number' && Number.isFinite(raw.time) ? raw.time : 0,
    request: { method: (str(req.method) ?? 'GET').toUpperCase(), url, headers: netHeaders(req.headers), ...(postText !== undefined ? { postData: { text: postText } } : {}) },
    response: {
      // (as the importer reads it: some writers give the status as text, "200")
      status: harStatus(res.status),
      ...(str(res.statusText) !== undefined ? { statusText: str(res.statusText) } : {}),
      headers: netHeaders(res.headers),
      ...(content ? { content: { ...(str(content.mimeType) !== undefined ? { mimeType: str(content.mimeType) } : {}) } } : {}),
      ...(str(res._error) !== undefined ? { _error: str(res._error) } : {}),
    },
    ...(str(raw._resourceType) !== undefined ? { _resourceType: str(raw._resourceType) } : {}),
    ...(initiator ? { _initiator: { ...(str(initiator.type) !== undefined ? { type: str(initiator.type) } : {}), ...(str(initiator.url) !== undefined ? { url: str(initiator.url) } : {}) } } : {}),
  };
}

const sessionIdOf = (hs: readonly NetHeader[]) => hs.find((h) => h.name.toLowerCase() === 'mcp-session-id')?.value;

/**
 * Collects entries as the importer reads them; `notices(t0)` gives one notice per problem (one per
 * code, method, URL and header set, as the live witness reports them), timed at the request
 * concerned.
 */
export function harCorsCheck() {
  const preflights: NetEntry[] = [];
  const others: NetEntry[] = [];
  let ours = false;
  return {
    /** One HAR entry, before or after the importer's own reading of it. */
    see(raw: unknown): void {
      if (isObj(raw) && raw._msi !== undefined) ours = true;
      const e = netEntryOf(raw);
      if (!e) return;
      (isPreflight(e) ? preflights : others).push(e);
    },
    /** The file's notices; none for the product's own export (see the top of this file). */
    notices(src: string, ownExport: boolean): Omit<CaptureNoticeRecord, 'seq'>[] {
      if (ours || ownExport) return [];
      const problems: { p: CorsProblem; t: number }[] = [];
      const seen = new Set<string>();
      const add = (p: CorsProblem | null, t: number) => {
        if (!p) return;
        const k = `${p.code} ${p.method} ${p.url} ${p.headers.join(',')}`;
        if (seen.has(k)) return;
        seen.add(k);
        problems.push({ p, t });
      };
      for (const pf of preflights) {
        const url = pf._initiator?.url ?? pf.request.url;
        const start = startedAt(pf);
        let actual: NetEntry | undefined;
        let hint: string | undefined;
        let hintD = Infinity;
        for (const x of others) {
          if (x.request.url !== url) continue;
          const d = Math.abs(startedAt(x) - start);
          if (d > PAIR_WINDOW_MS) continue;
          if (failedBeforeAnswer(x) && (!actual || d < Math.abs(startedAt(actual) - start))) actual = x;
          const sid = sessionIdOf(x.request.headers);
          if (sid !== undefined && d < hintD) [hint, hintD] = [sid, d];
        }
        add(preflightProblem(pf, actual, hint), start);
      }
      for (const e of others) add(exposeProblem(e), startedAt(e));
      return problems.map(({ p, t }) => ({
        kind: 'notice' as const,
        src,
        t,
        level: 'error' as const,
        code: p.code,
        message: p.message,
        url: p.url,
        ...(p.sessionId !== undefined ? { sessionId: p.sessionId } : {}),
      }));
    },
  };
}

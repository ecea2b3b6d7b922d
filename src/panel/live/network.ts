// Requests the page hook cannot see (fetches in Web Workers and Service Workers, frames where the
// hook did not run) appear once finished, from chrome.devtools.network, with transport 'network'.
// A finished request is kept only if no hook record matches it (same method and URL, started
// within MATCH_MS) after a grace period that lets the hook's records arrive first.

import { isEventStreamType, isJsonType, type CaptureRecord, type Header } from '../../core/record';
import type { LiveStore } from './store';

const GRACE_MS = 1500;
const MATCH_MS = 3000;

export interface HarLikeEntry {
  startedDateTime: string;
  time: number;
  request: { method: string; url: string; headers: { name: string; value: string }[]; postData?: { text?: string } };
  response: { status: number; statusText: string; headers: { name: string; value: string }[]; bodySize?: number; content?: { mimeType?: string } };
  getContent(cb: (content: string | null, encoding: string) => void): void;
}

function hdrs(h: { name: string; value: string }[]): Header[] {
  return h.map(({ name, value }) => [name, value]);
}

export function isCandidate(e: HarLikeEntry): 'sse' | 'json' | null {
  const ct = e.response.headers.find((h) => h.name.toLowerCase() === 'content-type')?.value ?? e.response.content?.mimeType;
  if (isEventStreamType(ct)) return 'sse';
  const body = e.request.postData?.text ?? '';
  if (e.request.method === 'POST' && isJsonType(ct) && body.includes('"jsonrpc"')) return 'json';
  return null;
}

/** Whether the hook recorded this request (same method + URL, start within MATCH_MS). */
export function seenByHook(records: Iterable<CaptureRecord>, e: HarLikeEntry, used: Set<CaptureRecord>): boolean {
  const start = Date.parse(e.startedDateTime);
  for (const r of records) {
    if (r.kind !== 'request' || r.transport === 'network' || used.has(r)) continue;
    if (r.method === e.request.method && r.url === e.request.url && Math.abs(r.t - start) < MATCH_MS) {
      used.add(r);
      return true;
    }
  }
  return false;
}

const MAX_INDEX = 5000;

export function startNetworkFallback(store: LiveStore, onFinished: (cb: (e: HarLikeEntry) => void) => void): void {
  const src = 'network';
  let seq = 0;
  let conn = 0;
  const used = new Set<CaptureRecord>();
  // The hook's request records, kept here as well so that "Clear" or a navigation that empties
  // the view does not make a finished request look unseen.
  const hookRequests = new Set<CaptureRecord>();
  let indexed = 0;
  let lastRecords: readonly CaptureRecord[] = [];
  const index = () => {
    const rs = store.getSnapshot().records;
    // The store appends in place (same array, longer); any other change gives a new array
    // (clear, navigation, eviction, a backfill filling a hole): rescan it from the start.
    if (rs !== lastRecords) indexed = 0;
    if (rs.length !== indexed) {
      for (let i = indexed; i < rs.length; i++) {
        const r = rs[i]!;
        if (r.kind === 'request' && r.transport !== 'network') hookRequests.add(r);
      }
      indexed = rs.length;
      lastRecords = rs;
      for (const r of hookRequests) {
        if (hookRequests.size <= MAX_INDEX) break;
        hookRequests.delete(r);
      }
    }
  };
  store.subscribe(index);
  onFinished((entry) => {
    const capture = isCandidate(entry);
    if (!capture) return;
    setTimeout(() => {
      index();
      if (seenByHook(hookRequests, entry, used)) return;
      entry.getContent((content, encoding) => {
        const text = content == null ? '' : encoding === 'base64' ? safeAtob(content) : content;
        const start = Date.parse(entry.startedDateTime);
        const end = start + (entry.time > 0 ? entry.time : 0);
        const c = 'n' + (++conn).toString(36);
        const base = { src, conn: c };
        const recs: CaptureRecord[] = [
          { ...base, seq: ++seq, t: start, kind: 'request', transport: 'network', method: entry.request.method, url: entry.request.url,
            headers: hdrs(entry.request.headers), body: entry.request.postData?.text ?? null },
          { ...base, seq: ++seq, t: start, kind: 'response', status: entry.response.status, statusText: entry.response.statusText,
            headers: hdrs(entry.response.headers), url: entry.request.url, redirected: false, type: 'network', capture },
          { ...base, seq: ++seq, t: end, kind: 'chunk', text, bytes: entry.response.bodySize && entry.response.bodySize > 0 ? entry.response.bodySize : text.length },
          { ...base, seq: ++seq, t: end, kind: 'end', how: 'complete', reason: 'observed after completion (chrome.devtools.network)' },
        ];
        store.ingest(recs);
      });
    }, GRACE_MS);
  });
}

function safeAtob(b64: string): string {
  try {
    const bin = atob(b64);
    const bytes = Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  } catch {
    return '';
  }
}

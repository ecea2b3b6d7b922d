// A large HAR entry shown while its text is still arriving (issue 22): one stream of 100k events
// is one entry of megabytes, and the records of an entry are known only once it is whole (its
// `_msi` chunk times, Chrome's `startedDateTime` and `time` come after the body). While such an
// entry is read, its request, its response and the events of `response.content.text` read so far
// are shown as provisional records; the file then ends down the restart path (har-stream.ts), and
// the records that replace them are importHar's, seq for seq: the analysis at the end is the
// whole-file import's.
//
// Read from the entry's own text: the members before `response` (startedDateTime, request), the
// response's members before `content` and content's before `text` (status, headers, mimeType,
// encoding), then the string `text` as it arrives, decoded piece by piece (JSON string escapes
// are never cut). Each piece is scanned once.

import type { CaptureRecord, Header } from '../../../core/record';
import { NeedMore, scanner } from './json-scanner';

type Provisional = CaptureRecord extends infer R ? (R extends CaptureRecord ? Omit<R, 'seq'> : never) : never;

export interface EntryPreview {
  /**
   * More of the entry's text (`t` from `start`, the entry's first character): the provisional
   * records that became known. Throws nothing; an entry it cannot read yet gives [] (and one it
   * will never preview gives [] for good).
   */
  more(t: string, start: number): Provisional[];
  /** The entry's startedDateTime, once read (ms). */
  readonly start: number | undefined;
}

interface Head {
  start: number | undefined;
  method: string;
  url: string;
  headers: Header[];
  body: string | null;
  status: number;
  statusText: string;
  resHeaders: Header[];
  /** Offset of the first character inside `text`'s quotes, from the entry's start. */
  textAt: number;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const headersOf = (v: unknown): Header[] =>
  Array.isArray(v) ? v.filter((h): h is { name: string; value: string } => isObj(h) && typeof h.name === 'string' && typeof h.value === 'string').map((h) => [h.name.toLowerCase(), h.value] as Header) : [];

/** Walks the entry's members up to `response.content.text`; NeedMore while they are not all in; undefined: no preview (not an event stream, base64, another shape). */
function readHead(t: string, at: number): Head | undefined {
  const sc = scanner(t);
  let start: number | undefined;
  let req: Record<string, unknown> | undefined;
  let status = 0;
  let statusText = '';
  let resHeaders: Header[] = [];
  let mime = '';
  let encoding: unknown;
  /** Members of the object at `p` (just after its `{`) until `until` (a key) is found: returns the offset of its value. */
  const members = (p: number, until: string, onMember: (key: string, q: number) => void): number | undefined => {
    let first = true;
    for (;;) {
      p = sc.skipWs(p);
      if (p >= t.length) throw new NeedMore();
      const c = t.charCodeAt(p);
      if (c === 0x7d) return undefined;
      if (!first) {
        if (c !== 0x2c) return undefined;
        p = sc.skipWs(p + 1);
      }
      first = false;
      if (t.charCodeAt(p) !== 0x22) return undefined;
      const kEnd = sc.string(p);
      const key = JSON.parse(t.slice(p, kEnd)) as string;
      p = sc.skipWs(kEnd);
      if (p >= t.length) throw new NeedMore();
      if (t.charCodeAt(p) !== 0x3a) return undefined;
      p = sc.skipWs(p + 1);
      if (p >= t.length) throw new NeedMore();
      if (key === until) return p;
      const vEnd = sc.value(p);
      onMember(key, p);
      p = vEnd;
    }
  };
  if (t.charCodeAt(at) !== 0x7b) return undefined;
  const resAt = members(at + 1, 'response', (k, q) => {
    if (k === 'startedDateTime' || k === 'request') {
      const v = JSON.parse(t.slice(q, sc.value(q))) as unknown;
      if (k === 'startedDateTime' && typeof v === 'string' && Number.isFinite(Date.parse(v))) start = Date.parse(v);
      if (k === 'request' && isObj(v)) req = v;
    }
  });
  if (resAt === undefined || t.charCodeAt(resAt) !== 0x7b || !req || typeof req.url !== 'string') return undefined;
  const contentAt = members(resAt + 1, 'content', (k, q) => {
    const v = JSON.parse(t.slice(q, sc.value(q))) as unknown;
    if (k === 'status' && typeof v === 'number') status = v;
    if (k === 'statusText' && typeof v === 'string') statusText = v;
    if (k === 'headers') resHeaders = headersOf(v);
  });
  if (contentAt === undefined || t.charCodeAt(contentAt) !== 0x7b) return undefined;
  const textAt = members(contentAt + 1, 'text', (k, q) => {
    const v = JSON.parse(t.slice(q, sc.value(q))) as unknown;
    if (k === 'mimeType' && typeof v === 'string') mime = v;
    if (k === 'encoding') encoding = v;
  });
  if (textAt === undefined || t.charCodeAt(textAt) !== 0x22 || encoding !== undefined) return undefined;
  const ct = (resHeaders.find(([n]) => n === 'content-type')?.[1] ?? mime).toLowerCase().split(';', 1)[0]!.trim();
  if (ct !== 'text/event-stream') return undefined;
  const post = isObj(req.postData) && typeof req.postData.text === 'string' ? req.postData.text : null;
  return {
    start,
    method: typeof req.method === 'string' ? req.method.toUpperCase() : 'GET',
    url: req.url,
    headers: headersOf(req.headers),
    body: post,
    status,
    statusText,
    resHeaders,
    textAt: textAt + 1 - at,
  };
}

const PIECE = 64 * 1024;

/** The end of the last whole event in `s` (after its blank line), 0 if none. */
function lastEventEnd(s: string): number {
  return Math.max(s.lastIndexOf('\n\n') + 2, s.lastIndexOf('\r\n\r\n') + 4, s.lastIndexOf('\r\r') + 2, 0);
}

/** `src`, `conn`: the records' source and connection (those of importHar's records for this entry). */
export function createEntryPreview(src: string, conn: string, fallbackStart: number): EntryPreview {
  let head: Head | undefined;
  let done = false;
  /** Offset (from the entry's start) of the text not decoded yet. */
  let decoded = 0;
  let carry = '';
  let t0 = 0;
  let n = 0;
  const enc = new TextEncoder();
  return {
    get start() {
      return head?.start;
    },
    more(t, at) {
      if (done) return [];
      const out: Provisional[] = [];
      if (!head) {
        let h: Head | undefined;
        try {
          h = readHead(t, at);
        } catch (e) {
          if (e instanceof NeedMore) return [];
          h = undefined;
        }
        if (!h) {
          done = true;
          return [];
        }
        head = h;
        decoded = h.textAt;
        t0 = h.start ?? fallbackStart;
        out.push({ kind: 'request', src, t: t0, conn, transport: 'import', method: h.method, url: h.url, headers: h.headers, body: h.body, ...(h.body === null ? { bodyNote: 'none' as const } : {}) });
        // (Chrome writes `status` after `content`: an event stream's answer, 200, until the entry is whole)
        out.push({ kind: 'response', src, t: t0 + 0.001, conn, status: h.status || 200, statusText: h.statusText, headers: h.resHeaders, url: h.url, redirected: false, type: 'basic', capture: 'sse' });
      }
      // The string's text so far: up to its closing quote, else to the end without cutting an escape.
      let i = at + decoded;
      let end = t.length;
      for (;;) {
        const k = t.indexOf('"', i);
        if (k < 0) break;
        let b = 0;
        while (t.charCodeAt(k - 1 - b) === 0x5c) b++;
        if (b % 2 === 0) {
          end = k;
          done = true;
          break;
        }
        i = k + 1;
      }
      if (!done) {
        let b = 0;
        while (end - 1 - b >= at + decoded && t.charCodeAt(end - 1 - b) === 0x5c) b++;
        if (b % 2 === 1) end--;
        // a \uXXXX escape cut short
        const u = t.lastIndexOf('\\u', end - 1);
        if (u >= end - 5 && u >= at + decoded) {
          let bb = 0;
          while (t.charCodeAt(u - 1 - bb) === 0x5c) bb++;
          if (bb % 2 === 0) end = u;
        }
      }
      if (end > at + decoded) {
        try {
          carry += JSON.parse(`"${t.slice(at + decoded, end)}"`) as string;
        } catch {
          done = true;
          return out;
        }
        decoded = end - at;
      }
      const cut = done ? carry.length : lastEventEnd(carry);
      // In pieces of about 64 KB ending at an event's end (the analysis goes record by record in
      // time slices: the first frame does not wait for a megabyte of events).
      let from = 0;
      while (from < cut) {
        let to = cut;
        if (cut - from > PIECE) {
          const e = lastEventEnd(carry.slice(from, from + PIECE));
          to = e > 0 ? from + e : cut;
        }
        const text = carry.slice(from, to);
        out.push({ kind: 'chunk', src, t: t0 + 0.002 + ++n * 1e-6, conn, text, bytes: enc.encode(text).length });
        from = to;
      }
      carry = carry.slice(cut);
      return out;
    },
  };
}

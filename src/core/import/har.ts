// HAR 1.2 (Chrome DevTools "Save all as HAR with content", Playwright recordHar) to
// CaptureRecords. One connection per entry: request at startedDateTime, response after the wait,
// the whole body as one chunk right after the response (a HAR keeps no per-chunk timing), end at
// startedDateTime + time. Requests without a body and failed requests are kept.
import type { CaptureRecord, EndHow, Header } from '../record';
import { ImportError } from './errors';

type NoSeq = CaptureRecord extends infer R ? (R extends CaptureRecord ? Omit<R, 'seq'> : never) : never;

interface HarHeader {
  name?: unknown;
  value?: unknown;
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function isHarLike(v: unknown): boolean {
  return isObj(v) && isObj(v.log) && Array.isArray((v.log as Record<string, unknown>).entries);
}

function headers(v: unknown): Header[] {
  if (!Array.isArray(v)) return [];
  const out: Header[] = [];
  for (const h of v as HarHeader[]) {
    if (isObj(h) && typeof h.name === 'string') out.push([h.name, typeof h.value === 'string' ? h.value : String(h.value ?? '')]);
  }
  return out;
}

function headerOf(hs: Header[], name: string): string | undefined {
  const l = name.toLowerCase();
  for (const [k, v] of hs) if (k.toLowerCase() === l) return v;
  return undefined;
}

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;
}

/** Decode base64 to UTF-8 text (Node and browsers). */
function decodeBase64(b64: string): { text: string; bytes: number } {
  const clean = b64.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(clean)) throw new Error('not base64');
  let bytes: Uint8Array;
  if (typeof atob === 'function') {
    const bin = atob(clean.replace(/-/g, '+').replace(/_/g, '/'));
    bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  } else {
    throw new Error('no base64 decoder');
  }
  return { text: new TextDecoder('utf-8').decode(bytes), bytes: bytes.length };
}

function endHowFor(error: string | undefined): { how: EndHow; reason?: string } {
  if (!error) return { how: 'unknown' };
  const e = error.toLowerCase();
  if (e.includes('err_aborted') || e.includes('abort') || e.includes('cancel')) return { how: 'page-aborted', reason: error };
  return { how: 'network-error', reason: error };
}

export interface HarImportOptions {
  /** Capture source id of the records. Default 'har'. */
  src?: string;
  /**
   * Playwright's recordHar with `content: 'attach'` stores bodies beside the HAR and names them in
   * `content._file`; return that file's bytes (the CLI reads it next to the HAR).
   */
  readAttachment?: (name: string) => Uint8Array | undefined;
}

export function importHar(v: unknown, srcOrOptions: string | HarImportOptions = 'har'): CaptureRecord[] {
  const o: HarImportOptions = typeof srcOrOptions === 'string' ? { src: srcOrOptions } : srcOrOptions;
  const src = o.src ?? 'har';
  if (!isHarLike(v)) throw new ImportError('not a HAR file: no log.entries array');
  const entries = ((v as { log: { entries: unknown[] } }).log.entries ?? []) as unknown[];
  type Timed = { t: number; rank: number; entry: number; step: number; rec: NoSeq };
  const timed: Timed[] = [];
  let fallbackT = 0;
  entries.forEach((raw, i) => {
    if (!isObj(raw)) throw new ImportError(`HAR entry ${i} is not an object`);
    const req = raw.request;
    const res = raw.response;
    if (!isObj(req) || typeof req.url !== 'string') throw new ImportError(`HAR entry ${i} has no request.url`);
    const conn = `e${i}`;
    let start = typeof raw.startedDateTime === 'string' ? Date.parse(raw.startedDateTime) : NaN;
    if (!Number.isFinite(start)) start = fallbackT;
    fallbackT = Math.max(fallbackT, start);
    const total = num(raw.time);
    const timings = isObj(raw.timings) ? raw.timings : {};
    const beforeResponse = num(timings.blocked) + num(timings.dns) + num(timings.connect) + num(timings.send) + num(timings.wait);
    const reqHeaders = headers(req.headers);
    const method = typeof req.method === 'string' ? req.method : 'GET';
    let body: string | null = null;
    if (isObj(req.postData) && typeof req.postData.text === 'string') body = req.postData.text;
    const push = (t: number, rank: number, step: number, rec: NoSeq) => timed.push({ t, rank, entry: i, step, rec });

    const requestRec = {
      kind: 'request' as const,
      src,
      t: start,
      conn,
      transport: 'import' as const,
      method,
      url: req.url,
      headers: reqHeaders,
      body,
      ...(body === null ? { bodyNote: 'none' as const } : {}),
    };
    push(start, 2, 0, requestRec);

    const status = isObj(res) && typeof res.status === 'number' ? res.status : 0;
    const error =
      isObj(res) && typeof res._error === 'string' && res._error
        ? res._error
        : typeof raw._failureText === 'string' && raw._failureText
          ? raw._failureText
          : isObj(res) && typeof res._failureText === 'string' && res._failureText
            ? res._failureText
            : undefined;
    const hasResponse = isObj(res) && status > 0;
    const responseT = start + Math.min(beforeResponse, total || beforeResponse) + 0.001;
    let endT = start + Math.max(total, beforeResponse) + 0.003;
    if (endT <= responseT) endT = responseT + 0.002;

    if (hasResponse) {
      const resHeaders = headers(res.headers);
      const content = isObj(res.content) ? res.content : {};
      const mime = (headerOf(resHeaders, 'content-type') ?? (typeof content.mimeType === 'string' ? content.mimeType : '')).toLowerCase();
      const base = mime.split(';', 1)[0]!.trim();
      const capture = base === 'text/event-stream' ? 'sse' : base === 'application/json' || base.endsWith('+json') ? 'json' : 'none';
      push(responseT, 3, 1, {
        kind: 'response',
        src,
        t: responseT,
        conn,
        status,
        statusText: typeof res.statusText === 'string' ? res.statusText : '',
        headers: resHeaders,
        url: req.url,
        redirected: false,
        type: 'basic',
        capture,
      });
      let text: string | undefined;
      let bytes = 0;
      if (capture === 'none') {
        // not an event-stream or JSON body: not needed (images, scripts, ...)
      } else if (typeof content.text === 'string') {
        if (content.encoding === 'base64') {
          try {
            const d = decodeBase64(content.text);
            text = d.text;
            bytes = d.bytes;
          } catch {
            throw new ImportError(`HAR entry ${i} (${method} ${req.url}): response.content.text is marked base64 but is not valid base64`);
          }
        } else {
          text = content.text;
          bytes = new TextEncoder().encode(text).length;
        }
      } else if (typeof content._file === 'string' && o.readAttachment) {
        const data = o.readAttachment(content._file);
        if (data) {
          text = new TextDecoder('utf-8').decode(data);
          bytes = data.length;
        }
      }
      if (text !== undefined && text.length > 0 && capture !== 'none') {
        push(responseT + 0.001, 3, 2, { kind: 'chunk', src, t: responseT + 0.001, conn, text, bytes });
      } else if (text === undefined && capture !== 'none' && content.size !== 0 && status !== 204 && status !== 202 && status < 300) {
        // The body is absent, which is not an empty body (size 0 or text ""): the file did not keep
        // it. Playwright's recordHar and Chrome's "Save all as HAR" save no body for streams that
        // were cut or aborted (`size: -1`, no text); "HAR without content" and content: 'omit' /
        // 'attach' without the file drop them too. The analyzer marks the stream's events unknown.
        push(responseT + 0.001, 3, 2, {
          kind: 'capture-gap',
          src,
          t: responseT + 0.001,
          lost: 1,
          conns: [conn],
          reason: 'import',
        });
      }
    }
    const end = endHowFor(error);
    push(endT, 0, 3, { kind: 'end', src, t: endT, conn, how: end.how, ...(end.reason ? { reason: end.reason } : {}) });
  });
  // Capture order: by time; at equal times, ends before starts (a resume begins after the cut),
  // and within one entry in its own order.
  timed.sort((a, b) => a.t - b.t || (a.entry === b.entry ? a.step - b.step : a.rank - b.rank || a.entry - b.entry));
  return timed.map((x, k) => ({ ...x.rec, seq: k + 1 }) as CaptureRecord);
}

// "Copy as cURL", the way the Network panel writes it (bash quoting, one header per line), for a
// captured request and for a resume of its stream with `Last-Event-ID`. Every value is page data:
// single-quoted when it is printable, else ANSI-C quoted ($'…') with control, bidi and invisible
// characters escaped, so that nothing pasted into a terminal runs or hides.

import type { Header } from '../../../core/record';

const PLAIN = /^[^\u0000-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufeff\ufff9-\ufffb]*$/;

export function shellQuote(s: string): string {
  if (PLAIN.test(s)) return `'${s.replace(/'/g, `'\\''`)}'`;
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === "'") out += "\\'";
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else if (!PLAIN.test(ch)) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `$'${out}'`;
}

/** Headers the browser sets itself, or that curl computes (the Network panel leaves them out too). */
const SKIP = new Set(['host', 'content-length', 'connection', 'accept-encoding', 'keep-alive', 'transfer-encoding', 'te', 'upgrade']);

export interface CurlRequest {
  method: string;
  url: string;
  headers: readonly Header[];
  body?: string | null;
  /** An event stream: curl -N, so that events print as they arrive. */
  stream?: boolean;
}

export function curlCommand(r: CurlRequest): string {
  const parts = [`curl ${shellQuote(r.url)}`];
  const method = r.method.toUpperCase();
  const hasBody = r.body !== undefined && r.body !== null && r.body !== '';
  if ((hasBody && method !== 'POST') || (!hasBody && method !== 'GET')) parts.push(`-X ${shellQuote(method)}`);
  for (const [k, v] of r.headers) {
    if (k.startsWith(':') || SKIP.has(k.toLowerCase())) continue;
    parts.push(`-H ${shellQuote(`${k}: ${v}`)}`);
  }
  if (hasBody) parts.push(`--data-raw ${shellQuote(r.body!)}`);
  if (r.stream) parts.push('-N');
  return parts.join(' \\\n  ');
}

/**
 * A GET that resumes a stream after `lastEventId`: the session and protocol headers of the
 * request that opened the stream, `Accept: text/event-stream` and `Last-Event-ID`.
 */
export function resumeCommand(url: string, requestHeaders: readonly Header[], lastEventId: string): string {
  const keep = requestHeaders.filter(([k]) => {
    const l = k.toLowerCase();
    return l !== 'content-type' && l !== 'last-event-id' && l !== 'accept';
  });
  const headers: Header[] = [['Accept', 'text/event-stream'], ...keep, ['Last-Event-ID', lastEventId]];
  return curlCommand({ method: 'GET', url, headers, stream: true });
}

// Reading the fields of a HAR entry: headers as text, base64 bodies, end states from `_error`,
// whether a request carried a JSON-RPC request, whether an answer without body text could have
// had one that matters, and event-stream bodies split at their blank lines.
import type { EndHow, Header } from '../record';

interface HarHeader {
  name?: unknown;
  value?: unknown;
}

export function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function isHarLike(v: unknown): boolean {
  return isObj(v) && isObj(v.log) && Array.isArray((v.log as Record<string, unknown>).entries);
}

/**
 * A header value as text. HAR says string; other JSON values are kept as their JSON text. Never
 * `String(v)` on an object: a file can carry `{"toString": ""}`, which makes that throw.
 */
export function headerText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return '';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v) ?? '';
}

export function headers(v: unknown): Header[] {
  if (!Array.isArray(v)) return [];
  const out: Header[] = [];
  for (const h of v as HarHeader[]) {
    if (isObj(h) && typeof h.name === 'string') out.push([h.name, headerText(h.value)]);
  }
  return out;
}

export function headerOf(hs: Header[], name: string): string | undefined {
  const l = name.toLowerCase();
  for (const [k, v] of hs) if (k.toLowerCase() === l) return v;
  return undefined;
}

export function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;
}

/** Decode base64 to UTF-8 text (Node and browsers). */
export function decodeBase64(b64: string): { text: string; bytes: number } {
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

export function endHowFor(error: string | undefined): { how: EndHow; reason?: string } {
  if (!error) return { how: 'unknown' };
  const e = error.toLowerCase();
  if (e.includes('err_aborted') || e.includes('abort') || e.includes('cancel')) return { how: 'page-aborted', reason: error };
  return { how: 'network-error', reason: error };
}

/** A JSON-RPC request (a method and an id) in a request body: its answer may carry the result. */
export function carriesRequest(body: string | null): boolean {
  if (!body) return false;
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch {
    return false;
  }
  const one = (m: unknown) => isObj(m) && typeof m.method === 'string' && m.id !== undefined && m.id !== null;
  return Array.isArray(v) ? v.some(one) : one(v);
}

/**
 * Whether an answer the file holds no body for could have had one that matters: a body for which
 * the status leaves room (2xx, not 202 / 204 / 205), the method too (not DELETE, HEAD or OPTIONS),
 * whose length is not declared 0, and that is an event stream, or JSON answering a JSON-RPC request
 * (it may hold the result). Anything else without body text is an empty answer.
 */
export function mayHaveHeldBody(method: string, status: number, hs: Header[], capture: 'sse' | 'json', body: string | null): boolean {
  if (status < 200 || status >= 300 || status === 202 || status === 204 || status === 205) return false;
  if (method === 'DELETE' || method === 'HEAD' || method === 'OPTIONS') return false;
  const len = headerOf(hs, 'content-length');
  if (len !== undefined && /^\s*0+\s*$/.test(len)) return false;
  return capture === 'sse' || carriesRequest(body);
}


export const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Split an event-stream body at its blank lines (each piece ends with the blank line). */
export function splitEvents(text: string): string[] {
  const out: string[] = [];
  const re = /\r\n\r\n|\n\n|\r\r|\r\n\n|\n\r\n/g;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    out.push(text.slice(last, m.index + m[0].length));
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** A HAR response's status; some writers give it as text ("200"). 0 when it is neither. */
export function harStatus(v: unknown): number {
  if (typeof v === 'number') return v;
  return typeof v === 'string' && /^\d{3}$/.test(v.trim()) ? Number(v.trim()) : 0;
}

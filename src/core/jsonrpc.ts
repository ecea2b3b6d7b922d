// JSON-RPC decoding of request bodies, SSE data and JSON response bodies. Batches (2025-03-26)
// give several messages. Ids are kept as JSON text so that 1 and "1" stay different.
import type { JsonRpcSummary } from './model';

export interface DecodedMessage {
  summary: JsonRpcSummary;
  /** The parsed message object (for params / result inspection). */
  msg: Record<string, unknown> | null;
}

export interface DecodeResult {
  messages: DecodedMessage[];
  error?: string;
}

export function idText(id: unknown): string | undefined {
  // JSON.parse reads 1e400 as Infinity, which JSON.stringify would turn into "null": no valid id.
  if (typeof id === 'number') return Number.isFinite(id) ? JSON.stringify(id) : undefined;
  if (typeof id === 'string') return JSON.stringify(id);
  if (id === null) return 'null';
  return undefined;
}

// A stream's progress notifications repeat one token: its JSON text is made once, not per event.
let lastToken: string | undefined;
let lastTokenText = '';

/** idText of a string: its JSON text. */
function stringIdText(s: string): string {
  if (s === lastToken) return lastTokenText;
  lastToken = s;
  lastTokenText = JSON.stringify(s);
  return lastTokenText;
}

// A stream repeats a few methods: kept events share one string per method instead of a copy
// each (less to keep, and its hash is computed once for the analyzer's lookups by method).
const methods: string[] = ['', '', '', ''];
let nextMethod = 0;
function internMethod(m: string): string {
  for (let i = 0; i < 4; i++) if (methods[i] === m) return methods[i]!;
  methods[nextMethod] = m;
  nextMethod = (nextMethod + 1) & 3;
  return m;
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function summarize(m: unknown): DecodedMessage {
  if (!isObj(m)) return { summary: { kind: 'invalid' }, msg: null };
  const method = typeof m.method === 'string' ? internMethod(m.method) : undefined;
  const hasId = 'id' in m && m.id !== undefined;
  const id = hasId ? idText(m.id) : undefined;
  let summary: JsonRpcSummary;
  if (method !== undefined) {
    let progressToken: string | undefined;
    let progress: number | undefined;
    let total: number | undefined;
    const params = isObj(m.params) ? m.params : undefined;
    if (params) {
      let token: unknown = params.progressToken;
      if (token === undefined && isObj(params._meta)) token = params._meta.progressToken;
      const t = typeof token === 'string' ? stringIdText(token) : idText(token);
      if (t !== undefined && token !== null) progressToken = t;
      if (method === 'notifications/progress') {
        if (typeof params.progress === 'number') progress = params.progress;
        if (typeof params.total === 'number') total = params.total;
      }
    }
    const kind = hasId ? 'request' : 'notification';
    // Built with all its properties at once: properties added to an object literal afterwards
    // go to a separate backing store (one more allocation per kept event). Absent stays absent.
    if (id === undefined && progressToken !== undefined && progress !== undefined)
      summary = total !== undefined ? { kind, method, progressToken, progress, total } : { kind, method, progressToken, progress };
    else {
      summary = { kind, method };
      if (id !== undefined) summary.id = id;
      if (progressToken !== undefined) summary.progressToken = progressToken;
      if (progress !== undefined) summary.progress = progress;
      if (total !== undefined) summary.total = total;
    }
  } else if (hasId && 'result' in m) {
    summary = id !== undefined ? { kind: 'result', id } : { kind: 'result' };
  } else if ('error' in m) {
    summary = id !== undefined ? { kind: 'error', id } : { kind: 'error' };
  } else {
    summary = { kind: 'invalid' };
  }
  return { summary, msg: m };
}

/** Which character codes can start a JSON text: { [ " - 0-9 t f n. */
const JSON_START = new Uint8Array(128);
for (const c of '{["-0123456789tfn') JSON_START[c.charCodeAt(0)] = 1;

/** Index of the first character that is not JSON whitespace, or -1. */
function firstNonSpace(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return i;
  }
  return -1;
}

/** Decode a JSON text into JSON-RPC messages (single or batch). */
export function decodeJsonRpc(text: string): DecodeResult {
  // Data that cannot start a JSON text fails here without a thrown SyntaxError (building one costs
  // microseconds: a stream of a million plain-text events would spend most of its time on them).
  const at = firstNonSpace(text);
  if (at === -1) return { messages: [], error: 'empty data' };
  const c0 = text.charCodeAt(at);
  if (c0 >= 128 || JSON_START[c0] !== 1) {
    const ch = String.fromCodePoint(text.codePointAt(at)!);
    return { messages: [], error: `Unexpected token ${JSON.stringify(ch)} at position ${at}: the data is not JSON` };
  }
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { messages: [], error: e instanceof Error ? e.message : String(e) };
  }
  if (Array.isArray(v)) return { messages: v.map(summarize) };
  return { messages: [summarize(v)] };
}

/** Get a nested property by path; undefined when any step is missing. */
export function getPath(v: unknown, path: readonly string[]): unknown {
  let cur: unknown = v;
  for (const k of path) {
    if (!isObj(cur)) return undefined;
    cur = cur[k];
  }
  return cur;
}

/** Deepest nesting of params the model keeps (JSON.stringify and structuredClone recurse). */
export const MAX_PARAMS_DEPTH = 200;

/**
 * `v` if it nests at most `maxDepth` levels, else a plain-words marker: a page can send params
 * nested a million levels deep, which JSON.parse accepts but JSON.stringify, structuredClone and
 * any recursive renderer of the snapshot would overflow the stack on. Iterative, O(size of v).
 */
export function boundedDepth(v: unknown, maxDepth = MAX_PARAMS_DEPTH): unknown {
  if (typeof v !== 'object' || v === null) return v;
  const stack: [unknown, number][] = [[v, 1]];
  while (stack.length > 0) {
    const [x, d] = stack.pop()!;
    if (d > maxDepth) return `[not kept: nested deeper than ${maxDepth} levels]`;
    const children = Array.isArray(x) ? x : Object.values(x as Record<string, unknown>);
    for (const c of children) if (typeof c === 'object' && c !== null) stack.push([c, d + 1]);
  }
  return v;
}

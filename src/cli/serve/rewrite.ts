// JSON-RPC ids between the recording and the live client. The live client numbers its requests
// itself; what the recording answers is rewritten to those numbers: response ids, progress
// tokens, the request ids of notifications/cancelled and of 2026-07-28 subscription tags. Ids the
// server chose (its own requests to the client) are kept, and the client answers with them.
// The rewrite splices the client's own token text into the recorded text at the span of each id
// (json-spans.ts): everything else of the recorded answer goes out byte for byte, and an id is
// echoed as the client wrote it (an integer beyond 2^53, a string with escapes), which a parse
// and re-serialisation of either side would change.
// Ids are matched by their key (idKey): a number by its token as written, since JSON.parse reads
// 9007199254740993 and 9007199254740992 as one number and a live request would get the other's
// answer; a string by its value, since a server may echo "é" as "\u00e9". A number the server
// wrote back in another form (1.0, or rounded through a double) is found after that (id-forms.ts).
import { decodeJsonRpc, idText, type DecodedMessage } from '../../core/jsonrpc';
import { liveIdFor } from './id-forms';
import { memberFinder, messageSpans, type Span } from './json-spans';

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

/** An id or progress token of the live client (or of a recorded request). */
export interface LiveId {
  /** As JSON.parse read it (integers beyond 2^53 rounded). */
  value: unknown;
  /** Its JSON text as the client wrote it: what the answers carry. */
  text: string;
}

export interface IdMaps {
  /** Recorded request id (idKey) → the live client's id. */
  ids: Map<string, LiveId>;
  /** Live id (idKey) → recorded id (idKey). */
  liveToRecorded: Map<string, string>;
  /** Recorded progress token (idKey) → the live client's token. */
  tokens: Map<string, LiveId>;
}

/**
 * What an id is matched by, from its token `text` and the value JSON.parse read from it: a number
 * is its token as written (rounded, two ids beyond 2^53 would be one), a string or null its
 * canonical JSON text; undefined for what is no id (an object, 1e400). A number and a string stay
 * apart, as in JSON-RPC. A token that does not hold the value (no span was found) gives the value's
 * own text.
 */
export function idKey(text: string, value: unknown): string | undefined {
  const canonical = idText(value);
  if (canonical === undefined || typeof value !== 'number') return canonical;
  return Number(text) === value && /^-?[0-9]/.test(text) ? text : canonical;
}

export function keyOf(id: LiveId): string | undefined {
  return idKey(id.text, id.value);
}

export interface KeyedMessage extends DecodedMessage {
  /** idKey of a notification's params.requestId (notifications/cancelled). */
  requestIdKey?: string;
}

/**
 * decodeJsonRpc, with each message's summary.id the idKey of its token, and the key of a
 * notification's params.requestId: what recorded and live messages are compared by.
 */
export function decodeKeyed(text: string): { messages: KeyedMessage[]; error?: string } {
  const d = decodeJsonRpc(text);
  if (d.error !== undefined) return d;
  let read: ReturnType<typeof liveIdReader> | undefined;
  const key = (i: number, path: readonly string[], value: unknown): string | undefined => {
    // Only a number's token can differ from its parsed value's text: others need no reading.
    if (typeof value !== 'number') return idText(value);
    read ??= liveIdReader(text, text.trimStart().startsWith('['), d.messages.length);
    const at = read(i, path, value);
    return at ? keyOf(at) : undefined;
  };
  return {
    messages: d.messages.map((m, i): KeyedMessage => {
      const msg = m.msg;
      if (!msg) return m;
      const id = m.summary.id !== undefined ? key(i, ['id'], msg.id) : undefined;
      const p = m.summary.kind === 'notification' && isObj(msg.params) && 'requestId' in msg.params ? msg.params.requestId : undefined;
      const requestIdKey = p !== undefined ? key(i, ['params', 'requestId'], p) : undefined;
      if (id === m.summary.id && requestIdKey === undefined) return m;
      return { summary: id !== undefined ? { ...m.summary, id } : m.summary, msg, ...(requestIdKey !== undefined ? { requestIdKey } : {}) };
    }),
  };
}

export function newIdMaps(): IdMaps {
  return { ids: new Map(), liveToRecorded: new Map(), tokens: new Map() };
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Reads a request's ids as written (the live one's, or a recorded one's): `at(i, path, value)` is
 * the member at `path` of its i-th message, whose parsed value is `value`. Its text is the value's
 * own JSON text when the body cannot be read so (it was parsed, so it can; kept for a value given
 * without a body).
 */
export function liveIdReader(body: string | null, batch: boolean, count: number): (i: number, path: readonly string[], value: unknown) => LiveId | undefined {
  const spans = body !== null ? messageSpans(body, batch || count > 1) : undefined;
  const finders: ((path: readonly string[]) => Span | undefined)[] = [];
  return (i, path, value) => {
    const span = spans?.[i];
    const find = span ? (finders[i] ??= memberFinder(body!, span)) : undefined;
    const at = find?.(path);
    const text = at ? body!.slice(at.start, at.end) : idText(value);
    return text === undefined ? undefined : { value, text };
  };
}

/** A place in a recorded message that may hold an id the live client chose. */
interface Target {
  path: string[];
  /** What JSON.parse read there. */
  value: unknown;
  /** Where its key is looked up. */
  map: Map<string, LiveId>;
}

/**
 * Where the recorded message `d` may hold ids the live client chose. A response's id is known by
 * its summary's key; the others are numbers whose key is their token, read only when the text is.
 */
function targetsIn(d: DecodedMessage, maps: IdMaps): Target[] {
  const m = d.msg;
  if (!isObj(m)) return [];
  const out: Target[] = [];
  const add = (path: string[], value: unknown, map: Map<string, LiveId>) => {
    const canonical = idText(value);
    if (canonical === undefined || map.size === 0 || (typeof value !== 'number' && !map.has(canonical))) return;
    out.push({ path, value, map });
  };
  const isResponse = m.method === undefined && 'id' in m && ('result' in m || 'error' in m);
  if (isResponse && d.summary.id !== undefined && liveIdFor(maps.ids, d.summary.id)) out.push({ path: ['id'], value: m.id, map: maps.ids });
  const params = isObj(m.params) ? m.params : undefined;
  if (params) {
    if (m.method === 'notifications/progress' && 'progressToken' in params) add(['params', 'progressToken'], params.progressToken, maps.tokens);
    if (m.method === 'notifications/cancelled' && 'requestId' in params) add(['params', 'requestId'], params.requestId, maps.ids);
    if (isObj(params._meta) && SUBSCRIPTION_ID in params._meta) add(['params', '_meta', SUBSCRIPTION_ID], params._meta[SUBSCRIPTION_ID], maps.ids);
  }
  const result = isResponse && isObj(m.result) ? m.result : undefined;
  if (result && isObj(result._meta) && SUBSCRIPTION_ID in result._meta) add(['result', '_meta', SUBSCRIPTION_ID], result._meta[SUBSCRIPTION_ID], maps.ids);
  return out;
}

interface Edit extends Span {
  text: string;
}

/**
 * The key of the token at `at` when it is the id `value` (the span found is the one the parsed
 * message was read from), else undefined.
 */
function keyAt(t: string, at: Span, value: unknown): string | undefined {
  const token = t.slice(at.start, at.end);
  try {
    const parsed: unknown = JSON.parse(token);
    return idText(parsed) === idText(value) ? idKey(token, parsed) : undefined;
  } catch {
    return undefined;
  }
}

function cannotRewrite(what: string): Error {
  return new Error(`the recorded text does not hold ${what} where its JSON has it`);
}

/** Edits of the JSON text `t` (of these messages) that put the live ids in; [] when it holds them already. */
function jsonEdits(t: string, messages: readonly DecodedMessage[], batch: boolean, maps: IdMaps): Edit[] {
  const targets = messages.map((d) => targetsIn(d, maps));
  if (targets.every((x) => x.length === 0)) return [];
  const spans = messageSpans(t, batch || messages.length > 1);
  if (!spans || spans.length !== messages.length) throw cannotRewrite('its messages');
  const edits: Edit[] = [];
  targets.forEach((list, i) => {
    if (list.length === 0) return;
    const find = memberFinder(t, spans[i]!);
    for (const x of list) {
      const at = find(x.path);
      const key = at ? keyAt(t, at, x.value) : undefined;
      if (!at || key === undefined) throw cannotRewrite(x.path.join('.'));
      const live = liveIdFor(x.map, key);
      if (live && t.slice(at.start, at.end) !== live.text) edits.push({ ...at, text: live.text });
    }
  });
  return edits;
}

function applyEdits(t: string, edits: readonly Edit[]): string {
  let out = '';
  let at = 0;
  for (const e of [...edits].sort((a, b) => a.start - b.start)) {
    out += t.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + t.slice(at);
}

/** A JSON body with the live ids spliced in, or undefined when it holds them already. */
export function rewriteJson(text: string, messages: readonly DecodedMessage[], batch: boolean, maps: IdMaps): string | undefined {
  const edits = jsonEdits(text, messages, batch, maps);
  return edits.length > 0 ? applyEdits(text, edits) : undefined;
}

/** A data line's value in an event's raw text, and where it starts in the event's data. */
interface DataLine extends Span {
  dataAt: number;
}

/** The values of the `data` lines of one SSE event's raw text (the WHATWG field grammar). */
function dataLines(raw: string): DataLine[] {
  const out: DataLine[] = [];
  let dataAt = 0;
  for (const m of raw.matchAll(/[^\r\n]*/g)) {
    const line = m[0];
    if (line !== 'data' && !line.startsWith('data:')) continue;
    const colon = line.length === 4 ? 4 : line.charCodeAt(5) === 32 ? 6 : 5;
    const start = m.index + colon;
    const end = m.index + line.length;
    out.push({ start, end, dataAt });
    dataAt += end - start + 1;
  }
  return out;
}

/** `e`, an edit of the event's data, as an edit of its raw text: an id never spans two lines. */
function toRaw(e: Edit, lines: readonly DataLine[]): Edit {
  const line = lines.find((l) => e.start >= l.dataAt && e.end <= l.dataAt + (l.end - l.start));
  if (!line || /[\r\n]/.test(e.text)) throw cannotRewrite('an id on one data line');
  return { start: line.start + e.start - line.dataAt, end: line.start + e.end - line.dataAt, text: e.text };
}

/**
 * An SSE event's raw text with the live ids spliced into its data lines, or undefined when it
 * holds them already. Its other lines, its line ends and the split of its data into lines stay.
 */
export function rewriteEvent(raw: string, messages: readonly DecodedMessage[], batch: boolean, maps: IdMaps): string | undefined {
  const lines = dataLines(raw);
  const data = lines.map((l) => raw.slice(l.start, l.end)).join('\n');
  const edits = jsonEdits(data, messages, batch, maps);
  return edits.length > 0 ? applyEdits(raw, edits.map((e) => toRaw(e, lines))) : undefined;
}

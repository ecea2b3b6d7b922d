// JSON-RPC ids between the recording and the live client. The live client numbers its requests
// itself; what the recording answers is rewritten to those numbers: response ids, progress
// tokens, the request ids of notifications/cancelled and of 2026-07-28 subscription tags. Ids the
// server chose (its own requests to the client) are kept, and the client answers with them.
import { idText, type DecodedMessage } from '../../core/jsonrpc';

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

export interface IdMaps {
  /** Recorded request id (JSON text) → the live client's id. */
  ids: Map<string, unknown>;
  /** Live id (JSON text) → recorded id (JSON text). */
  liveToRecorded: Map<string, string>;
  /** Recorded progress token (JSON text) → the live client's token. */
  tokens: Map<string, unknown>;
}

export function newIdMaps(): IdMaps {
  return { ids: new Map(), liveToRecorded: new Map(), tokens: new Map() };
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function mapped(map: Map<string, unknown>, v: unknown): { hit: boolean; value: unknown } {
  const k = idText(v);
  if (k === undefined || !map.has(k)) return { hit: false, value: v };
  const value = map.get(k);
  return { hit: idText(value) !== k, value };
}

/** The message with the live ids, or undefined when nothing changes. */
function rewriteOne(m: unknown, maps: IdMaps): unknown {
  if (!isObj(m)) return undefined;
  let out: Record<string, unknown> | undefined;
  const edit = (): Record<string, unknown> => (out ??= { ...m });
  const isResponse = m.method === undefined && 'id' in m && ('result' in m || 'error' in m);
  if (isResponse) {
    const r = mapped(maps.ids, m.id);
    if (r.hit) edit().id = r.value;
  }
  const params = isObj(m.params) ? m.params : undefined;
  if (params) {
    let p: Record<string, unknown> | undefined;
    if (m.method === 'notifications/progress' && 'progressToken' in params) {
      const r = mapped(maps.tokens, params.progressToken);
      if (r.hit) (p ??= { ...params }).progressToken = r.value;
    }
    if (m.method === 'notifications/cancelled' && 'requestId' in params) {
      const r = mapped(maps.ids, params.requestId);
      if (r.hit) (p ??= { ...params }).requestId = r.value;
    }
    if (isObj(params._meta) && SUBSCRIPTION_ID in params._meta) {
      const r = mapped(maps.ids, params._meta[SUBSCRIPTION_ID]);
      if (r.hit) (p ??= { ...params })._meta = { ...params._meta, [SUBSCRIPTION_ID]: r.value };
    }
    if (p) edit().params = p;
  }
  const result = isResponse && isObj(m.result) ? m.result : undefined;
  if (result && isObj(result._meta) && SUBSCRIPTION_ID in result._meta) {
    const r = mapped(maps.ids, result._meta[SUBSCRIPTION_ID]);
    if (r.hit) edit().result = { ...result, _meta: { ...result._meta, [SUBSCRIPTION_ID]: r.value } };
  }
  return out;
}

/** New JSON text for these messages, or undefined when the live ids are the recorded ones. */
export function rewriteMessages(messages: readonly DecodedMessage[], batch: boolean, maps: IdMaps): string | undefined {
  let changed = false;
  const out = messages.map((d) => {
    const r = rewriteOne(d.msg, maps);
    if (r !== undefined) changed = true;
    return r ?? d.msg;
  });
  if (!changed) return undefined;
  return JSON.stringify(batch || out.length > 1 ? out : out[0]);
}

/** The event's raw text with its data lines replaced by one line holding `json`. */
export function replaceData(raw: string, json: string): string {
  const parts = raw.split(/(\r\n|\r|\n)/);
  let out = '';
  let done = false;
  for (let i = 0; i < parts.length; i += 2) {
    const line = parts[i]!;
    const term = parts[i + 1] ?? '';
    if (line === 'data' || line.startsWith('data:')) {
      if (!done) out += `data: ${json}${term}`;
      done = true;
      continue;
    }
    out += line + term;
  }
  return out;
}

// JSON text with every object's members in key order: two values a JSON reader cannot tell apart
// (RFC 8259 §4: an object's members are unordered) give the same text. Used to tell a request's
// re-issue from another call: a client (or the model behind an agent) that builds the same call
// again may list its arguments in another order.
import stableStringify from 'fast-json-stable-stringify';
import { boundedDepth } from './jsonrpc';

/** `v` as canonical JSON text; page data nested deeper than the analysis keeps is cut as boundedDepth cuts it. */
export function canonicalJson(v: unknown): string {
  return stableStringify(boundedDepth(v)) ?? 'null';
}

/** A request's params without `_meta` (progress tokens and per-request metadata differ between a call and its re-issue), as canonical JSON. */
export function paramsText(params: unknown): string {
  if (typeof params === 'object' && params !== null && !Array.isArray(params)) {
    const { _meta: _ignored, ...rest } = params as Record<string, unknown>;
    return canonicalJson(rest);
  }
  return canonicalJson(params ?? null);
}

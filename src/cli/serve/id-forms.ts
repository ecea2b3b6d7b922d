// A recorded answer's id that names its request in another form than the request wrote it. The
// exact text is what ids are matched by first (rewrite.ts: two ids beyond 2^53 stay apart); a
// server may still write the number back in another form, and the live client would then never
// see its answer:
// - the same number written otherwise (`1.0`, `1e0`, `1.00` for `1`): compared by the number's
//   canonical decimal form, made from its digits, never through a double, so it is exact;
// - the number rounded through a double (a server that parsed 9007199254740993 as a double answers
//   9007199254740992): the answer's number is exactly what the double of the request's id writes.
//   Two requests' ids can round to the same double, and then the answer could be either's:
//   matched only when one id among the pass's mapped requests rounds to it, and none has its exact
//   value (an answer left with its recorded id is missed by the client; one given another
//   request's live id would be taken for that request's answer, which is worse). The mapped
//   requests include those already answered: stricter than the outstanding ones, never looser.

const NUMBER = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * The exact canonical form of a JSON number's text: `<sign><digits>e<exponent>`, digits without
 * leading or trailing zeros (`0` for zero, unsigned). undefined for text that is no number, or an
 * exponent too large to count (no id is written so).
 */
export function canonicalNumber(text: string): string | undefined {
  const m = NUMBER.exec(text);
  if (!m) return undefined;
  const [, sign, int, frac = '', exp = '0'] = m;
  let e = Number(exp) - frac.length;
  if (!Number.isSafeInteger(e)) return undefined;
  let digits = (int! + frac).replace(/^0+/, '');
  if (digits === '') return '0';
  const trailing = digits.length - digits.replace(/0+$/, '').length;
  digits = digits.slice(0, digits.length - trailing);
  e += trailing;
  return `${sign}${digits}e${e}`;
}

/** A map's numeric keys by their exact value and by the value of their double. */
interface Index {
  size: number;
  byValue: Map<string, string[]>;
  byDouble: Map<string, string[]>;
}

// Made once per map and size, not per lookup: a long stream's progress tokens that miss would
// each scan the pass's every id. The maps only grow (IdMaps: set, never delete), so a size that
// did not change is the same keys.
const indexes = new WeakMap<ReadonlyMap<string, unknown>, Index>();

function indexOf(map: ReadonlyMap<string, unknown>): Index {
  const known = indexes.get(map);
  if (known && known.size === map.size) return known;
  const ix: Index = { size: map.size, byValue: new Map(), byDouble: new Map() };
  const add = (m: Map<string, string[]>, c: string, k: string) => m.set(c, [...(m.get(c) ?? []), k]);
  for (const k of map.keys()) {
    const c = canonicalNumber(k);
    if (c === undefined) continue;
    add(ix.byValue, c, k);
    const d = Number(k);
    const rounded = Number.isFinite(d) ? canonicalNumber(String(d)) : undefined;
    if (rounded !== undefined) add(ix.byDouble, rounded, k);
  }
  indexes.set(map, ix);
  return ix;
}

/**
 * The live id for a recorded id's key (idKey): by its exact text, else (a number) the one recorded
 * id of the same value, else, when no recorded id has that value, the one whose double it is.
 */
export function liveIdFor<T>(map: ReadonlyMap<string, T>, key: string): T | undefined {
  const exact = map.get(key);
  if (exact !== undefined || map.size === 0) return exact;
  const c = canonicalNumber(key);
  if (c === undefined) return undefined;
  const ix = indexOf(map);
  const same = ix.byValue.get(c);
  const keys = same ?? ix.byDouble.get(c);
  return keys?.length === 1 ? map.get(keys[0]!) : undefined;
}

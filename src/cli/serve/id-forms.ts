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

/** The one entry of `map` whose key `matches`, undefined for none or more than one. */
function only<T>(map: ReadonlyMap<string, T>, matches: (key: string) => boolean): T | undefined {
  let found: T | undefined;
  for (const [k, v] of map) {
    if (!matches(k)) continue;
    if (found !== undefined) return undefined;
    found = v;
  }
  return found;
}

/**
 * The live id for a recorded id's key (idKey): by its exact text, else (a number) the one recorded
 * id of the same value, else the one recorded id the key is the double rounding of.
 */
export function liveIdFor<T>(map: ReadonlyMap<string, T>, key: string): T | undefined {
  const exact = map.get(key);
  if (exact !== undefined || map.size === 0) return exact;
  const c = canonicalNumber(key);
  if (c === undefined) return undefined;
  const same = only(map, (k) => canonicalNumber(k) === c);
  if (same) return same;
  // A key of the same value that is not the only one: ambiguous, and no rounding is looked for.
  for (const k of map.keys()) if (canonicalNumber(k) === c) return undefined;
  return only(map, (k) => {
    if (canonicalNumber(k) === undefined) return false;
    const d = Number(k);
    return Number.isFinite(d) && canonicalNumber(String(d)) === c;
  });
}

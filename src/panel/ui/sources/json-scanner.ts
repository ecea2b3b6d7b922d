// A string-aware JSON value splitter (no parsing): finds where a value ends in text that may still
// be arriving, skipping strings with indexOf, so that JSON.parse can do the parsing natively on
// each piece. Used by the progressive import of the product's own capture files.

/** The file is not one to split (or is malformed): the importer gets it whole. */
export class Fallback extends Error {}
/** The buffer ends inside a value: wait for more text. */
export class NeedMore extends Error {}

const isWs = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** String-aware JSON value splitter over `t` (no parsing). Running off the end throws NeedMore. */
export function scanner(t: string) {
  const skipWs = (i: number) => {
    while (i < t.length && isWs(t.charCodeAt(i))) i++;
    return i;
  };
  const string = (i: number) => {
    let j = i + 1;
    for (;;) {
      const k = t.indexOf('"', j);
      if (k < 0) throw new NeedMore();
      let b = 0;
      while (t.charCodeAt(k - 1 - b) === 0x5c) b++;
      if (b % 2 === 0) return k + 1;
      j = k + 1;
    }
  };
  const value = (i: number) => {
    const c = t.charCodeAt(i);
    if (c === 0x22) return string(i);
    if (c === 0x7b || c === 0x5b) {
      let depth = 0;
      let j = i;
      while (j < t.length) {
        const d = t.charCodeAt(j);
        if (d === 0x22) {
          j = string(j);
          continue;
        }
        if (d === 0x7b || d === 0x5b) depth++;
        else if (d === 0x7d || d === 0x5d) {
          depth--;
          if (depth === 0) return j + 1;
        }
        j++;
      }
      throw new NeedMore();
    }
    let j = i;
    while (j < t.length) {
      const d = t.charCodeAt(j);
      if (d === 0x2c || d === 0x7d || d === 0x5d || isWs(d)) break;
      j++;
    }
    if (j === t.length) throw new NeedMore();
    if (j === i) throw new Fallback();
    return j;
  };
  return { skipWs, string, value };
}

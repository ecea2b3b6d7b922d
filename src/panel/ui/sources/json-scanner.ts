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

/**
 * The end of one object or array value whose text may still be arriving, scanned once: where a
 * scan ran off the end of the text (NeedMore) it goes on from there with more text, instead of
 * from the value's start again (a HAR entry holding one stream of 100k events is megabytes,
 * arriving in pieces of 64 KB). Offsets are relative to the value's start, so the caller may drop
 * the text before the value between calls. One scanner per value.
 */
export function createValueScan() {
  let j = 0;
  let depth = 0;
  let inString = false;
  return {
    /** Characters of the value scanned so far (from its start). */
    get scanned() {
      return j;
    },
    /** The end of the value starting at `start` in `t` (exclusive), or NeedMore. */
    end(t: string, start: number): number {
      if (j === 0) {
        const c = t.charCodeAt(start);
        if (c !== 0x7b && c !== 0x5b) throw new Fallback();
      }
      let i = start + j;
      for (;;) {
        if (inString) {
          const k = t.indexOf('"', i);
          if (k < 0) {
            // the string goes on past the text: no quote in it so far (escapes are counted
            // backwards from a quote, over the whole text, when one comes)
            j = t.length - start;
            throw new NeedMore();
          }
          let b = 0;
          while (t.charCodeAt(k - 1 - b) === 0x5c) b++;
          i = k + 1;
          if (b % 2 === 0) inString = false;
          continue;
        }
        if (i >= t.length) {
          j = i - start;
          throw new NeedMore();
        }
        const d = t.charCodeAt(i);
        if (d === 0x22) inString = true;
        else if (d === 0x7b || d === 0x5b) depth++;
        else if (d === 0x7d || d === 0x5d) {
          depth--;
          if (depth === 0) {
            j = i + 1 - start;
            return i + 1;
          }
        }
        i++;
      }
    },
  };
}

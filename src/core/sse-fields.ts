// The fields of one SSE block, read line by line (sse.ts splits the stream into blocks and builds
// each block from what is read here). The WHATWG grammar: `data` lines joined by LF, `event`,
// `id` (ignored when it contains NUL), `retry` (digits only), comments (a line starting with a
// colon), a field without a colon takes an empty value. The usual names (`data`, `event`, and the
// value `message`) are compared by character code, which measured faster than `startsWith` on row
// 4's lines (bench/sse-fields.ts, 2026-12-06: ~6 % of the reader's time); this runs for every line.

export class BlockFields {
  id: string | undefined = undefined;
  event: string | undefined = undefined;
  data = '';
  dataLines = 0;
  retry: number | undefined = undefined;
  comments = 0;
  /** Where the block's data starts in its raw text, when its data is one line (else -1). */
  dataAt = -1;

  private clear(): void {
    this.id = undefined;
    this.event = undefined;
    this.data = '';
    this.dataLines = 0;
    this.dataAt = -1;
    this.retry = undefined;
    this.comments = 0;
  }

  /**
   * The block that starts at `from` in `s` (LF line ends only) read up to its blank line: where
   * it ends (after the blank line), or -1 when `s` ends first. One pass over its text: looking
   * for the blank line first and then reading the lines would be two.
   */
  lfBlock(s: string, from: number): number {
    this.clear();
    let i = from;
    for (;;) {
      const j = s.indexOf('\n', i);
      if (j === -1) return -1;
      if (j === i) return j + 1;
      this.line(s, i, j, from);
      i = j + 1;
    }
  }

  /** The block `raw` from `i` on, to its blank line or its end; `noCR`: the caller knows it holds no CR. */
  block(raw: string, i: number, noCR: boolean): void {
    this.clear();
    const n = raw.length;
    const lfOnly = noCR || raw.indexOf('\r', i) === -1;
    while (i < n) {
      let j: number;
      let c = 0;
      if (lfOnly) {
        j = raw.indexOf('\n', i);
        if (j === -1) j = n;
        else c = 10;
      } else {
        j = i;
        while (j < n) {
          c = raw.charCodeAt(j);
          if (c === 10 || c === 13) break;
          j++;
        }
      }
      if (j === i) break; // the blank line: end of the block
      this.line(raw, i, j, 0);
      i = c === 13 && raw.charCodeAt(j + 1) === 10 ? j + 2 : j + 1;
    }
  }

  /** One line, `s[i, j)` (not blank), of the block that starts at `from` in `s`. */
  private line(s: string, i: number, j: number, from: number): void {
    const c0 = s.charCodeAt(i);
    if (c0 === 58) {
      this.comments++;
      return;
    }
    let colon = s.indexOf(':', i);
    if (colon >= j) colon = -1;
    const fieldEnd = colon === -1 ? j : colon;
    const vs = colon === -1 ? j : s.charCodeAt(colon + 1) === 32 ? colon + 2 : colon + 1;
    const len = fieldEnd - i;
    if (len === 4 && c0 === 100 && s.charCodeAt(i + 1) === 97 && s.charCodeAt(i + 2) === 116 && s.charCodeAt(i + 3) === 97) {
      const v = vs < j ? s.slice(vs, j) : '';
      this.dataAt = this.dataLines === 0 ? vs - from : -1;
      this.data = this.dataLines === 0 ? v : this.data + '\n' + v;
      this.dataLines++;
    } else if (len === 2 && c0 === 105 && s.charCodeAt(i + 1) === 100) {
      const v = vs < j ? s.slice(vs, j) : '';
      if (!v.includes('\0')) this.id = v;
    } else if (len === 5 && c0 === 101 && s.charCodeAt(i + 1) === 118 && s.charCodeAt(i + 2) === 101 && s.charCodeAt(i + 3) === 110 && s.charCodeAt(i + 4) === 116) {
      // Nearly every named event is "message": one shared string instead of a copy each.
      this.event = vs < j ? (j - vs === 7 && isMessage(s, vs) ? 'message' : s.slice(vs, j)) : undefined;
    } else if (len === 5 && c0 === 114 && s.startsWith('retry', i)) {
      let ok = vs < j;
      for (let k = vs; k < j && ok; k++) {
        const d = s.charCodeAt(k);
        if (d < 48 || d > 57) ok = false;
      }
      if (ok) this.retry = parseInt(s.slice(vs, j), 10);
    }
  }
}

/** `s` holds "message" at `at`. */
function isMessage(s: string, at: number): boolean {
  return (
    s.charCodeAt(at) === 109 && s.charCodeAt(at + 1) === 101 && s.charCodeAt(at + 2) === 115 && s.charCodeAt(at + 3) === 115 &&
    s.charCodeAt(at + 4) === 97 && s.charCodeAt(at + 5) === 103 && s.charCodeAt(at + 6) === 101
  );
}

// The text of a stream's events (part of event-store.ts): an event's raw text is kept as a span of
// the text its connection's parser was fed (a chunk record's text: the capture holds it anyway, and
// a slice of it would hold it too), its id and its data as spans of its raw text. A string of
// its own is kept only where a span cannot say it: a raw text begun in an earlier read (one event
// per read at most), one not read from a body (an EventSource event, a JSON answer), an id of 255
// characters or more or starting that far into its event, data starting 65,534 characters or more
// into its event, data spread over several `data:` lines.
import { Column, U16, U32, U8 } from './columns';
import { findRun } from '../runs';

/** Kept whole on the side, not as a span. */
const NO_RAW = 0xffffffff;
/**
 * An event's id and data start a few characters into its raw text (`id: 12`, `event: message`
 * before them), and ids are short: 1 byte for the id's offset and length, 2 for the data's offset,
 * anything larger kept whole on the side (row 7 of the benchmarks: bytes per event held).
 */
const NO_DATA = 0xffff;
const EMPTY_DATA = 0xfffe;
const NO_ID = 0xff;

/**
 * Per event, how the ends of its spans are known (`ends`): the raw text ends where the next
 * event's begins (RawToNext: a stream's events follow each other in a read), and the data ends
 * 2, 4 or 3 characters before the raw text does (its last line, then a blank line: LF LF, CR LF
 * CR LF, CR CR). Other lengths are kept on the side (rare).
 */
const RawToNext = 4;
const DataTail = 3;
const TAILS = [0, 2, 4, 3];

export class EventTexts {
  /** The texts fed, in feed order, and the first event whose raw text is in each (sorted). */
  private srcs: string[] = [];
  private srcFirst = new Column(U32);
  private rawOff = new Column(U32);
  private ends = new Column(U8);
  /** Lengths of spans not ending where the next begins; the last span's length. */
  private rawLenX: Map<number, number> | undefined;
  private lastLen = -1;
  private last = -1;
  /** By event index, with holes where the raw text is a span (sparse: a dictionary in V8). */
  private rawX: (string | undefined)[] = [];
  /** NO_ID: no id, or the id is in `idX`. */
  private idOff = new Column(U8);
  private idLen = new Column(U8);
  private idX: (string | undefined)[] = [];
  /** Offsets into the raw text; NO_DATA: in `dataX`; EMPTY_DATA: ''. */
  private dataOff = new Column(U16);
  private dataLenX: Map<number, number> | undefined;
  private dataX: Map<number, string> | undefined;
  /** `srcOf`'s last answer: events are mostly read in order. */
  private srcK = 0;

  /**
   * Event `i` (the next one) has raw text `raw`, which is the span of `src` starting at `at`
   * when `src` is given and `at` ≥ 0 (the parser said so), and `id` and `data` read from it;
   * `data` starts at `dataAt` in `raw` when the parser said so (≥ 0), which spares a search.
   */
  add(i: number, raw: string, src: string | undefined, at: number, id: string | undefined, data: string, dataAt = -1): void {
    let ends = 0;
    const span = src !== undefined && at >= 0;
    if (span) this.spanAt(i, src, at, raw.length);
    else {
      this.follow(i, false, undefined, -1);
      this.rawOff.set(i, NO_RAW);
      this.rawX[i] = raw;
    }
    this.setId(i, id, raw);
    // The parser's offset, bounded by the raw text's length: only a guard against a caller passing
    // an offset for other data (EventStore.begin hands the block's own data, before any stage runs).
    const d = data === '' ? -1 : dataAt >= 0 && dataAt + data.length <= raw.length ? dataAt : dataOffset(raw, data);
    if (d >= 0 && d < EMPTY_DATA) {
      this.dataOff.set(i, d);
      const tail = TAILS.indexOf(raw.length - d - data.length);
      if (tail > 0) ends |= tail;
      else (this.dataLenX ??= new Map()).set(i, data.length);
    } else if (data === '') {
      this.dataOff.set(i, EMPTY_DATA);
    } else {
      this.dataOff.set(i, NO_DATA);
      (this.dataX ??= new Map()).set(i, data);
    }
    this.ends.set(i, ends);
  }

  /**
   * add() of an event read from `src` without making its strings (event-run.ts): its raw text the
   * `rawLen` characters from `at`, its id the `idLen` characters `idAt` into it (where add() finds
   * the id first: the id is digits after "id: "), its data one line of `dataLen` (not 0) characters
   * `dataAt` into it, ending 2 characters before the raw text does.
   */
  addSpan(i: number, src: string, at: number, rawLen: number, idAt: number, idLen: number, dataAt: number, dataLen: number): void {
    this.spanAt(i, src, at, rawLen);
    if (this.idX.length > i) this.idX[i] = undefined;
    this.idOff.set(i, idAt);
    this.idLen.set(i, idLen);
    if (dataAt < EMPTY_DATA && rawLen - dataAt - dataLen === 2) {
      this.dataOff.set(i, dataAt);
      this.ends.set(i, 1);
    } else {
      // (not the case add() keeps as a span with its tail: the caller's event is not one)
      throw new RangeError(`event ${i}: data at ${dataAt} of ${dataLen} in ${rawLen} characters is no data line before a blank line`);
    }
  }

  /**
   * Event `i` follows the last one: that one's span ends where this one's begins (`span`: this one
   * is the span of `src` at `at`), or its length is kept.
   */
  private follow(i: number, span: boolean, src: string | undefined, at: number): void {
    const p = this.last;
    if (p >= 0 && this.lastLen >= 0) {
      if (span && this.srcs[this.srcs.length - 1] === src && this.rawOff.get(p) + this.lastLen === at) this.ends.set(p, this.ends.get(p) | RawToNext);
      else (this.rawLenX ??= new Map()).set(p, this.lastLen);
    }
    this.last = i;
    this.lastLen = -1;
  }

  /** Event `i`'s raw text is the `rawLen` characters of `src` from `at`. */
  private spanAt(i: number, src: string, at: number, rawLen: number): void {
    this.follow(i, true, src, at);
    const k = this.srcs.length - 1;
    if (k < 0 || this.srcs[k] !== src) {
      this.srcFirst.set(this.srcs.length, i);
      this.srcs.push(src);
    }
    this.rawOff.set(i, at);
    this.lastLen = rawLen;
  }

  /** Event `i`'s id is `id` (its raw text is `raw`): a span of it when it is one, as it is when read from it. */
  setId(i: number, id: string | undefined, raw: string): void {
    const k = id === undefined ? -1 : id.length < NO_ID ? raw.indexOf(id) : -1;
    if (this.idX.length > i) this.idX[i] = undefined;
    if (k >= 0 && k < NO_ID) {
      this.idOff.set(i, k);
      this.idLen.set(i, id!.length);
    } else {
      this.idOff.set(i, NO_ID);
      if (id !== undefined) this.idX[i] = id;
    }
  }

  /** Event `i`'s raw text is now `raw`, which starts with what it was (a CR + LF split across reads). */
  setRaw(i: number, raw: string): void {
    const old = this.raw(i);
    const off = this.dataOff.get(i);
    // The data's length no longer follows from the raw text's end.
    if (off !== NO_DATA && off !== EMPTY_DATA) {
      const n = this.dataLen(i);
      if (raw.startsWith(old)) (this.dataLenX ??= new Map()).set(i, n);
      else {
        this.dataOff.set(i, NO_DATA);
        (this.dataX ??= new Map()).set(i, old.slice(off, off + n));
      }
    }
    this.ends.set(i, 0);
    this.rawLenX?.delete(i);
    if (i === this.last) this.lastLen = -1;
    // The event before ends where this one began: that is no longer read from this one's offset.
    if (i > 0 && (this.ends.get(i - 1) & RawToNext) !== 0) {
      (this.rawLenX ??= new Map()).set(i - 1, this.rawLen(i - 1));
      this.ends.set(i - 1, this.ends.get(i - 1) & ~RawToNext);
    }
    this.rawOff.set(i, NO_RAW);
    this.rawX[i] = raw;
  }

  /** Length of event `i`'s raw text, which is a span. */
  private rawLen(i: number): number {
    if ((this.ends.get(i) & RawToNext) !== 0) return this.rawOff.get(i + 1) - this.rawOff.get(i);
    return i === this.last && this.lastLen >= 0 ? this.lastLen : this.rawLenX!.get(i)!;
  }
  private dataLen(i: number): number {
    const tail = this.ends.get(i) & DataTail;
    if (tail === 0) return this.dataLenX!.get(i)!;
    const r = this.rawOff.get(i);
    return (r === NO_RAW ? this.rawX[i]!.length : this.rawLen(i)) - this.dataOff.get(i) - TAILS[tail]!;
  }

  raw(i: number): string {
    const r = this.rawOff.get(i);
    if (r === NO_RAW) return this.rawX[i]!;
    return this.srcOf(i).slice(r, r + this.rawLen(i));
  }

  id(i: number): string | undefined {
    const off = this.idOff.get(i);
    return off === NO_ID ? this.idX[i] : this.rawSlice(i, off, this.idLen.get(i));
  }

  data(i: number): string {
    const off = this.dataOff.get(i);
    if (off === NO_DATA) return this.dataX!.get(i)!;
    if (off === EMPTY_DATA) return '';
    return this.rawSlice(i, off, this.dataLen(i));
  }

  /** Characters `off` to `off + n` of event `i`'s raw text, without making the raw text. */
  private rawSlice(i: number, off: number, n: number): string {
    const r = this.rawOff.get(i);
    if (r === NO_RAW) return this.rawX[i]!.slice(off, off + n);
    return this.srcOf(i).slice(r + off, r + off + n);
  }

  /** The text fed that event `i`'s raw text is a span of. */
  private srcOf(i: number): string {
    return this.srcs[(this.srcK = findRun(this.srcFirst, this.srcs.length, i, this.srcK))]!;
  }
}

/**
 * Where `data` stands in `raw` (any place where raw holds it gives the same text), or -1. The
 * usual event ends with its one data line and a blank line, so the end is tried first: a search
 * for the whole data text would build a skip table per event.
 */
function dataOffset(raw: string, data: string): number {
  for (const tail of [2, 4, 3]) {
    const at = raw.length - data.length - tail;
    if (at >= 0 && raw.startsWith(data, at)) return at;
  }
  for (let k = raw.indexOf('data:'); k !== -1; k = raw.indexOf('data:', k + 5)) {
    const v = raw.charCodeAt(k + 5) === 32 ? k + 6 : k + 5;
    if (raw.startsWith(data, v)) return v;
  }
  return raw.startsWith(data) ? 0 : -1;
}

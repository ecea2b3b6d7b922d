// Decoding a stream's event data when consecutive progress notifications differ only in their
// progress value (`…"progress":41,"total":100}}` then `…"progress":42,"total":100}}`), which is
// what an SDK server sends when it reports progress without a message. JSON.parse of each would
// build the whole message again: most of the analysis' time on such a stream, and most of its
// garbage (issue 22, row 4). Two such events teach the text before and after the progress
// number; an event that is that text around another JSON number is read without parsing.
//
// Why that is exact: the two events taught from are valid JSON that parsed to the same summary
// except their progress, and differ only in one span of number characters, after a character that
// is not one. Had the span been inside a string, the progress (a number read from elsewhere) would
// be the same in both; so it is a whole number token, and it is the value params.progress is read
// from. Any other number in its place gives valid JSON of the same structure, whose summary is the
// same with that progress. Anything else is decoded by decodeJsonRpc, as before.
import { decodeJsonRpc, type DecodedMessage, type DecodeResult } from './jsonrpc';
import type { JsonRpcSummary } from './model';

/** A JSON number token, whole (RFC 8259 §6). */
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** 0-9 . e E + -: the characters a number token is made of. */
function numberChar(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 46 || c === 101 || c === 69 || c === 43 || c === 45;
}

/**
 * The value of the number token `text[from, to)`, or NaN when it is not one. A plain integer (the
 * usual progress) is read here; anything else by Number() once the token is checked whole.
 */
function numberAt(text: string, from: number, to: number): number {
  if (to - from <= 15 && (text.charCodeAt(from) !== 48 || to - from === 1)) {
    let v = 0;
    let i = from;
    for (; i < to; i++) {
      const d = text.charCodeAt(i) - 48;
      if (d < 0 || d > 9) break;
      v = v * 10 + d; // at most 15 digits: exact, as Number() reads it
    }
    if (i === to) return v;
  }
  const token = text.slice(from, to);
  return NUMBER.test(token) ? Number(token) : NaN;
}

/** A message read from its shape: parsed only if something asks for the object itself. */
export class ShapedMessage implements DecodedMessage {
  private parsed: Record<string, unknown> | null | undefined;
  constructor(
    readonly summary: JsonRpcSummary,
    private readonly text: string,
  ) {}
  get msg(): Record<string, unknown> | null {
    return (this.parsed ??= decodeJsonRpc(this.text).messages[0]!.msg);
  }
}

/** A progress notification's summary, alone in its event's data. */
function progressOf(d: DecodeResult): JsonRpcSummary | undefined {
  if (d.messages.length !== 1 || d.error !== undefined) return undefined;
  const s = d.messages[0]!.summary;
  return s.kind === 'notification' && s.method === 'notifications/progress' && s.id === undefined && s.progressToken !== undefined && s.progress !== undefined ? s : undefined;
}

/** One stream's shape (its events come in order). */
export class ProgressShape {
  private head = '';
  private tail = '';
  private base: JsonRpcSummary | undefined;
  private lastText = '';
  private last: JsonRpcSummary | undefined;
  /**
   * Progress events to let pass before the next lesson, and the next such pause: a lesson costs a
   * pass over two texts, so on a stream whose messages change more than their progress (a message
   * text that counts too) each failed one doubles the pause; an event read by the shape resets it.
   */
  private wait = 0;
  private pause = 1;

  /** The summary of `text` when it is the shape around a number; otherwise undefined (decode it). */
  read(text: string): JsonRpcSummary | undefined {
    const b = this.base;
    if (b === undefined) return undefined;
    const h = this.head.length;
    const e = text.length - this.tail.length;
    // Compared as slices: V8 compares equal-length strings with memcmp, where startsWith goes
    // character by character (about 6× slower on a 100-character head).
    if (e <= h || text.slice(e) !== this.tail || text.slice(0, h) !== this.head) return undefined;
    const progress = numberAt(text, h, e);
    if (progress !== progress) return undefined;
    this.pause = 1;
    // Key for key the literal summarize() builds for such a message (snapshots compare as text).
    const summary: JsonRpcSummary =
      b.total !== undefined
        ? { kind: 'notification', method: b.method, progressToken: b.progressToken, progress, total: b.total }
        : { kind: 'notification', method: b.method, progressToken: b.progressToken, progress };
    this.lastText = text;
    this.last = summary;
    return summary;
  }

  /** decodeJsonRpc(text), learning the shape from it. */
  decode(text: string): DecodeResult {
    const d = decodeJsonRpc(text);
    this.learn(text, progressOf(d));
    return d;
  }

  private learn(text: string, s: JsonRpcSummary | undefined): void {
    const prev = this.last;
    const prevText = this.lastText;
    this.last = s;
    this.lastText = s ? text : '';
    if (!s || !prev) return;
    if (this.wait > 0) {
      this.wait--;
      return;
    }
    if (prev.progressToken === s.progressToken && prev.total === s.total && prev.method === s.method && prev.progress !== s.progress && this.teach(prevText, prev.progress!, text, s.progress!)) {
      this.base = s;
      return;
    }
    this.wait = this.pause;
    this.pause = Math.min(this.pause * 2, 1024);
  }

  /** The text around the one number token in which `a` and `b` differ, if they differ only there. */
  private teach(a: string, pa: number, b: string, pb: number): boolean {
    const na = a.length;
    const nb = b.length;
    const min = Math.min(na, nb);
    let pre = 0;
    while (pre < min && a.charCodeAt(pre) === b.charCodeAt(pre)) pre++;
    if (pre === min) return false;
    let suf = 0;
    while (suf < min - pre && a.charCodeAt(na - 1 - suf) === b.charCodeAt(nb - 1 - suf)) suf++;
    while (pre > 0 && numberChar(a.charCodeAt(pre - 1))) pre--;
    while (suf > 0 && numberChar(a.charCodeAt(na - suf))) suf--;
    if (pre === 0 || suf === 0) return false;
    const ma = a.slice(pre, na - suf);
    const mb = b.slice(pre, nb - suf);
    if (!NUMBER.test(ma) || !NUMBER.test(mb) || Number(ma) !== pa || Number(mb) !== pb) return false;
    this.head = a.slice(0, pre);
    this.tail = a.slice(na - suf);
    return true;
  }
}

/** The shape of each stream of one analyzer (its events of a read come one after another). */
export class ProgressShapes {
  private byStream = new WeakMap<object, ProgressShape>();
  private lastStream: object | undefined;
  private lastShape: ProgressShape | undefined;

  of(stream: object): ProgressShape {
    if (stream === this.lastStream) return this.lastShape!;
    let s = this.byStream.get(stream);
    if (s === undefined) this.byStream.set(stream, (s = new ProgressShape()));
    this.lastStream = stream;
    this.lastShape = s;
    return s;
  }
}

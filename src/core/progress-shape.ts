// Decoding a stream's progress notifications without JSON.parse when they differ from one another
// only in values the summary does not read, and in the progress: `…"progress":41,…,"message":"step
// 41"}}` then `…"progress":42,…,"message":"step 42"}}`, as servers send them. JSON.parse of each
// builds the whole message again: most of the analysis' time on such a stream, and most of its
// garbage (issue 22, row 4). Two such events, tokenized once, teach the shape: the text between
// their varying values (holes) and each hole's type; an event that is that text with a valid token
// of the same type in each hole is read without parsing.
//
// Why that is exact: the texts around the holes are the same, quotes included (a string hole is
// the inside of a string), and each hole holds a whole token of its type, so the event tokenizes as
// the taught one did: valid JSON of the same structure, keys included. Holes are values only, never
// where summarize() reads (method, id, progressToken, total), except params.progress, which is read
// from its hole; an object with a key twice is not taught from (JSON.parse keeps the last).
// Anything else is decoded by decodeJsonRpc, as before.
import { decodeJsonRpc, type DecodedMessage, type DecodeResult } from './jsonrpc';
import type { JsonRpcSummary } from './model';
import { fits, fitsFrom, type Shape } from './shape/read';
import { shapeOf } from './shape/teach';

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

/** The summary of a message of `b`'s shape with `progress`: key for key the literal summarize() builds (snapshots compare as text). */
function summaryOf(b: JsonRpcSummary, progress: number): JsonRpcSummary {
  return b.total !== undefined
    ? { kind: 'notification', method: b.method, progressToken: b.progressToken, progress, total: b.total }
    : { kind: 'notification', method: b.method, progressToken: b.progressToken, progress };
}

/** One stream's shape (its events come in order). */
export class ProgressShape {
  /** The text around the holes (one more than holes), each hole's kind, and which is the progress. */
  private segs: string[] = [];
  private holes: number[] = [];
  private progressHole = -1;
  /** Whether to try, on the next event read, the shape of it and the one before (see read). */
  private recheck = false;
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
  /** The shape's text holds a line end (see use). */
  private lineEnds = false;

  /** The summary of `text` when it fits the stream's shape; otherwise undefined (decode it). */
  read(text: string): JsonRpcSummary | undefined {
    const b = this.base;
    if (b === undefined) return undefined;
    const progress = fits(text, this.segs, this.holes, this.progressHole);
    if (progress !== progress) return undefined;
    this.pause = 1;
    if (this.recheck) {
      // Taught from two events that differed in a message too (the digits of a counter changed
      // its length): if the next two differ in fewer values, their shape is read faster.
      this.recheck = false;
      const t = shapeOf(this.lastText, text);
      if (t && t.holes.length < this.holes.length) this.use(t);
    }
    const summary = summaryOf(b, progress);
    this.lastText = text;
    this.last = summary;
    return summary;
  }

  /**
   * For a run of events read by the shape together (analysis/event-run.ts): the summary every
   * event read by it shares but its progress, when read() would read by it with no lesson pending;
   * `progressIn` then reads each event's progress (NaN: read() would not read it), and `ranOver`
   * leaves the shape as read() of the run's last event would.
   */
  runBase(): JsonRpcSummary | undefined {
    return this.recheck ? undefined : this.base;
  }
  progressIn(text: string): number {
    return fits(text, this.segs, this.holes, this.progressHole);
  }
  /**
   * progressIn of the data that starts at `from` in `text` and ends where the shape does
   * (shape/read.ts fitEnd); NaN for a shape whose text holds a line end: read from an SSE body's
   * text, its LF would stand for a line break, which only a `data:` line may follow.
   */
  progressFrom(text: string, from: number): number {
    if (this.lineEnds) return NaN;
    return fitsFrom(text, from, this.segs, this.holes, this.progressHole);
  }
  ranOver(text: string, progress: number): void {
    this.pause = 1;
    this.lastText = text;
    this.last = summaryOf(this.base!, progress);
  }

  /** decodeJsonRpc(text), learning the shape from it. */
  decode(text: string): DecodeResult {
    const d = decodeJsonRpc(text);
    this.learn(text, progressOf(d));
    return d;
  }

  private learn(text: string, s: JsonRpcSummary | undefined): void {
    // Other messages between progress notifications (a log message) do not interrupt the lesson.
    if (!s) return;
    const prev = this.last;
    const prevText = this.lastText;
    this.last = s;
    this.lastText = text;
    if (!prev) return;
    if (this.wait > 0) {
      this.wait--;
      return;
    }
    const t = prev.progressToken === s.progressToken && prev.total === s.total && prev.method === s.method ? shapeOf(prevText, text) : undefined;
    if (t) {
      this.use(t);
      this.base = s;
      return;
    }
    this.wait = this.pause;
    this.pause = Math.min(this.pause * 2, 1024);
  }

  private use(t: Shape): void {
    this.segs = t.segs;
    this.holes = t.holes;
    this.progressHole = t.progress;
    this.recheck = t.holes.length > 1;
    // Taught from data of several `data:` lines (joined by LF), the shape's text holds a line end.
    this.lineEnds = t.segs.some((x) => x.includes('\n') || x.includes('\r'));
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

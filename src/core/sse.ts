// SSE parsing for one connection: eventsource-parser does the field grammar; this wrapper splits
// the decoded text into event blocks itself (so each event keeps its raw text), keeps the
// last-event-id cursor (the parser clears `id` after each dispatch), sees id-only blocks through
// `onId`, and reports a last block that never got its closing blank line (`truncated`): the
// parser never dispatches such a block, and a client silently loses it.
import { createParser, type EventSourceParser } from 'eventsource-parser';

export interface SseBlock {
  /** Last valid `id` field of the block ('' = an empty id field, which resets the cursor). */
  id?: string;
  /** `event` field; undefined = default ("message"). */
  event?: string;
  /** Joined data lines; undefined when the block had no data line (id-only block). */
  data?: string;
  /** `retry` field seen in this block. */
  retry?: number;
  /** Comments inside this block. */
  comments: number;
  /** Raw text of the block as received (including its terminating blank line). */
  raw: string;
  /** The stream ended before the closing blank line: a client never dispatches this block. */
  truncated?: boolean;
}

export interface SseConnectionParser {
  /** Feed decoded text; returns the blocks completed by it (those with an id or data). */
  feed(text: string): SseBlock[];
  /** End of the connection: returns a trailing block without its blank line, marked truncated. */
  end(): SseBlock[];
  /** The last-event-id cursor after everything fed so far ('' or undefined = none). */
  readonly cursor: string | undefined;
  /** Comments seen so far (in any block), and the last retry value. */
  readonly comments: number;
  readonly retry: number | undefined;
  /**
   * A block returned by an earlier `feed` whose blank line was CR + LF split across chunks: the
   * last `feed` began with that LF and appended it to the block's `raw`. Set for one `feed` call.
   */
  readonly extended: SseBlock | undefined;
}

const TERMINATOR = /[\r\n]/g;

export function createSseConnectionParser(): SseConnectionParser {
  let cursor: string | undefined;
  let totalComments = 0;
  let lastRetry: number | undefined;

  // Per-block collection filled by the parser callbacks during one feed of one block.
  let cur: { id?: string; event?: string; data?: string; retry?: number; comments: number; dispatched: boolean } = {
    comments: 0,
    dispatched: false,
  };
  const parser: EventSourceParser = createParser({
    onId(id) {
      cur.id = id;
      cur.dispatched = true;
    },
    onEvent(ev) {
      cur.event = ev.event;
      cur.data = ev.data;
      cur.dispatched = true;
    },
    onRetry(ms) {
      cur.retry = ms;
    },
    onComment() {
      cur.comments++;
    },
  });

  // Block splitter state.
  let buf = '';
  let atLineStart = true;
  let lastWasCR = false;
  /** The previous block ended with a bare CR at the end of a chunk: a leading LF is its CRLF tail. */
  let swallowLF = false;
  /** The block that ended with that bare CR (if it was returned). */
  let heldBlock: SseBlock | undefined;
  let extended: SseBlock | undefined;

  function runBlock(raw: string, truncated: boolean): SseBlock | undefined {
    cur = { comments: 0, dispatched: false };
    parser.feed(truncated ? raw + '\n\n' : raw);
    totalComments += cur.comments;
    if (cur.retry !== undefined) lastRetry = cur.retry;
    if (!cur.dispatched) return undefined;
    if (!truncated && cur.id !== undefined) cursor = cur.id;
    const block: SseBlock = { comments: cur.comments, raw };
    if (cur.id !== undefined) block.id = cur.id;
    if (cur.event !== undefined) block.event = cur.event;
    if (cur.data !== undefined) block.data = cur.data;
    if (cur.retry !== undefined) block.retry = cur.retry;
    if (truncated) block.truncated = true;
    return block;
  }

  function feed(text: string): SseBlock[] {
    const out: SseBlock[] = [];
    extended = undefined;
    if (swallowLF && text.length > 0) {
      swallowLF = false;
      if (text.charCodeAt(0) === 10) {
        parser.feed('\n'); // the parser is waiting for it, too
        text = text.slice(1);
        lastWasCR = false;
        // The LF belongs to the raw text of the block its CR ended.
        if (heldBlock) {
          heldBlock.raw += '\n';
          extended = heldBlock;
        }
      }
      heldBlock = undefined;
    }
    let start = 0;
    let pos = 0;
    TERMINATOR.lastIndex = 0;
    for (;;) {
      TERMINATOR.lastIndex = pos;
      const m = TERMINATOR.exec(text);
      if (!m) {
        if (pos < text.length) {
          atLineStart = false;
          lastWasCR = false;
        }
        break;
      }
      const k = m.index;
      if (k > pos) {
        atLineStart = false;
        lastWasCR = false;
      }
      const isCR = text.charCodeAt(k) === 13;
      if (!isCR && lastWasCR && k === pos) {
        // LF of a CRLF pair.
        lastWasCR = false;
        pos = k + 1;
        continue;
      }
      if (atLineStart) {
        // Blank line: the block ends here.
        let endAt = k + 1;
        if (isCR) {
          if (k + 1 < text.length) {
            if (text.charCodeAt(k + 1) === 10) endAt = k + 2;
          } else {
            swallowLF = true;
          }
        }
        const raw = buf + text.slice(start, endAt);
        buf = '';
        start = endAt;
        pos = endAt;
        atLineStart = true;
        lastWasCR = false;
        const b = runBlock(raw, false);
        if (b) out.push(b);
        if (swallowLF) heldBlock = b;
        continue;
      }
      atLineStart = true;
      lastWasCR = isCR;
      pos = k + 1;
    }
    if (start < text.length) buf += text.slice(start);
    return out;
  }

  function end(): SseBlock[] {
    const out: SseBlock[] = [];
    if (buf.length > 0) {
      const raw = buf;
      buf = '';
      const b = runBlock(raw, true);
      if (b) out.push(b);
    }
    parser.reset();
    atLineStart = true;
    lastWasCR = false;
    swallowLF = false;
    heldBlock = undefined;
    extended = undefined;
    return out;
  }

  return {
    feed,
    end,
    get cursor() {
      return cursor === '' ? undefined : cursor;
    },
    get comments() {
      return totalComments;
    },
    get retry() {
      return lastRetry;
    },
    get extended() {
      return extended;
    },
  };
}

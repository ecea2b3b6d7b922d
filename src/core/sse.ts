// SSE parsing for one connection: this reader splits the decoded text into event blocks itself (so
// each event keeps its raw text), keeps the last-event-id cursor, reports id-only blocks (they
// move the cursor), and reports a last block that never got its closing blank line (`truncated`):
// a parser never dispatches such a block, and a client silently loses it.
//
// The fields of a block are read in the same pass (sse-fields.ts), with the WHATWG algorithm's
// grammar (what eventsource-parser implements); one leading BOM of the stream is stripped here. A
// block that starts in the text fed (LF line ends) is read line by line as its blank line is
// looked for, so each character is scanned once. Feeding each block to eventsource-parser after
// splitting it cost a second scan of every byte; the equivalence is
// tested against eventsource-parser 3 itself (src/core/sse-oracle.test.ts, which also says where 3
// departs from the WHATWG text and how the oracle allows for it). The exporters read bodies with
// this reader too (src/export/sse.ts).

import type { SseBlock, SseConnectionParser, SseRunReader } from './sse-types';
import { BlockFields } from './sse-fields';

export type { SseBlock, SseConnectionParser, SseRunReader } from './sse-types';

const TERMINATOR = /[\r\n]/g;

export function createSseConnectionParser(): SseConnectionParser {
  let cursor: string | undefined;
  let totalComments = 0;
  let lastRetry: number | undefined;

  /** The stream's leading BOM is still to be checked (first block). */
  let bomCheck = true;

  // Block splitter state.
  let buf = '';
  let atLineStart = true;
  let lastWasCR = false;
  /** The previous block ended with a bare CR at the end of a chunk: a leading LF is its CRLF tail. */
  let swallowLF = false;
  /** The block that ended with that bare CR (if it was returned). */
  let heldBlock: SseBlock | undefined;
  let extended: SseBlock | undefined;

  // Resync state (see `resync`). 0: not resyncing; 1: inside a line of unknown start; 2: right
  // after a line terminator, so a second one is a blank line. `skipCR`: the last character
  // discarded was a CR, so an LF right after it is the same terminator (CRLF), not a blank line.
  let skip = 0;
  let skipCR = false;
  let skipped = 0;

  const f = new BlockFields();

  /** The block read into `f`, with raw text `raw`; undefined when it has no id and no data. */
  function made(raw: string, truncated: boolean): SseBlock | undefined {
    const { id, event, data, retry, comments } = f;
    totalComments += comments;
    if (retry !== undefined) lastRetry = retry;
    if (id === undefined && f.dataLines === 0) return undefined;
    if (!truncated && id !== undefined) cursor = id;
    // The usual block is built with its final shape (no property added after creation).
    if (id !== undefined && f.dataLines > 0 && retry === undefined && !truncated)
      return event !== undefined ? { comments, raw, id, event, data } : { comments, raw, id, data };
    const block: SseBlock = { comments, raw };
    if (id !== undefined) block.id = id;
    if (f.dataLines > 0) {
      if (event !== undefined) block.event = event;
      block.data = data;
    }
    if (retry !== undefined) block.retry = retry;
    if (truncated) block.truncated = true;
    return block;
  }

  /** `noCR`: the caller knows `raw` holds no CR (it came whole from a chunk without one). */
  function runBlock(raw: string, truncated: boolean, noCR = false): SseBlock | undefined {
    let i = 0;
    if (bomCheck) {
      bomCheck = false;
      if (raw.charCodeAt(0) === 0xfeff) i = 1;
      else if (raw.startsWith('\xEF\xBB\xBF')) i = 3;
    }
    f.block(raw, i, noCR);
    return made(raw, truncated);
  }

  /**
   * Discards resync text up to the first certain event boundary; returns where parsing resumes
   * in `text`, or -1 when all of it was discarded. The text right after a loss may start anywhere
   * (inside a line, or with the LF of a CRLF whose CR was lost), so its first terminator only ends
   * a line of unknown content: the boundary is the next terminator right after it. A real event
   * that began exactly at the loss is dropped with the rest: which events do is unknowable.
   */
  function skipToBoundary(text: string): number {
    const n = text.length;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13) {
        skip = 1;
        skipCR = false;
        continue;
      }
      if (skip === 1) {
        skip = 2;
        skipCR = c === 13;
        continue;
      }
      if (c === 10 && skipCR) {
        skipCR = false;
        continue;
      }
      // A blank line: the boundary. A CR ending it may be followed by its LF in the next read.
      let end = i + 1;
      if (c === 13) {
        if (end < n) {
          if (text.charCodeAt(end) === 10) end++;
        } else swallowLF = true;
      }
      skipped += i;
      skip = 0;
      skipCR = false;
      return end;
    }
    skipped += n;
    return -1;
  }

  function resync(): number {
    const dropped = buf.length;
    buf = '';
    atLineStart = true;
    lastWasCR = false;
    swallowLF = false;
    heldBlock = undefined;
    // A U+FEFF after the loss is no leading BOM of the stream.
    bomCheck = false;
    skip = 1;
    skipCR = false;
    skipped = 0;
    return dropped;
  }

  function feed(text: string, spans?: number[], dataAts?: number[], run?: SseRunReader): SseBlock[] {
    const out: SseBlock[] = [];
    extended = undefined;
    /** Where `text` (as it is cut below) starts in the text fed. */
    let base = 0;
    if (skip !== 0) {
      const at = skipToBoundary(text);
      if (at === -1) return out;
      text = text.slice(at);
      base = at;
    }
    // The stream's leading BOM is stripped before splitting: left in, it would make the first line
    // look non-blank, so a blank line right after it (BOM, LF, data…) would not end an (empty)
    // block and the block's reader would stop at that LF, losing the event behind it.
    if (bomCheck && text.length > 0 && buf.length === 0 && text.charCodeAt(0) === 0xfeff) {
      bomCheck = false;
      text = text.slice(1);
      base++;
      if (text.length === 0) return out;
    }
    if (swallowLF && text.length > 0) {
      swallowLF = false;
      if (text.charCodeAt(0) === 10) {
        text = text.slice(1);
        base++;
        lastWasCR = false;
        // The LF belongs to the raw text of the block its CR ended.
        if (heldBlock) {
          heldBlock.raw += '\n';
          extended = heldBlock;
        }
      }
      heldBlock = undefined;
    }
    if (!lastWasCR && text.indexOf('\r') === -1) {
      // Fast path (LF line ends only): blocks end at the first "\n\n" (or a "\n" at a line start).
      const n = text.length;
      let start = 0;
      let lineStart = atLineStart;
      /** Whether to offer the block that starts next to `run` (not the one a run stopped at). */
      let offer = run !== undefined;
      for (;;) {
        if (buf === '' && lineStart && !bomCheck) {
          if (offer && start < n) {
            const e = run!.read(text, start, base, out, spans, dataAts);
            // The reader handled the blocks before (see SseRunReader).
            out.length = 0;
            if (spans) spans.length = 0;
            if (dataAts) dataAts.length = 0;
            if (e > start) {
              cursor = run!.cursor;
              start = e;
              offer = false;
              continue;
            }
          }
          offer = run !== undefined;
          // A block that starts in this text: its lines read as its end is looked for.
          const endAt = f.lfBlock(text, start);
          if (endAt === -1) break;
          const b = made(text.slice(start, endAt), false);
          if (b) {
            out.push(b);
            spans?.push(base + start);
            dataAts?.push(f.dataAt);
          }
          start = endAt;
          continue;
        }
        let endAt: number;
        if (lineStart && start < n && text.charCodeAt(start) === 10) endAt = start + 1;
        else {
          const k = text.indexOf('\n\n', start);
          if (k === -1) break;
          endAt = k + 2;
        }
        const whole = buf === '';
        const raw = whole ? text.slice(start, endAt) : buf + text.slice(start, endAt);
        buf = '';
        start = endAt;
        lineStart = true;
        const b = runBlock(raw, false, whole);
        if (b) {
          out.push(b);
          spans?.push(whole ? base + endAt - raw.length : -1);
          dataAts?.push(f.dataAt);
        }
      }
      if (start < n) {
        buf += text.slice(start);
        atLineStart = text.charCodeAt(n - 1) === 10;
      } else atLineStart = lineStart;
      lastWasCR = false;
      return out;
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
        const whole = buf === '';
        const raw = whole ? text.slice(start, endAt) : buf + text.slice(start, endAt);
        buf = '';
        start = endAt;
        pos = endAt;
        atLineStart = true;
        lastWasCR = false;
        const b = runBlock(raw, false);
        if (b) {
          out.push(b);
          spans?.push(whole ? base + endAt - raw.length : -1);
          dataAts?.push(f.dataAt);
        }
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
    // Text after a loss without any boundary: discarded, never reported as a truncated event.
    skip = 0;
    skipCR = false;
    if (buf.length > 0) {
      const raw = buf;
      buf = '';
      const b = runBlock(raw, true);
      if (b) out.push(b);
    }
    bomCheck = true;
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
    resync,
    get resyncing() {
      return skip !== 0;
    },
    get resyncDropped() {
      return skipped;
    },
  };
}

// What the per-connection SSE parser (sse.ts) gives: blocks with their raw text, and its state.

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

/**
 * Reads a run of the usual events from where a block starts in LF-only text (the analysis'
 * event-run.ts): given the text being fed, where a block starts in it, and `base`, where that text
 * starts in the text fed (spans are counted from there); with the blocks this feed made so far
 * (and their spans), which it handles first: the reader empties those lists after the call, so
 * they are not returned. Returns where the run ended (`at`: it
 * read nothing) and leaves the last id it read in `cursor`. Every event it reads is one the
 * reader would have made a block of: an `id` line, an optional `event: message` line, one `data`
 * line and the blank line; none moves anything the reader keeps but the cursor.
 */
export interface SseRunReader {
  read(text: string, at: number, base: number, pending: SseBlock[], spans: number[] | undefined, dataAts: number[] | undefined): number;
  readonly cursor: string;
}

export interface SseConnectionParser {
  /**
   * Feed decoded text; returns the blocks completed by it (those with an id or data). `spans`, when
   * given, gains one number per block returned: where its `raw` starts in `text` (its raw is that
   * span of `text`), or -1 when its raw is not one span of `text` (it began in an earlier feed).
   * `dataAts`, when given, likewise gains where its `data` starts in its `raw` when the data is one
   * `data:` line (the data is that span of the raw text, to its line's end), or -1.
   */
  feed(text: string, spans?: number[], dataAts?: number[], run?: SseRunReader): SseBlock[];
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
  /**
   * Text of this connection was lost (a capture gap, a chunk cut by a size cap): what is fed next
   * does not continue what was fed so far. Drops the partial block, then discards the text fed
   * next up to the first blank line that is certainly an event boundary, so no block is ever made
   * of text from both sides of the loss. Returns the characters of the partial block dropped.
   */
  resync(): number;
  /** Still discarding after a `resync` (no event boundary seen yet). */
  readonly resyncing: boolean;
  /** Characters discarded after the last `resync` so far, up to the blank line (not counted). */
  readonly resyncDropped: number;
}

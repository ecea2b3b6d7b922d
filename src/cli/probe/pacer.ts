// Client-side control of an SSE body, for the probe's experiments: the body is handed to the SDK
// one whole SSE event at a time (split at blank lines), so the probe can
// - cut the stream right after the k-th event (the read then fails, as on a dropped connection,
//   and the server's connection is cancelled), and
// - read slowly (one event per `paceMs` for the first `paceForMs`), so that the server meets
//   backpressure: while the probe does not read, nothing more is pulled from the socket.
// "Events" are blocks with an `id` or a `data` field (a priming event counts; comments do not).

export interface PaceOptions {
  /** Cut right after this many events (0: before the first event). */
  cutAfter?: number;
  /** ms to wait before handing over each event while slow. */
  paceMs?: number;
  /** How long the reader stays slow (ms from the first read); then it reads at full speed. */
  paceForMs?: number;
  /** Each event handed over (its raw text), and the cut. */
  onEvent?: (raw: string, index: number) => void;
  onCut?: (after: number) => void;
}

export class ProbeCut extends Error {
  constructor(readonly after: number) {
    super(`cut by the probe after ${after} event${after === 1 ? '' : 's'}`);
    this.name = 'ProbeCut';
  }
}

const BOUNDARY = /\r\n\r\n|\n\n|\r\r/;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function countsAsEvent(block: string): boolean {
  return block.split(/\r\n|\r|\n/).some((l) => /^(id|data)(:|$)/.test(l));
}

export function paceBody(body: ReadableStream<Uint8Array>, o: PaceOptions): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let buf = '';
  let events = 0;
  let done = false;
  let slowUntil: number | undefined;
  const cut = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    o.onCut?.(events);
    void reader.cancel(new ProbeCut(events)).catch(() => {});
    controller.error(new ProbeCut(events));
  };

  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (o.cutAfter === 0) cut(controller);
      },
      async pull(controller) {
        if (o.paceMs && o.paceForMs) {
          slowUntil ??= Date.now() + o.paceForMs;
          if (Date.now() < slowUntil) await sleep(o.paceMs);
        }
        for (;;) {
          const m = BOUNDARY.exec(buf);
          if (m) {
            const raw = buf.slice(0, m.index + m[0].length);
            buf = buf.slice(m.index + m[0].length);
            const counted = countsAsEvent(raw);
            if (counted) o.onEvent?.(raw, events + 1);
            controller.enqueue(encoder.encode(raw));
            if (counted && ++events === o.cutAfter) cut(controller);
            return;
          }
          if (done) {
            if (buf) controller.enqueue(encoder.encode(buf));
            buf = '';
            controller.close();
            return;
          }
          let r: ReadableStreamReadResult<Uint8Array>;
          try {
            r = await reader.read();
          } catch (e) {
            controller.error(e);
            return;
          }
          if (r.done) {
            buf += decoder.decode();
            done = true;
          } else buf += decoder.decode(r.value, { stream: true });
        }
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

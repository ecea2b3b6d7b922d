// A `fetch` for the SDK clients that records every exchange as CaptureRecords, the way the
// extension's page hook (src/extension/hook/fetch.ts) does. The probe records with it, and so do
// the test fixtures' clients (test/fixtures/client/recording-fetch.ts is a thin adapter over it):
// - nothing of a connection is recorded before its response headers arrive (or the fetch fails);
//   then its request record (t = that moment) and its response record;
// - a chunk record each time the *client* reads a piece of the body (pull-through, highWaterMark 0),
//   so a cut or a slow read made by `shape` is recorded as the client lived it;
// - one end record at EOF, on a read error (network-error; page-aborted when the signal aborted)
//   or when the client cancels (page-cancelled); a null body ends 'complete' at once;
// - responses that are neither SSE nor JSON (capture 'none', e.g. a 202) get no chunk and no end.
// Connection ids are 'c' + base-36 counter; seq is dense from 1 within one `src`.
// `shape` wraps the server's body before the client sees it (probe cuts and pacing, pacer.ts).

import { isEventStreamType, isJsonType, type CaptureRecord, type EndHow, type Header, type HookRecord } from '../../core/record';

export interface ShapeContext {
  conn: string;
  method: string;
  url: string;
  /** The request's headers (lower-case names). */
  headers: Headers;
  body: string | null;
  status: number;
}

/** Returns a body to hand to the client instead of `body`, or undefined to leave it alone. */
export type Shape = (body: ReadableStream<Uint8Array>, ctx: ShapeContext) => ReadableStream<Uint8Array> | undefined;

export interface Recorder {
  fetch: typeof fetch;
  records: CaptureRecord[];
  src: string;
  /** Set or clear the shaping of the bodies of the next responses. */
  shape: Shape | undefined;
  /** fetch() calls whose response headers have not arrived yet (they have no records yet). */
  readonly inflight: number;
}

const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);
const now = () => performance.timeOrigin + performance.now();

export function errorText(e: unknown): string {
  if (e instanceof Error) {
    const cause = (e as Error & { cause?: unknown }).cause;
    const base = `${e.name}: ${e.message}`;
    return cause instanceof Error ? `${base} (${cause.message})` : base;
  }
  return String(e);
}

/** `baseFetch` does the work; without it, globalThis.fetch is looked up at each call (tests swap it). */
export function createRecorder(src: string, baseFetch?: typeof fetch): Recorder {
  const records: CaptureRecord[] = [];
  let seq = 0;
  let connCounter = 0;
  let inflight = 0;
  const push = (r: HookRecord) => void records.push({ seq: ++seq, src, ...r } as CaptureRecord);

  const recorder: Recorder = {
    fetch: undefined as unknown as typeof fetch,
    records,
    src,
    shape: undefined,
    get inflight() {
      return inflight;
    },
  };
  recorder.fetch = (async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const conn = `c${(++connCounter).toString(36)}`;
    const req = input instanceof Request ? input : undefined;
    const url = req ? req.url : input instanceof URL ? input.href : String(input);
    const method = (init?.method ?? req?.method ?? 'GET').toUpperCase();
    const reqHeaders = new Headers(init?.headers ?? req?.headers);
    const headers = [...reqHeaders.entries()].map(([k, v]) => [k, v] as Header);
    const rawBody = init?.body;
    const body = typeof rawBody === 'string' ? rawBody : null;
    // The hook's notes (request-info.ts): a streamed body is 'stream', anything else not a string 'binary'.
    const bodyNote = rawBody == null ? 'none' : typeof rawBody === 'string' ? undefined : rawBody instanceof ReadableStream ? 'stream' : 'binary';
    const signal = init?.signal ?? req?.signal ?? undefined;
    // Recorded when sent, as the page hook records an MCP request (hook/fetch.ts): a response the
    // server holds shows as the wait between the two records (the probe's resume-prompt check).
    push({ kind: 'request', t: now(), conn, transport: 'fetch', method, url, headers, body, ...(bodyNote ? { bodyNote } : {}) });
    let ended = false;
    const end = (how: EndHow, reason?: string) => {
      if (ended) return;
      ended = true;
      push({ kind: 'end', t: now(), conn, how, ...(reason !== undefined ? { reason } : {}) });
    };
    const failHow = (e: unknown): [EndHow, string] => (signal?.aborted ? ['page-aborted', errorText(signal.reason)] : ['network-error', errorText(e)]);

    let res: Response;
    inflight++;
    try {
      res = await (baseFetch ?? globalThis.fetch)(input, init);
    } catch (e) {
      inflight--;
      end(...failHow(e));
      throw e;
    }
    inflight--;
    const contentType = res.headers.get('content-type');
    const capture = isEventStreamType(contentType) ? 'sse' : isJsonType(contentType) ? 'json' : 'none';
    push({
      kind: 'response',
      t: now(),
      conn,
      status: res.status,
      statusText: res.statusText,
      headers: [...res.headers.entries()].map(([k, v]) => [k, v] as Header),
      url: res.url || url,
      redirected: res.redirected,
      type: res.type,
      capture,
    });
    if (!res.body || NULL_BODY_STATUS.has(res.status)) {
      end('complete');
      return res;
    }
    if (capture === 'none') return res;
    const shaped = capture === 'sse' ? recorder.shape?.(res.body, { conn, method, url, headers: reqHeaders, body, status: res.status }) : undefined;
    const reader = (shaped ?? res.body).getReader();
    const decoder = new TextDecoder();
    const wrapped = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          for (;;) {
            let r: ReadableStreamReadResult<Uint8Array>;
            try {
              r = await reader.read();
            } catch (e) {
              end(...failHow(e));
              controller.error(e);
              return;
            }
            if (r.done) {
              const tail = decoder.decode();
              if (tail) push({ kind: 'chunk', t: now(), conn, text: tail, bytes: 0 });
              end('complete');
              controller.close();
              return;
            }
            if (r.value.byteLength === 0) continue;
            push({ kind: 'chunk', t: now(), conn, text: decoder.decode(r.value, { stream: true }), bytes: r.value.byteLength });
            controller.enqueue(r.value);
            return;
          }
        },
        cancel(reason) {
          end('page-cancelled', reason === undefined ? undefined : errorText(reason));
          return reader.cancel(reason);
        },
      },
      { highWaterMark: 0 },
    );
    return new Response(wrapped, { status: res.status, statusText: res.statusText, headers: res.headers });
  }) as typeof fetch;
  return recorder;
}

// A `fetch` for the SDK clients that records every exchange as CaptureRecords, the way the
// extension's page hook does (same contract as test/fixtures/client/recording-fetch.ts, which the
// fixtures keep for themselves; the CLI must not import from test/):
// - a connection's request and response records when its headers arrive (or the fetch fails);
// - a chunk record each time the *client* reads a piece of the body (pull-through, highWaterMark 0),
//   so a cut or a slow read made by `shape` is recorded as the client lived it;
// - one end record at EOF, on a read error (network-error; page-aborted when the signal aborted)
//   or when the client cancels (page-cancelled).
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

export function createRecorder(src: string, baseFetch: typeof fetch = globalThis.fetch): Recorder {
  const records: CaptureRecord[] = [];
  let seq = 0;
  let connCounter = 0;
  const push = (r: HookRecord) => void records.push({ seq: ++seq, src, ...r } as CaptureRecord);

  const recorder: Recorder = { fetch: undefined as unknown as typeof fetch, records, src, shape: undefined };
  recorder.fetch = (async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const conn = `c${(++connCounter).toString(36)}`;
    const req = input instanceof Request ? input : undefined;
    const url = req ? req.url : input instanceof URL ? input.href : String(input);
    const method = (init?.method ?? req?.method ?? 'GET').toUpperCase();
    const reqHeaders = new Headers(init?.headers ?? req?.headers);
    const headers = [...reqHeaders.entries()].map(([k, v]) => [k, v] as Header);
    const rawBody = init?.body;
    const body = typeof rawBody === 'string' ? rawBody : null;
    const bodyNote = rawBody == null ? 'none' : typeof rawBody === 'string' ? undefined : 'binary';
    const signal = init?.signal ?? req?.signal ?? undefined;
    const start = () => push({ kind: 'request', t: now(), conn, transport: 'fetch', method, url, headers, body, ...(bodyNote ? { bodyNote } : {}) });
    let ended = false;
    const end = (how: EndHow, reason?: string) => {
      if (ended) return;
      ended = true;
      push({ kind: 'end', t: now(), conn, how, ...(reason !== undefined ? { reason } : {}) });
    };
    const failHow = (e: unknown): [EndHow, string] => (signal?.aborted ? ['page-aborted', errorText(signal.reason)] : ['network-error', errorText(e)]);

    let res: Response;
    try {
      res = await baseFetch(input, init);
    } catch (e) {
      start();
      end(...failHow(e));
      throw e;
    }
    start();
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

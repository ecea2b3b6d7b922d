// A `fetch` over node:http(s), for the probe's clients. Node's built-in fetch (undici) reads a
// response far ahead of its consumer (tens of MB on loopback), so a slow reader on it never makes
// the server meet backpressure. Here the body is the socket's own stream (pullStream: Node 20's Readable.toWeb reads ahead without bound): while
// the client does not read, the socket is paused, TCP's window closes, and the server's
// res.write returns false, as with a slow client in the field.

import { request as httpRequest, Agent as HttpAgent, type IncomingMessage } from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';

const NULL_BODY = new Set([101, 103, 204, 205, 304]);

export function createHttpFetch(): { fetch: typeof fetch; close(): void } {
  const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };
  const f = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
    new Promise((resolve, reject) => {
      const req0 = input instanceof Request ? input : undefined;
      const url = new URL(req0 ? req0.url : input instanceof URL ? input.href : String(input));
      const headers: Record<string, string> = {};
      new Headers(init?.headers ?? req0?.headers).forEach((v, k) => (headers[k] = v));
      const body = init?.body;
      if (body != null && typeof body !== 'string') return reject(new TypeError('probe fetch: only string bodies'));
      const secure = url.protocol === 'https:';
      const signal = init?.signal ?? undefined;
      if (signal?.aborted) return reject(signal.reason);
      const req = (secure ? httpsRequest : httpRequest)(url, { method: init?.method ?? 'GET', headers, agent: secure ? agents.https : agents.http });
      let response: IncomingMessage | undefined;
      // Destroyed without an error argument: a socket already back in the agent's pool must not
      // emit an 'error' nobody listens to. The body stream fails by itself (closed before its end).
      const onAbort = () => {
        reject(signal?.reason);
        if (!response?.complete) req.destroy();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      req.on('error', (e) => reject(e));
      req.on('response', (res: IncomingMessage) => {
        response = res;
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) {
          if (Array.isArray(v)) for (const x of v) h.append(k, x);
          else if (v !== undefined) h.set(k, v);
        }
        const status = res.statusCode ?? 0;
        const stream = NULL_BODY.has(status) || init?.method === 'HEAD' ? null : pullStream(res);
        if (!stream) res.resume();
        res.on('close', () => signal?.removeEventListener('abort', onAbort));
        const r = new Response(stream, { status: status < 200 ? 200 : status, statusText: res.statusMessage ?? '', headers: h });
        Object.defineProperty(r, 'url', { value: url.href });
        resolve(r);
      });
      req.end(body ?? undefined);
    });
  return {
    fetch: f as typeof fetch,
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

/** The response as a web stream that reads the socket only when pulled (no read-ahead). */
function pullStream(res: IncomingMessage): ReadableStream<Uint8Array> {
  res.pause();
  let ended = false;
  let failed: Error | undefined;
  let wake: (() => void) | undefined;
  const poke = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  res.on('readable', poke);
  res.on('end', () => {
    ended = true;
    poke();
  });
  res.on('error', (e) => {
    failed = e;
    poke();
  });
  res.on('close', () => {
    if (!res.complete && !failed) failed = new Error(res.destroyed && !res.readableAborted ? 'the response was destroyed' : 'the connection closed before the response ended');
    poke();
  });
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        for (;;) {
          const chunk = res.read() as Buffer | null;
          if (chunk) {
            controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
            return;
          }
          if (failed) return controller.error(failed);
          if (ended) return controller.close();
          await new Promise<void>((r) => (wake = r));
        }
      },
      cancel(reason) {
        res.destroy(reason instanceof Error ? reason : undefined);
      },
    },
    { highWaterMark: 0 },
  );
}

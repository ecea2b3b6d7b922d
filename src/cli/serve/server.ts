// The HTTP side of `serve`: node:http on 127.0.0.1, CORS for pages on other origins, and the
// playing of what replay.ts chose: recorded status and headers, each event at its recorded time
// (scaled by --speed), ids rewritten, faults applied, and the stream's end as recorded: a clean
// end, a reset connection where the recording was cut, or left open where the client closed it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createStreamFaults, describeFault, type FaultEffect, type StreamEventInfo } from '../../core/faults/index';
import type { CaptureRecord, EndHow, Header, HookRecord } from '../../core/record';
import { LOSS_HEADER, type Block, type Exchange, type Unit } from './recording';
import { liveIdFor } from './id-forms';
import type { Answer, LiveRequest, Pass, Replay } from './replay';
import { decodeKeyed, keyOf, rewriteEvent, rewriteJson, type IdMaps } from './rewrite';

export interface ServeServerOptions {
  replay: Replay;
  host?: string;
  port?: number;
  /** Time scale: 2 plays twice as fast. */
  speed?: number;
  /** Value of Access-Control-Allow-Origin: `*` (default) echoes the page's Origin. */
  allowOrigin?: string;
  log?: (line: string) => void;
  /** Called when a response ended (for the presets' verdicts). */
  onExchangeEnd?: () => void;
}

export interface ServeServer {
  origin: string;
  port: number;
  /** What was served, as CaptureRecords from the server's side (request, response, each write, end). */
  records: CaptureRecord[];
  close(): Promise<void>;
}

/** Chromium drops bytes that arrive in the same read as a reset: leave them time to be read. */
const RESET_AFTER_WRITE_MS = 30;
const MAX_BODY_BYTES = 16e6;

const DROP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-encoding',
  'upgrade',
  'proxy-connection',
  'trailer',
  'te',
]);
const ALLOW_HEADERS = 'content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id, mcp-method, mcp-name';
const TOKEN_LIST = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+(\s*,\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+)*$/;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

function now(): number {
  return performance.timeOrigin + performance.now();
}


function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let n = 0;
    req.on('data', (c: Buffer) => {
      n += c.length;
      if (n > MAX_BODY_BYTES) {
        reject(new Error('request body too large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function eventInfo(b: Block, maps: IdMaps): StreamEventInfo {
  return {
    ...(b.id !== undefined ? { id: b.id } : {}),
    dispatched: b.dispatched,
    messages: b.messages.map((m) => {
      const s = m.summary;
      const live = s.id !== undefined && (s.kind === 'result' || s.kind === 'error') ? liveIdFor(maps.ids, s.id) : undefined;
      return { kind: s.kind, ...(s.method !== undefined ? { method: s.method } : {}), ...(s.id !== undefined ? { id: live !== undefined ? (keyOf(live) ?? s.id) : s.id } : {}) };
    }),
  };
}

function unitText(u: Unit, maps: IdMaps, log: (line: string) => void): string {
  try {
    if (u.block && u.block.messages.length > 0) return rewriteEvent(u.text, u.block.messages, u.block.batch, maps) ?? u.text;
    if (u.json) return rewriteJson(u.text, u.json.messages, u.json.batch, maps) ?? u.text;
  } catch (e) {
    // Text that does not hold an id where its parsed JSON has it (a hostile file's event whose
    // data lines do not give back its data): sent as recorded rather than guessed at.
    log(`  this event is sent with its recorded ids: it cannot be rewritten (${e instanceof Error ? e.message : String(e)})`);
  }
  return u.text;
}

function effectText(e: FaultEffect): string {
  switch (e.kind) {
    case 'cut':
      return `cut after ${e.afterEvents} event${e.afterEvents === 1 ? '' : 's'}${e.cursor !== undefined ? ` (the client's last id: ${e.cursor})` : ''}`;
    case 'withhold':
      return `withheld ${e.events} event${e.events === 1 ? '' : 's'}${e.eventIds.some(Boolean) ? ` (ids ${e.eventIds.filter(Boolean).join(', ')})` : ''}`;
    case 'delay':
      return `delayed ${e.events} event${e.events === 1 ? '' : 's'}`;
    case 'drop-result':
      return `dropped the result${e.eventIds.some(Boolean) ? ` (id ${e.eventIds.filter(Boolean).join(', ')})` : ''}`;
    default:
      return e.kind;
  }
}

export async function startServeServer(o: ServeServerOptions): Promise<ServeServer> {
  const speed = o.speed ?? 1;
  const log = o.log ?? (() => {});
  const host = o.host ?? '127.0.0.1';
  const loopback = LOOPBACK.has(host);
  const records: CaptureRecord[] = [];
  let seq = 0;
  let connCounter = 0;
  const sockets = new Set<Socket>();
  let shuttingDown = false;
  const push = (r: HookRecord) => void records.push({ ...r, seq: ++seq, src: 'serve' } as CaptureRecord);
  // Pending waits, so close() ends them: a recorded stream can wait minutes for its next event.
  const waits = new Map<ReturnType<typeof setTimeout>, () => void>();
  const sleep = (ms: number): Promise<void> =>
    ms > 0
      ? new Promise((resolve) => {
          const t = setTimeout(() => {
            waits.delete(t);
            resolve();
          }, ms);
          waits.set(t, resolve);
        })
      : Promise.resolve();

  /** `p`, or close() — whichever comes first (close() ends every pending wait). */
  const untilShutdown = (p: Promise<void>): Promise<void> =>
    new Promise((resolve) => {
      const t = setTimeout(() => {}, 2 ** 31 - 1);
      waits.set(t, resolve);
      void p.then(() => {
        clearTimeout(t);
        waits.delete(t);
        resolve();
      });
    });

  function cors(req: IncomingMessage, res: ServerResponse, expose: string[]): void {
    const origin = req.headers.origin;
    const allow = o.allowOrigin ?? '*';
    if (allow === '*') {
      res.setHeader('access-control-allow-origin', origin ?? '*');
      // Pages whose client sends credentials (cookies for an auth proxy) need this with an echoed origin.
      if (origin) res.setHeader('access-control-allow-credentials', 'true');
    } else res.setHeader('access-control-allow-origin', allow);
    res.setHeader('vary', 'origin');
    res.setHeader('access-control-allow-methods', 'GET, POST, DELETE, OPTIONS');
    const asked = req.headers['access-control-request-headers'];
    // Echo what the preflight asks for (the 2026-07-28 Mcp-Param-* names are per tool), when well formed.
    res.setHeader('access-control-allow-headers', typeof asked === 'string' && TOKEN_LIST.test(asked.trim()) ? asked : ALLOW_HEADERS);
    res.setHeader('access-control-expose-headers', ['mcp-session-id', 'mcp-protocol-version', ...expose].filter((v, i, a) => a.indexOf(v) === i).join(', '));
    res.setHeader('access-control-max-age', '600');
    // Chrome's Private Network Access: a public page reaching 127.0.0.1 asks first.
    if (req.headers['access-control-request-private-network'] === 'true') res.setHeader('access-control-allow-private-network', 'true');
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://serve.invalid');
    const hostName = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    if (loopback && !LOOPBACK.has(hostName)) {
      // DNS rebinding: a page on evil.example resolving to 127.0.0.1 must not read the capture.
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `mcp-stream-inspector serve answers only Host 127.0.0.1 / localhost, not ${JSON.stringify(hostName)}` }));
      log(`${req.method} ${url.pathname}: Host ${JSON.stringify(hostName)} refused (403)`);
      return;
    }
    if (req.method === 'OPTIONS') {
      cors(req, res, []);
      res.writeHead(204);
      res.end();
      return;
    }
    let body: string | null = null;
    if (req.method === 'POST' || req.method === 'PUT' || req.method === 'PATCH') {
      try {
        body = await readBody(req);
      } catch (e) {
        cors(req, res, []);
        res.writeHead(413, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: String(e instanceof Error ? e.message : e) } }));
        return;
      }
    }
    const decoded = body ? decodeKeyed(body) : undefined;
    const headers: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    const live: LiveRequest = {
      httpMethod: (req.method ?? 'GET').toUpperCase(),
      path: url.pathname,
      headers,
      body,
      messages: decoded && !decoded.error ? decoded.messages : [],
      batch: body !== null && body.trimStart().startsWith('['),
    };
    const conn = `s${(++connCounter).toString(36)}`;
    const reqHeaders: Header[] = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) reqHeaders.push([req.rawHeaders[i]!.toLowerCase(), req.rawHeaders[i + 1]!]);
    const reqT = now();
    let recorded = false;
    const recordRequest = () => {
      if (recorded) return;
      recorded = true;
      push({ kind: 'request', t: reqT, conn, transport: 'fetch', method: live.httpMethod, url: url.pathname, headers: reqHeaders, body, ...(body === null ? { bodyNote: 'none' as const } : {}) });
    };

    if (!o.replay.recording.paths.has(url.pathname)) {
      const served = [...o.replay.recording.paths.keys()].join(', ');
      cors(req, res, []);
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `nothing recorded at ${url.pathname}; served: ${served}` }));
      log(`${live.httpMethod} ${url.pathname}: no recorded endpoint there (served: ${served}) → 404`);
      return;
    }

    const answer = o.replay.answer(live);
    log(answer.log);
    let ended = false;
    let closedByClient = false;
    let lastWrite = 0;
    res.on('close', () => {
      if (!res.writableFinished && !ended) {
        closedByClient = true;
        ended = true;
        push({ kind: 'end', t: now(), conn, how: 'page-aborted', reason: 'the client closed the connection' });
        o.onExchangeEnd?.();
      }
    });
    const write = (text: string) => {
      if (!text || ended || shuttingDown) return;
      res.write(text);
      lastWrite = performance.now();
      push({ kind: 'chunk', t: now(), conn, text, bytes: Buffer.byteLength(text) });
    };
    const finish = async (how: 'complete' | 'reset') => {
      if (ended || shuttingDown) return;
      if (how === 'reset') {
        await sleep(lastWrite + RESET_AFTER_WRITE_MS - performance.now());
        if (ended || shuttingDown) return;
        ended = true;
        recordRequest();
        push({ kind: 'end', t: now(), conn, how: 'network-error', reason: 'reset by serve' });
        res.destroy();
      } else {
        ended = true;
        res.end();
        push({ kind: 'end', t: now(), conn, how: 'complete' });
      }
      o.onExchangeEnd?.();
    };
    const head = (status: number, statusText: string, hs: Header[], capture: 'sse' | 'json' | 'none') => {
      const exposed: string[] = [];
      for (const [k, v] of hs) {
        const l = k.toLowerCase();
        if (l.startsWith(':') || l.startsWith('access-control-') || l === 'vary' || DROP_HEADERS.has(l)) continue;
        try {
          res.setHeader(k, v);
          exposed.push(l);
        } catch {
          // A header the recording holds but HTTP/1.1 cannot carry (bad characters): left out.
        }
      }
      cors(req, res, exposed);
      res.statusCode = status;
      if (statusText && /^[\t\x20-\x7e]*$/.test(statusText)) res.statusMessage = statusText;
      res.flushHeaders();
      recordRequest();
      push({ kind: 'response', t: now(), conn, status, statusText, headers: hs, url: url.pathname, redirected: false, type: 'basic', capture });
    };
    const captureOf = (ct: string | undefined): 'sse' | 'json' | 'none' =>
      ct?.toLowerCase().startsWith('text/event-stream') ? 'sse' : ct?.toLowerCase().includes('json') ? 'json' : 'none';

    if (answer.kind === 'error' || answer.kind === 'override') {
      const status = answer.kind === 'error' ? answer.status : answer.override.status;
      const contentType = answer.kind === 'error' ? answer.contentType : answer.override.contentType;
      const text = answer.kind === 'error' ? answer.body : answer.override.body;
      const hs: Header[] = [['content-type', contentType]];
      if (answer.kind === 'override' && answer.override.contentType === 'text/event-stream') hs.push(['cache-control', 'no-cache']);
      if (answer.kind === 'override' && answer.pass?.servedSessionId && status === 200) hs.push(['mcp-session-id', answer.pass.servedSessionId]);
      head(status, '', status === 202 ? [] : hs, status === 202 ? 'none' : captureOf(contentType));
      if (answer.kind === 'override') log(`  fault ${describeFault(answer.override.fault.spec)}: answered ${status}${status === 200 ? ' with an empty stream' : ''}`);
      write(text);
      if (answer.kind === 'override' && answer.override.hold) return;
      await finish('complete');
      return;
    }
    await play(answer, { head, write, finish, closed: () => ended || closedByClient || shuttingDown });
  }

  interface Out {
    head(status: number, statusText: string, hs: Header[], capture: 'sse' | 'json' | 'none'): void;
    write(text: string): void;
    finish(how: 'complete' | 'reset'): Promise<void>;
    closed(): boolean;
  }

  async function play(a: Extract<Answer, { kind: 'replay' }>, out: Out): Promise<void> {
    const { ex, pass } = a;
    const r = ex.response;
    if (!r) {
      // The recorded request never got a response (connection refused or dropped), or none HTTP can carry.
      await sleep((ex.end?.t ?? 0) / speed);
      await out.finish('reset');
      return;
    }
    if (a.from === 0) await sleep(r.waitMs / speed);
    if (out.closed()) return;
    out.head(r.status, r.statusText, withLoss(sessionHeaders(r.headers, pass), ex), r.capture);
    const faults = createStreamFaults(a.faults, a.requestIds);
    let reported = false;
    const report = () => {
      if (reported) return;
      reported = true;
      const effects = faults.effects();
      if (effects.length > 0) pass.faulted.add(ex.index);
      for (const f of a.faults) {
        const e = effects.find((x) => x.index === f.index);
        if (e) log(`  fault ${describeFault(f.spec)}: ${effectText(e)}`);
        else {
          o.replay.arming.refund(f);
          log(`  fault ${describeFault(f.spec)}: no effect on this stream; armed for the next match`);
        }
      }
    };
    try {
      const start = faults.start();
      if (start.end) {
        report();
        await out.finish(start.end === 'reset' ? 'reset' : 'complete');
        return;
      }
      // These statuses carry no body in HTTP (Node refuses to write one).
      const bodyless = r.status === 204 || r.status === 304;
      const t0 = performance.now();
      const base = a.resumeOf ? a.resumeOf.unitT + (t0 - a.resumeOf.at) * speed : 0;
      let shift = 0;
      const at = (t: number) => sleep(t0 + Math.max(0, t - base) / speed + shift - performance.now());
      for (let i = a.from; i < ex.units.length; i++) {
        const u = ex.units[i]!;
        if (bodyless || pass.lost.has(`${ex.index}:${i}`)) continue;
        await at(u.t);
        if (out.closed()) return;
        const b = u.block ?? (u.json ? { dispatched: true, messages: u.json.messages, batch: u.json.batch } : undefined);
        if (!b) {
          out.write(u.text);
          continue;
        }
        const d = faults.event(eventInfo(b, pass.maps));
        if (d.delayMs > 0) {
          shift += d.delayMs;
          await at(u.t);
          if (out.closed()) return;
        }
        if (d.lost) pass.lost.add(`${ex.index}:${i}`);
        if (d.deliver) {
          out.write(unitText(u, pass.maps, log));
          if (u.block?.id !== undefined) o.replay.delivered(pass, ex, i, u.block.id);
        }
        if (d.end) {
          report();
          await out.finish(d.end === 'reset' ? 'reset' : 'complete');
          return;
        }
      }
      report();
      if (faults.finish().hold || a.hold) return;
      const end = ex.end;
      if (r.capture === 'none' && !end) {
        await out.finish('complete');
        return;
      }
      if (!end) return; // still open when the capture ended: stays open
      if (ex.endsWithSession) await untilShutdown(pass.sessionEnded);
      else await at(end.t);
      if (out.closed()) return;
      const how: EndHow = end.how;
      if (how === 'complete' || how === 'unknown') await out.finish('complete');
      else if (how === 'network-error') await out.finish('reset');
      // page-aborted, page-cancelled, closed, unread: the client ended it; the server kept it open.
    } finally {
      report();
    }
  }

  /** The recorded headers, and the LOSS_HEADER when the capture does not hold all of the body (recording.ts). */
  function withLoss(hs: Header[], ex: Exchange): Header[] {
    return ex.loss ? [...hs.filter(([k]) => k.toLowerCase() !== LOSS_HEADER), [LOSS_HEADER, ex.loss]] : hs;
  }

  function sessionHeaders(hs: Header[], pass: Pass): Header[] {
    if (pass.recordedSessionId === undefined || pass.servedSessionId === undefined || pass.recordedSessionId === pass.servedSessionId) return hs;
    return hs.map(([k, v]) => (k.toLowerCase() === 'mcp-session-id' && v === pass.recordedSessionId ? [k, pass.servedSessionId!] : [k, v]));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e) => {
      log(`internal error: ${e instanceof Error ? e.message : String(e)}`);
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message: 'mcp-stream-inspector serve: internal error' } }));
      } else res.destroy();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    origin: `http://${shownHost === '0.0.0.0' ? '127.0.0.1' : shownHost}:${port}`,
    port,
    records,
    close: () =>
      new Promise<void>((resolve) => {
        shuttingDown = true;
        for (const s of sockets) s.destroy();
        for (const [t, wake] of waits) {
          clearTimeout(t);
          wake();
        }
        waits.clear();
        server.close(() => resolve());
      }),
  };
}

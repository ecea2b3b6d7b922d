// HAR 1.2 (Chrome DevTools "Save all as HAR with content", Playwright recordHar) to
// CaptureRecords. One connection per entry: request at startedDateTime, response after the wait,
// end at startedDateTime + time. A HAR keeps no per-chunk timing: an event-stream body's first
// event is placed right after the response (sent on connect: the legacy `endpoint` event, priming
// events), the rest just before the end (when the last byte was read), so a long-lived GET does
// not deliver responses before the requests sent while it was open. Our own export's `_msi`
// (chunk times, end states) and `_sseEvents` times are used when present. A body the file does
// not hold (`size: -1` / no text, as HAR writers save cut or aborted streams) becomes a capture
// gap (`reason: "import"`): unknown, not empty. Requests without a body and failed requests are
// kept. Entries are ordered by time (stable), whatever their order in the file.
import { CAPTURE_GAP_REASONS, type CaptureGapReason, type CaptureRecord } from '../record';
import { ImportError, clip } from './errors';
import { isRecord } from '../contract/validate';
import { readMsi } from './har-msi';
import { utf8Length } from '../utf8';
import { decodeBase64, endHowFor, finite, harStatus, headerOf, headers, isObj, mayHaveHeldBody, num, isHarLike, splitEvents } from './har-fields';
import { eventSourceMessagesNotice, readEventSourceMessages, type EventSourceMessages } from './har-event-source';
import { harCorsCheck } from './har-cors';

export { isHarLike } from './har-fields';

export interface HarImportOptions {
  /** Capture source id of the records. Default 'har'. */
  src?: string;
  /**
   * Playwright's recordHar with `content: 'attach'` stores bodies beside the HAR and names them in
   * `content._file`; return that file's bytes (the CLI reads it next to the HAR).
   */
  readAttachment?: (name: string) => Uint8Array | undefined;
}

type NoSeq = CaptureRecord extends infer R ? (R extends CaptureRecord ? Omit<R, 'seq'> : never) : never;

export function importHar(v: unknown, srcOrOptions: string | HarImportOptions = 'har'): CaptureRecord[] {
  const o: HarImportOptions = typeof srcOrOptions === 'string' ? { src: srcOrOptions } : srcOrOptions;
  if (!isHarLike(v)) throw new ImportError('not a HAR file: no log.entries array');
  const log = (v as { log: Record<string, unknown> }).log;
  const entries = (log.entries ?? []) as unknown[];
  // Our own export: `_msi` names each entry's connection; map them to this import's conns.
  const msiConn = new Map<string, string>();
  entries.forEach((raw, i) => noteMsiConn(msiConn, raw, i));
  const reader = harEntryReader(o, msiConn);
  entries.forEach((raw, i) => reader.entry(raw, i));
  reader.logRecords(log);
  return orderHarRecords(reader.timed);
}

/** Maps entry `i`'s `_msi` connection (our own export) to its conn in this import, first one wins. */
export function noteMsiConn(msiConn: Map<string, string>, raw: unknown, i: number): void {
  const k = isObj(raw) ? readMsi(raw._msi)?.key : undefined;
  if (k !== undefined && !msiConn.has(k)) msiConn.set(k, `e${i}`);
}

/** A record of an entry with what orders it (capture order: see orderHarRecords). */
export type HarTimed = { t: number; rank: number; entry: number; step: number; rec: NoSeq };

/**
 * The conversion of one entry at a time (shared with the streaming importer, har-stream.ts): its
 * records go to `timed`, unordered; `logRecords`, once every entry is read, adds the records of
 * the file as a whole (the _eventSourceMessages notice, our own export's `_msiRecords`).
 */
export function harEntryReader(o: HarImportOptions, msiConn: ReadonlyMap<string, string>) {
  const src = o.src ?? 'har';
  type Timed = HarTimed;
  const timed: Timed[] = [];
  let fallbackT = 0;
  const esmEntries: Parameters<typeof eventSourceMessagesNotice>[0][number][] = [];
  const cors = harCorsCheck();
  /** Entries read, and whether any start time has a fraction of a second (see logRecords). */
  let entries = 0;
  let subSecond = false;
  let firstStart = Infinity;
  const entry = (raw: unknown, i: number): void => {
    if (!isObj(raw)) throw new ImportError(`HAR entry ${i} is not an object`);
    const req = raw.request;
    const res = raw.response;
    if (!isObj(req) || typeof req.url !== 'string') throw new ImportError(`HAR entry ${i} has no request.url`);
    cors.see(raw);
    const conn = `e${i}`;
    let start = typeof raw.startedDateTime === 'string' ? Date.parse(raw.startedDateTime) : NaN;
    entries++;
    if (typeof raw.startedDateTime === 'string' && /:\d\d[.,]\d/.test(raw.startedDateTime)) subSecond = true;
    if (!Number.isFinite(start)) start = fallbackT;
    firstStart = Math.min(firstStart, start);
    fallbackT = Math.max(fallbackT, start);
    const total = num(raw.time);
    const timings = isObj(raw.timings) ? raw.timings : {};
    const beforeResponse = num(timings.blocked) + num(timings.dns) + num(timings.connect) + num(timings.send) + num(timings.wait);
    const msi = readMsi(raw._msi);
    const reqHeaders = headers(req.headers);
    const method = typeof req.method === 'string' ? req.method.toUpperCase() : 'GET';
    let body: string | null = null;
    // Playwright's recordHar with content: 'attach' keeps request bodies in files too
    // (`postData: { text: "", _file }`): the file's bytes, when it can be read, are the body.
    const reqFile = isObj(req.postData) && typeof req.postData._file === 'string' && o.readAttachment ? o.readAttachment(req.postData._file) : undefined;
    let reqUnreadable = false;
    if (reqFile) body = new TextDecoder('utf-8').decode(reqFile);
    // (the file is not beside the HAR: the body is unknown, not the empty text left in its place)
    else if (isObj(req.postData) && typeof req.postData._file === 'string') reqUnreadable = true;
    else if (isObj(req.postData) && typeof req.postData.text === 'string') body = req.postData.text;
    else if (isObj(req.postData) && Array.isArray(req.postData.params) && req.postData.params.length > 0) {
      // Form-encoded bodies come as params (name/value); rebuild the text.
      body = (req.postData.params as unknown[])
        .filter((p): p is Record<string, unknown> => isObj(p) && typeof p.name === 'string')
        .map((p) => `${p.name as string}${typeof p.value === 'string' || typeof p.value === 'number' ? `=${p.value}` : ''}`)
        .join('&');
    }
    let lastT = -Infinity;
    const push = (t: number, rank: number, step: number, rec: NoSeq) => {
      if (t > lastT) lastT = t;
      timed.push({ t, rank, entry: i, step, rec });
    };

    const requestRec = {
      kind: 'request' as const,
      src,
      t: start,
      conn,
      transport: msi?.transport ?? ('import' as const),
      method,
      url: req.url,
      headers: reqHeaders,
      body,
      ...(body === null ? { bodyNote: reqUnreadable ? ('unreadable' as const) : ('none' as const) } : {}),
      ...(msi?.reconnectOf !== undefined && msiConn.has(msi.reconnectOf) ? { reconnectOf: msiConn.get(msi.reconnectOf)! } : {}),
      ...(num(timings.blocked) > 0 ? { blockedMs: num(timings.blocked) } : {}),
    };
    push(start, 2, 0, requestRec);

    const status = isObj(res) ? harStatus(res.status) : 0;
    const error =
      isObj(res) && typeof res._error === 'string' && res._error
        ? res._error
        : typeof raw._failureText === 'string' && raw._failureText
          ? raw._failureText
          : isObj(res) && typeof res._failureText === 'string' && res._failureText
            ? res._failureText
            : undefined;
    const hasResponse = isObj(res) && status > 0;
    let responseT = start + Math.min(beforeResponse, total || beforeResponse) + 0.001;
    let endT = start + Math.max(total, beforeResponse) + 0.003;
    if (endT <= responseT) endT = responseT + 0.002;
    if (msi?.responseT !== undefined) responseT = msi.responseT;
    if (msi?.end) endT = msi.end.t;

    let partialBody = false;
    if (hasResponse) {
      const resHeaders = headers(res.headers);
      const content = isObj(res.content) ? res.content : {};
      // The header, else content.mimeType (also when the header is there but empty).
      const mime = (headerOf(resHeaders, 'content-type') || (typeof content.mimeType === 'string' ? content.mimeType : '')).toLowerCase();
      const base = mime.split(';', 1)[0]!.trim();
      const capture = base === 'text/event-stream' ? 'sse' : base === 'application/json' || base.endsWith('+json') ? 'json' : 'none';
      push(responseT, 3, 1, {
        kind: 'response',
        src,
        t: responseT,
        conn,
        status,
        statusText: typeof res.statusText === 'string' ? res.statusText : '',
        headers: resHeaders,
        url: msi?.responseUrl ?? req.url,
        redirected: msi?.redirected ?? false,
        type: msi?.type ?? 'basic',
        capture: msi?.capture ?? capture,
      });
      let text: string | undefined;
      let bytes = 0;
      let esm: EventSourceMessages | undefined;
      if (capture === 'none') {
        // not an event-stream or JSON body: not needed (images, scripts, ...)
      } else if (typeof content.text === 'string') {
        if (content.encoding === 'base64') {
          try {
            const d = decodeBase64(content.text);
            text = d.text;
            bytes = d.bytes;
          } catch {
            throw new ImportError(`HAR entry ${i} (${clip(method, 20)} ${clip(req.url)}): response.content.text is marked base64 but is not valid base64`);
          }
        } else {
          text = content.text;
          // Counted only where a record takes the whole body's size (bodyBytes below): our own
          // export carries each chunk's bytes, and encoding a long stream's body costs as much again.
          bytes = -1;
        }
      } else if (typeof content._file === 'string' && o.readAttachment) {
        const data = o.readAttachment(content._file);
        if (data) {
          text = new TextDecoder('utf-8').decode(data);
          bytes = data.length;
        }
      }
      // Without read times, the body is placed at the end of the entry (when its last byte was
      // read): a long-lived GET (legacy HTTP+SSE, or a stream carrying results) must not deliver
      // responses before the requests sent while it was open.
      const bodyBytes = (): number => (bytes === -1 ? (bytes = utf8Length(text ?? '')) : bytes);
      const bodyT = Math.max(responseT + 0.001, endT - 0.001);
      // (against the text's length too: a writer may give a base64 body's encoded length as its
      // size; and a text is at least as many bytes as characters, so the bytes of a long body are
      // counted only when its size says more than its characters)
      const size = typeof content.size === 'number' && Number.isFinite(content.size) ? content.size : -1;
      partialBody = text !== undefined && text.length > 0 && capture !== 'none' && !msi?.chunks && size > text.length && size > (typeof content.text === 'string' ? content.text.length : 0) && size > bodyBytes();
      const chunks = msi?.chunks;
      const sseEvents = Array.isArray(raw._sseEvents) ? (raw._sseEvents as unknown[]) : undefined;
      if (msi?.esEvents && msi.esEvents.length > 0) {
        // A native EventSource: the browser parsed the events; replay them as it dispatched them.
        msi.esEvents.forEach((e, k) => push(e.t, 3, 2 + k, { kind: 'es-event', src, t: e.t, conn, type: e.type, data: e.data, lastEventId: e.lastEventId }));
      } else if (text !== undefined && text.length > 0 && capture !== 'none' && chunks && chunks.reduce((n, c) => n + c.length, 0) === text.length) {
        // Our own export: the chunks as the page read them, with their read times.
        let at = 0;
        chunks.forEach((c, k) => {
          const piece = text!.slice(at, at + c.length);
          at += c.length;
          push(c.t, 3, 2 + k, { kind: 'chunk', src, t: c.t, conn, text: piece, bytes: c.bytes, ...(c.droppedBytes ? { droppedBytes: c.droppedBytes } : {}) });
        });
      } else if (text !== undefined && text.length > 0 && capture === 'sse' && sseEvents && sseEvents.length > 0 && sseEvents.every((e) => isObj(e) && finite(e.time))) {
        // `_sseEvents` with times (seconds since the epoch): one chunk per event at its time when
        // the body splits into as many events; else the body as one chunk.
        const pieces = splitEvents(text);
        const isEvent = pieces.map((p) => !/^(:[^\r\n]*(\r\n|\r|\n))*(\r\n|\r|\n)?$/.test(p));
        // A piece's own flag, not a search of the events for its text (quadratic in a long stream).
        if (isEvent.filter(Boolean).length === sseEvents.length) {
          let k = 0;
          let t = responseT + 0.001;
          pieces.forEach((p, j) => {
            if (isEvent[j] && k < sseEvents.length) t = Math.max(t, (sseEvents[k++] as { time: number }).time * 1000);
            push(t, 3, 2 + j, { kind: 'chunk', src, t, conn, text: p, bytes: utf8Length(p) });
          });
        } else push(bodyT, 3, 2, { kind: 'chunk', src, t: bodyT, conn, text, bytes: bodyBytes() });
      } else if (text !== undefined && text.length > 0 && capture === 'sse' && bodyT > responseT + 0.001) {
        // The first event was sent on connect (the legacy transport's `endpoint` event, priming
        // events): at the response; the rest when the body was read.
        const first = splitEvents(text)[0]!;
        const rest = text.slice(first.length);
        const fb = utf8Length(first);
        push(responseT + 0.001, 3, 2, { kind: 'chunk', src, t: responseT + 0.001, conn, text: first, bytes: fb });
        if (rest) push(bodyT, 3, 3, { kind: 'chunk', src, t: bodyT, conn, text: rest, bytes: Math.max(0, bodyBytes() - fb) });
      } else if (text !== undefined && text.length > 0 && capture !== 'none') {
        push(bodyT, 3, 2, { kind: 'chunk', src, t: bodyT, conn, text, bytes: bodyBytes() });
      } else if ((text === undefined || text === '') && (esm = readEventSourceMessages(raw._eventSourceMessages, { start, responseT, endT }))) {
        // (text "" beside the messages: a writer that puts `responseBody ?? ''` there kept no body)
        // Events only in `_eventSourceMessages` (other HAR writers; har-event-source.ts).
        esm.events.forEach((e, k) => push(e.t, 3, 2 + k, { kind: 'es-event', src, conn, ...e }));
        esmEntries.push({ t: start, method, url: req.url, imported: esm });
      } else if (text === undefined && capture !== 'none' && content.size !== 0 && mayHaveHeldBody(method, status, resHeaders, capture, body)) {
        // The body is absent, which is not an empty body (size 0 or text ""): the file did not keep
        // it. Playwright's recordHar and Chrome's "Save all as HAR" save no body for streams that
        // were cut or aborted (`size: -1`, no text); "HAR without content" and content: 'omit' /
        // 'attach' without the file drop them too. The analyzer marks the stream's events unknown.
        // Only for an answer that could have carried something (see mayHaveHeldBody): the Python
        // SDK answers DELETE and notifications with 200 / 202, `application/json`,
        // `content-length: 0`, and a HAR saves those without body too.
        push(responseT + 0.001, 3, 2, {
          kind: 'capture-gap',
          src,
          t: responseT + 0.001,
          lost: 1,
          conns: [conn],
          reason: 'import',
        });
      }
    }
    if (partialBody) {
      // The file holds only the first part of the body its content.size declares (Firefox cuts
      // the text at devtools.netmonitor.responseBodyLimit and keeps the full size): the rest is
      // unknown, as a body the file does not hold at all.
      push(lastT + 0.001, 3, 1e8, { kind: 'capture-gap', src, t: lastT + 0.001, lost: 1, conns: [conn], reason: 'import' });
    }
    // A body read after the entry's own end time (rounded `time`, per-event times): end after it.
    if (lastT > endT) endT = lastT + 0.001;
    if (msi?.end) {
      push(endT, 0, 1e9, { kind: 'end', src, t: endT, conn, how: msi.end.how, ...(msi.end.reason !== undefined ? { reason: msi.end.reason } : {}) });
    } else if (msi && msi.end === null && msi.key !== undefined) {
      // Our own export of a connection that had not ended when it was exported: it stays open.
    } else {
      const end = endHowFor(error);
      push(endT, 0, 1e9, { kind: 'end', src, t: endT, conn, how: end.how, ...(end.reason ? { reason: end.reason } : {}) });
    }
  };
  const logRecords = (log: Record<string, unknown>): void => {
  const esmNote = eventSourceMessagesNotice(esmEntries);
  // Start times to the second only: connections that began in one second (a cut stream and its
  // resume) are in file order there, and their events placed from those times; what depends on
  // their order (a gap across a reconnect, progress going back) may come from the file's clock.
  if (entries > 1 && !subSecond && Number.isFinite(firstStart))
    timed.push({ t: firstStart, rank: 1, entry: -1, step: 0, rec: { kind: 'notice', src, t: firstStart, level: 'warning', code: 'har-second-precision', message: `The file's ${entries} entries give their start times to the second only (startedDateTime without milliseconds): connections that began in the same second are taken in the file's order, and their events are placed from those times. Findings that depend on the order of events across connections (a gap or a duplicate across a reconnect, progress going back) may come from that, not from the traffic.` } });
  if (esmNote) timed.push({ t: esmNote.t, rank: 1, entry: -1, step: 0, rec: { ...esmNote, src } });
  // What only the network view shows (CORS), as the live panel's witness reports it.
  for (const n of cors.notices(src, Array.isArray(log._msiRecords))) timed.push({ t: n.t, rank: 1, entry: -1, step: 0, rec: n });
  // Our own export: records that belong to no connection (navigations, the inspector's capture
  // gaps, notices).
  if (Array.isArray(log._msiRecords)) {
    for (const r of log._msiRecords as unknown[]) {
      if (!isObj(r) || !finite(r.t)) continue;
      if (r.kind === 'navigation' && typeof r.url === 'string') {
        timed.push({ t: r.t, rank: 1, entry: -1, step: 0, rec: { kind: 'navigation', src, t: r.t, url: r.url, top: r.top !== false } });
      } else if (r.kind === 'capture-gap' && finite(r.lost) && Array.isArray(r.conns)) {
        const rsrc = typeof r.src === 'string' ? r.src : '';
        const cs = (r.conns as unknown[]).filter((c): c is string => typeof c === 'string').map((c) => msiConn.get(rsrc + '\u0000' + c) ?? `x:${rsrc}:${c}`);
        const reason = typeof r.reason === 'string' && (CAPTURE_GAP_REASONS as readonly string[]).includes(r.reason) ? (r.reason as CaptureGapReason) : 'other';
        // (the network witness's request fields: method, url, why)
        const str = (k: string) => (typeof r[k] === 'string' ? { [k]: r[k] as string } : {});
        timed.push({ t: r.t, rank: 1, entry: -1, step: 0, rec: { kind: 'capture-gap', src, t: r.t, lost: r.lost, conns: cs, reason, ...str('method'), ...str('url'), ...str('why') } });
      } else if ((r.kind === 'fault' || r.kind === 'response' || r.kind === 'chunk' || r.kind === 'es-event' || r.kind === 'end') && typeof r.conn === 'string') {
        // An injected fault (issue 14), on the connection it changed; or a record of a connection
        // whose request the capture did not hold (no entry: our export keeps its records here).
        // Kept only as the contract's record.
        const rsrc = typeof r.src === 'string' ? r.src : '';
        const rec = { ...r, src, seq: 1, conn: msiConn.get(rsrc + '\u0000' + r.conn) ?? `x:${rsrc}:${r.conn}` };
        if (isRecord(rec)) {
          const { seq: _seq, ...noSeq } = rec;
          timed.push({ t: r.t, rank: 1, entry: -1, step: 0, rec: noSeq as NoSeq });
        }
      } else if (r.kind === 'notice' && typeof r.message === 'string') {
        const level = r.level === 'error' || r.level === 'warning' ? r.level : 'info';
        const str = (k: string) => (typeof r[k] === 'string' ? { [k]: r[k] as string } : {});
        timed.push({ t: r.t, rank: 1, entry: -1, step: 0, rec: { kind: 'notice', src, t: r.t, level, code: typeof r.code === 'string' ? r.code : 'notice', message: r.message, ...str('url'), ...str('sessionId') } });
      }
    }
  }
  };
  return { entry, logRecords, timed };
}

/**
 * Capture order: by time; at equal times, ends before starts (a resume begins after the cut),
 * and within one entry in its own order.
 */
export const compareHarTimed = (a: HarTimed, b: HarTimed): number => a.t - b.t || (a.entry === b.entry ? a.step - b.step : a.rank - b.rank || a.entry - b.entry);

export function orderHarRecords(timed: HarTimed[]): CaptureRecord[] {
  timed.sort(compareHarTimed);
  return timed.map((x, k) => ({ ...x.rec, seq: k + 1 }) as CaptureRecord);
}

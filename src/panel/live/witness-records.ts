// The records the network witness (witness.ts) adds to the capture, all with src 'network' and
// numbered by the witness itself:
// - a request the hook did not see: a `capture-gap` (reason not-seen-by-hook, lost 1) while the
//   capture lacks its events, or a `notice` (code not-seen-by-hook) once they are held as the
//   network view observed them;
// - what the network view kept of such a request once it finished: request, response, the whole
//   body as one chunk (or the events DevTools' EventStream view parsed), end, with transport
//   'network', "observed after completion";
// - a CORS problem: a `notice` whose code is the finding (the analysis files it as one).

import { readEventSourceMessages } from '../../core/import/har-event-source';
import type { CaptureRecord } from '../../core/record';
import { isEventStreamType, isJsonType } from '../../core/record';
import { utf8Length } from '../../core/utf8';
import { netHeader, netHeaders, type CorsProblem, type NetEntry } from '../../core/witness';
import { WITNESS_SRC } from './witness-capture-index';
import type { MissingRequest, WitnessEntry } from './witness-types';

/**
 * Headers of the records the witness adds: all the network saw (the Origin, the browser's own
 * headers, those CORS hides from the page), except cookies, which the page hook never sees and
 * an export should not carry.
 */
const recordHeaders = (hs: NetEntry['request']['headers']) => netHeaders(hs).filter(([k]) => !/^(set-)?cookie2?$/i.test(k));

/** What kind of body the capture would hold of this response (null: none worth adding). */
export function bodyKind(e: NetEntry): 'sse' | 'json' | null {
  const ct = netHeader(e.response.headers, 'content-type') ?? e.response.content?.mimeType;
  if (isEventStreamType(ct)) return 'sse';
  if (isJsonType(ct)) return 'json';
  return null;
}

/** getContent's answer as text ('' when Chrome kept nothing or the base64 is broken). */
export function contentText(content: string | null, encoding: string): string {
  if (content == null) return '';
  if (encoding !== 'base64') return content;
  try {
    const bin = atob(content);
    const bytes = Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  } catch {
    return '';
  }
}

/** How a request the network saw ended, for its end record. */
function endOf(e: WitnessEntry): { how: 'complete' | 'network-error' | 'page-aborted'; reason: string } {
  const err = e.response._error;
  const where = 'observed after completion, chrome.devtools.network';
  if (!err) return { how: 'complete', reason: `(${where})` };
  // net::ERR_ABORTED: the client aborted the request or cancelled its body.
  return { how: err === 'net::ERR_ABORTED' ? 'page-aborted' : 'network-error', reason: `${err} (${where})` };
}

export interface WitnessRecords {
  corsNotice(p: CorsProblem, t: number): CaptureRecord;
  /**
   * What the network view kept of a finished request, `text` being its body: the request's
   * records, or null when it kept nothing (no body, and for an event stream no EventStream
   * messages either). `rebuilt`: the events come from DevTools' EventStream view.
   */
  observed(e: WitnessEntry, capture: 'sse' | 'json', text: string, start: number): { records: CaptureRecord[]; rebuilt: boolean } | null;
  /** The record that carries an unseen request into the analysis and the exports. */
  unseen(e: WitnessEntry, m: MissingRequest, held: boolean, t: number): CaptureRecord;
}

export function createWitnessRecords(): WitnessRecords {
  let seq = 0;
  let conn = 0;
  return {
    corsNotice: (p, t) => ({
      kind: 'notice', src: WITNESS_SRC, seq: ++seq, t, level: 'error', code: p.code, message: p.message, url: p.url,
      ...(p.sessionId !== undefined ? { sessionId: p.sessionId } : {}),
    }),

    observed(e, capture, text, start) {
      const endT = start + (e.time > 0 ? e.time : 0);
      // Chrome keeps no body (getContent gives '') for a stream that broke or that the client
      // aborted; DevTools' EventStream messages then still hold its events: what DevTools
      // parsed, without comments, retry: or an id: line repeating the last id. With neither, the
      // stream is left out (its capture-gap says it is not held) rather than shown as one that
      // ended without events, which would accuse the server of a missing result.
      // As the HAR importer reads them (core/import/har-event-source.ts): a native EventSource's
      // view of the stream, `es-event` records with the stream's last event id at each event.
      const events = text === '' && capture === 'sse' ? (readEventSourceMessages(e._eventSourceMessages, { start, responseT: start, endT })?.events ?? []) : [];
      if (text === '' && events.length === 0) return null;
      const end = Math.max(endT, ...events.map((ev) => ev.t));
      const base = { src: WITNESS_SRC, conn: 'n' + (++conn).toString(36) };
      const how = endOf(e);
      const recs: CaptureRecord[] = [
        { ...base, seq: ++seq, t: start, kind: 'request', transport: 'network', method: e.request.method, url: e.request.url, headers: recordHeaders(e.request.headers), body: e.request.postData?.text ?? null },
        { ...base, seq: ++seq, t: start, kind: 'response', status: e.response.status, statusText: e.response.statusText ?? '', headers: recordHeaders(e.response.headers), url: e.request.url, redirected: false, type: 'network', capture },
      ];
      if (events.length) for (const ev of events) recs.push({ ...base, seq: ++seq, t: ev.t, kind: 'es-event', type: ev.type, data: ev.data, lastEventId: ev.lastEventId });
      else recs.push({ ...base, seq: ++seq, t: end, kind: 'chunk', text, bytes: utf8Length(text) });
      recs.push({ ...base, seq: ++seq, t: end, kind: 'end', how: how.how, reason: events.length ? `${how.reason}; events rebuilt from DevTools' EventStream view` : how.reason });
      return { records: recs, rebuilt: events.length > 0 };
    },

    unseen(e, m, held, t) {
      const { method, url } = m;
      // The request's session id, else the one its response created (initialize): the analysis
      // files the capture's streams of this request under that session too.
      const sidOf = (hs: NetEntry['request']['headers']) => netHeader(hs, 'mcp-session-id');
      const sid = sidOf(e.request.headers) ?? sidOf(e.response.headers);
      // Its events held (observed by the network view): a warning finding, since how the page
      // read them is unknown. Not held: a gap, since the capture lacks them.
      if (held)
        return {
          kind: 'notice', src: WITNESS_SRC, seq: ++seq, t, level: 'warning', code: 'not-seen-by-hook', url, ...(sid !== undefined ? { sessionId: sid } : {}),
          message: `The capture hook did not see ${method} ${url} (likely: ${m.reasonText}). Its events are shown as the browser's network view observed them after completion${m.body === 'rebuilt' ? " (rebuilt from DevTools' EventStream view: Chrome kept no body)" : ''}: when and how the page read them is unknown.`,
        };
      return { kind: 'capture-gap', src: WITNESS_SRC, seq: ++seq, t, lost: 1, conns: [], reason: 'not-seen-by-hook', method, url, why: m.reason };
    },
  };
}

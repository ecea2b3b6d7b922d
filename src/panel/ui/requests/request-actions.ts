// The actions on a request (and on an event's stream): copy as cURL — the request as the page
// sent it, or a resume of its stream with `Last-Event-ID` — and its params as JSON.

import type { AnalysisSnapshot, RequestInfo, Stream } from '../../../core/model';
import type { CaptureRecord } from '../../../core/record';
import type { MenuItem } from '../common/ContextMenu';
import { useCopy } from '../common/copy';
import { visibleLine } from '../common/text';
import { useStore } from '../store/StoreContext';
import { curlCommand, resumeCommand } from './curl';

/** The request record that opened a stream (its body is not in the snapshot). */
export function requestRecord(records: readonly CaptureRecord[], streamId: string): Extract<CaptureRecord, { kind: 'request' }> | undefined {
  for (const r of records) if (r.kind === 'request' && `${r.src}:${r.conn}` === streamId) return r;
  return undefined;
}

/** The last stream of the reconnect chain that starts at `s` (what a resume would continue). */
export function chainEnd(snap: AnalysisSnapshot, s: Stream): Stream {
  let cur = s;
  for (let n = 0; n < 1000 && cur.resumedBy.length; n++) {
    const next = snap.streams[cur.resumedBy[cur.resumedBy.length - 1]!];
    if (!next) break;
    cur = next;
  }
  return cur;
}

export function streamCurl(records: readonly CaptureRecord[], s: Stream): string {
  const r = requestRecord(records, s.id);
  return curlCommand({ method: s.method, url: s.url, headers: r?.headers ?? s.requestHeaders, body: r?.body ?? null, stream: s.contentType?.includes('event-stream') || s.method === 'GET' });
}

export function useRequestActions() {
  const store = useStore();
  const copy = useCopy();
  const copyStream = (s: Stream) => copy(streamCurl(store.records(), s), 'the request as cURL');
  const copyResume = (s: Stream, lastEventId: string) => {
    const r = requestRecord(store.records(), s.id);
    copy(resumeCommand(s.url, r?.headers ?? s.requestHeaders, lastEventId), `a resume with Last-Event-ID ${lastEventId} as cURL`);
  };
  /** Menu items for a request: its POST, and a resume after the last id its chain received. */
  const requestItems = (snap: AnalysisSnapshot, req: RequestInfo): MenuItem[] => {
    const s = snap.streams[req.streamId];
    const end = s && chainEnd(snap, s);
    const cursor = end?.lastCursor;
    return [
      { label: 'Copy as cURL', disabled: !s, onSelect: () => s && copyStream(s), testId: 'menu-copy-curl' },
      ...(end && cursor !== undefined ? [{ label: `Copy resume as cURL (Last-Event-ID: ${cursor.length > 24 ? `…${visibleLine(cursor.slice(-20))}` : visibleLine(cursor)})`, onSelect: () => copyResume(end, cursor), testId: 'menu-copy-resume-curl' }] : []),
      { label: 'Copy params as JSON', disabled: req.params === undefined, onSelect: () => copy(JSON.stringify(req.params, null, 2), 'the params') },
    ];
  };
  return { copyStream, copyResume, requestItems };
}

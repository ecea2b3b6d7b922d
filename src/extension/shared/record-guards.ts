// Shape guards for CaptureRecord (numbered) and HookRecord (as the page hook sends it). Records
// built in the page's world are untrusted: the page could forge them, so every field is checked
// for type (not for truth: a page can always make genuine traffic).

import { CAPTURE_GAP_REASONS, type CaptureRecord, type HookRecord } from '../../core/record';

const KINDS = new Set(['request', 'response', 'chunk', 'es-event', 'end', 'navigation', 'capture-gap', 'notice']);
const TRANSPORTS = new Set(['fetch', 'xhr', 'eventsource', 'network', 'import']);
const END_HOWS = new Set(['complete', 'page-aborted', 'page-cancelled', 'network-error', 'unread', 'closed', 'unknown']);
const GAP_REASONS = new Set<string>(CAPTURE_GAP_REASONS);
const LEVELS = new Set(['info', 'warning', 'error']);

type O = Record<string, unknown>;
const str = (x: unknown): x is string => typeof x === 'string';
const num = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const optStr = (x: unknown) => x === undefined || str(x);
const optNum = (x: unknown) => x === undefined || num(x);
const isHeaders = (x: unknown) =>
  Array.isArray(x) && x.every((h) => Array.isArray(h) && h.length === 2 && str(h[0]) && str(h[1]));

/** The kind-specific part, shared by hook and numbered records. */
function bodyOk(r: O): boolean {
  if (!num(r.t) || !str(r.kind) || !KINDS.has(r.kind)) return false;
  const needConn = r.kind !== 'navigation' && r.kind !== 'capture-gap' && r.kind !== 'notice';
  if (needConn && !str(r.conn)) return false;
  switch (r.kind) {
    case 'request':
      return (
        str(r.transport) && TRANSPORTS.has(r.transport) && str(r.method) && str(r.url) && isHeaders(r.headers) &&
        (r.body === null || str(r.body)) && optStr(r.bodyNote) && optStr(r.reconnectOf)
      );
    case 'response':
      return (
        num(r.status) && str(r.statusText) && isHeaders(r.headers) && str(r.url) && typeof r.redirected === 'boolean' &&
        str(r.type) && (r.capture === 'sse' || r.capture === 'json' || r.capture === 'none')
      );
    case 'chunk':
      return str(r.text) && num(r.bytes) && optNum(r.droppedBytes);
    case 'es-event':
      return str(r.type) && str(r.data) && str(r.lastEventId);
    case 'end':
      return str(r.how) && END_HOWS.has(r.how) && optStr(r.reason);
    case 'navigation':
      return str(r.url) && typeof r.top === 'boolean';
    case 'capture-gap':
      return (
        num(r.lost) && optNum(r.fromSeq) && optNum(r.toSeq) && Array.isArray(r.conns) && r.conns.every(str) &&
        str(r.reason) && GAP_REASONS.has(r.reason)
      );
    case 'notice':
      return str(r.level) && LEVELS.has(r.level) && str(r.code) && str(r.message);
  }
  return false;
}

export function isHookRecord(x: unknown): x is HookRecord {
  if (typeof x !== 'object' || x === null) return false;
  const r = x as O;
  // The hook only produces connection records; navigation/gap/notice records are the relay's.
  if (r.kind === 'navigation' || r.kind === 'capture-gap') return false;
  if ('seq' in r || 'src' in r) return false;
  return bodyOk(r);
}

export function isCaptureRecord(x: unknown): x is CaptureRecord {
  if (typeof x !== 'object' || x === null) return false;
  const r = x as O;
  return num(r.seq) && Number.isInteger(r.seq) && (r.seq as number) >= 1 && str(r.src) && bodyOk(r);
}

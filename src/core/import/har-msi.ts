// Our own exporter's per-entry `_msi` in a HAR (src/export/har.ts): chunk times, end states and
// what the hook saw of the response, read back field by field (the file is data, not trusted).
import type { EndHow, Transport } from '../record';
import { END_HOWS as END_HOW_LIST, TRANSPORTS as TRANSPORT_LIST } from '../contract/records';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const TRANSPORTS = new Set<string>(TRANSPORT_LIST);
const END_HOWS = new Set<string>(END_HOW_LIST);
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Our own exporter's per-entry `_msi` (src/export/har.ts), validated field by field. */
export interface Msi {
  key?: string;
  transport?: RequestRecordTransport;
  reconnectOf?: string;
  bodyNote?: string;
  end?: { how: EndHow; reason?: string; t: number } | null;
  responseT?: number;
  responseUrl?: string;
  redirected?: boolean;
  type?: string;
  capture?: 'sse' | 'json' | 'none';
  chunks?: { t: number; bytes: number; length: number; droppedBytes?: number }[];
  esEvents?: { t: number; type: string; data: string; lastEventId: string }[];
}
type RequestRecordTransport = Transport;

export function readMsi(raw: unknown): Msi | undefined {
  if (!isObj(raw)) return undefined;
  const m: Msi = {};
  if (typeof raw.src === 'string' && typeof raw.conn === 'string') m.key = raw.src + '\u0000' + raw.conn;
  if (typeof raw.transport === 'string' && TRANSPORTS.has(raw.transport)) m.transport = raw.transport as RequestRecordTransport;
  if (typeof raw.reconnectOf === 'string' && typeof raw.src === 'string') m.reconnectOf = raw.src + '\u0000' + raw.reconnectOf;
  if (typeof raw.bodyNote === 'string') m.bodyNote = raw.bodyNote;
  m.end = null;
  if (isObj(raw.end) && typeof raw.end.how === 'string' && END_HOWS.has(raw.end.how) && finite(raw.end.t)) {
    m.end = { how: raw.end.how as EndHow, t: raw.end.t, ...(typeof raw.end.reason === 'string' ? { reason: raw.end.reason } : {}) };
  }
  if (finite(raw.responseT)) m.responseT = raw.responseT;
  if (typeof raw.responseUrl === 'string') m.responseUrl = raw.responseUrl;
  if (typeof raw.redirected === 'boolean') m.redirected = raw.redirected;
  if (typeof raw.type === 'string') m.type = raw.type;
  if (raw.capture === 'sse' || raw.capture === 'json' || raw.capture === 'none') m.capture = raw.capture;
  if (Array.isArray(raw.chunks)) {
    const ok = raw.chunks.every((c) => isObj(c) && finite(c.t) && finite(c.bytes) && finite(c.length) && c.length >= 0);
    if (ok) m.chunks = (raw.chunks as Record<string, number>[]).map((c) => ({ t: c.t!, bytes: c.bytes!, length: c.length!, ...(finite(c.droppedBytes) && c.droppedBytes > 0 ? { droppedBytes: c.droppedBytes } : {}) }));
  }
  if (Array.isArray(raw.esEvents)) {
    const ok = raw.esEvents.every((e) => isObj(e) && finite(e.t) && typeof e.type === 'string' && typeof e.data === 'string' && typeof e.lastEventId === 'string');
    if (ok) m.esEvents = raw.esEvents as Msi['esEvents'];
  }
  return m;
}

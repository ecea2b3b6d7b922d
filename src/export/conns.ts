// Group CaptureRecords by connection (src + conn), keeping record order.

import type {
  CaptureRecord,
  ChunkRecord,
  EndRecord,
  EsEventRecord,
  RequestRecord,
  ResponseRecord,
} from '../core/record';

export interface Conn {
  key: string;
  src: string;
  conn: string;
  request?: RequestRecord;
  response?: ResponseRecord;
  chunks: ChunkRecord[];
  esEvents: EsEventRecord[];
  end?: EndRecord;
  /** Time of the first record of this connection. */
  t: number;
}

export function connKey(src: string, conn: string): string {
  return `${src}\u0000${conn}`;
}

export function groupConns(records: readonly CaptureRecord[]): Conn[] {
  const map = new Map<string, Conn>();
  for (const r of records) {
    if (!('conn' in r)) continue;
    const key = connKey(r.src, r.conn);
    let c = map.get(key);
    if (!c) {
      c = { key, src: r.src, conn: r.conn, chunks: [], esEvents: [], t: r.t };
      map.set(key, c);
    }
    switch (r.kind) {
      case 'request':
        c.request ??= r;
        break;
      case 'response':
        c.response ??= r;
        break;
      case 'chunk':
        c.chunks.push(r);
        break;
      case 'es-event':
        c.esEvents.push(r);
        break;
      case 'end':
        c.end ??= r;
        break;
    }
  }
  return [...map.values()];
}

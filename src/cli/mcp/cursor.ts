// Long lists come in pages: `cursor` is opaque to the client (base64url of the offset and of the
// query it belongs to), so a cursor of one query cannot be replayed against another.
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export class CursorError extends Error {}

function keyOf(query: unknown): string {
  const s = JSON.stringify(query) ?? '';
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(36);
}

export interface Page<T> {
  items: T[];
  total: number;
  nextCursor?: string;
}

/** The page of `all` that `cursor` (or the start) and `limit` select, for `query`. */
export function paginate<T>(all: readonly T[], query: unknown, cursor: string | undefined, limit: number | undefined): Page<T> {
  const n = Math.min(MAX_LIMIT, Math.max(1, Math.floor(limit ?? DEFAULT_LIMIT)));
  let offset = 0;
  const key = keyOf(query);
  if (cursor !== undefined) {
    let v: unknown;
    try {
      v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    } catch {
      throw new CursorError('not a cursor this server gave');
    }
    const o = v as { o?: unknown; k?: unknown };
    if (typeof o?.o !== 'number' || !Number.isInteger(o.o) || o.o < 0) throw new CursorError('not a cursor this server gave');
    if (o.k !== key) throw new CursorError('this cursor belongs to another query (same arguments, other than cursor, are needed)');
    offset = o.o;
  }
  const items = all.slice(offset, offset + n);
  const next = offset + n < all.length ? Buffer.from(JSON.stringify({ o: offset + n, k: key })).toString('base64url') : undefined;
  return { items, total: all.length, ...(next ? { nextCursor: next } : {}) };
}

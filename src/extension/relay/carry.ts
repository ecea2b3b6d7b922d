// The decoding carry: what one streaming UTF-8 TextDecoder per connection would carry from one
// read to the next, kept without decoding anything. Per read the relay notes which carried bytes
// come first (`head`), how many bytes at the end a decoder would hold back (`hold`) and whether
// the connection had produced a character yet (`keepBom`: a BOM is stripped only before the
// first); the panel then decodes each chunk on its own (wire/decode.ts) exactly as the page's
// decoder did. O(1) per read: only the last ≤ 3 bytes are looked at, and nothing is copied but
// those.
//
// Pure: no chrome.*, no DOM.

const EMPTY = new Uint8Array(0);

interface Stream {
  carry: Uint8Array;
  started: boolean;
}

export interface ChunkCarry {
  head?: Uint8Array;
  hold?: number;
  keepBom?: true;
}

/** Bytes at the end of `b` that a streaming UTF-8 decoder would hold back (0..3). */
export function pendingLength(b: Uint8Array): number {
  const n = b.length;
  for (let t = 1; t <= 3 && t <= n; t++) {
    const lead = b[n - t]!;
    if (lead >= 0x80 && lead <= 0xbf) continue; // continuation: look further back
    const need = lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 1;
    if (t >= need) return 0; // complete (or an invalid byte): nothing held back
    if (t >= 2) {
      // the second byte's range depends on the lead (WHATWG UTF-8 decoder)
      const c = b[n - t + 1]!;
      const lo = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
      const hi = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
      if (c < lo || c > hi) return 0;
    }
    return t; // the bytes after the lead are continuations
  }
  return 0;
}

export interface DecodingCarry {
  /** A read that is kept (`length` bytes ending in `tail`, its last ≤ 3): what its chunk needs to decode on its own. */
  take(conn: string, tail: Uint8Array, length: number): ChunkCarry;
  /**
   * A read that is not kept (not recording): keep the state exact from its last ≤ 3 bytes
   * (`tail`) and its length, so the first chunk kept later decodes as the page's decoder did.
   */
  skip(conn: string, tail: Uint8Array, length: number): void;
  /** The connection ended: the bytes a decoder still held (decoded as U+FFFD at a complete end). */
  end(conn: string): Uint8Array | null;
  forget(conn: string): void;
  clear(): void;
}

export function createDecodingCarry(maxConns: number): DecodingCarry {
  const streams = new Map<string, Stream>();
  const get = (conn: string): Stream => {
    let st = streams.get(conn);
    if (!st) {
      streams.set(conn, (st = { carry: EMPTY, started: false }));
      if (streams.size > maxConns) streams.delete(streams.keys().next().value!);
    }
    return st;
  };
  /** Advance over `length` bytes ending in `tail`: the new carry and how many bytes it holds. */
  function advance(st: Stream, tail: Uint8Array, length: number): number {
    const c = st.carry;
    const total = c.length + length;
    // pendingLength looks back at most 3 bytes: the tail of carry + data decides it.
    const n = Math.min(3, total);
    const last = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const j = total - n + i; // index into carry + data
      last[i] = j < c.length ? c[j]! : tail[tail.length - (total - j)]!;
    }
    const k = pendingLength(last);
    st.carry = k === 0 ? EMPTY : last.slice(n - k);
    if (total - k > 0) st.started = true;
    return k;
  }
  return {
    take(conn, tail, length) {
      const st = get(conn);
      const out: ChunkCarry = {};
      if (st.carry.length > 0) out.head = st.carry;
      if (st.started) out.keepBom = true;
      const k = advance(st, tail, length);
      if (k > 0) out.hold = k;
      return out;
    },
    skip(conn, tail, length) {
      if (length === 0) return;
      advance(get(conn), tail, length);
    },
    end(conn) {
      const st = streams.get(conn);
      if (!st) return null;
      streams.delete(conn);
      return st.carry.length > 0 ? st.carry : null;
    },
    forget: (conn) => void streams.delete(conn),
    clear: () => streams.clear(),
  };
}

// The connection table: the lifecycle check of hook records. The hook emits a connection's
// `request` first (hook/emitter.ts Conn), so a record for a connection that never started, or a
// second `request` for one that did, did not come from the hook as written: the relay drops it
// and reports it once (notice `inconsistent-hook-record`). Bounded: beyond MAX_TRACKED_CONNS the
// oldest connection is forgotten, after which records of unknown connections are accepted (they
// may belong to a forgotten one).
//
// A connection is 'live', or 'drop': given up while not recording (its request was never kept,
// so its later records are dropped, even once recording).
//
// Pure: no chrome.*, no DOM.

export const MAX_TRACKED_CONNS = 20_000;

export type ConnState = 'live' | 'drop';

export interface ConnectionTable {
  /** A `request` record: true when the connection is new (then it is 'live'). */
  start(conn: string): boolean;
  /** Any other record of a connection: may it be kept? */
  known(conn: string): boolean;
  state(conn: string): ConnState | undefined;
  giveUp(conn: string): void;
  /** An `end` record of a connection: it is no longer open. */
  end(conn: string): void;
  /** The connections started and not ended (at most `max`): those a loss of hook records may hit. */
  open(): string[];
  /**
   * Hook records were lost: a connection started in them is unknown here, and its later records
   * are kept from now on (a stream without its request, which the analysis reports as such).
   */
  acceptUnknown(): void;
  clear(): void;
}

export function createConnectionTable(max = MAX_TRACKED_CONNS): ConnectionTable {
  // Insertion-ordered: the oldest is dropped beyond `max`.
  const conns = new Map<string, ConnState>();
  const open = new Set<string>();
  let forgotten = false;
  return {
    start(conn) {
      if (conns.has(conn)) return false;
      conns.set(conn, 'live');
      open.add(conn);
      if (conns.size > max) {
        const oldest = conns.keys().next().value!;
        conns.delete(oldest);
        open.delete(oldest);
        forgotten = true;
      }
      return true;
    },
    known: (conn) => conns.has(conn) || forgotten,
    state: (conn) => conns.get(conn),
    giveUp: (conn) => void conns.set(conn, 'drop'),
    end: (conn) => void open.delete(conn),
    // (a connection given up while not recording is not one the capture holds)
    open: () => [...open].filter((c) => conns.get(c) === 'live'),
    acceptUnknown: () => void (forgotten = true),
    clear: () => {
      conns.clear();
      open.clear();
    },
  };
}

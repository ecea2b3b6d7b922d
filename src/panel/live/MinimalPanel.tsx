// The minimal live panel: connections and their raw events (id, event type, data, time).
// The full UI (src/panel/ui) replaces it; it reads the same LiveStore.

import { useMemo, useSyncExternalStore } from 'react';
import type { LiveStore } from './store';
import { buildRows } from './view-model';

const fmt = (t: number) => new Date(t).toISOString().slice(11, 23);
/** Rows are built from the newest records only, so a long capture keeps the panel responsive. */
const SHOWN = 1000;
/** Re-render at most this often: at thousands of records per second, every batch would be too often. */
const RENDER_MS = 250;

function throttled(subscribe: LiveStore['subscribe']): LiveStore['subscribe'] {
  return (listener) => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const off = subscribe(() => {
      if (timer === null)
        timer = setTimeout(() => {
          timer = null;
          listener();
        }, RENDER_MS);
    });
    return () => {
      if (timer !== null) clearTimeout(timer);
      off();
    };
  };
}

export function MinimalPanel({ store }: { store: LiveStore }) {
  const subscribe = useMemo(() => throttled(store.subscribe), [store]);
  const snap = useSyncExternalStore(subscribe, store.getSnapshot);
  const rows = useMemo(() => buildRows(snap.records.length > SHOWN ? snap.records.slice(-SHOWN) : snap.records), [snap.records, snap.revision]);
  return (
    <div className="msi-live">
      <div className="msi-toolbar">
        <label>
          <input
            type="checkbox"
            data-testid="preserve-log"
            checked={snap.preserveLog}
            onChange={(e) => store.setPreserveLog(e.currentTarget.checked)}
          />{' '}
          Preserve log
        </label>
        <button type="button" onClick={() => store.clear()}>
          Clear
        </button>
        <span className="msi-count">
          {snap.records.length} records{snap.records.length > SHOWN ? ` (the newest ${SHOWN} shown)` : ''}
        </span>
      </div>
      <table className="msi-table">
        <thead>
          <tr>
            <th>time</th>
            <th>id</th>
            <th>event</th>
            <th>data</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) =>
            row.type === 'marker' ? (
              <tr key={row.marker.key} className={`msi-marker msi-${row.marker.kind}`}>
                <td>{fmt(row.marker.t)}</td>
                <td colSpan={3}>{row.marker.text}</td>
              </tr>
            ) : (
              [
                <tr key={row.conn.key} className="msi-conn">
                  <td>{row.conn.request ? fmt(row.conn.request.t) : ''}</td>
                  <td colSpan={3}>
                    <b>{row.conn.request?.transport ?? '?'}</b> {row.conn.request?.method} {row.conn.request?.url}{' '}
                    {row.conn.response ? `→ ${row.conn.response.status}` : '(pending)'}
                    {row.conn.end ? ` · ${row.conn.end.how}${row.conn.end.reason ? ` (${row.conn.end.reason})` : ''}` : ' · open'}
                  </td>
                </tr>,
                ...row.conn.events.map((ev, i) => (
                  <tr key={`${row.conn.key}#${i}`} className="msi-event">
                    <td>{fmt(ev.t)}</td>
                    <td>{ev.id ?? ''}</td>
                    <td>{ev.type}</td>
                    <td className="msi-data">{ev.data}</td>
                  </tr>
                )),
              ]
            ),
          )}
        </tbody>
      </table>
    </div>
  );
}

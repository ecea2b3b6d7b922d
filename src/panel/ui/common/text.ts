// Text helpers for rendering untrusted page data. Everything the page or a server sent is shown as
// React text nodes; these helpers additionally make invisible or direction-changing characters
// visible so a hostile payload cannot spoof the UI (e.g. U+202E RIGHT-TO-LEFT OVERRIDE reversing
// the rest of a row, or a NUL/ESC hiding text).

export { visible, visibleLine } from '../../../export/escape';

export function shortId(id: string | null | undefined, n = 8): string {
  if (!id) return '';
  return id.length > n + 1 ? `${id.slice(0, n)}…` : id;
}

const COUNT = new Intl.NumberFormat('en-US');

/**
 * A count with thousands separators, "12,345". One formatter for the panel: `toLocaleString('en-US')`
 * resolves its locale on every call (1.5× a shared formatter in Node 20), and the timeline formats
 * a count per lane with every render.
 */
export function formatCount(n: number): string {
  return COUNT.format(n);
}

export function formatBytes(n: number | undefined): string {
  if (n === undefined || !Number.isFinite(n)) return '';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} kB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** Time relative to a base, DevTools style: 12 ms, 1.24 s, 2.0 min. */
export function formatRel(ms: number): string {
  const a = Math.abs(ms);
  const sign = ms < 0 ? '-' : '';
  if (a < 1000) return `${sign}${a.toFixed(a < 10 ? 1 : 0)} ms`;
  if (a < 60_000) return `${sign}${(a / 1000).toFixed(2)} s`;
  return `${sign}${(a / 60_000).toFixed(1)} min`;
}

export function formatClock(t: number): string {
  if (!Number.isFinite(t)) return '';
  const d = new Date(t);
  const p = (x: number, n = 2) => String(x).padStart(n, '0');
  return `${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.${p(d.getUTCMilliseconds(), 3)}`;
}

export { utf8Length } from '../../../core/utf8';

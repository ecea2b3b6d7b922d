// Small statistics helpers: every figure in the table is min / median / max over repeated runs.

export interface Spread {
  min: number;
  median: number;
  max: number;
  n: number;
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function spread(xs: readonly number[]): Spread {
  if (xs.length === 0) return { min: NaN, median: NaN, max: NaN, n: 0 };
  return { min: Math.min(...xs), median: median(xs), max: Math.max(...xs), n: xs.length };
}

/** Nearest-rank percentile (p in 0..100). */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return s[i]!;
}

export function fmt(x: number, digits = 3): string {
  if (!Number.isFinite(x)) return String(x);
  if (Math.abs(x) >= 1000) return x.toFixed(0);
  if (Math.abs(x) >= 100) return x.toFixed(1);
  return x.toPrecision(digits);
}

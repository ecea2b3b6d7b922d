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

/**
 * A distribution-free 95 % confidence interval of the median: the order statistics x(k) and
 * x(n+1-k) with the largest k such that P(Binomial(n, ½) < k) ≤ 2.5 %. Needs n ≥ 6 (below, no
 * pair of order statistics covers the median with 95 %): undefined then.
 */
export function medianCI(xs: readonly number[], level = 0.95): { lo: number; hi: number; k: number } | undefined {
  const n = xs.length;
  const s = [...xs].sort((a, b) => a - b);
  const tail = (1 - level) / 2;
  // P(X <= j) for X ~ Binomial(n, 1/2), accumulated
  let k = 0;
  let cdf = 0;
  let c = 1; // C(n, j)
  for (let j = 0; j < n; j++) {
    cdf += c / 2 ** n;
    if (cdf > tail) break;
    k = j + 1;
    c = (c * (n - j)) / (j + 1);
  }
  if (k < 1) return undefined;
  return { lo: s[k - 1]!, hi: s[n - k]!, k };
}

/** The interval lies within ±`tol` (0.1: ±10 %) of the median. */
export function ciWithin(xs: readonly number[], tol: number): boolean {
  const ci = medianCI(xs);
  const m = median(xs);
  return !!ci && ci.lo >= m * (1 - tol) && ci.hi <= m * (1 + tol);
}

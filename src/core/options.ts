// Analyzer options. Plain data so the panel can persist them; changing them means re-analysing
// (create a new analyzer and push the records again).
import type { IdSchemeOverride } from './ids';

export interface AnalyzerOptions {
  /** Per-origin event-id scheme overrides (first match wins; origin '*' matches all). */
  idSchemeOverrides?: IdSchemeOverride[];
  /**
   * Where the server declares gapless event retention, as a path inside the initialize result's
   * `capabilities`. A truthy value there means "declared".
   */
  gaplessCapabilityPath?: string[] | string;
  /** SSE event names that mark an explicit resync sent by the server. */
  resyncEvents?: string[];
  /** Notification methods that are idempotent (a lost one changes nothing the client keeps). */
  idempotentNotifications?: string[];
  /** Notification methods that are cumulative even if listed as idempotent. */
  cumulativeNotifications?: string[];
  /**
   * Requests whose stream is meant to stay open until the client closes it (2026-07-28
   * `subscriptions/listen`): no result is expected, so no result-missing.
   */
  longLivedMethods?: string[];
}

export const GAPLESS_CAPABILITY_KEY = 'io.mcp-stream-inspector/gapless';

export const DEFAULT_OPTIONS: Required<Omit<AnalyzerOptions, 'cumulativeNotifications' | 'gaplessCapabilityPath'>> & {
  cumulativeNotifications: string[];
  gaplessCapabilityPath: string[] | string;
} = {
  idSchemeOverrides: [],
  gaplessCapabilityPath: ['experimental', GAPLESS_CAPABILITY_KEY],
  resyncEvents: ['resync'],
  idempotentNotifications: ['notifications/progress'],
  cumulativeNotifications: [],
  longLivedMethods: ['subscriptions/listen'],
};

export type ResolvedOptions = Omit<typeof DEFAULT_OPTIONS, 'gaplessCapabilityPath'> & {
  gaplessCapabilityPath: string[] | string;
};

/**
 * Resolve a capability path. An array is taken literally; a dotted string is matched greedily
 * against the object's keys, so "experimental.io.mcp-stream-inspector/gapless" finds the key
 * "io.mcp-stream-inspector/gapless" under "experimental".
 */
export function lookupCapability(capabilities: unknown, path: string[] | string): unknown {
  if (Array.isArray(path)) {
    let cur: unknown = capabilities;
    for (const k of path) {
      // Own keys only: "__proto__" or "constructor" in the path must not find Object.prototype.
      if (typeof cur !== 'object' || cur === null || !Object.prototype.hasOwnProperty.call(cur, k)) return undefined;
      cur = (cur as Record<string, unknown>)[k];
    }
    return cur;
  }
  const walk = (cur: unknown, rest: string): unknown => {
    if (rest === '') return cur;
    if (typeof cur !== 'object' || cur === null) return undefined;
    const obj = cur as Record<string, unknown>;
    // Longest key that is a dotted prefix of `rest`.
    let best: string | undefined;
    for (const k of Object.keys(obj)) {
      if ((rest === k || rest.startsWith(k + '.')) && (best === undefined || k.length > best.length)) best = k;
    }
    if (best === undefined) return undefined;
    return walk(obj[best], rest.slice(best.length + 1));
  };
  return walk(capabilities, path);
}

/** The panel's settings shape (src/panel/ui/store-types.ts InspectorSettings) to options. */
export function optionsFromSettings(s: {
  idSchemeOverrides?: { origin: string; pattern: string }[];
  cumulativeMethods?: string[];
  idempotentMethods?: string[];
  gaplessKey?: string;
  resyncEventNames?: string[];
}): AnalyzerOptions {
  const o: AnalyzerOptions = {};
  if (s.idSchemeOverrides) o.idSchemeOverrides = s.idSchemeOverrides.filter((x) => x.pattern).map((x) => ({ origin: x.origin, pattern: x.pattern }));
  if (s.cumulativeMethods) o.cumulativeNotifications = s.cumulativeMethods;
  if (s.idempotentMethods) o.idempotentNotifications = s.idempotentMethods;
  if (s.gaplessKey) o.gaplessCapabilityPath = s.gaplessKey;
  if (s.resyncEventNames) o.resyncEvents = s.resyncEventNames;
  return o;
}

export function resolveOptions(o: AnalyzerOptions | undefined): ResolvedOptions {
  return {
    idSchemeOverrides: o?.idSchemeOverrides ?? DEFAULT_OPTIONS.idSchemeOverrides,
    gaplessCapabilityPath: o?.gaplessCapabilityPath ?? DEFAULT_OPTIONS.gaplessCapabilityPath,
    resyncEvents: o?.resyncEvents ?? DEFAULT_OPTIONS.resyncEvents,
    idempotentNotifications: o?.idempotentNotifications ?? DEFAULT_OPTIONS.idempotentNotifications,
    cumulativeNotifications: o?.cumulativeNotifications ?? DEFAULT_OPTIONS.cumulativeNotifications,
    longLivedMethods: o?.longLivedMethods ?? DEFAULT_OPTIONS.longLivedMethods,
  };
}

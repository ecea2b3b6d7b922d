import type { InspectorSettings, StorageAdapter } from '../store/types';

export const SETTINGS_KEY = 'msi.settings.v1';

export const DEFAULT_SETTINGS: InspectorSettings = Object.freeze({
  version: 1,
  idSchemeOverrides: [],
  cumulativeMethods: [],
  idempotentMethods: ['notifications/progress'],
  gaplessKey: 'experimental.io.mcp-stream-inspector/gapless',
  resyncEventNames: ['resync'],
  captureBufferCap: 50_000, // the relay's default (src/extension/relay/buffer.ts)
  captureWhileClosed: false,
  agentAccess: false,
}) as InspectorSettings;

function strings(v: unknown, fallback: string[]): string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? [...v] : [...fallback];
}

/** Validate stored (untrusted) data; anything malformed falls back to the default field. */
export function normalizeSettings(raw: unknown): InspectorSettings {
  const d = DEFAULT_SETTINGS;
  if (!raw || typeof raw !== 'object') return { ...d, idSchemeOverrides: [], cumulativeMethods: [...d.cumulativeMethods], idempotentMethods: [...d.idempotentMethods], resyncEventNames: [...d.resyncEventNames] };
  const r = raw as Record<string, unknown>;
  const overrides = Array.isArray(r.idSchemeOverrides)
    ? r.idSchemeOverrides
        .filter(
          (o): o is { origin: string; pattern: string } =>
            !!o && typeof o === 'object' && typeof (o as { origin?: unknown }).origin === 'string' && typeof (o as { pattern?: unknown }).pattern === 'string',
        )
        .map((o) => ({ origin: o.origin, pattern: o.pattern }))
    : [];
  const cap = typeof r.captureBufferCap === 'number' && Number.isFinite(r.captureBufferCap) && r.captureBufferCap >= 1000 ? Math.floor(r.captureBufferCap) : d.captureBufferCap;
  return {
    version: 1,
    idSchemeOverrides: overrides,
    cumulativeMethods: strings(r.cumulativeMethods, d.cumulativeMethods),
    idempotentMethods: strings(r.idempotentMethods, d.idempotentMethods),
    gaplessKey: typeof r.gaplessKey === 'string' ? r.gaplessKey : d.gaplessKey,
    resyncEventNames: strings(r.resyncEventNames, d.resyncEventNames),
    captureBufferCap: cap,
    captureWhileClosed: typeof r.captureWhileClosed === 'boolean' ? r.captureWhileClosed : d.captureWhileClosed,
    agentAccess: r.agentAccess === true,
  };
}

/** Check an id-scheme override pattern: must compile and have a `counter` group. */
export function checkIdPattern(pattern: string): string | null {
  let re: RegExp;
  try {
    re = new RegExp(pattern);
  } catch (e) {
    return `Not a valid regular expression: ${(e as Error).message}`;
  }
  if (!/\(\?<counter>/.test(re.source)) return 'The pattern needs a named group (?<counter>…)';
  return null;
}

export async function loadSettings(storage: StorageAdapter | undefined): Promise<InspectorSettings> {
  if (!storage) return normalizeSettings(undefined);
  try {
    return normalizeSettings(await storage.get(SETTINGS_KEY));
  } catch {
    return normalizeSettings(undefined);
  }
}

export async function saveSettings(storage: StorageAdapter | undefined, s: InspectorSettings): Promise<void> {
  if (storage) await storage.set(SETTINGS_KEY, s);
}

/** localStorage-backed adapter (the standalone viewer). */
export function createLocalStorageAdapter(ls: Storage | undefined = globalThis.localStorage): StorageAdapter {
  return {
    async get(key) {
      const v = ls?.getItem(key);
      if (v == null) return undefined;
      try {
        return JSON.parse(v) as unknown;
      } catch {
        return undefined;
      }
    },
    async set(key, value) {
      ls?.setItem(key, JSON.stringify(value));
    },
  };
}

/** chrome.storage.local-backed adapter (the DevTools panel). */
export function createChromeStorageAdapter(area: chrome.storage.StorageArea = chrome.storage.local): StorageAdapter {
  return {
    async get(key) {
      const got = await area.get(key);
      return (got as Record<string, unknown>)[key];
    },
    async set(key, value) {
      await area.set({ [key]: value });
    },
  };
}

/** In-memory adapter for tests. */
export function createMemoryStorageAdapter(initial: Record<string, unknown> = {}): StorageAdapter & { data: Record<string, unknown> } {
  const data = { ...initial };
  return {
    data,
    async get(key) {
      return data[key];
    },
    async set(key, value) {
      data[key] = JSON.parse(JSON.stringify(value)) as unknown;
    },
  };
}

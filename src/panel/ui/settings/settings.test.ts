import { describe, expect, it } from 'vitest';
import { checkIdPattern, createLocalStorageAdapter, normalizeSettings } from './settings';

describe('settings', () => {
  it('settings: malformed stored data falls back per field; pattern check', async () => {
    const s = normalizeSettings({ captureBufferCap: 'x', cumulativeMethods: [1], idSchemeOverrides: [{ origin: 'o', pattern: 'p' }, { origin: 1 }], captureWhileClosed: true });
    expect(s.captureBufferCap).toBe(50_000);
    expect(s.cumulativeMethods).toEqual([]);
    expect(s.idSchemeOverrides).toEqual([{ origin: 'o', pattern: 'p' }]);
    expect(s.captureWhileClosed).toBe(true);
    expect(checkIdPattern('^(?<counter>\\d+)$')).toBeNull();
    expect(checkIdPattern('^(\\d+)$')).toMatch(/counter/);
    expect(checkIdPattern('(')).toMatch(/Not a valid/);
    const mem = new Map<string, string>();
    const ls = { getItem: (k: string) => mem.get(k) ?? null, setItem: (k: string, v: string) => void mem.set(k, v) } as unknown as Storage;
    const a = createLocalStorageAdapter(ls);
    await a.set('k', { x: 1 });
    expect(await a.get('k')).toEqual({ x: 1 });
  });
});

import { describe, expect, it } from 'vitest';
import { applySizeCap, HOOK_MAX_TEXT, MIN_RECORD_MAX_CHARS, recordMaxChars, utf8Length } from './limits';
import { HOOK_MAX_TEXT as HOOK_SIDE } from '../hook/limits';

describe('relay size cap', () => {
  it('settings are clamped below the hook bound, so every hook cut is marked by the relay', () => {
    expect(HOOK_MAX_TEXT).toBe(HOOK_SIDE);
    expect(recordMaxChars(10)).toBe(MIN_RECORD_MAX_CHARS);
    expect(recordMaxChars(1e12)).toBe(HOOK_MAX_TEXT - 1);
    expect(recordMaxChars(5000)).toBe(5000);
    expect(recordMaxChars('5000')).toBeNull();
    expect(recordMaxChars(-1)).toBeNull();
    expect(recordMaxChars(1.5)).toBeNull();
  });

  it('counts UTF-8 bytes, surrogate pairs included', () => {
    expect(utf8Length('aé✓😀')).toBe(1 + 2 + 3 + 4);
  });

  it('adds to droppedBytes the hook already set', () => {
    const { out } = applySizeCap({ kind: 'chunk', conn: 'c', t: 0, text: 'abcdef', bytes: 100, droppedBytes: 94 }, 4, 0);
    expect(out).toEqual([{ kind: 'chunk', conn: 'c', t: 0, text: 'abcd', bytes: 100, droppedBytes: 96 }]);
  });

  it('leaves records under the cap alone (same object)', () => {
    const r = { kind: 'chunk' as const, conn: 'c', t: 0, text: 'abc', bytes: 3 };
    expect(applySizeCap(r, 3, 0).out[0]).toBe(r);
  });
});

describe('hook size bound', () => {
  it('cuts a chunk at the hook bound with droppedBytes', async () => {
    const { chunkRecord } = await import('../hook/limits');
    expect(chunkRecord('c', 1, 'abcdé', 6, 3)).toEqual({ kind: 'chunk', conn: 'c', t: 1, text: 'abc', bytes: 6, droppedBytes: 3 });
    expect(chunkRecord('c', 1, 'ab', 2, 3)).toEqual({ kind: 'chunk', conn: 'c', t: 1, text: 'ab', bytes: 2 });
  });
});
